/**
 * The tests' program drivers in other languages (the Go program, the Python scripts) speak one
 * protocol: settings as JSON on stdin, the result as JSON on stdout, the CLI's output on stderr.
 */
import { spawn } from "node:child_process";

/**
 * Runs `command args` with `env` and `input` as JSON on stdin; resolves with its stdout parsed as
 * JSON and its stderr, rejects with the end of its output (named by `label`) when it exits with
 * an error or prints no JSON. Asynchronous, so that an emulator in this process answers while the
 * program runs.
 */
export function runJsonDriver<T>(label: string, command: string, args: string[], env: NodeJS.ProcessEnv, input: unknown): Promise<{ result: T; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}:\n${stderr.slice(-6000)}`));
      try {
        resolve({ result: JSON.parse(stdout) as T, stderr });
      } catch {
        reject(new Error(`${label} printed no JSON:\n${stdout}\n${stderr.slice(-4000)}`));
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}
