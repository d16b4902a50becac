/**
 * The Go inline Automation API program of the tests (test/e2e/go/main.go): built once per test
 * file with `go build`, then run one operation at a time. It reads its input as JSON on stdin and
 * prints its result as JSON on stdout; the CLI's output goes to stderr.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { runJsonDriver, summaryCount } from "./driver";
import { ROOT } from "./pulumi";

/** The program's source folder. */
export const GO_PROGRAM_DIR = path.join(ROOT, "test/e2e/go");

/** What the engine's summary counts for the program in {@link GO_PROGRAM_DIR}, from its source; one count for every test that runs it. */
export const GO_PROGRAM_RESOURCES = summaryCount(path.join(GO_PROGRAM_DIR, "main.go"), (type) => `notify.New${type}(`);

/** Builds the program into `bin` (a path in the test's temp directory). */
export function buildGoProgram(bin: string): string {
  execFileSync("go", ["build", "-mod=readonly", "-o", bin, "."], { cwd: GO_PROGRAM_DIR, stdio: ["ignore", "inherit", "inherit"] });
  return bin;
}

/**
 * Runs operation `op` of the built program with `env` and `input` on stdin; resolves with its JSON
 * result and what it printed on stderr (the CLI's output), rejects with the end of stderr when it
 * fails. Asynchronous, so that an emulator in this process answers while the program runs.
 */
export async function runGoProgram<T = any>(bin: string, op: string, env: NodeJS.ProcessEnv, input: unknown): Promise<{ result: T; cli: string }> {
  const { result, stderr } = await runJsonDriver<T>(`the Go program's ${op}`, bin, [op], env, input);
  return { result, cli: stderr };
}
