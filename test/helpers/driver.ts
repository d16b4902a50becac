/**
 * The tests' program drivers in other languages (the Go program, the Python scripts) speak one
 * protocol: settings as JSON on stdin, the result as JSON on stdout, the CLI's output on stderr.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { ResourceTable } from "../../provider/resources/fields";
import { loadPackage } from "./pulumi";

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

/**
 * What the engine's summary counts for a program on a generated SDK: the stack, and each resource
 * the program's source constructs, a resource of RESOURCE_TABLES or an explicit provider
 * (`constructor` spells the call of a type in the program's language, `notify.Layout(` or
 * `notify.NewLayout(`); the summary leaves the default provider out. Counted in the source, so
 * the count follows the program; it relies on each resource being written once (none in a loop).
 */
export function summaryCount(file: string, constructor: (type: string) => string): number {
  const { RESOURCE_TABLES } = loadPackage<{ RESOURCE_TABLES: readonly ResourceTable[] }>("/dist/provider/resources/index");
  const source = readFileSync(file, "utf8");
  const types = [...RESOURCE_TABLES.map((t) => t.name), "Provider"];
  const stack = 1;
  return stack + types.reduce((n, type) => n + source.split(constructor(type)).length - 1, 0);
}
