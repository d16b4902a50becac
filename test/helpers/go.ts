/**
 * The Go inline Automation API program of the tests (test/e2e/go/main.go): built once per test
 * file with `go build`, then run one operation at a time. It reads its input as JSON on stdin and
 * prints its result as JSON on stdout; the CLI's output goes to stderr.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/**
 * An exported Go program (`notify-export --language go` in `out`) built as the tests run one: its
 * go.mod replaced by this checkout's SDK with the module versions test/e2e/go pins (its go.sum), and
 * tidied, as a user's `go mod tidy` would (Go reaches the module proxy: tidy needs the go.mod of
 * every module version of the program's own graph); `go vet` passes; then the program as written,
 * its main renamed, built in `build` beside test/e2e/go-export/driver.go, which runs it through the
 * Automation API. Returns the driver's binary.
 */
export function buildExportedGo(out: string, build: string, project: string): string {
  const goEnv = { ...process.env, GOFLAGS: "-mod=mod" };
  const useCheckout = (dir: string, tidy: boolean) => {
    writeFileSync(path.join(dir, "go.mod"), readFileSync(path.join(ROOT, "test/e2e/go/go.mod"), "utf8")
      .replace(/^module .*$/m, `module ${project}`).replace(/=> \.\.\/\.\.\/\.\.\/sdk\/go/, `=> ${path.join(ROOT, "sdk/go")}`));
    copyFileSync(path.join(ROOT, "test/e2e/go/go.sum"), path.join(dir, "go.sum"));
    // The program's own module is tidied (its requirements become what it imports); the driver's
    // keeps test/e2e/go's, which cover the Automation API on every platform.
    if (tidy) execFileSync("go", ["mod", "tidy"], { cwd: dir, env: goEnv, stdio: "pipe" });
  };
  useCheckout(out, true);
  execFileSync("go", ["vet", "."], { cwd: out, env: goEnv, stdio: "pipe" });
  mkdirSync(build);
  writeFileSync(path.join(build, "program.go"), readFileSync(path.join(out, "main.go"), "utf8").replace(/^func main\(\) \{$/m, "func exportedMain() {"));
  copyFileSync(path.join(out, "notify_generated.go"), path.join(build, "notify_generated.go"));
  copyFileSync(path.join(ROOT, "test/e2e/go-export/driver.go"), path.join(build, "driver.go"));
  useCheckout(build, false);
  const bin = path.join(build, "program");
  execFileSync("go", ["build", "-o", bin, "."], { cwd: build, env: goEnv, stdio: "pipe" });
  return bin;
}
