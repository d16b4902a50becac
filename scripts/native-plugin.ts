/**
 * Builds an installable folder of the native provider plugin `pulumi-resource-notify`:
 *
 *   pulumi-resource-notify   the wrapper (bin/pulumi-resource-notify)
 *   package.json, schema.json
 *   dist/provider/           the compiled provider (npm run build first)
 *   node_modules/            the runtime dependencies, copied (no symlinks: `pulumi plugin install
 *                            --file` refuses them), and the package's Node unless --no-node
 *
 * Usage: node dist/scripts/native-plugin.js [--no-node] [<dir>]
 * The default folder is ${PULUMI_NOTIFY_CACHE:-$XDG_CACHE_HOME/pulumi-notify}/plugin-notify-v<version>;
 * it is replaced. The folder's path is printed; install it with
 * `pulumi plugin install resource notify <version> --file <dir>`.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./workspace";

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;
}

/** The directory Node's resolution finds package `name` in, starting from `from` (inside REPO_ROOT). */
function findPackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === REPO_ROOT || dir === path.dirname(dir)) return undefined;
  }
}

/**
 * The installed packages the provider needs at run time: the package's dependencies, its peer
 * `@pulumi/pulumi`, what the server loads directly, and theirs, transitively, as installed here.
 */
export function runtimePackages(): string[] {
  const own = readPackage(REPO_ROOT);
  const roots = [...Object.keys(own.dependencies ?? {}), ...Object.keys(own.peerDependencies ?? {}), "@grpc/grpc-js", "google-protobuf"];
  const found = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    const dir = findPackage(name, from);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} (needed from ${path.relative(REPO_ROOT, from) || "."}) is not installed; run npm ci`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = readPackage(dir);
    for (const d of Object.keys(pkg.dependencies ?? {})) visit(d, dir, false);
    for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(d, dir, true);
    for (const d of Object.keys(pkg.peerDependencies ?? {})) visit(d, dir, true);
  };
  for (const r of roots) visit(r, REPO_ROOT, false);
  return [...found].sort();
}

/** Builds the plugin folder at `dest` (replacing it); with `node`, the package's Node goes in too. */
export function buildPluginFolder(dest: string, opts: { node?: boolean } = {}): string {
  const server = path.join(REPO_ROOT, "dist/provider/native/main.js");
  if (!existsSync(server)) throw new Error(`${path.relative(REPO_ROOT, server)} is missing; run npm run build first`);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  // Packages' .bin folders hold links to their commands, which the provider never runs.
  const copy = (from: string, to = from) => cpSync(path.join(REPO_ROOT, from), path.join(dest, to), {
    recursive: true, dereference: true, filter: (src) => path.basename(src) !== ".bin",
  });
  copy("bin/pulumi-resource-notify", "pulumi-resource-notify");
  copy("package.json");
  copy("schema.json");
  copy("dist/provider");
  for (const dir of runtimePackages()) copy(path.relative(REPO_ROOT, dir));
  if (opts.node !== false) copy("node_modules/node/bin/node");
  return dest;
}

/** The project's cache directory: $PULUMI_NOTIFY_CACHE, else $XDG_CACHE_HOME/pulumi-notify (~/.cache/pulumi-notify). */
export function cacheRoot(): string {
  return process.env.PULUMI_NOTIFY_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-notify");
}

/** The default folder: in the cache directory, named after the version. */
export function defaultPluginFolder(): string {
  return path.join(cacheRoot(), `plugin-notify-v${readPackage(REPO_ROOT).version}`);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const dest = args.find((a) => !a.startsWith("--")) ?? defaultPluginFolder();
  process.stdout.write(`${buildPluginFolder(path.resolve(dest), { node: !args.includes("--no-node") })}\n`);
}
