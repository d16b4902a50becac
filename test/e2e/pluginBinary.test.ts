/**
 * The native plugin as users get it: the archives of `npm run plugin-binary`
 * (scripts/plugin-binary.ts), fetched and installed by the engine itself.
 *
 * - The archives are named as the engine asks for them and hold the executable and the LICENSE.
 * - The linux-amd64 executable, alone in an empty folder and with an empty environment (no Node.js,
 *   no node_modules), serves GetPluginInfo (the package's version) and GetSchema (schema.json).
 * - The linux-arm64 executable does the same under qemu-aarch64 (Debian's qemu-user, with the
 *   arm64 C and C++ libraries of libc6-arm64-cross and libstdc++6-arm64-cross); skipped, saying
 *   so, when those are not installed.
 * - The Python program (test/e2e/python/inline_program.py) and the Go program (test/e2e/go) run on
 *   the generated SDKs, each with an empty plugin cache (its own PULUMI_HOME), automatic plugin
 *   acquisition on, no `plugins.providers` in the project, and a PATH of the `pulumi` process
 *   holding the CLI and no `node`. The SDKs name the schema's pluginDownloadURL; the engine's
 *   override variable PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES points it at a loopback HTTP server that
 *   serves the archives. up, a preview with no changes, drift made through the API shown by
 *   `preview --refresh`, destroy; `pulumi plugin ls` shows the plugin installed, and the installed
 *   executable is the archive's.
 *
 * The archives are built once per content (the build is cached by a hash of the bundle, its
 * assets and the Node version), so only a changed plugin pays the build.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import * as grpc from "@grpc/grpc-js";
import { cliPath, makeProjectDir, ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, PYTHON_PROGRAM_RESOURCES, runPython, venvPython } from "../helpers/python";
import { buildGoProgram, GO_PROGRAM_RESOURCES, runGoProgram } from "../helpers/go";
import { defaultLayoutWarning } from "../../provider/resources/layout";
import { runs, toolchain } from "../helpers/toolchain";
import { archiveName, buildPluginArchives, EXECUTABLE, packageVersion, TARGETS, type PluginArchive, type Target } from "../../scripts/plugin-binary";
import { installedPlugins, serveArchives, userEnv, type PluginMirror } from "../helpers/pluginMirror";
import { stateDir } from "../../scripts/workspace";
import { startPrintingPort } from "../helpers/portPrinter";
import { programSecrets } from "../helpers/programSecrets";

const VERSION = packageVersion();
const TARGET_NAMES = Object.keys(TARGETS) as Target[];
/** The host's target, the one the engine on this machine asks for. */
const HOST: Target = process.arch === "arm64" ? "linux-arm64" : "linux-amd64";

/** The arm64 emulator and the arm64 libraries it needs for a dynamically linked Node. */
const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";
const hasQemu = spawnSync("qemu-aarch64", ["--version"], { stdio: "ignore" }).status === 0 && existsSync(path.join(ARM64_SYSROOT, "lib/ld-linux-aarch64.so.1"));
if (!hasQemu) {
  process.stderr.write("test/e2e/pluginBinary.test.ts: the linux-arm64 check is skipped: qemu-aarch64 (Debian's qemu-user) or the arm64 libraries (libc6-arm64-cross, libstdc++6-arm64-cross) are not installed\n");
}
const hasGo = toolchain("test/e2e/pluginBinary.test.ts", runs("go", ["version"]), "go is not on PATH (the Go program is built with it)");
if (!hasGo) process.stderr.write("test/e2e/pluginBinary.test.ts: the Go program is skipped: go is not on PATH (the inline program is built with it)\n");

/** The archives of this run, by target (built or reused by content in beforeAll). */
const built = {} as Record<Target, PluginArchive>;

beforeAll(async () => {
  const started = Date.now();
  for (const a of await buildPluginArchives({ targets: TARGET_NAMES, log: (l) => process.stderr.write(`${l}\n`) })) built[a.target] = a;
  process.stderr.write(`test/e2e/pluginBinary.test.ts: archives ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

/** The entries of a .tar.gz: path, mode and size. */
async function entries(archive: string): Promise<{ path: string; mode: number; size: number; type: string }[]> {
  const tar = require("tar") as typeof import("tar");
  const list: { path: string; mode: number; size: number; type: string }[] = [];
  await tar.t({ file: archive, onReadEntry: (e) => list.push({ path: e.path, mode: e.mode ?? 0, size: e.size ?? 0, type: e.type }) });
  return list;
}

/** Extracts an archive into a new temp folder. */
async function extract(archive: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "notify-plugin-bin-"));
  await (require("tar") as typeof import("tar")).x({ file: archive, cwd: dir });
  return dir;
}

/**
 * From a plugin on `port`: GetPluginInfo's version, GetSchema's text, and the failures of a Check
 * of an Integration whose channel is not one the service knows (a Check loads the resource's
 * implementation module, which the bundle must hold, and needs no service).
 */
async function pluginInfo(port: number): Promise<{ version: string; schema: string; checkFailures: { property: string; reason: string }[] }> {
  const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
  const provproto = require("@pulumi/pulumi/proto/provider_pb");
  const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
  const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    const call = <T>(method: string, req: unknown) => new Promise<T>((resolve, reject) => client[method](req, (e: Error | null, r: T) => (e ? reject(e) : resolve(r))));
    const info = await call<{ getVersion(): string }>("getPluginInfo", new Empty());
    const schema = await call<{ getSchema(): string }>("getSchema", new provproto.GetSchemaRequest());
    const check = new provproto.CheckRequest();
    check.setUrn("urn:pulumi:test::notify-binary::notify:index:Integration::fax");
    check.setOlds(Struct.fromJavaScript({}));
    check.setNews(Struct.fromJavaScript({ identifier: "fax", name: "Fax", providerId: "sendgrid", channel: "fax" }));
    const checked = await call<{ getFailuresList(): { getProperty(): string; getReason(): string }[] }>("check", check);
    const checkFailures = checked.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
    return { version: info.getVersion(), schema: schema.getSchema(), checkFailures };
  } finally {
    client.close();
  }
}

describe("the plugin archives of npm run plugin-binary", () => {
  it("are named as the engine asks for them and hold the executable (mode 0755) and the LICENSE at the top level", async () => {
    for (const target of TARGET_NAMES) {
      const a = built[target];
      // The engine's name: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz (httpSource.Download).
      expect(path.basename(a.archive)).toBe(`pulumi-resource-notify-v${VERSION}-${target}.tar.gz`);
      expect(archiveName(target)).toBe(path.basename(a.archive));
      const list = await entries(a.archive);
      expect(list.map((e) => e.path).sort()).toEqual(["LICENSE", EXECUTABLE]);
      // Regular files only: the engine's extraction (archive.ExtractTGZ) accepts files, folders and links.
      expect(list.every((e) => e.type === "File")).toBe(true);
      const exe = list.find((e) => e.path === EXECUTABLE)!;
      expect(exe.mode & 0o777).toBe(0o755);
      expect(exe.size).toBe(statSync(a.executable).size);
    }
    const dir = await extract(built[HOST].archive);
    try {
      expect(readFileSync(path.join(dir, "LICENSE"), "utf8")).toContain("Apache License");
      expect(readFileSync(path.join(dir, "LICENSE"))).toEqual(readFileSync(path.join(ROOT, "LICENSE")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`the ${HOST} executable, alone in an empty folder with an empty environment, answers GetPluginInfo, GetSchema and a Check`, async () => {
    const dir = await extract(built[HOST].archive);
    rmSync(path.join(dir, "LICENSE"));
    // No PATH (so no node), no HOME, nothing beside the executable.
    const plugin = await startPrintingPort(path.join(dir, EXECUTABLE), [], { cwd: dir, env: {} }, "the plugin");
    try {
      expect(Number.isInteger(plugin.port) && plugin.port > 0).toBe(true);
      const { version, schema, checkFailures } = await pluginInfo(plugin.port);
      expect(version).toBe(VERSION);
      expect(schema).toBe(readFileSync(path.join(ROOT, "schema.json"), "utf8"));
      expect(checkFailures).toEqual([{ property: "channel", reason: expect.stringContaining("email") }]);
      expect(plugin.stderr()).toBe("");
    } finally {
      plugin.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasQemu)("the linux-arm64 executable starts under qemu-aarch64 and answers GetPluginInfo, GetSchema and a Check", async () => {
    const dir = await extract(built["linux-arm64"].archive);
    const exe = path.join(dir, EXECUTABLE);
    expect(execFileSync("file", ["-b", exe], { encoding: "utf8" })).toMatch(/ARM aarch64/);
    const plugin = await startPrintingPort("qemu-aarch64", ["-L", ARM64_SYSROOT, exe], { cwd: dir, env: {} }, "the plugin");
    try {
      const { version, schema, checkFailures } = await pluginInfo(plugin.port);
      expect(version).toBe(VERSION);
      expect(JSON.parse(schema).name).toBe("notify");
      expect(checkFailures.map((f) => f.property)).toEqual(["channel"]);
    } finally {
      plugin.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** What every user run shares: the PATH has no node; the engine fetched the plugin once and installed the archive's executable. */
function expectInstalledFromMirror(env: Record<string, string>, requests: string[], before: number) {
  expect(spawnSync("sh", ["-c", "command -v node"], { env: { PATH: env.PATH! } }).status).not.toBe(0);
  expect(requests.slice(before)).toEqual([`GET /${archiveName(HOST)}`]);
  expect(installedPlugins(env)).toEqual([{ name: "notify", kind: "resource", version: VERSION }]);
  const installed = path.join(env.PULUMI_HOME!, "plugins", `resource-notify-v${VERSION}`, EXECUTABLE);
  expect(readFileSync(installed).equals(readFileSync(built[HOST].executable))).toBe(true);
}

describe("the engine fetches and installs the plugin binary for a Python and a Go program, with no Node.js on PATH", () => {
  let emu: TestEmulator;
  let mirror: PluginMirror;
  const dirs: string[] = [];

  beforeAll(async () => {
    mirror = await serveArchives(Object.values(built).map((a) => a.archive));
    // Development: the programs link an agent's integrations, which the service takes only in environments of type development.
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=Development`, "binary-second-key=second"], hideCredentials: false });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
  });
  afterAll(async () => {
    await emu?.close();
    await mirror?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Renames an integration behind the engine's back. */
  const renameByHand = async (identifier: string, name: string) => {
    const integ = (await emu.state()).integrations.find((i) => i.identifier === identifier && !i.deleted);
    expect((await emu.api("PUT", `/v1/integrations/${integ._id}`, { name })).status).toBe(200);
  };
  const liveIdentifiers = async () => (await emu.state()).integrations.filter((i) => !i.deleted).map((i) => i.identifier).sort();

  describe.skipIf(!hasPython("test/e2e/pluginBinary.test.ts"))("Python", () => {
    const program = path.join(ROOT, "test/e2e/python/inline_program.py");
    let python: string;
    let dir: string;
    let env: Record<string, string>;
    const run = (op: "up" | "preview" | "preview-refresh" | "destroy") =>
      runPython(python, program, op, dir, { config: { ...emu.stackConfig(), ...programSecrets("notify-python") }, second: { url: emu.url, key: "binary-second-key" } }, env);

    beforeAll(() => {
      python = venvPython();
      dir = makeProjectDir("notify-binary-python-");
      dirs.push(dir);
      // No `plugins.providers`: the engine finds the plugin by itself.
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-python", runtime: "python", backend: { url: `file://${stateDir(dir)}` } }));
      env = userEnv(dir, mirror.url);
    });

    it("up downloads and installs the plugin, then creates the resources", async () => {
      const before = mirror.requests.length;
      const up = await run("up");
      expect(up.changes).toEqual({ create: PYTHON_PROGRAM_RESOURCES });
      expect(await liveIdentifiers()).toEqual(["py-sendgrid", "py-sendgrid", "py-slack"]);
      expect(up.outputs.aliceName.value).toBe("Alice");
      expectInstalledFromMirror(env, mirror.requests, before);
    });

    it("a second preview has no changes, and downloads nothing", async () => {
      const before = mirror.requests.length;
      expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
      expect(mirror.requests.length).toBe(before);
    });

    it("preview --refresh shows drift made through the API", async () => {
      await renameByHand("py-slack", "Renamed by hand (Python)");
      const preview = await run("preview-refresh");
      expect(preview.diffs).toEqual({ slack: { op: "update", detailed: { name: "update" } } });
      expect(preview.stdout).toContain("Renamed by hand (Python)");
    });

    it("destroy deletes everything it made, but the environment's default layout, which a warning on it says it leaves", async () => {
      const destroy = await run("destroy");
      expect(destroy.changes).toEqual({ delete: PYTHON_PROGRAM_RESOURCES });
      expect(await liveIdentifiers()).toEqual([]);
      // The executable finds the engine's address among its arguments as the script does.
      expect(destroy.warnings).toEqual([{ urn: expect.stringMatching(/::notify:index:Layout::frame$/), message: defaultLayoutWarning("py-frame") }]);
    });
  });

  describe.skipIf(!hasGo)("Go", () => {
    let bin: string;
    let dir: string;
    let env: Record<string, string>;
    const run = async (op: "up" | "preview" | "preview-refresh" | "destroy") => (await runGoProgram(bin, op, env, {
      workDir: dir,
      pulumiRoot: path.dirname(path.dirname(cliPath())),
      config: { ...emu.stackConfig(), ...programSecrets("notify-go") },
      second: { apiUrl: emu.url, apiKey: "binary-second-key" },
    })).result;

    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), "notify-binary-go-"));
      dirs.push(dir);
      bin = path.join(dir, "notify-go-program");
      buildGoProgram(bin);
      mkdirSync(stateDir(dir), { recursive: true });
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-go", runtime: "go", backend: { url: `file://${stateDir(dir)}` } }));
      env = userEnv(dir, mirror.url);
    });

    it("up downloads and installs the plugin, then creates the resources", async () => {
      const before = mirror.requests.length;
      const up = await run("up");
      expect(up.changes).toEqual({ create: GO_PROGRAM_RESOURCES });
      expect(await liveIdentifiers()).toEqual(["go-second-sendgrid", "go-sendgrid", "go-slack"]);
      expect(up.outputs.aliceName.value).toBe("Alice");
      expectInstalledFromMirror(env, mirror.requests, before);
    });

    it("a second preview has no changes, and downloads nothing", async () => {
      const before = mirror.requests.length;
      expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
      expect(mirror.requests.length).toBe(before);
    });

    it("preview --refresh shows drift made through the API", async () => {
      await renameByHand("go-slack", "Renamed by hand (Go)");
      const preview = await run("preview-refresh");
      expect(preview.diffs).toEqual({ slack: { op: "update", detailed: { name: "update" }, diffs: ["name"] } });
      expect(preview.stdout).toContain("Renamed by hand (Go)");
    });

    it("destroy deletes everything it made", async () => {
      expect((await run("destroy")).changes).toEqual({ delete: GO_PROGRAM_RESOURCES });
      expect(await liveIdentifiers()).toEqual([]);
    });
  });
});
