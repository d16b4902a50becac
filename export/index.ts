/**
 * `notify-export` as a function: reads the environment of an API key, builds the model, writes the
 * project into a directory atomically (a temp directory beside it, renamed into place), and
 * returns what it did. The CLI (cli.ts) is a thin layer over it; tests and the bench call it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { NotifyClient, type RequestLogEntry, type RetryPolicy } from "../provider/client";
import { resolveConnection, type ConnectionSettings } from "../provider/config";
import { buildModel, type ExportModel } from "./model";
import { projectFiles, slug, type ExportConnection } from "./project";
import { readEnvironment } from "./read";
import type { FrontEnd, Language, RenderOptions } from "./render/common";
import { packageRoot } from "./render/schema";

/** What {@link exportEnvironment} is given. */
export interface ExportOptions {
  language: Language;
  frontEnd?: FrontEnd;
  out: string;
  /** Connection settings; what they leave out comes from NOTIFY_API_URL / NOTIFY_API_KEY (the provider's rules). */
  connection?: ConnectionSettings;
  environments?: boolean;
  subscribers?: readonly string[];
  environmentId?: string;
  /** Replace a non-empty output directory. */
  force?: boolean;
  /** The Pulumi project name (default: `notify-` and the environment's name). */
  project?: string;
  progress?: (line: string) => void;
  /** The client's retry policy (tests shorten it). */
  retry?: Partial<RetryPolicy>;
}

/** What an export did. */
export interface ExportResult {
  model: ExportModel;
  files: string[];
  /** The requests it made (method and route template, as the client logs them). */
  requests: RequestLogEntry[];
  /** The connection it read with (the stack needs the same), without the key. */
  connection: ExportConnection;
  /** The options the files were rendered with. */
  render: RenderOptions;
}

/** Refuses an output directory that holds files, unless forced: nothing is read or written then. */
export function checkOutputDir(out: string, force: boolean | undefined): void {
  if (existsSync(out) && readdirSync(out).length > 0 && !force) {
    throw new ExportError(`--out ${out}: the directory is not empty; choose an empty or new directory, or pass --force to replace its contents`);
  }
}

/** An error of the export's own (bad options, the output directory); its message is for the user as is. */
export class ExportError extends Error {}

/** The versions the manifests name. */
function versions(): { packageVersion: string; pulumiVersion: string } {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string; devDependencies?: Record<string, string> };
  return { packageVersion: pkg.version, pulumiVersion: (pkg.devDependencies?.["@pulumi/pulumi"] ?? "3.0.0").replace(/^[^0-9]*/, "") };
}

/** A project name from an environment name: lowercase letters, digits and `-`. */
export function projectName(environment: string): string {
  return `notify-${slug(environment) || "environment"}`;
}

/** Writes `files` into `out` whole or not at all: into a temp directory beside it, then renamed into place. */
export function writeProject(out: string, files: Record<string, string>, force?: boolean): void {
  const parent = path.dirname(path.resolve(out));
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(path.join(parent, `.${path.basename(out)}.notify-export-`));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(tmp, name), text);
    if (existsSync(out)) {
      checkOutputDir(out, force);
      const old = `${tmp}.old`;
      renameSync(out, old);
      renameSync(tmp, out);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(tmp, out);
    }
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Reads the environment and writes its project. */
export async function exportEnvironment(opts: ExportOptions): Promise<ExportResult> {
  const frontEnd = opts.frontEnd ?? (opts.language === "typescript" ? "dynamic" : "native");
  if (frontEnd === "dynamic" && opts.language !== "typescript") {
    throw new ExportError(`--front-end dynamic: only TypeScript programs can use the dynamic front end; ${opts.language} programs use the native plugin (--front-end native)`);
  }
  checkOutputDir(opts.out, opts.force);
  const c = resolveConnection(opts.connection ?? {});
  const requests: RequestLogEntry[] = [];
  const client = new NotifyClient({ apiUrl: c.apiUrl, apiKey: c.apiKey, allowInsecureHttp: c.allowInsecureHttp, timeoutMs: c.timeoutMs, retry: opts.retry, onRequest: (e) => requests.push(e) });
  try {
    const raw = await readEnvironment(client, {
      apiKey: c.apiKey, environments: opts.environments, subscribers: opts.subscribers, environmentId: opts.environmentId, progress: opts.progress,
    });
    const model = buildModel(raw);
    const project = opts.project ?? projectName(model.environment.name ?? model.environment.id);
    const render: RenderOptions = { frontEnd, project, ...versions() };
    const files = projectFiles(model, opts.language, render);
    writeProject(opts.out, files, opts.force);
    return { model, files: Object.keys(files), requests, connection: { apiUrl: c.apiUrl, allowInsecureHttp: c.allowInsecureHttp || undefined, timeoutMs: c.timeoutMs }, render };
  } finally {
    await client.close();
  }
}
