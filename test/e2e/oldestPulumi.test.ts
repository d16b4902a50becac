/**
 * The oldest Pulumi SDKs the project says it works with, each run through the pinned CLI (the rest
 * of the suite runs the pinned versions only):
 * - Node.js: the floor of package.json's peerDependencies range. The package as `npm pack` ships
 *   it is installed beside `@pulumi/pulumi` of exactly that version into an empty project, as a
 *   user installs it; a TypeScript program using its classes type-checks against that SDK's
 *   declarations, and the program runs with `notify-run` (that SDK's Automation API and its
 *   dynamic-provider host): up, an empty preview, drift shown by a refreshing preview, a refresh
 *   storing the inputs the read returns (older hosts drop them), `up --refresh` putting it back,
 *   `refresh --run-program`, destroy.
 * - Python: the floor of sdk/python/pyproject.toml (scripts/schema.ts PYTHON_PULUMI_FLOOR): a venv
 *   with `pulumi==` that version and sdk/python runs the suite's Python program (up, an empty
 *   preview, destroy).
 * - Go: sdk/go/go.mod's requirement on the Go SDK (scripts/gen-sdk/main.go goSDKFloor): the
 *   suite's Go program is built with that version selected (a module requiring exactly it; `go list` confirms the build list) and runs
 *   up, an empty preview, destroy.
 * Needs the network (the npm registry, PyPI and the Go module proxy, as their caches allow); the
 * Python and Go parts skip, saying so, without python3 or go (with CI=true they fail instead).
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cliEnv, cliPath, ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, PYTHON_PROGRAM, PYTHON_PROGRAM_RESOURCES, pythonProjectDir, runPython, venvPython } from "../helpers/python";
import { GO_PROGRAM_DIR, GO_PROGRAM_RESOURCES, runGoProgram } from "../helpers/go";
import { goSdkFloor, peerRange, pythonSdkRequirement } from "../helpers/pulumiVersions";
import { programSecrets } from "../helpers/programSecrets";
import { runs, toolchain } from "../helpers/toolchain";
import { checkpointFile, NATIVE_PLUGINS, stateDir } from "../../scripts/workspace";

const FILE = "test/e2e/oldestPulumi.test.ts";
const SECOND_KEY = "oldest-second-env-key-0123456789";
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string };

/** Runs a command to completion without blocking this process (the emulator answers from it). */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { out += d.toString(); });
    child.once("exit", (code) => resolve({ code, out }));
  });
}

describe(`@pulumi/pulumi at the floor of the peer range (${peerRange().range})`, () => {
  const floor = peerRange().floor;
  let emu: TestEmulator;
  let tmp: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const notifyRun = (...args: string[]) => run(process.execPath, [path.join(dir, "node_modules", PACKAGE.name, "dist/provider/run.js"), ...args], { cwd: dir, env });

  beforeAll(async () => {
    emu = await startTestEmulator({ hideCredentials: false });
    tmp = mkdtempSync(path.join(os.tmpdir(), "notify-oldest-node-"));
    // The package as published: `npm pack` of this checkout (built by the e2e layer's set-up).
    const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tmp], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { filename: string }[];
    dir = path.join(tmp, "project");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({
      name: "notify-oldest", private: true,
      dependencies: { [PACKAGE.name]: `file:${path.join(tmp, packed[0]!.filename)}`, "@pulumi/pulumi": floor },
    }, null, 2));
    const install = await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: dir, env: process.env });
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.out}`);
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-oldest", runtime: "nodejs", backend: { url: `file://${stateDir(dir)}` } }));
    writeFileSync(path.join(dir, "index.js"), [
      'const pulumi = require("@pulumi/pulumi");',
      'const notify = require("pulumi-notify");',
      'const topic = new notify.Topic("releases", { key: "releases", name: "Releases" });',
      'const sg = new notify.Integration("sg", { identifier: "oldest-sendgrid", providerId: "sendgrid", channel: "email", credentials: { apiKey: pulumi.secret("SG.oldest-key") } });',
      'const wf = new notify.Workflow("welcome", { workflowId: "oldest-welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } }] });',
      "exports.topicKey = topic.key;",
      "exports.integrationId = sg.integrationId;",
      "exports.workflowId = wf.workflowId;",
      "",
    ].join("\n"));
    for (const sub of ["state", "home"]) mkdirSync(path.join(dir, sub));
    env = { ...process.env, ...cliEnv(dir, { NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: emu.key }) };
  }, 600_000);
  afterAll(async () => {
    await emu?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("is the one SDK of the project: the package brings no @pulumi/pulumi of its own", () => {
    const version = (from: string) => (JSON.parse(readFileSync(execFileSync(process.execPath, ["-p", 'require.resolve("@pulumi/pulumi/package.json")'], { cwd: from, encoding: "utf8" }).trim(), "utf8")) as { version: string }).version;
    expect(version(dir)).toBe(floor);
    // Resolved from the installed package's own folder, as its modules require it.
    expect(version(realpathSync(path.join(dir, "node_modules", PACKAGE.name)))).toBe(floor);
  });

  it("a TypeScript program using the package's classes type-checks against that SDK's declarations", () => {
    writeFileSync(path.join(dir, "check.ts"), [
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as notify from "pulumi-notify";',
      'const topic = new notify.Topic("t", { key: "k", name: "K" }, { protect: false });',
      'const wf = new notify.Workflow("w", { workflowId: "w", name: "W", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: pulumi.interpolate`Hi ${topic.key}` } }] });',
      "export const key: pulumi.Output<string> = topic.key;",
      "export const id: pulumi.Output<string> = wf.id;",
      "",
    ].join("\n"));
    // Node's types as this checkout pins them, unless the install brought some.
    mkdirSync(path.join(dir, "node_modules/@types"), { recursive: true });
    if (!existsSync(path.join(dir, "node_modules/@types/node"))) symlinkSync(path.join(ROOT, "node_modules/@types/node"), path.join(dir, "node_modules/@types/node"), "dir");
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const r = execFileSync(process.execPath, [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "check.ts"], { cwd: dir, encoding: "utf8" });
    expect(r).toBe("");
  }, 180_000);

  it("notify-run: up, an empty preview, drift shown, a refresh storing the inputs read, drift put back, refresh --run-program, destroy", async () => {
    const up = await notifyRun("up", "--stack", "dev");
    expect(up.code, up.out).toBe(0);
    const state = await emu.state();
    expect(state.topics.map((t: { key: string }) => t.key)).toEqual(["releases"]);
    expect(state.integrations.find((i: { identifier: string; deleted?: boolean }) => i.identifier === "oldest-sendgrid" && !i.deleted).credentials.apiKey).toBe("SG.oldest-key");
    expect(state.workflows.map((w: { workflowId: string }) => w.workflowId)).toEqual(["oldest-welcome"]);
    // The secret credential is encrypted in the checkpoint.
    expect(readFileSync(checkpointFile(dir, "notify-oldest", "dev"), "utf8")).not.toContain("SG.oldest-key");

    const empty = await notifyRun("preview", "--expect-no-changes");
    expect(empty.code, empty.out).toBe(0);

    await emu.api("PATCH", "/v2/topics/releases", { name: "Renamed by hand" });
    const drift = await notifyRun("preview", "--refresh", "--expect-no-changes");
    expect(drift.code, drift.out).toBe(1);
    expect(drift.out).toMatch(/releases/);
    // A refresh stores the inputs the read returns (the name as the service has it): what this
    // floor's dynamic-provider host is the first to pass on.
    const refreshed = await notifyRun("refresh");
    expect(refreshed.code, refreshed.out).toBe(0);
    const topic = () => (JSON.parse(readFileSync(checkpointFile(dir, "notify-oldest", "dev"), "utf8")) as { checkpoint: { latest: { resources: { urn: string; inputs: { name?: string }; outputs: { name?: string } }[] } } })
      .checkpoint.latest.resources.find((r) => r.urn.endsWith("::releases"))!;
    expect([topic().inputs.name, topic().outputs.name]).toEqual(["Renamed by hand", "Renamed by hand"]);
    const repair = await notifyRun("up", "--refresh");
    expect(repair.code, repair.out).toBe(0);
    expect((await emu.state()).topics[0].name).toBe("Releases");
    expect(topic().inputs.name).toBe("Releases");

    const refresh = await notifyRun("refresh", "--run-program", "--expect-no-changes");
    expect(refresh.code, refresh.out).toBe(0);

    const destroy = await notifyRun("destroy");
    expect(destroy.code, destroy.out).toBe(0);
    const after = await emu.state();
    expect(after.topics).toEqual([]);
    expect(after.workflows).toEqual([]);
    expect(after.integrations.filter((i: { identifier: string; deleted?: boolean }) => i.identifier === "oldest-sendgrid" && !i.deleted)).toEqual([]);
  }, 600_000);
});

describe.skipIf(!hasPython(FILE))(`the Python SDK at sdk/python's floor (pulumi${pythonSdkRequirement().requirement})`, () => {
  const floor = pythonSdkRequirement().floor;
  let emu: TestEmulator;
  let dir: string;
  let python: string;
  const op = (name: "up" | "preview" | "destroy") => runPython(python, PYTHON_PROGRAM, name, dir, {
    config: { ...emu.stackConfig(), ...programSecrets("notify-python") },
    second: { url: emu.url, key: SECOND_KEY },
  });

  beforeAll(async () => {
    python = venvPython(floor);
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=Development`, `${SECOND_KEY}=second`] });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    // The program's project is notify-python (test/e2e/python/inline_program.py).
    dir = pythonProjectDir("notify-python");
  }, 600_000);
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the venv has that version", () => {
    expect(execFileSync(python, ["-c", 'import importlib.metadata as m; print(m.version("pulumi"))'], { encoding: "utf8" }).trim()).toBe(floor);
  });

  it("the suite's Python program: up, an empty preview, destroy", async () => {
    expect((await op("up")).changes).toEqual({ create: PYTHON_PROGRAM_RESOURCES });
    expect(Object.keys((await op("preview")).changes)).toEqual(["same"]);
    expect((await op("destroy")).changes).toEqual({ delete: PYTHON_PROGRAM_RESOURCES });
    expect((await emu.state()).workflows).toEqual([]);
  }, 600_000);
});

const hasGo = toolchain(FILE, runs("go", ["version"]), "go is not on PATH (the Go program is built with it)");

describe.skipIf(!hasGo)(`the Go SDK at sdk/go's requirement (github.com/pulumi/pulumi/sdk/v3 v${goSdkFloor()})`, () => {
  const floor = goSdkFloor();
  let emu: TestEmulator;
  let build: string;
  let dir: string;
  let bin: string;
  const op = async (name: "up" | "preview" | "destroy") => (await runGoProgram(bin, name, { ...process.env, ...cliEnv(dir) }, {
    workDir: dir,
    pulumiRoot: path.dirname(path.dirname(cliPath())),
    config: { ...emu.stackConfig(), ...programSecrets("notify-go") },
    second: { apiUrl: emu.url, apiKey: SECOND_KEY },
  })).result;

  beforeAll(async () => {
    // The suite's Go program in a module of its own that requires sdk/go and exactly that version,
    // as a user's `go get` of the SDK starts one: minimal version selection keeps that version
    // unless another module needs a newer one, and `go mod tidy` resolves the rest at its own
    // requirements.
    build = mkdtempSync(path.join(os.tmpdir(), "notify-oldest-go-build-"));
    copyFileSync(path.join(GO_PROGRAM_DIR, "main.go"), path.join(build, "main.go"));
    writeFileSync(path.join(build, "go.mod"), [
      "module example.com/notify-oldest-go", "", "go 1.25", "",
      "require (",
      "\tgithub.com/pulumi-notify/pulumi-notify/sdk/go v0.0.0",
      `\tgithub.com/pulumi/pulumi/sdk/v3 v${floor}`,
      ")", "",
      `replace github.com/pulumi-notify/pulumi-notify/sdk/go => ${path.join(ROOT, "sdk/go")}`, "",
    ].join("\n"));
    const goEnv = { ...process.env, GOFLAGS: "-mod=mod" };
    execFileSync("go", ["mod", "tidy"], { cwd: build, env: goEnv, stdio: ["ignore", "ignore", "pipe"] });
    bin = path.join(build, "program");
    execFileSync("go", ["build", "-o", bin, "."], { cwd: build, env: goEnv, stdio: ["ignore", "ignore", "pipe"] });

    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=Development`, `${SECOND_KEY}=second`] });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-oldest-go-"));
    for (const sub of [stateDir(dir), path.join(dir, "home")]) mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-go", runtime: "go", backend: { url: `file://${stateDir(dir)}` }, plugins: NATIVE_PLUGINS }));
  }, 900_000);
  afterAll(async () => {
    await emu?.close();
    for (const d of [build, dir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it("the program is built with that version", () => {
    expect(execFileSync("go", ["list", "-m", "-f", "{{.Version}}", "github.com/pulumi/pulumi/sdk/v3"], { cwd: build, encoding: "utf8", env: { ...process.env, GOFLAGS: "-mod=mod" } }).trim()).toBe(`v${floor}`);
  });

  it("the suite's Go program: up, an empty preview, destroy", async () => {
    expect((await op("up")).changes).toEqual({ create: GO_PROGRAM_RESOURCES });
    expect(Object.keys((await op("preview")).changes)).toEqual(["same"]);
    expect((await op("destroy")).changes).toEqual({ delete: GO_PROGRAM_RESOURCES });
    expect((await emu.state()).workflows).toEqual([]);
  }, 600_000);
});
