/**
 * Toolchains some test files need (Go, Python). Without one a file skips, saying so on stderr;
 * with CI=true it fails instead, so that CI cannot pass without running it.
 */
import { spawnSync } from "node:child_process";

/** Whether `command args` runs (exit status 0). */
export function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

/**
 * `present`, after saying what `file` does without the toolchain: skips (stderr note), or, with
 * CI=true, throws, which fails the file.
 */
export function toolchain(file: string, present: boolean, missing: string): boolean {
  if (present) return true;
  if (process.env.CI === "true") throw new Error(`${file}: ${missing}, and CI=true requires it (the file would otherwise be skipped)`);
  process.stderr.write(`${file}: skipped, ${missing}\n`);
  return false;
}
