/**
 * The release, rehearsed end to end on loopback, with the install commands read from the README
 * (the one place they are written, scripts/release.ts installCommands) and run as written:
 *
 * - In a copy of the checkout, the README's first command of the "before a release" block,
 *   `npm run release -- build`, builds every artifact once (dist/release/).
 * - They are published as .github/workflows/release.yml publishes them: the npm tarballs with
 *   `npm publish` to verdaccio, the sdist and wheel with twine to pypiserver (both real registry
 *   servers from their own packages, fronting the public registries for everything else), the Go
 *   module in a Go module proxy folder (GOPROXY=file://), and the plugin archives on a loopback
 *   mirror the engine downloads from (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES in place of the GitHub
 *   release).
 * - After a release: in empty directories, with only the registries' addresses changed, the
 *   README's `npm install`, `pip install` and `go get`, then a program in each language: the
 *   README's `npx notify-run` commands for TypeScript (up, a preview that must find no change,
 *   destroy), the Python and Go programs of the suite (test/e2e/python, test/e2e/go) with an empty
 *   plugin cache: up (the engine downloads the plugin), an empty preview, destroy.
 * - Exported projects: `npx notify-export` of the installed package writes a project in each
 *   language whose manifest installs as written from the registries (no E404, no missing
 *   version), and whose first up takes the environment over writing nothing.
 * - Before a release: the rest of that README block, against the copy's artifacts: `npm install`
 *   of the tarball, `pip install` of the wheel, the Go module replaced by the copy's sdk/go and
 *   tidied, the plugin installed with `pulumi plugin install --file` (automatic download off),
 *   and the same programs.
 * - The connection block (`pulumi config set ...`) is run as written, with the emulator's address
 *   and key in place of the placeholders.
 *
 * A README command this file does not know fails the first test: no install command in the
 * README that the rehearsal does not run.
 *
 * Needs the network for what the loopback registries front (the public npm registry, PyPI and the
 * Go module proxy, as their caches allow) and python3 and go; the plugin archives are the cached build of
 * scripts/plugin-binary.ts when the plugin did not change.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cliEnv, cliPath, ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, PYTHON_PROGRAM_RESOURCES, runPython } from "../helpers/python";
import { GO_PROGRAM_DIR, GO_PROGRAM_RESOURCES, runGoProgram } from "../helpers/go";
import { runJsonDriver } from "../helpers/driver";
import { copyCheckout } from "../helpers/checkoutCopy";
import { installedPlugins, serveArchives, userEnv, type PluginMirror } from "../helpers/pluginMirror";
import { startPypiServer, startVerdaccio, type Registry } from "../helpers/registries";
import { runs, toolchain } from "../helpers/toolchain";
import { currentVersion, installCommands, releaseTools, splitComment, type ReleaseManifest } from "../../scripts/release";
import { stateDir } from "../../scripts/workspace";
import { PLUGIN_DOWNLOAD_URL } from "../../scripts/schema";
import { programSecrets } from "../helpers/programSecrets";

const FILE = "test/e2e/releaseRehearsal.test.ts";
const VERSION = currentVersion();
const INSTALL = installCommands();
/** The host's plugin archive platform, the one the engine here asks for. */
const HOST = process.arch === "arm64" ? "linux-arm64" : "linux-amd64";
/** The stack every program here runs. */
const STACK = "dev";
/** The second environment's key, for the explicit provider of the Python and Go programs. */
const SECOND_KEY = "rehearsal-second-key";
/** The environment the exported projects take over. */
const EXPORT_KEY = "rehearsal-export-key";
/**
 * The environments of the before-a-release block's Python and Go programs (and their explicit
 * providers'): the same programs ran after a release in the first, and an environment's first
 * layout is its default, which the service never deletes (so a second create of it would conflict).
 */
const BEFORE_SECOND_KEY = "rehearsal-before-second-key";

const hasGo = toolchain(FILE, runs("go", ["version"]), "go is not on PATH");
const enabled = hasPython(FILE) && hasGo;

/** A README line with its placeholders filled: the checkout's path, the version, the emulator's address and key. */
function fill(command: string, values: { checkout: string; apiUrl?: string; apiKey?: string }): string {
  let out = command.replaceAll("/path/to/checkout", values.checkout).replaceAll("<version>", VERSION);
  if (values.apiUrl) out = out.replace("https://api.example.com", values.apiUrl);
  if (values.apiKey) out = out.replace("<API key>", values.apiKey);
  return out;
}

/** The lines of a page's (by default the README's) section that start with `prefix`, in its ```sh blocks (its notify-run commands, ...). */
function readmeLines(section: string, prefix: string, page = "README.md"): string[] {
  const readme = readFileSync(path.join(ROOT, page), "utf8");
  const text = readme.split(/^(?=## )/m).find((s) => s.startsWith(`## ${section}\n`)) ?? "";
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split("\n")).map((l) => splitComment(l).command).filter((l) => l.startsWith(prefix));
}

/**
 * Runs a shell line in `cwd` with `env`; resolves with its exit status and output (the test
 * decides), rejects only when the shell cannot start. The shell by its path: `env`'s PATH may
 * hold nothing but the CLI.
 */
function sh(line: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", line], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.once("error", reject);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.once("close", (code) => resolve({ code, out }));
  });
}

/** Like {@link sh}, and fails with the output unless it exits 0. */
async function shOk(line: string, cwd: string, env: Record<string, string>): Promise<string> {
  const r = await sh(line, cwd, env);
  if (r.code !== 0) throw new Error(`\`${line}\` exited ${r.code} in ${cwd}:\n${r.out.slice(-6000)}`);
  return r.out;
}

/** A file's integrity as npm writes it in package-lock.json (SRI, sha512). */
const integrity = (file: string) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;

/** The writes in the emulator's request log, as `METHOD route`. */
const writesOf = (log: { method: string; path: string; route?: string }[]) =>
  log.filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);

describe.skipIf(!enabled)("the release, rehearsed against registries on loopback", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-rehearsal-"));
  let checkout: string;
  let artifacts: string;
  let manifest: ReleaseManifest;
  let tools: { python: string; verdaccio: string };
  let npmRegistry: Registry & { token: string };
  let pypi: Registry;
  let mirror: PluginMirror;
  let emu: TestEmulator;
  /** The environment of a user's shell: Node.js and the CLI on PATH, the local backend's passphrase; no registry changed. */
  let shellEnv: Record<string, string>;
  /** The same, with the registries' addresses pointed at the rehearsal's. */
  let registryEnv: Record<string, string>;
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await f();
    } finally {
      timings[name] = (Date.now() - started) / 1000;
    }
  };

  beforeAll(async () => {
    // Node.js 24 (the project's) and the CLI first on PATH, as a user's shell has them.
    const base = cliEnv(tmp);
    shellEnv = {
      ...(process.env as Record<string, string>),
      PATH: [path.dirname(process.execPath), path.dirname(cliPath()), process.env.PATH ?? ""].join(path.delimiter),
      PULUMI_CONFIG_PASSPHRASE: base.PULUMI_CONFIG_PASSPHRASE!,
      // The CLI's own folder (workspaces, plugins) is the rehearsal's, not the user's.
      PULUMI_HOME: path.join(tmp, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      GOTOOLCHAIN: "local",
    };
    // What `npm run` adds to the environment of the test runner would reach the commands.
    for (const k of Object.keys(shellEnv)) if (k.startsWith("npm_") && !k.startsWith("npm_config_audit") && !k.startsWith("npm_config_fund") && !k.startsWith("npm_config_update")) delete shellEnv[k];

    // The artifacts: the README's own command, in a copy of the checkout.
    checkout = copyCheckout(path.join(tmp, "checkout"));
    const build = INSTALL.checkout[0]!;
    expect(build).toBe("npm run release -- build");
    await timed("build", () => shOk(build, checkout, shellEnv));
    artifacts = path.join(checkout, "dist/release");
    manifest = JSON.parse(readFileSync(path.join(artifacts, "release.json"), "utf8")) as ReleaseManifest;
    expect(manifest.version).toBe(VERSION);

    await timed("registries", async () => {
      tools = releaseTools();
      npmRegistry = await startVerdaccio(tools.verdaccio, path.join(tmp, "verdaccio"));
      pypi = await startPypiServer(tools.python, path.join(tmp, "pypi"));
      mirror = await serveArchives(Object.values(manifest.plugin).map((f) => path.join(artifacts, f)));
    });

    // Published as the workflow publishes them.
    await timed("publish", async () => {
      const npmrc = path.join(tmp, "publish.npmrc");
      writeFileSync(npmrc, `registry=${npmRegistry.url}\n${npmRegistry.url.replace(/^http:/, "")}:_authToken=${npmRegistry.token}\n`);
      for (const tarball of Object.values(manifest.npm)) await shOk(`npm publish ${tarball} --access public --userconfig ${npmrc}`, artifacts, shellEnv);
      await shOk(`${tools.python} -m twine upload --non-interactive --disable-progress-bar --repository-url ${pypi.url} -u rehearsal -p rehearsal ${manifest.python.sdist} ${manifest.python.wheel}`, artifacts, {
        ...shellEnv, PYTHON_KEYRING_BACKEND: "keyring.backends.null.Keyring",
      });
    });

    registryEnv = {
      ...shellEnv,
      npm_config_registry: npmRegistry.url,
      PIP_INDEX_URL: `${pypi.url}simple/`,
      // The rehearsal's proxy first, the public one for every other module (a module the first
      // does not hold is a 404, which passes to the next). The checksum database has never seen the
      // rehearsal's zip: it is a registry address too, and the other modules are checked against
      // the go.sum of the suite's program.
      GOPROXY: `file://${path.join(artifacts, manifest.go.proxy)},https://proxy.golang.org`,
      GOSUMDB: "off",
      GOFLAGS: "-mod=mod",
      // Go indexes a module cache folder once, by its path (the cache's folders never change), so
      // after forgetCachedGoModule a rebuilt zip of the same version would be compiled with the old
      // file list (`undefined: Agent` beside the new agent.go, seen on a machine whose cache held an
      // older v0.1.0); the index is off for the rehearsal's builds.
      GODEBUG: "goindex=0",
    };
    // The module cache is shared with the suite's other Go builds (so their compiled packages are
    // reused); a rehearsal's earlier zip of this version would be taken from it instead of the
    // proxy's, so it goes first.
    forgetCachedGoModule(manifest.go.module, VERSION);

    emu = await startTestEmulator({
      apiKeys: [`${API_KEY}=Development`, `${SECOND_KEY}=second`, `${EXPORT_KEY}=export`, `${BEFORE_SECOND_KEY}=before-second`], hideCredentials: false,
    });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    // The programs link an agent's integrations, which the service takes only in the one environment of type development, so
    // both rehearsals run them there, one after the other; a layout made first is the default, so the programs' layouts are
    // not, and each destroy leaves nothing that the next up would meet.
    await emu.api("POST", "/v2/layouts", { layoutId: "house-default", name: "House default" });
  });

  afterAll(async () => {
    await emu?.close();
    await npmRegistry?.close();
    await pypi?.close();
    await mirror?.close();
    process.stderr.write(`${FILE}: seconds per part: ${JSON.stringify(timings)}\n`);
    // The Go module cache's files are read-only.
    spawnSync("chmod", ["-R", "u+w", tmp]);
    rmSync(tmp, { recursive: true, force: true });
  });

  it("knows every install command of the README, and they name the artifacts the release builds", () => {
    expect(INSTALL.registry).toEqual([
      "npm install pulumi-notify @pulumi/pulumi",
      "pip install pulumi_notify",
      `go get ${manifest.go.module}`,
    ]);
    const filled = INSTALL.checkout.map((c) => fill(c, { checkout }));
    expect(filled).toEqual([
      "npm run release -- build",
      `npm install ${path.join(artifacts, manifest.npm["pulumi-notify"]!)} @pulumi/pulumi`,
      `pip install ${path.join(artifacts, manifest.python.wheel)}`,
      `go mod edit -replace ${manifest.go.module}=${path.join(checkout, "sdk/go")}`,
      "go mod tidy",
      `pulumi plugin install resource notify ${VERSION} --file ${path.join(artifacts, manifest.plugin[HOST]!)}`,
    ]);
    for (const line of filled) {
      const file = line.split(" ").find((w) => w.startsWith(artifacts));
      if (file) expect(existsSync(file), file).toBe(true);
    }
    expect(INSTALL.configure).toEqual(["pulumi config set notify:apiUrl https://api.example.com", "pulumi config set --secret notify:apiKey <API key>"]);
    // The checksums of what the workflow attaches to the GitHub release.
    expect(execFileSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: artifacts, encoding: "utf8" })).not.toMatch(/FAILED/);
  });

  /** A TypeScript project in `dir`: its Pulumi.yaml, a program of a topic and a workflow, the stack and its connection as the README sets it. */
  async function typescriptProject(dir: string, env: Record<string, string>): Promise<void> {
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: path.basename(dir), runtime: "nodejs", backend: { url: `file://${stateDir(dir)}` } }));
    mkdirSync(stateDir(dir), { recursive: true });
    writeFileSync(path.join(dir, "index.js"), [
      'const notify = require("pulumi-notify");',
      `const topic = new notify.Topic("releases", { key: "${path.basename(dir)}", name: "Releases" });`,
      `new notify.Workflow("welcome", { workflowId: "${path.basename(dir)}-welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] });`,
      "exports.topicKey = topic.key;",
      "",
    ].join("\n"));
    await shOk(`pulumi stack init ${STACK}`, dir, env);
    for (const line of INSTALL.configure) await shOk(fill(line, { checkout, apiUrl: emu.url, apiKey: API_KEY }), dir, env);
  }

  /** The README's notify-run commands in `dir`: up creates, the refreshing preview finds no change, destroy deletes. */
  async function notifyRunCycle(dir: string, env: Record<string, string>): Promise<void> {
    const [up, preview, destroy] = readmeLines("Run your own program", "npx notify-run");
    expect([up, preview, destroy]).toEqual([`npx notify-run up --stack ${STACK}`, "npx notify-run preview --refresh --expect-no-changes", "npx notify-run destroy --run-program"]);
    const key = path.basename(dir);
    await shOk(up!, dir, env);
    expect((await emu.state()).topics.map((t: { key: string }) => t.key)).toContain(key);
    await emu.clearRequests();
    await shOk(preview!, dir, env);
    expect(writesOf(await emu.requests())).toEqual([]);
    await shOk(destroy!, dir, env);
    expect((await emu.state()).topics.map((t: { key: string }) => t.key)).not.toContain(key);
  }

  /** A fresh venv in `dir/venv`, and the environment whose `pip` and `python` are its own. */
  function venv(dir: string, env: Record<string, string>): { python: string; env: Record<string, string> } {
    execFileSync("python3", ["-m", "venv", path.join(dir, "venv")], { stdio: "ignore" });
    return { python: path.join(dir, "venv/bin/python"), env: { ...env, PATH: `${path.join(dir, "venv/bin")}${path.delimiter}${env.PATH}`, VIRTUAL_ENV: path.join(dir, "venv") } };
  }

  /** The installed distribution's version in a venv, and where pip says it came from. */
  const pipShow = (python: string) => execFileSync(python, ["-m", "pip", "show", "pulumi_notify"], { encoding: "utf8" });

  /** A Go project in `dir` around the suite's program: its main.go, and its requirements less the Go SDK (which the README's command adds). */
  function goProject(dir: string): void {
    copyFileSync(path.join(GO_PROGRAM_DIR, "main.go"), path.join(dir, "main.go"));
    const mod = readFileSync(path.join(GO_PROGRAM_DIR, "go.mod"), "utf8").split("\n")
      .filter((l) => !l.includes("pulumi-notify/pulumi-notify/sdk/go")).join("\n").replace(/^module .*$/m, "module example.com/notify-rehearsal");
    writeFileSync(path.join(dir, "go.mod"), mod);
    copyFileSync(path.join(GO_PROGRAM_DIR, "go.sum"), path.join(dir, "go.sum"));
  }

  /** The stack config of the environment of `key`. */
  const configOf = (key: string, project: string) => ({ "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: key, secret: true }, ...programSecrets(project) });
  /** The Python program's operations in `dir`, in the environments of `keys`, the engine getting the plugin as `env` says. */
  const pythonRun = (python: string, dir: string, env: Record<string, string>, keys = [API_KEY, SECOND_KEY]) => (op: "up" | "preview" | "destroy") =>
    runPython(python, path.join(ROOT, "test/e2e/python/inline_program.py"), op, dir, { config: configOf(keys[0]!, "notify-rehearsal-python"), second: { url: emu.url, key: keys[1]! } }, env);
  const goRun = (bin: string, dir: string, env: Record<string, string>, keys = [API_KEY, SECOND_KEY]) => async (op: "up" | "preview" | "destroy") => (await runGoProgram(bin, op, env, {
    workDir: dir, pulumiRoot: path.dirname(path.dirname(cliPath())), config: configOf(keys[0]!, "notify-rehearsal-go"), second: { apiUrl: emu.url, apiKey: keys[1]! },
  })).result;

  /** up creates `count` resources, a preview finds no change, destroy deletes them. */
  async function cycle(run: (op: "up" | "preview" | "destroy") => Promise<any>, count: number): Promise<void> {
    expect((await run("up")).changes).toEqual({ create: count });
    expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
    expect((await run("destroy")).changes).toEqual({ delete: count });
  }

  /** The host's plugin archive was fetched once from the mirror, and is the plugin the engine installed. */
  function expectPluginFromMirror(env: Record<string, string>, before: number): void {
    expect(mirror.requests.slice(before)).toEqual([`GET /${manifest.plugin[HOST]}`]);
    expect(installedPlugins(env)).toEqual([{ name: "notify", kind: "resource", version: VERSION }]);
  }

  describe("after a release: the README's commands against the registries", () => {
    it("TypeScript: `npm install pulumi-notify @pulumi/pulumi` installs the published package; notify-run's up, no-change preview and destroy", async () => {
      const dir = path.join(tmp, "ts-registry");
      mkdirSync(dir);
      await timed("ts-install", () => shOk(INSTALL.registry[0]!, dir, registryEnv));
      expect(JSON.parse(readFileSync(path.join(dir, "node_modules/pulumi-notify/package.json"), "utf8")).version).toBe(VERSION);
      // The very tarball the release built and published.
      const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8"));
      expect(lock.packages["node_modules/pulumi-notify"].integrity).toBe(integrity(path.join(artifacts, manifest.npm["pulumi-notify"]!)));
      await typescriptProject(dir, registryEnv);
      await timed("ts-run", () => notifyRunCycle(dir, registryEnv));
    });

    it("Python: `pip install pulumi_notify` installs the published package; the engine downloads the plugin; up, no-change preview, destroy", async () => {
      const dir = path.join(tmp, "py-registry");
      mkdirSync(dir);
      const { python, env } = venv(dir, registryEnv);
      await timed("py-install", () => shOk(INSTALL.registry[1]!, dir, env));
      expect(pipShow(python)).toMatch(new RegExp(`^Version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-rehearsal-python", runtime: "python", backend: { url: `file://${stateDir(dir)}` } }));
      mkdirSync(stateDir(dir), { recursive: true });
      const runEnv = { ...userEnv(dir, mirror.url), PATH: `${path.join(dir, "venv/bin")}${path.delimiter}${path.dirname(cliPath())}` };
      const before = mirror.requests.length;
      await timed("py-run", () => cycle(pythonRun(python, dir, runEnv), PYTHON_PROGRAM_RESOURCES));
      expectPluginFromMirror(runEnv, before);
    });

    it("Go: `go get` of the Go SDK resolves the module from the proxy; the engine downloads the plugin; up, no-change preview, destroy", async () => {
      const dir = path.join(tmp, "go-registry");
      mkdirSync(dir);
      goProject(dir);
      await timed("go-install", () => shOk(INSTALL.registry[2]!, dir, registryEnv));
      expect(readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(`${manifest.go.module} v${VERSION}`);
      await timed("go-build", () => shOk("go build -o program .", dir, registryEnv));
      mkdirSync(stateDir(dir), { recursive: true });
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-rehearsal-go", runtime: "go", backend: { url: `file://${stateDir(dir)}` } }));
      const runEnv = userEnv(dir, mirror.url);
      const before = mirror.requests.length;
      await timed("go-run", () => cycle(goRun(path.join(dir, "program"), dir, runEnv), GO_PROGRAM_RESOURCES));
      expectPluginFromMirror(runEnv, before);
    });
  });

  it("`pulumi plugin install resource notify <version> --server <the release>` (docs/python-go.md) fetches the release's archive ahead of time", async () => {
    // As written, its words wrapped over lines; the release's address is the schema's pluginDownloadURL.
    const line = /`(pulumi\s+plugin\s+install\s+resource\s+notify\s+<version>\s+--server\s+\S+)`/.exec(readFileSync(path.join(ROOT, "docs/python-go.md"), "utf8"))?.[1]?.replace(/\s+/g, " ");
    expect(line).toBe(`pulumi plugin install resource notify <version> --server ${PLUGIN_DOWNLOAD_URL.replace("${VERSION}", "<version>")}`);
    const dir = path.join(tmp, "plugin-ahead");
    mkdirSync(dir);
    const env = userEnv(dir, mirror.url);
    const before = mirror.requests.length;
    await shOk(fill(line!, { checkout }), dir, env);
    expectPluginFromMirror(env, before);
  });

  describe("an exported project installs its manifest as written and takes its environment over", () => {
    const exportEnv = () => ({ ...registryEnv, NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: EXPORT_KEY });
    beforeAll(async () => {
      const api = (method: string, route: string, body: unknown) => emu.apiAs(EXPORT_KEY, method, route, body);
      expect((await api("POST", "/v2/topics", { key: "exported-topic", name: "Exported" })).status).toBeLessThan(300);
      expect((await api("POST", "/v2/workflows", { workflowId: "exported-welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] })).status).toBeLessThan(300);
    });
    /** `npx notify-export` as docs/export.md writes it, from the project where the registry's package is installed, for `language`. */
    async function exportAs(language: "typescript" | "python" | "go", out: string): Promise<void> {
      const line = readmeLines("The three commands", "npx notify-export", "docs/export.md")[0]!;
      expect(line).toBe("npx notify-export --language typescript --out notify-prod");
      await shOk(line.replace("typescript", language).replace("notify-prod", out), path.join(tmp, "ts-registry"), exportEnv());
    }
    const takeOverWrites = async (run: () => Promise<unknown>) => {
      await emu.clearRequests();
      await run();
      return writesOf(await emu.requests());
    };

    it("TypeScript: `npm install` of the written package.json resolves every package; its first up writes nothing", async () => {
      const out = path.join(tmp, "export-ts");
      await exportAs("typescript", out);
      await timed("export-ts-install", () => shOk("npm install", out, registryEnv));
      expect(JSON.parse(readFileSync(path.join(out, "node_modules/pulumi-notify/package.json"), "utf8")).version).toBe(VERSION);
      // Compiled, then run by the installed runner (no language host here).
      await shOk("npx tsc", out, registryEnv);
      writeFileSync(path.join(out, "Pulumi.yaml"), readFileSync(path.join(out, "Pulumi.yaml"), "utf8") + `backend:\n  url: file://${stateDir(out)}\n`);
      mkdirSync(stateDir(out), { recursive: true });
      const env = { ...registryEnv, NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: EXPORT_KEY };
      expect(await takeOverWrites(() => shOk(`npx notify-run up --stack ${STACK} --program bin/index.js`, out, env))).toEqual([]);
      expect((await sh(`npx notify-run preview --refresh --expect-no-changes --stack ${STACK} --program bin/index.js`, out, env)).code).toBe(0);
    });

    it("Python: `pip install -r requirements.txt` resolves the pinned pulumi-notify; its first up writes nothing", async () => {
      const out = path.join(tmp, "export-py");
      await exportAs("python", out);
      const { python, env } = venv(out, registryEnv);
      await timed("export-py-install", () => shOk("pip install -r requirements.txt", out, env));
      expect(pipShow(python)).toMatch(new RegExp(`^Version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
      const dir = path.join(tmp, "export-py-stack");
      mkdirSync(stateDir(dir), { recursive: true });
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "exported", runtime: "python", backend: { url: `file://${stateDir(dir)}` } }));
      const runEnv = { ...userEnv(dir, mirror.url), PATH: `${path.join(out, "venv/bin")}${path.delimiter}${path.dirname(cliPath())}` };
      const run = (op: "up" | "preview") => runPython(python, path.join(ROOT, "test/e2e/python/run_export.py"), op, dir, {
        projectName: "exported", program: path.join(out, "__main__.py"), config: { "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: EXPORT_KEY, secret: true } },
      }, runEnv);
      let up: any;
      expect(await takeOverWrites(async () => (up = await run("up")))).toEqual([]);
      expect(up.changes.import).toBeGreaterThan(0);
      expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
    });

    it("Go: `go mod tidy` of the written go.mod resolves the SDK's version from the proxy; its first up writes nothing", async () => {
      const out = path.join(tmp, "export-go");
      await exportAs("go", out);
      await timed("export-go-install", () => shOk("go mod tidy", out, registryEnv));
      expect(readFileSync(path.join(out, "go.sum"), "utf8")).toContain(`${manifest.go.module} v${VERSION} h1:`);
      // The written main.go as the program of test/e2e/go-export/driver.go, in the written module.
      writeFileSync(path.join(out, "main.go"), readFileSync(path.join(out, "main.go"), "utf8").replace(/^func main\(\) \{$/m, "func exportedMain() {"));
      copyFileSync(path.join(ROOT, "test/e2e/go-export/driver.go"), path.join(out, "driver.go"));
      await shOk("go mod tidy && go build -o program .", out, registryEnv);
      const dir = path.join(tmp, "export-go-stack");
      mkdirSync(stateDir(dir), { recursive: true });
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "exported", runtime: "go", backend: { url: `file://${stateDir(dir)}` } }));
      const runEnv = userEnv(dir, mirror.url);
      const settings = { workDir: dir, pulumiRoot: path.dirname(path.dirname(cliPath())), projectName: "exported", config: { "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: EXPORT_KEY, secret: true } } };
      const run = async (op: string) => (await runJsonDriver<any>(`the exported Go program's ${op}`, path.join(out, "program"), [op], runEnv, settings)).result;
      let up: any;
      expect(await takeOverWrites(async () => (up = await run("up")))).toEqual([]);
      expect(up.changes.import).toBeGreaterThan(0);
      expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
    });
  });

  describe("before a release: the README's commands against the checkout's artifacts", () => {
    /** One plugin cache for the block: `pulumi plugin install` is once per machine; automatic download off, so the plugin can only be the installed one. */
    let pluginEnv: (dir: string) => Record<string, string>;
    beforeAll(async () => {
      const home = path.join(tmp, "checkout-pulumi-home");
      mkdirSync(home);
      pluginEnv = (dir) => ({ ...cliEnv(dir), PATH: path.dirname(cliPath()), HOME: process.env.HOME ?? dir, PULUMI_HOME: home, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" });
      await shOk(fill(INSTALL.checkout[5]!, { checkout }), tmp, { ...shellEnv, PULUMI_HOME: home });
      expect(installedPlugins(pluginEnv(tmp))).toEqual([{ name: "notify", kind: "resource", version: VERSION }]);
    });

    it("TypeScript: `npm install` of the tarball; notify-run's up, no-change preview and destroy", async () => {
      const dir = path.join(tmp, "ts-checkout");
      mkdirSync(dir);
      await shOk(fill(INSTALL.checkout[1]!, { checkout }), dir, registryEnv);
      const spec = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).dependencies["pulumi-notify"] as string;
      expect(path.resolve(dir, spec.replace(/^file:/, ""))).toBe(path.join(artifacts, manifest.npm["pulumi-notify"]!));
      await typescriptProject(dir, registryEnv);
      await notifyRunCycle(dir, registryEnv);
    });

    it("Python: `pip install` of the wheel; the installed plugin; up, no-change preview, destroy", async () => {
      const dir = path.join(tmp, "py-checkout");
      mkdirSync(dir);
      const { python, env } = venv(dir, registryEnv);
      await shOk(fill(INSTALL.checkout[2]!, { checkout }), dir, env);
      expect(pipShow(python)).toMatch(new RegExp(`^Version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-rehearsal-python", runtime: "python", backend: { url: `file://${stateDir(dir)}` } }));
      mkdirSync(stateDir(dir), { recursive: true });
      const runEnv = { ...pluginEnv(dir), PATH: `${path.join(dir, "venv/bin")}${path.delimiter}${path.dirname(cliPath())}` };
      await cycle(pythonRun(python, dir, runEnv, [API_KEY, BEFORE_SECOND_KEY]), PYTHON_PROGRAM_RESOURCES);
    });

    it("Go: the module replaced by the checkout's sdk/go and tidied; the installed plugin; up, no-change preview, destroy", async () => {
      const dir = path.join(tmp, "go-checkout");
      mkdirSync(dir);
      goProject(dir);
      // The other modules from the public proxy, as a user's go command gets them.
      const env = { ...shellEnv, GOFLAGS: "-mod=mod" };
      await shOk(fill(INSTALL.checkout[3]!, { checkout }), dir, env);
      await shOk(INSTALL.checkout[4]!, dir, env);
      expect(readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(`${manifest.go.module} => ${path.join(checkout, "sdk/go")}`);
      await shOk("go build -o program .", dir, env);
      writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ name: "notify-rehearsal-go", runtime: "go", backend: { url: `file://${stateDir(dir)}` } }));
      mkdirSync(stateDir(dir), { recursive: true });
      await cycle(goRun(path.join(dir, "program"), dir, pluginEnv(dir), [API_KEY, BEFORE_SECOND_KEY]), GO_PROGRAM_RESOURCES);
    });
  });
});

/**
 * Removes `module@v<version>` from Go's module cache (its extracted folder and its downloads), so
 * the next resolution reads the rehearsal's proxy. The cache's files are read-only.
 */
function forgetCachedGoModule(module: string, version: string): void {
  const cache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  const targets = [path.join(cache, `${module}@v${version}`), path.join(cache, "cache/download", module, "@v")];
  for (const t of targets) {
    if (!existsSync(t)) continue;
    const writable = (p: string) => {
      chmodSync(p, 0o755);
      for (const e of readdirSync(p, { withFileTypes: true })) if (e.isDirectory()) writable(path.join(p, e.name));
    };
    writable(t);
    rmSync(t, { recursive: true, force: true });
  }
}
