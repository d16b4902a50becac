/** Child processes a test waits on without blocking its event loop (the emulator answers in the test's process). */
import { execFile } from "node:child_process";

/** Runs `file` with `args`; resolves with its exit code and output (never rejects). */
export function runProcess(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...opts, encoding: "utf8", maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}
