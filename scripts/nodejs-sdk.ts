/**
 * The typed TypeScript SDK of the native plugin, sdk/nodejs (written by `npm run gen-sdk`, never by
 * hand), as a program loads it: compiled to JavaScript in dist/sdk/nodejs with its package.json
 * beside the code (the layout Pulumi's providers publish: the generated `tsc` output with the
 * package.json copied in, which the SDK's utilities read for the plugin version its resources ask
 * the engine for), then linked by its package name into a project's node_modules.
 *
 * The compiled output is not committed: it is derived from the committed sources, so `npm run
 * setup` and the test suite's global setup build it (again only when the sources changed).
 *
 * Usage: node dist/scripts/nodejs-sdk.js   (builds dist/sdk/nodejs and prints its path)
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./workspace";

/** The generated sources. */
export const NODEJS_SDK_SOURCE = path.join(REPO_ROOT, "sdk/nodejs");
/** Where {@link buildNodejsSdk} compiles them. */
export const NODEJS_SDK_DIR = path.join(REPO_ROOT, "dist/sdk/nodejs");
/** The file that records which sources the compiled SDK was built from. */
const STAMP = ".sources.sha256";

/** The SDK's npm name (`language.nodejs.packageName` of the schema, as the generator wrote it). */
export function nodejsSdkName(): string {
  return (JSON.parse(readFileSync(path.join(NODEJS_SDK_SOURCE, "package.json"), "utf8")) as { name: string }).name;
}

/** A hash of every file under sdk/nodejs, names and contents. */
function sourcesHash(dir = NODEJS_SDK_SOURCE, sub = "", h = createHash("sha256")): string {
  for (const e of readdirSync(path.join(dir, sub), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = path.posix.join(sub, e.name);
    if (e.isDirectory()) sourcesHash(dir, rel, h);
    else h.update(`${rel}\0`).update(readFileSync(path.join(dir, rel))).update("\0");
  }
  return sub === "" ? h.digest("hex") : "";
}

/**
 * Compiles sdk/nodejs into dist/sdk/nodejs with its own tsconfig.json and this package's
 * TypeScript (resolving `@pulumi/pulumi` from this package's node_modules), unless the output
 * was built from the same sources. Throws with the compiler's messages when it does not compile.
 */
export function buildNodejsSdk(): string {
  const hash = sourcesHash();
  const stamp = path.join(NODEJS_SDK_DIR, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return NODEJS_SDK_DIR;
  rmSync(NODEJS_SDK_DIR, { recursive: true, force: true });
  mkdirSync(NODEJS_SDK_DIR, { recursive: true });
  const tsc = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", path.join(NODEJS_SDK_SOURCE, "tsconfig.json"), "--outDir", NODEJS_SDK_DIR], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`sdk/nodejs does not compile:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
  copyFileSync(path.join(NODEJS_SDK_SOURCE, "package.json"), path.join(NODEJS_SDK_DIR, "package.json"));
  writeFileSync(stamp, hash);
  return NODEJS_SDK_DIR;
}

/** Links the compiled SDK into `dir`'s node_modules under its package name (build it first). */
export function linkNodejsSdk(dir: string): void {
  const at = path.join(dir, "node_modules", ...nodejsSdkName().split("/"));
  mkdirSync(path.dirname(at), { recursive: true });
  if (!existsSync(at)) symlinkSync(NODEJS_SDK_DIR, at, "dir");
}

if (require.main === module) {
  process.stdout.write(`${buildNodejsSdk()}\n`);
}
