/**
 * The generated Python SDK (sdk/python, pulumi_notify) under the real engine: a Python Automation
 * API inline program (test/e2e/python/inline_program.py) declares an Integration and calls
 * getSubscriber through the native plugin, found through the project's `plugins.providers` path,
 * against the emulator: up, a preview with no changes, destroy. The interpreter is the venv of
 * scripts/ensure-python-venv (pulumi==<pinned version> from PyPI on first use, and sdk/python
 * installed with pip); no Python language host is needed for an inline program. Skipped, saying
 * so, when python3 is missing.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cliEnv, cliPath, makeProjectDir, ROOT } from "../helpers/pulumi";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { checkpointFile, stateDir } from "../../scripts/workspace";

const SENDGRID_KEY = "SG.python-secret-sendgrid-key"; // as in inline_program.py
const PROGRAM = path.join(ROOT, "test/e2e/python/inline_program.py");
const hasPython = spawnSync("python3", ["-c", "import venv"], { stdio: "ignore" }).status === 0;
if (!hasPython) process.stderr.write("test/e2e/python.test.ts: skipped, python3 with the venv module is not on PATH\n");

describe.skipIf(!hasPython)("a Python inline program on the generated SDK and the native plugin", () => {
  let emu: TestEmulator;
  let dir: string;
  let python: string;

  /** Runs one operation of the program; resolves with what it printed as JSON, rejects with its stderr. */
  const run = (op: "up" | "preview" | "destroy") => new Promise<any>((resolve, reject) => {
    // Asynchronous: the emulator answers from this process while the program runs.
    const child = spawn(python, [PROGRAM, op], { env: { ...process.env, ...cliEnv(dir) }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`inline_program.py ${op} exited ${code}:\n${stderr.slice(-4000)}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`inline_program.py ${op} printed no JSON:\n${stdout}\n${stderr.slice(-4000)}`));
      }
    });
    child.stdin.end(JSON.stringify({ workDir: dir, pulumiRoot: path.dirname(path.dirname(cliPath())), config: emu.stackConfig() }));
  });

  beforeAll(async () => {
    python = execFileSync(path.join(ROOT, "scripts/ensure-python-venv"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!;
    emu = await startTestEmulator();
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    dir = makeProjectDir("notify-python-");
    // The project: Python, the local backend, and the plugin from bin/ of this checkout.
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({
      name: "notify-python",
      runtime: "python",
      backend: { url: `file://${stateDir(dir)}` },
      plugins: { providers: [{ name: "notify", path: path.join(ROOT, "bin") }] },
    }));
  }, 600_000);
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("up creates the integration through the SDK's resource class, serves the SDK's invoke, and keeps the credentials secret", async () => {
    const up = await run("up");
    expect(up.changes).toEqual({ create: 2 }); // the stack and the integration (the summary leaves providers out)
    const state = await emu.state();
    const integ = state.integrations.find((i) => i.identifier === "py-sendgrid" && !i.deleted);
    expect(integ).toMatchObject({ name: "SendGrid (Python)", providerId: "sendgrid", channel: "email", active: true });
    expect(integ.credentials.apiKey).toBe(SENDGRID_KEY);
    expect(up.outputs.id.value).toBe(integ._id);
    expect(up.outputs.integrationId.value).toBe(integ._id);
    expect(up.outputs.identifier).toEqual({ value: "py-sendgrid", secret: false });
    expect(up.outputs.channel.value).toBe("email");
    expect(up.outputs.credentials.secret).toBe(true);
    expect(up.outputs.aliceName.value).toBe("Alice");
    const file = checkpointFile(dir, "notify-python", "test");
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("notify:index:Integration");
    expect(text).not.toContain(SENDGRID_KEY);
  });

  it("a second preview has no changes", async () => {
    const preview = await run("preview");
    expect(Object.keys(preview.changes)).toEqual(["same"]);
  });

  it("destroy deletes the integration", async () => {
    const destroy = await run("destroy");
    expect(destroy.changes).toEqual({ delete: 2 });
    const state = await emu.state();
    expect(state.integrations.filter((i) => i.identifier === "py-sendgrid" && !i.deleted)).toEqual([]);
  });
});
