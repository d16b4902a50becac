/**
 * `notify-export` as a function: reads the environment of an API key, builds the model, writes the
 * project into a directory atomically (a temp directory beside it, renamed into place), and
 * returns what it did; and `notify-export --update` ({@link updateProject}): reads the environment
 * a project was exported from again and rewrites its declarations file alone. The CLI (cli.ts) is
 * a thin layer over both; tests and the bench call them.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { NotifyClient, type RequestLogEntry, type RetryPolicy } from "../provider/client";
import { resolveConnection, type ConnectionSettings } from "../provider/config";
import { buildModel, type ConfigSecret, type ExportModel, type RawEnvironment } from "./model";
import { forLanguage, ownedFile, parseOwned, projectFiles, RENDERERS, slug, type ExportConnection } from "./project";
import { readEnvironment, type ReadOptions } from "./read";
import { compareState, stateResources, stateSubscribers, type CheckReport } from "./check";
import { diffModels, type EnvironmentDiff } from "./diff";
import { portableModel } from "./portable";
import { initStack, pulumiIn, type PulumiRunner } from "./stack";
import { FRONT_ENDS, LANGUAGES, SETTINGS_MARK, type ExportSettings, type FrontEnd, type Language, type RenderOptions } from "./render/common";
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
  /** A portable program (portable.ts): it makes the setup in any environment instead of taking this one's over. */
  portable?: boolean;
  /** Also make this stack of the project with the user's `pulumi`, holding the environment's config (stack.ts). */
  stack?: string;
  /** How `pulumi` is run for `stack` (tests give their CLI); by default `pulumi` on PATH. */
  pulumi?: (dir: string) => PulumiRunner;
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
  /** With `stack`: the config keys left to set (values the service showed masked). */
  unset?: string[];
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

/**
 * The project's name by default: the folder it is written to, as lowercase letters, digits and `-`
 * (two exports on one backend are then two projects, each with its own stacks; they shared
 * `notify-<environment>` before), else `notify-<environment>` for a folder name with none of them.
 */
export function projectName(out: string, environment: string): string {
  return slug(path.basename(path.resolve(out))) || `notify-${slug(environment) || "environment"}`;
}

/** Writes `files` into `out` whole or not at all: into a temp directory beside it, then renamed into place. */
export function writeProject(out: string, files: Record<string, string>, force?: boolean): void {
  const parent = path.dirname(path.resolve(out));
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(path.join(parent, `.${path.basename(out)}.notify-export-`));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tmp, name)), { recursive: true });
      writeFileSync(path.join(tmp, name), text);
    }
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

/** Reads the environment of the connection's key with a client of the export's own, closed after. */
async function readWith(
  connection: ConnectionSettings | undefined, retry: Partial<RetryPolicy> | undefined, opts: Omit<ReadOptions, "apiKey">,
): Promise<{ raw: RawEnvironment; requests: RequestLogEntry[]; connection: ExportConnection }> {
  const c = resolveConnection(connection ?? {});
  const requests: RequestLogEntry[] = [];
  const client = new NotifyClient({ apiUrl: c.apiUrl, apiKey: c.apiKey, allowInsecureHttp: c.allowInsecureHttp, timeoutMs: c.timeoutMs, retry, onRequest: (e) => requests.push(e) });
  try {
    const raw = await readEnvironment(client, { apiKey: c.apiKey, ...opts });
    return { raw, requests, connection: { apiUrl: c.apiUrl, allowInsecureHttp: c.allowInsecureHttp || undefined, timeoutMs: c.timeoutMs } };
  } finally {
    await client.close();
  }
}

/** Reads the environment and writes its project. */
export async function exportEnvironment(opts: ExportOptions): Promise<ExportResult> {
  const frontEnd = opts.frontEnd ?? (opts.language === "typescript" ? "dynamic" : "native");
  if (frontEnd === "dynamic" && opts.language !== "typescript") {
    throw new ExportError(`--front-end dynamic: only TypeScript programs can use the dynamic front end; ${opts.language} programs use the native plugin (--front-end native)`);
  }
  checkOutputDir(opts.out, opts.force);
  const { raw, requests, connection } = await readWith(opts.connection, opts.retry, {
    environments: opts.environments, subscribers: opts.subscribers, environmentId: opts.environmentId, progress: opts.progress,
  });
  const built = buildModel(raw);
  const model = forLanguage(opts.portable ? portableModel(built) : built, opts.language);
  const project = opts.project ?? projectName(opts.out, model.environment.name ?? model.environment.id);
  const render: RenderOptions = { frontEnd, project, ...versions() };
  const files = projectFiles(model, opts.language, render, {
    environments: opts.environments, subscribers: opts.subscribers ? [...opts.subscribers] : undefined, environmentId: opts.environmentId, portable: opts.portable,
  });
  writeProject(opts.out, files, opts.force);
  let unset: string[] | undefined;
  if (opts.stack) {
    const c = resolveConnection(opts.connection ?? {});
    unset = initStack((opts.pulumi ?? pulumiIn)(opts.out), opts.stack, model, { apiUrl: c.apiUrl, apiKey: c.apiKey, allowInsecureHttp: c.allowInsecureHttp });
  }
  return { model, files: Object.keys(files), requests, connection, render, ...(unset ? { unset } : {}) };
}

/** What {@link checkState} is given. */
export interface CheckOptions {
  /** The JSON of `pulumi stack export` (parsed). */
  state: unknown;
  connection?: ConnectionSettings;
  environmentId?: string;
  progress?: (line: string) => void;
  retry?: Partial<RetryPolicy>;
}

/**
 * Reads the environment of the connection's key (the subscribers and environments too when the
 * state declares some) and compares the state's resources with it (check.ts).
 */
export async function checkState(opts: CheckOptions): Promise<CheckReport & { requests: RequestLogEntry[] }> {
  const resources = stateResources(opts.state);
  const subscribers = stateSubscribers(resources);
  const { raw, requests } = await readWith(opts.connection, opts.retry, {
    environments: resources.some((r) => r.kind === "Environment"), subscribers: subscribers.length ? subscribers : undefined,
    environmentId: opts.environmentId, progress: opts.progress,
  });
  return { ...compareState(resources, buildModel(raw)), requests };
}

/** What {@link diffEnvironments} is given: the two environments' connections, and what to read of each. */
export interface DiffOptions {
  from?: ConnectionSettings;
  /** The second environment's connection, whole: nothing of it comes from NOTIFY_API_URL / NOTIFY_API_KEY. */
  to: ConnectionSettings;
  environments?: boolean;
  subscribers?: readonly string[];
  progress?: (line: string) => void;
  retry?: Partial<RetryPolicy>;
}

/**
 * Reads two environments (nothing is written) and compares them as the exporter declares them:
 * {@link diffModels}. Each side is named by its environment's name and address.
 */
export async function diffEnvironments(opts: DiffOptions): Promise<EnvironmentDiff & { requests: RequestLogEntry[] }> {
  const missing = (["apiUrl", "apiKey"] as const).filter((k) => !opts.to[k]);
  if (missing.length) throw new ExportError(`--diff needs the other environment's ${missing.map((k) => (k === "apiUrl" ? "address (--other-api-url, else NOTIFY_OTHER_API_URL)" : "API key (--other-api-key, else NOTIFY_OTHER_API_KEY)")).join(" and ")}`);
  const read = (connection: ConnectionSettings | undefined, which: string) => readWith(connection, opts.retry, {
    environments: opts.environments, subscribers: opts.subscribers, progress: (l) => opts.progress?.(`${which}: ${l}`),
  });
  const from = await read(opts.from, "from");
  const to = await read(opts.to, "to");
  const label = (r: typeof from) => `${r.raw.environment.name ?? r.raw.environment._id} (${r.connection.apiUrl})`;
  const diff = diffModels(buildModel(from.raw), buildModel(to.raw), { from: label(from), to: label(to) });
  return { ...diff, requests: [...from.requests, ...to.requests] };
}

/** What {@link updateProject} is given: the project, and how to reach the service (the rest is in the project). */
export interface UpdateOptions {
  /** The directory of a project notify-export wrote. */
  dir: string;
  /** Connection settings; what they leave out comes from NOTIFY_API_URL / NOTIFY_API_KEY (the provider's rules). */
  connection?: ConnectionSettings;
  progress?: (line: string) => void;
  /** The client's retry policy (tests shorten it). */
  retry?: Partial<RetryPolicy>;
}

/** What an update did. */
export interface UpdateResult {
  model: ExportModel;
  /** The declarations file, relative to the project's directory. */
  file: string;
  /** Whether its bytes changed (an unchanged environment leaves the file untouched). */
  changed: boolean;
  /** The settings the project was exported with, which the update read with. */
  settings: ExportSettings;
  /** The secrets the previous declarations did not read: their config keys to set. */
  newSecrets: ConfigSecret[];
  requests: RequestLogEntry[];
}

/**
 * The declarations file of the project in `dir` and what it says; an error saying why not when
 * `dir` is not a project notify-export wrote.
 */
export function ownedOf(dir: string): { language: Language; file: string; text: string; owned: NonNullable<ReturnType<typeof parseOwned>> } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ExportError(`--update ${dir}: no such directory`);
  const found = LANGUAGES.filter((l) => existsSync(path.join(dir, RENDERERS[l].ownedFile)));
  const files = LANGUAGES.map((l) => RENDERERS[l].ownedFile);
  if (found.length === 0) {
    throw new ExportError(`--update ${dir}: not a project notify-export wrote: it holds none of the files an export owns (${files.join(", ")}); export it first with --out`);
  }
  if (found.length > 1) {
    throw new ExportError(`--update ${dir}: it holds the declarations of more than one language (${found.map((l) => RENDERERS[l].ownedFile).join(", ")}); keep the one of the project's language`);
  }
  const language = found[0]!;
  const file = RENDERERS[language].ownedFile;
  const text = readFileSync(path.join(dir, file), "utf8");
  const owned = parseOwned(text, RENDERERS[language]);
  if (!owned) {
    throw new ExportError(`--update ${dir}: ${file} was not written by notify-export (its header has no "${RENDERERS[language].comment} ${SETTINGS_MARK}{...}" settings line)`);
  }
  const { settings } = owned;
  // The settings line is the file's: edited by hand, it is refused as any bad option is.
  const bad = (field: string, allowed: string) => new ExportError(`--update ${dir}: the settings line of ${file} has ${field} ${JSON.stringify(settings[field as keyof ExportSettings])}; allowed: ${allowed}`);
  if (settings.language !== language) throw bad("language", `${JSON.stringify(language)} (the language of ${file})`);
  if (!(FRONT_ENDS as readonly string[]).includes(settings.frontEnd) || (settings.frontEnd === "dynamic" && language !== "typescript")) {
    throw bad("frontEnd", language === "typescript" ? FRONT_ENDS.join(", ") : "native");
  }
  if (typeof settings.environment !== "string" || !settings.environment) throw bad("environment", "the id of the environment the project was exported from");
  return { language, file, text, owned };
}

/**
 * Reads the environment the project in `dir` was exported from, with the options it was exported
 * with, and rewrites the project's declarations file: each object under the name the file gives
 * it already, each secret under its config key, new objects named as an export names them; the
 * other files (the entry point, Pulumi.yaml, the manifest, the README, the stack's config) are
 * never written. An environment unchanged since the file was written gives the same bytes, and the
 * file is not touched.
 */
export async function updateProject(opts: UpdateOptions): Promise<UpdateResult> {
  const { language, file, text, owned } = ownedOf(opts.dir);
  const { settings } = owned;
  const { raw, requests } = await readWith(opts.connection, opts.retry, {
    environments: settings.environments, subscribers: settings.subscribers, environmentId: settings.environmentId, progress: opts.progress,
  });
  if (raw.environment._id !== settings.environment) {
    throw new ExportError(
      `--update ${opts.dir}: the project declares environment ${settings.environment}, and the API key is of environment ${raw.environment._id}; ` +
      "use the key of the environment the project was exported from",
    );
  }
  const built = buildModel(raw, { secretKeys: owned.secretKeys });
  const model = forLanguage(settings.portable ? portableModel(built) : built, language);
  const next = ownedFile(model, language, { frontEnd: settings.frontEnd, previousVariables: owned.variables }, {
    environments: settings.environments, subscribers: settings.subscribers, environmentId: settings.environmentId, portable: settings.portable,
  });
  const changed = next !== text;
  if (changed) {
    // Whole or not at all: a temp file beside it, renamed over it.
    const target = path.join(opts.dir, file);
    const tmp = `${target}.notify-export-${process.pid}`;
    try {
      writeFileSync(tmp, next);
      renameSync(tmp, target);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }
  const before = new Set([...owned.secretKeys.values()].flat());
  return { model, file, changed, settings, newSecrets: model.secrets.filter((s) => !before.has(s.key)), requests };
}
