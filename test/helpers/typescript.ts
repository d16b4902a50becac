/**
 * The TypeScript compilers the project pins, read from package.json's devDependencies: the
 * project's own `typescript` and each alias of it (`"typescript-6": "npm:typescript@6.0.3"`), so
 * that the list of versions is written once. Tests that compile what users compile (an exported
 * program, a program importing the package) run each of them.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./pulumi";

/** One pinned compiler: its package name in node_modules, its version and its `tsc`. */
export interface PinnedTypeScript {
  name: string;
  version: string;
  tsc: string;
}

const devDependencies = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;

/** Every pinned TypeScript, the project's own first. */
export const TYPESCRIPTS: PinnedTypeScript[] = Object.entries(devDependencies)
  .filter(([name, spec]) => name === "typescript" || spec.startsWith("npm:typescript@"))
  .sort(([a], [b]) => Number(b === "typescript") - Number(a === "typescript"))
  .map(([name]) => ({
    name,
    version: (JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version,
    tsc: path.join(ROOT, "node_modules", name, "bin/tsc"),
  }));

/** Runs `tsc` of `ts` with `args` in `cwd`; its exit status and its output (stdout and stderr). */
export function runTsc(ts: PinnedTypeScript, args: string[], cwd: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [ts.tsc, ...args], { cwd, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}
