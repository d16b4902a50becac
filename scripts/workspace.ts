/**
 * How this repo runs Pulumi programs: a project directory with the package installed by name (a
 * link to this checkout), and a CLI environment with Node 24 and the dynamic provider plugin
 * first on PATH, a file:// backend, a passphrase secrets provider and no network use.
 * Shared by the demo, the benchmarks and the e2e harness.
 */
import { execFileSync } from "node:child_process";
import type * as automation from "@pulumi/pulumi/automation";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { isolateInlineRuns } from "./inlineRuns";

/** The repo root (this file compiles to dist/scripts/). */
export const REPO_ROOT = path.resolve(__dirname, existsSync(path.resolve(__dirname, "../package.json")) ? ".." : "../..");

/**
 * The project setting that makes the engine use the native plugin in bin/ of this checkout
 * (bin/pulumi-resource-notify). `plugins` is a project setting the CLI reads that the Automation
 * API's type does not list.
 */
export const NATIVE_PLUGINS = { providers: [{ name: "notify", path: path.join(REPO_ROOT, "bin") }] };

/**
 * Makes the stack's project use the native plugin of this checkout ({@link NATIVE_PLUGINS}), or
 * the `pulumi-resource-notify` in folder `dir`.
 */
export async function useNativePlugin(stack: automation.Stack, dir?: string): Promise<void> {
  const ws = stack.workspace;
  const plugins = dir ? { providers: [{ name: "notify", path: dir }] } : NATIVE_PLUGINS;
  await ws.saveProjectSettings({ ...(await ws.projectSettings()), plugins } as automation.ProjectSettings);
}

/** Creates `dir` with node_modules links to this package and to its @pulumi/pulumi, plus state/ and home/. */
export function linkProjectDir(dir: string): void {
  mkdirSync(path.join(dir, "node_modules/@pulumi"), { recursive: true });
  const link = (target: string, at: string) => { if (!existsSync(at)) symlinkSync(target, at, "dir"); };
  link(REPO_ROOT, path.join(dir, "node_modules/pulumi-notify"));
  link(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi"), path.join(dir, "node_modules/@pulumi/pulumi"));
  mkdirSync(path.join(dir, "state"), { recursive: true });
  mkdirSync(path.join(dir, "home"), { recursive: true });
}

/** Path of the pinned CLI, building it on first use. */
export function pulumiCliPath(): string {
  if (!process.env.PULUMI_NOTIFY_CLI) {
    const out = execFileSync(path.join(REPO_ROOT, "scripts/ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    process.env.PULUMI_NOTIFY_CLI = out.trim().split("\n").pop()!;
  }
  return process.env.PULUMI_NOTIFY_CLI;
}

/** Passphrase of the local secrets provider used by the demo and tests (not a secret: local state only). */
export const LOCAL_PASSPHRASE = "pulumi-notify-local";

/** The local (`file://`) backend's directory for the project directory `dir`. */
export function stateDir(dir: string): string {
  return path.join(dir, "state");
}

/** Where that backend keeps a stack's checkpoint; its metadata sidecar is this path plus `.attrs`. */
export function checkpointFile(dir: string, project: string, stack: string): string {
  return path.join(stateDir(dir), ".pulumi", "stacks", project, `${stack}.json`);
}

/** The folder of the pinned Node (the `node` devDependency), first on every CLI process's PATH. */
export const NODE_BIN = path.join(REPO_ROOT, "node_modules/node/bin");

/**
 * Environment for every CLI process run on `dir`. The engine finds the Node.js dynamic-provider
 * plugin beside the CLI, where scripts/ensure-pulumi puts it as a release archive has it; from
 * PATH it would warn on every operation.
 */
export function cliEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: [NODE_BIN, path.join(REPO_ROOT, "node_modules/.bin"), path.dirname(pulumiCliPath()), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${stateDir(dir)}`,
    PULUMI_CONFIG_PASSPHRASE: LOCAL_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    ...extra,
  };
}

/**
 * Creates (or selects) a stack of an inline program in `dir` (already linked), on the pinned CLI
 * and the local backend of {@link cliEnv}.
 */
export async function localStack(opts: {
  dir: string;
  projectName: string;
  stackName: string;
  program: automation.PulumiFn;
  env?: Record<string, string>;
}): Promise<automation.Stack> {
  // Loaded here so that requiring this module stays cheap for scripts that never run a stack.
  const auto = require("@pulumi/pulumi/automation") as typeof automation;
  // Every inline run in this process as if it were alone (see scripts/inlineRuns.ts).
  isolateInlineRuns(require);
  const args: automation.InlineProgramArgs = { projectName: opts.projectName, stackName: opts.stackName, program: opts.program };
  const ws: automation.LocalWorkspaceOptions = {
    workDir: opts.dir,
    pulumiCommand: await pinnedCommand(auto),
    envVars: cliEnv(opts.dir, opts.env),
    projectSettings: { name: opts.projectName, runtime: "nodejs", backend: { url: `file://${stateDir(opts.dir)}` } },
  };
  // Whether the stack exists is a file of the local backend: one CLI process (`stack init` or
  // `stack select`) instead of createOrSelectStack's failed select before the init.
  return existsSync(checkpointFile(opts.dir, opts.projectName, opts.stackName))
    ? auto.LocalWorkspace.selectStack(args, ws)
    : auto.LocalWorkspace.createStack(args, ws);
}

/**
 * A stack that exists already in a project of its own (`dir` holds its Pulumi.yaml and the stack's
 * config file, as a user's `pulumi stack init` left them), run with an inline program through the
 * pinned CLI and `envVars` (its backend and secrets passphrase).
 */
export async function projectStack(opts: { dir: string; stackName: string; program: automation.PulumiFn; envVars: Record<string, string> }): Promise<automation.Stack> {
  const auto = require("@pulumi/pulumi/automation") as typeof automation;
  isolateInlineRuns(require);
  const projectName = /^name:\s*"?([^"\n]+?)"?\s*$/m.exec(readFileSync(path.join(opts.dir, "Pulumi.yaml"), "utf8"))?.[1];
  if (!projectName) throw new Error(`${opts.dir}/Pulumi.yaml names no project`);
  return auto.LocalWorkspace.selectStack({ projectName, stackName: opts.stackName, program: opts.program }, { workDir: opts.dir, pulumiCommand: await pinnedCommand(auto), envVars: opts.envVars });
}

let pinned: Promise<automation.PulumiCommand> | undefined;
/**
 * The Automation API's handle on the pinned CLI, made once per process: making it runs
 * `pulumi version`, a CLI process per stack otherwise.
 */
function pinnedCommand(auto: typeof automation): Promise<automation.PulumiCommand> {
  pinned ??= auto.PulumiCommand.get({ root: path.dirname(path.dirname(pulumiCliPath())), skipVersionCheck: true });
  return pinned;
}

/**
 * A raw request to an emulator (or the service) with an API key: the parsed body, unwrapped from
 * the `{data}` envelope; throws on an error status. For scripts that seed or change the service.
 */
export function serviceApi(url: string, key: string) {
  return async (method: string, p: string, body?: unknown): Promise<any> => {
    const r = await fetch(url + p, {
      method, headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 400) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 300)}`);
    const json = text ? JSON.parse(text) : {};
    return json && typeof json === "object" && Object.keys(json).length === 1 && "data" in json ? json.data : json;
  };
}

/**
 * Changes a workflow as a person in the dashboard would: reads it and sends it back through
 * `PUT /v2/workflows/{id}`, each step keeping its `_id`, with `edit` applied to that body.
 */
export async function editWorkflowByHand(api: ReturnType<typeof serviceApi>, workflowId: string, edit: (body: any) => any): Promise<void> {
  const wf = await api("GET", `/v2/workflows/${encodeURIComponent(workflowId)}`);
  await api("PUT", `/v2/workflows/${wf._id}`, edit({
    name: wf.name, origin: wf.origin, active: wf.active,
    preferences: { user: wf.preferences.user, workflow: wf.preferences.default },
    steps: wf.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues })),
  }));
}
