/**
 * Linting a GitHub Actions workflow with actionlint, the tool its users' CI would trust, and
 * shellcheck on its `run:` blocks when shellcheck is installed (it is optional: .ci/run installs
 * it where it can). Shared by the tests of every workflow the repository holds.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants as fsConstants } from "node:fs";
import path from "node:path";
import { ROOT } from "./pulumi";

/** shellcheck on PATH, or undefined. */
export const shellcheck = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean).map((d) => path.join(d, "shellcheck")).find((f) => {
  try { accessSync(f, fsConstants.X_OK); return true; } catch { return false; }
});

/** Why a shellcheck check was skipped, for the skip's note. */
export const NO_SHELLCHECK = "shellcheck is not installed (e.g. apt-get install shellcheck)";

/** The pinned actionlint's path: built with Go on first use (10-20 s on two cores from empty Go caches), then cached; see scripts/ensure-actionlint. */
export function ensureActionlint(): string {
  return execFileSync(path.join(ROOT, "scripts/ensure-actionlint"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!;
}

/** Exit status and combined output of a command, so a failure shows what the linter said. */
export function runLinter(cmd: string, args: string[]): { status: number | null; output: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  if (r.error) throw r.error;
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** actionlint of `file` (with shellcheck on its run: blocks when installed): status 0 and no output when clean. */
export function lintWorkflow(actionlint: string, file: string): { status: number | null; output: string } {
  return runLinter(actionlint, ["-no-color", `-shellcheck=${shellcheck ?? ""}`, file]);
}
