/**
 * Where and on what a figure was taken: the commit, the machine, the versions and the date. One
 * definition for every published figure (the benchmarks, the soak and oracle verdicts), so the
 * generated pages all say the same things about their runs.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./workspace";

/** A run's provenance, as the generated pages show it. */
export interface RunInfo {
  /** The short commit id, with `-dirty` when tracked files had changes. */
  commit: string;
  machine: { cpu: string; cores: number; memoryGiB: number; platform: string };
  versions: { node: string; pulumi: string; pulumiCli?: string; pulumiNotify: string };
  date: string;
}

/**
 * The Node.js the project's runs use: the `node` package it installs, which npm scripts put first
 * on PATH (docs/architecture.md). A verdict is published after its run, by a process that may be
 * another `node` (one started by hand); it records the project's, not its own.
 */
function projectNode(): string {
  try {
    return `v${(JSON.parse(readFileSync(path.join(REPO_ROOT, "node_modules", "node", "package.json"), "utf8")) as { version: string }).version}`;
  } catch {
    return process.version;
  }
}

/** The provenance of a run made now in this checkout (`cli`: the Pulumi CLI's path, when it ran one). */
export function runInfo(cli?: string): RunInfo {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };
  const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  return {
    commit: `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? "-dirty" : ""}`,
    machine: { cpu: os.cpus()[0]?.model ?? "unknown", cores: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()}` },
    versions: {
      node: projectNode(),
      pulumi: pkg.devDependencies["@pulumi/pulumi"]!,
      ...(cli ? { pulumiCli: path.basename(path.dirname(path.dirname(cli))) } : {}),
      pulumiNotify: pkg.version,
    },
    date: new Date().toISOString(),
  };
}
