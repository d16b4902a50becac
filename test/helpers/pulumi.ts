/**
 * e2e harness: the real Pulumi CLI through the Automation API, on a `file://` backend in a temp
 * directory, each test its own project directory and stack, everything removed afterwards.
 */
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";

export const ROOT = path.resolve(__dirname, "../..");
/** Node's own require, so the program uses compiled code, the way users run it. */
export const nativeRequire = createRequire(path.join(ROOT, "package.json"));
export const auto = nativeRequire("@pulumi/pulumi/automation") as typeof automation;

/** The compiled package, loaded by name as a user's program loads it. */
export function loadPackage<T = typeof import("../../provider")>(sub = ""): T {
  return nativeRequire(`pulumi-notify${sub}`) as T;
}

export const PASSPHRASE = "pulumi-notify-tests";

/** A temp project directory with the package installed by name (links into this checkout). */
export function makeProjectDir(prefix = "notify-e2e-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  mkdirSync(path.join(dir, "node_modules/@pulumi"), { recursive: true });
  symlinkSync(ROOT, path.join(dir, "node_modules/pulumi-notify"), "dir");
  symlinkSync(path.join(ROOT, "node_modules/@pulumi/pulumi"), path.join(dir, "node_modules/@pulumi/pulumi"), "dir");
  mkdirSync(path.join(dir, "state"));
  mkdirSync(path.join(dir, "home"));
  return dir;
}

/** Environment of every CLI process: Node 24 and the dynamic provider plugin first on PATH, no network. */
export function cliEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  const nodeBin = path.dirname(nativeRequire.resolve("node/bin/node"));
  const pluginDir = path.join(ROOT, "node_modules/@pulumi/pulumi");
  return {
    PATH: [nodeBin, path.join(ROOT, "node_modules/.bin"), pluginDir, path.dirname(cliPath()), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    ...extra,
  };
}

/** Path of the pinned CLI (set by the global setup). */
export function cliPath(): string {
  if (!process.env.PULUMI_NOTIFY_CLI) {
    const out = execFileSync(path.join(ROOT, "scripts/ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    process.env.PULUMI_NOTIFY_CLI = out.trim().split("\n").pop()!;
  }
  return process.env.PULUMI_NOTIFY_CLI;
}

/** One stack of an inline program in its own directory. */
export interface TestStack {
  stack: automation.Stack;
  dir: string;
  /** Removes the project directory (state included). */
  cleanup(): Promise<void>;
}

/** Creates a stack for `program`, with `config` set (values marked secret when asked). */
export async function createTestStack(opts: {
  program: automation.PulumiFn;
  projectName?: string;
  stackName?: string;
  config?: Record<string, { value: string; secret?: boolean }>;
  env?: Record<string, string>;
}): Promise<TestStack> {
  const dir = makeProjectDir();
  const pulumiCommand = await auto.PulumiCommand.get({ root: path.dirname(path.dirname(cliPath())), skipVersionCheck: true });
  const stack = await auto.LocalWorkspace.createStack(
    { projectName: opts.projectName ?? "notify-test", stackName: opts.stackName ?? "test", program: opts.program },
    {
      workDir: dir,
      pulumiCommand,
      envVars: cliEnv(dir, opts.env),
      projectSettings: { name: opts.projectName ?? "notify-test", runtime: "nodejs", backend: { url: `file://${path.join(dir, "state")}` } },
    },
  );
  if (opts.config) await stack.setAllConfig(opts.config);
  return {
    stack,
    dir,
    cleanup: async () => {
      try {
        await stack.workspace.removeStack(stack.name, { force: true });
      } catch {
        /* the directory goes anyway */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The stack's state as the backend stores it (secrets encrypted), as text for leak checks and
 * parsed. (The Automation API's exportStack decrypts secrets, so it is not what is at rest.)
 */
export async function exportedState(stack: automation.Stack): Promise<{ text: string; resources: Record<string, unknown>[] }> {
  const dir = stack.workspace.workDir;
  const project = (await stack.workspace.projectSettings()).name;
  const file = path.join(dir, "state", ".pulumi", "stacks", project, `${stack.name}.json`);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "{}";
  const parsed = JSON.parse(text) as { checkpoint?: { latest?: { resources?: Record<string, unknown>[] } } };
  return { text, resources: parsed.checkpoint?.latest?.resources ?? [] };
}

/** Reads a file relative to the repo. */
export function repoFile(rel: string): string {
  return readFileSync(path.join(ROOT, rel), "utf8");
}
