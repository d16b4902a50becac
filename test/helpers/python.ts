/**
 * Python Automation API programs for the tests: the venv of scripts/ensure-python-venv (pulumi
 * from PyPI at the version that script names, or PULUMI_PYTHON_VERSION; sdk/python installed) and
 * one operation of a script run with the settings of test/e2e/python/driver.py on stdin.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { cliEnv, cliPath, makeProjectDir, ROOT } from "./pulumi";
import { stateDir } from "../../scripts/workspace";
import { PLUGINS } from "./native";
import { runs, toolchain } from "./toolchain";
import { runJsonDriver, summaryCount } from "./driver";

/** The Python program of the e2e tests (its settings as test/e2e/python/driver.py reads them). */
export const PYTHON_PROGRAM = path.join(ROOT, "test/e2e/python/inline_program.py");

/** What the engine's summary counts for {@link PYTHON_PROGRAM}, from its source; one count for every test that runs it. */
export const PYTHON_PROGRAM_RESOURCES = summaryCount(PYTHON_PROGRAM, (type) => `notify.${type}(`);

/**
 * Whether python3 with the venv module is on PATH; says on stderr that `file` skips when not, or
 * with CI=true fails it (test/helpers/toolchain.ts).
 */
export function hasPython(file: string): boolean {
  return toolchain(file, runs("python3", ["-c", "import venv"]), "python3 with the venv module is not on PATH");
}

/** The venv's python (made on first use), with the Pulumi Python SDK of `version` if given, else the script's. */
export function venvPython(version?: string): string {
  const env = version ? { ...process.env, PULUMI_PYTHON_VERSION: version } : process.env;
  return execFileSync(path.join(ROOT, "scripts/ensure-python-venv"), { encoding: "utf8", env, stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!;
}

/** A project directory for a Python program: the local backend and the plugin from bin/ of this checkout. */
export function pythonProjectDir(name: string): string {
  const dir = makeProjectDir(`${name}-`);
  writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name, runtime: "python", backend: { url: `file://${stateDir(dir)}` }, plugins: PLUGINS }));
  return dir;
}

export type PythonOp = "up" | "up-refresh" | "preview" | "preview-refresh" | "destroy";

/**
 * Runs one operation of `script` in project `dir`; resolves with what it printed as JSON, rejects
 * with its stderr. Asynchronous: an emulator in this process answers while the program runs.
 * `env` is the whole environment of the program and its `pulumi` (default: this process's with
 * the harness's CLI settings).
 */
export async function runPython(python: string, script: string, op: PythonOp, dir: string, settings: Record<string, unknown>, env?: Record<string, string>): Promise<any> {
  const input = { workDir: dir, pulumiRoot: path.dirname(path.dirname(cliPath())), ...settings };
  return (await runJsonDriver<any>(`${path.basename(script)} ${op}`, python, [script, op], env ?? { ...process.env, ...cliEnv(dir) }, input)).result;
}
