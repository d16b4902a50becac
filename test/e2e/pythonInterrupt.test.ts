/**
 * How a Python program run by the Pulumi Python language host ends when the engine interrupts it
 * (issue #55, item 6; docs/troubleshooting.md): after a failed resource, or on Ctrl-C, the host
 * sends the program SIGINT (on the engine's Cancel, then again to its process group when the
 * engine closes it), while the program still waits for a registration the engine will never
 * answer. Python printed a `KeyboardInterrupt` traceback, two chained, under the real error, and
 * hung in the executor's shutdown until the engine killed it 5 s later. pulumi_notify's
 * `_interrupt` module (scripts/gen-sdk/python/_interrupt.py) ends such a program at once by
 * SIGINT, its output flushed, without a traceback; everywhere else Python's handling is kept.
 *
 * - A stand-in for the host's `pulumi-language-python-exec` (test/e2e/python/exec_standin.py,
 *   copied under that name) puts a program in that state and is signalled as the host does.
 * - With the real language host (`pulumi-language-python` beside the CLI, on PATH, or in the
 *   folder PULUMI_NOTIFY_PYTHON_HOST), `pulumi up` of a Python project whose resource fails, as a
 *   user runs it. The host is not on the Go module proxy, nor in the `pulumi` package on PyPI, so
 *   this part runs only where one is installed (a Pulumi release has it beside the CLI), saying
 *   on stderr when it skips.
 *
 * The interpreter is the venv of scripts/ensure-python-venv (pulumi from PyPI, sdk/python
 * installed). Skipped, saying so, when python3 is missing.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, venvPython } from "../helpers/python";
import { cliEnv, cliPath, makeProjectDir, ROOT } from "../helpers/pulumi";
import { PLUGINS } from "../helpers/native";

const FILE = "test/e2e/pythonInterrupt.test.ts";
const EXEC = "pulumi-language-python-exec";
const PYTHON = hasPython(FILE);

interface Ended {
  /** The signal that ended the process, or null. */
  signal: NodeJS.Signals | null;
  status: number | null;
  stdout: string;
  stderr: string;
  /** From the first SIGINT to the process's end, in ms. */
  afterInterrupt: number;
}

/**
 * Runs `python args`; when `interrupt`, once it has written "waiting" to stderr, sends it SIGINT,
 * and SIGINT again 200 ms later (the host's Cancel, then its close), and kills it if it has not
 * ended 5 s after the first.
 */
function runPython(python: string, args: string[], env: Record<string, string>, interrupt: boolean): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let first = 0;
    const timers: NodeJS.Timeout[] = [];
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      if (interrupt && !first && stderr.includes("waiting")) {
        first = Date.now();
        child.kill("SIGINT");
        timers.push(setTimeout(() => child.kill("SIGINT"), 200), setTimeout(() => child.kill("SIGKILL"), 5000));
      }
    });
    child.on("error", reject);
    child.on("close", (status, signal) => {
      timers.forEach(clearTimeout);
      resolve({ status, signal, stdout, stderr, afterInterrupt: first ? Date.now() - first : 0 });
    });
  });
}

describe.skipIf(!PYTHON)("a Python program the language host interrupts", () => {
  let python: string;
  let dir: string;
  let exec: string;
  /** The environment of a program, less any setting of pulumi_notify's. */
  const env = (extra: Record<string, string> = {}): Record<string, string> => {
    const e = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && k !== "PULUMI_NOTIFY_PYTHON_SIGINT")) as Record<string, string>;
    return { ...e, ...extra };
  };

  beforeAll(() => {
    python = venvPython();
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-py-interrupt-"));
    exec = path.join(dir, EXEC);
    copyFileSync(path.join(ROOT, "test/e2e/python/exec_standin.py"), exec);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ends at once by SIGINT, its output flushed, with no KeyboardInterrupt traceback", async () => {
    const run = await runPython(python, [exec, "wait"], env(), true);
    const shown = `status ${run.status}, signal ${run.signal}, ${run.afterInterrupt} ms\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect(run.stdout, shown).toContain("handler: pulumi_notify._interrupt");
    expect(run.stderr, shown).not.toMatch(/KeyboardInterrupt|Traceback/);
    // Ended by the first SIGINT, as Python ends after an unhandled KeyboardInterrupt, not killed.
    expect(run.signal, shown).toBe("SIGINT");
    expect(run.afterInterrupt, shown).toBeLessThan(2000);
    // What the program wrote and had not flushed still reaches the host.
    expect(run.stdout, shown).toContain("pending output");
  });

  it("keeps Python's handling outside the language host, for a handler of the program's own, on a worker thread, and when told to", async () => {
    const handler = async (args: string[], extra?: Record<string, string>) => {
      const run = await runPython(python, args, env(extra), false);
      expect(run.status, run.stderr).toBe(0);
      return /handler: (\S+)/.exec(run.stdout)?.[1];
    };
    // The same script under another name: an Automation API program, a unit test, any script.
    const other = path.join(dir, "program.py");
    copyFileSync(exec, other);
    expect(await handler([other, "report"])).toBe("default");
    expect(await handler(["-c", "import pulumi_notify, signal; print('handler:', 'default' if signal.getsignal(signal.SIGINT) is signal.default_int_handler else 'changed')"])).toBe("default");
    expect(await handler([exec, "own"])).toBe("own");
    expect(await handler([exec, "thread"])).toBe("default");
    expect(await handler([exec, "report"], { PULUMI_NOTIFY_PYTHON_SIGINT: "default" })).toBe("default");
    expect(await handler([exec, "report"])).toBe("pulumi_notify._interrupt");
  });
});

/** The folder of the real Python language host, or undefined. */
function pythonHostDir(): string | undefined {
  const has = (d: string) => existsSync(path.join(d, "pulumi-language-python")) && existsSync(path.join(d, EXEC));
  const candidates = [process.env.PULUMI_NOTIFY_PYTHON_HOST, path.dirname(cliPath()), ...(process.env.PATH ?? "").split(path.delimiter)];
  return candidates.find((d): d is string => !!d && has(d));
}

const hostDir = PYTHON ? pythonHostDir() : undefined;
if (PYTHON && !hostDir) {
  process.stderr.write(`${FILE}: the part with the real Python language host is skipped: no pulumi-language-python (and ${EXEC}) beside the CLI, on PATH or in PULUMI_NOTIFY_PYTHON_HOST\n`);
}

describe.skipIf(!hostDir)("pulumi up of a Python program whose resource fails, with the real language host", () => {
  let emu: TestEmulator;
  let dir: string;

  beforeAll(async () => {
    emu = await startTestEmulator();
    dir = makeProjectDir("notify-py-host-");
    const venv = path.dirname(path.dirname(venvPython()));
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "py-interrupt", runtime: { name: "python", options: { virtualenv: venv } }, plugins: PLUGINS }));
    writeFileSync(path.join(dir, "__main__.py"), [
      "import pulumi",
      "import pulumi_notify as notify",
      "",
      'acme = notify.Context("acme", type="tenant", context_id="py-interrupt", data={"name": "Acme"})',
      "# No such topic: the service refuses the subscription, the update fails.",
      'notify.TopicSubscription("orphan", topic="no-such-topic", subscriber="nobody", identifier="orphan")',
      'pulumi.export("contextKey", acme.key)',
      "",
    ].join("\n"));
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const pulumi = (args: string[]): Promise<{ status: number | null; output: string }> => new Promise((resolve, reject) => {
    const env = cliEnv(dir, { PATH: [hostDir!, cliEnv(dir).PATH].join(path.delimiter), NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: API_KEY });
    const child = spawn(cliPath(), args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
  });

  it("shows the resource's error and the failed update, and no KeyboardInterrupt traceback", async () => {
    const init = await pulumi(["stack", "init", "dev"]);
    expect(init.status, init.output).toBe(0);
    const up = await pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain('topic "no-such-topic" does not exist');
    expect(up.output).toContain("update failed");
    expect(up.output).not.toMatch(/KeyboardInterrupt|Traceback/);
  });
});
