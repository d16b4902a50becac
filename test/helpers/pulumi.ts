/**
 * e2e harness: the real Pulumi CLI through the Automation API, on a `file://` backend in a temp
 * directory, each test its own project directory and stack, everything removed afterwards.
 */
import { createRequire } from "node:module";
import { checkpointFile, cliEnv, linkProjectDir, localStack, LOCAL_PASSPHRASE, pulumiCliPath } from "../../scripts/workspace";
import { existsSync, mkdtempSync, rmSync, readFileSync } from "node:fs";
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

export const PASSPHRASE = LOCAL_PASSPHRASE;
export { cliEnv };

/** A temp project directory with the package installed by name (links into this checkout). */
export function makeProjectDir(prefix = "notify-e2e-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  linkProjectDir(dir);
  return dir;
}

/** Path of the pinned CLI (built on first use). */
export const cliPath = pulumiCliPath;

/** One stack of an inline program in its own directory. */
export interface TestStack {
  stack: automation.Stack;
  dir: string;
  /** The stack's checkpoint file in the local backend. */
  checkpoint: string;
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
  const projectName = opts.projectName ?? "notify-test";
  const stack = await localStack({ dir, projectName, stackName: opts.stackName ?? "test", program: opts.program, env: opts.env });
  if (opts.config) await stack.setAllConfig(opts.config);
  return {
    stack,
    dir,
    checkpoint: checkpointFile(dir, projectName, stack.name),
    // The local backend's state lives in `dir`, so removing the directory removes the stack.
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The stack's state as the backend stores it (secrets encrypted), as text for leak checks and
 * parsed. (The Automation API's exportStack decrypts secrets, so it is not what is at rest.)
 */
export async function exportedState(stack: automation.Stack): Promise<{ text: string; resources: Record<string, unknown>[]; dynamic: Record<string, unknown>[] }> {
  const dir = stack.workspace.workDir;
  const project = (await stack.workspace.projectSettings()).name;
  const file = checkpointFile(dir, project, stack.name);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "{}";
  const parsed = JSON.parse(text) as { checkpoint?: { latest?: { resources?: Record<string, unknown>[] } } };
  const resources = parsed.checkpoint?.latest?.resources ?? [];
  // The resources the engine's Node.js dynamic-provider plugin runs: this package's, and the bench's baseline.
  return { text, resources, dynamic: resources.filter((r) => String(r.type).startsWith("pulumi-nodejs:dynamic")) };
}

/** Reads a file relative to the repo. */
export function repoFile(rel: string): string {
  return readFileSync(path.join(ROOT, rel), "utf8");
}

/**
 * Per resource the engine plans to change: the operation, and the input keys whose old and new
 * values differ, which is what the CLI shows of a step without a detailed diff. Engine events mask
 * secrets on both sides, so a change to a secret input is not among the keys here, though the CLI
 * names it (from the detailed diff the native plugin sends, or the engine computes for a dynamic
 * resource): previewShown of shownDiff.ts reads what the CLI shows. Provider resources are not
 * listed. A replacement shows as several steps; the one that names the kind of change (`replace`) is kept.
 */
export async function previewDiffs(stack: automation.Stack, opts: automation.PreviewOptions = {}) {
  const diffs: Record<string, { op: string; keys: string[] }> = {};
  const res = await stack.preview({
    ...opts,
    onEvent: (e) => {
      const m = e.resourcePreEvent?.metadata;
      // Providers are left out: the Node.js dynamic provider takes the stack's config as its
      // inputs, so any config change shows as an update of the provider named `default`.
      if (!m || m.op === "same" || m.op === "refresh" || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) return;
      const name = m.urn.split("::").pop()!;
      if (diffs[name] && m.op !== "replace") return;
      const olds = (m.old?.inputs ?? {}) as Record<string, unknown>;
      const news = (m.new?.inputs ?? {}) as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])]
        .filter((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
      diffs[name] = { op: m.op, keys };
    },
  });
  return { res, diffs };
}

/** A warning diagnostic of the engine: the URN of its resource ("" for none, the stack's) and its message. */
export interface EngineWarning {
  urn: string;
  message: string;
}

/** The engine's warning diagnostics among an operation's events (pass `events.push` as its `onEvent`). */
export function warningsOf(events: readonly automation.EngineEvent[]): EngineWarning[] {
  return events.flatMap((e) => {
    const d = e.diagnosticEvent;
    return d && d.severity === "warning" ? [{ urn: d.urn ?? "", message: d.message.trim() }] : [];
  });
}
