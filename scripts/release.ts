/**
 * A release: one version, stamped everywhere by one command, and every artifact built into one
 * folder. Usage (after `npm run build`; `npm run release -- <version>` does both):
 *
 *   node dist/scripts/release.js <version> [--date YYYY-MM-DD] [--no-build]
 *       stamps <version> (package.json and its lock, the examples' dependency, then schema.json,
 *       the SDKs and the reference pages regenerated from it), adds the CHANGELOG.md section of
 *       the commits since the previous release, writes the version's compatibility fixture
 *       (test/e2e/fixtures/release-<version>) and builds the artifacts into dist/release/
 *   node dist/scripts/release.js build [--out <dir>]     the artifacts of the version as it is
 *   node dist/scripts/release.js check-tag <tag>         fails unless <tag> is v<the version>
 *   node dist/scripts/release.js go-tag                  prints the Go module's tag
 *   node dist/scripts/release.js notes                   prints the version's CHANGELOG section
 *
 * The version's one place is package.json: everything else derives from it (schema.json's
 * `version` by `npm run schema`, the SDKs' by `npm run gen-sdk`, the plugin's GetPluginInfo and
 * archive names by reading package.json), and {@link versionPlaces} reads each place back, so a
 * test can check that they agree. The Go module has no version file: its version is its tag,
 * {@link goTag}, which the release workflow pushes.
 *
 * The artifacts ({@link buildArtifacts}): the npm tarballs of `pulumi-notify` and of the typed SDK,
 * the Python sdist and wheel (`python -m build`), the plugin archives of each platform
 * (scripts/plugin-binary.ts), all in one folder with their SHA-256 checksums in `SHA256SUMS`
 * (`sha256sum -c SHA256SUMS` checks them), and the Go module in the layout of a Go module proxy
 * (`goproxy/`, served as `GOPROXY=file://...`), its zip made by golang.org/x/mod/zip as the go
 * command makes it from the tag ({@link writeGoModule}).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPluginArchives, TARGETS, type Target } from "./plugin-binary";
import { REPO_ROOT } from "./workspace";

/** A version as semver writes it, without a leading `v`: `1.2.3` or `1.2.3-rc.1`. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** The Go SDK's folder in the repository, and so the prefix of its tags (Go's rule for a module in a subdirectory). */
export const GO_MODULE_DIR = "sdk/go";

/** Where `npm run release` writes the artifacts. */
export const RELEASE_DIR = path.join(REPO_ROOT, "dist/release");

/** The checksums file of the artifacts folder, in `sha256sum`'s format. */
export const CHECKSUMS = "SHA256SUMS";

/** The release notes file. */
export const CHANGELOG = "CHANGELOG.md";

/** Major, minor, patch and prerelease of a version; throws naming the value and the form allowed. */
export function parseVersion(version: string): { major: number; minor: number; patch: number; pre?: string } {
  const m = SEMVER.exec(version);
  if (!m) throw new Error(`version ${JSON.stringify(version)} is not a semantic version; allowed: MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-PRERELEASE, without a leading v (e.g. 0.2.0, 1.0.0-rc.1)`);
  // The Go module's path carries no major suffix (/v2): its major versions 2 and later would be a
  // different module path (Go's semantic import versioning), which go get would not find.
  if (Number(m[1]) >= 2) throw new Error(`version ${JSON.stringify(version)}: major version ${m[1]} needs the Go module path to end in /v${m[1]} (sdk/go's go.mod and language.go.importBasePath in scripts/schema.ts) first; allowed without that change: 0.x.y or 1.x.y`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), ...(m[4] ? { pre: m[4] } : {}) };
}

/** Semver precedence of a and b: negative, zero or positive (prerelease identifiers compared as semver says). */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (const k of ["major", "minor", "patch"] as const) if (x[k] !== y[k]) return x[k] - y[k];
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  const xs = x.pre.split(".");
  const ys = y.pre.split(".");
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    if (xs[i] === undefined) return -1;
    if (ys[i] === undefined) return 1;
    const [p, q] = [xs[i]!, ys[i]!];
    const [pn, qn] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (pn && qn && Number(p) !== Number(q)) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

/** The Go module's tag for `version`: the module lives in sdk/go, so its tags are `sdk/go/v<version>`. */
export function goTag(version: string): string {
  return `${GO_MODULE_DIR}/v${version}`;
}

/** The Go module's path (sdk/go/go.mod's `module` line). */
export function goModulePath(root = REPO_ROOT): string {
  const m = /^module\s+(\S+)/m.exec(readFileSync(path.join(root, GO_MODULE_DIR, "go.mod"), "utf8"));
  if (!m) throw new Error(`${GO_MODULE_DIR}/go.mod has no module line`);
  return m[1]!;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, any>;
/** JSON as npm writes package.json: two spaces, a final newline. */
const writeJson = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The version of `root`'s package.json: the one place the version is written by hand. */
export function currentVersion(root = REPO_ROOT): string {
  return readJson(path.join(root, "package.json")).version as string;
}

/** The examples' package.json files (each depends on `pulumi-notify`). */
function examplePackages(root: string): string[] {
  const dir = path.join(root, "examples");
  return readdirSync(dir).map((d) => path.join(dir, d, "package.json")).filter((f) => existsSync(f)).sort();
}

/**
 * Every place that holds the release's version, each as read: the npm package and its lock, the
 * examples' dependency range (`^<version>`, read without the caret), schema.json, the typed SDK's
 * package and its plugin version, the Python package and its plugin file, the Go SDK's plugin file
 * and the version its resources ask the engine for. Places written by the generators are read, not
 * written, by the stamp: it regenerates them.
 */
export function versionPlaces(root = REPO_ROOT): { place: string; version: string | undefined }[] {
  const rel = (f: string) => path.relative(root, f);
  const json = (file: string, ...keys: string[]) => {
    let v: any = readJson(path.join(root, file));
    for (const k of keys) v = v?.[k];
    return { place: `${file} ${keys.join(".")}`, version: typeof v === "string" ? v : undefined };
  };
  const text = (file: string, re: RegExp, what: string) => ({ place: `${file} ${what}`, version: re.exec(readFileSync(path.join(root, file), "utf8"))?.[1] });
  return [
    json("package.json", "version"),
    json("package-lock.json", "version"),
    json("package-lock.json", "packages", "", "version"),
    ...examplePackages(root).map((f) => {
      const range = readJson(f).dependencies?.["pulumi-notify"] as string | undefined;
      return { place: `${rel(f)} dependencies.pulumi-notify`, version: range?.replace(/^\^/, "") };
    }),
    json("schema.json", "version"),
    json("sdk/nodejs/package.json", "version"),
    json("sdk/nodejs/package.json", "pulumi", "version"),
    text("sdk/python/pyproject.toml", /^\s*version\s*=\s*"([^"]+)"/m, "project.version"),
    json("sdk/python/pulumi_notify/pulumi-plugin.json", "version"),
    text("sdk/python/pulumi_notify/_utilities.py", /def get_version\(\)[^\n]*\n\s+return "([^"]+)"/, "get_version()"),
    json("sdk/go/notify/pulumi-plugin.json", "version"),
    text("sdk/go/notify/internal/pulumiUtilities.go", /semver\.MustParse\("([^"]+)"\)/, "PkgVersion"),
  ];
}

/** Runs `node <root>/dist/scripts/<script>.js` in `root`, its output on stderr. */
function runScript(root: string, script: string, args: string[] = []): void {
  execFileSync(process.execPath, [path.join(root, "dist/scripts", `${script}.js`), ...args], { cwd: root, stdio: ["ignore", process.stderr, "inherit"] });
}

/**
 * Writes `version` into the hand-kept places (package.json, package-lock.json's root, the
 * examples' `pulumi-notify` range), then regenerates what derives from it: schema.json, the SDKs,
 * the reference pages and the compiled typed SDK. `root` must have been built (`npm run build`).
 */
export function stampVersion(version: string, root = REPO_ROOT, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): void {
  parseVersion(version);
  const pkgFile = path.join(root, "package.json");
  const pkg = readJson(pkgFile);
  pkg.version = version;
  writeJson(pkgFile, pkg);
  const lockFile = path.join(root, "package-lock.json");
  const lock = readJson(lockFile);
  lock.version = version;
  lock.packages[""].version = version;
  writeJson(lockFile, lock);
  for (const f of examplePackages(root)) {
    const example = readJson(f);
    if (example.dependencies?.["pulumi-notify"] !== undefined) {
      example.dependencies["pulumi-notify"] = `^${version}`;
      writeJson(f, example);
    }
  }
  log(`release: version ${version} in package.json, package-lock.json and the examples; regenerating schema.json, the SDKs and the docs`);
  runScript(root, "schema");
  runScript(root, "gen-sdk");
  runScript(root, "gen-docs");
  runScript(root, "nodejs-sdk");
}

/** One commit for the changelog: its short hash, subject, and the `Upgrade:` trailers of its message. */
interface Commit {
  hash: string;
  subject: string;
  upgrade: string[];
}

const git = (root: string, args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * The heading of the section that collects, between releases, a line per change users will see;
 * the release's section (the commits since the previous release) takes its place.
 */
export const UNRELEASED = "Unreleased";

/** The versions CHANGELOG.md has sections for, newest first (the Unreleased section is none). */
export function changelogVersions(root = REPO_ROOT): string[] {
  const file = path.join(root, CHANGELOG);
  if (!existsSync(file)) return [];
  return [...readFileSync(file, "utf8").matchAll(/^## (\S+)/gm)].map((m) => m[1]!).filter((v) => v !== UNRELEASED);
}

/**
 * The commit of the previous release: its tag `v<version>` when the repository has it, else the
 * commit that added its CHANGELOG section (the release commit, before it was tagged); undefined
 * for the first release.
 */
function previousRelease(root: string, previous: string | undefined): string | undefined {
  if (!previous) return undefined;
  try {
    return git(root, ["rev-parse", "--verify", "--quiet", `refs/tags/v${previous}^{commit}`]).trim();
  } catch {
    const added = git(root, ["log", "-1", "--format=%H", `-G^## ${previous.replace(/[.+]/g, "\\$&")} `, "--", CHANGELOG]).trim();
    if (!added) throw new Error(`${CHANGELOG} has a section for ${previous} but neither the tag v${previous} nor the commit that added the section was found`);
    return added;
  }
}

/** The commits since the previous release (none before the first), oldest first, merges left out. */
function commitsSince(root: string, since: string | undefined): Commit[] {
  if (!since) return [];
  const out = git(root, ["log", "--reverse", "--no-merges", "--format=%h%x1f%s%x1f%(trailers:key=Upgrade,valueonly,separator=%x1e)%x1d", `${since}..HEAD`]);
  return out.split("\x1d").map((r) => r.trim()).filter(Boolean).map((r) => {
    const [hash, subject, trailers] = r.split("\x1f");
    return { hash: hash!, subject: subject!, upgrade: (trailers ?? "").split("\x1e").map((t) => t.trim()).filter(Boolean) };
  });
}

/**
 * The CHANGELOG.md section of `version`: the commits since the previous release, and what a user
 * must do on the upgrade, from the commits' `Upgrade:` trailers (a commit that needs users to act
 * says so in its message, and the release notes carry it).
 */
export function changelogSection(version: string, date: string, root = REPO_ROOT): string {
  const previous = changelogVersions(root).find((v) => v !== version);
  const commits = commitsSince(root, previousRelease(root, previous));
  const upgrade = commits.flatMap((c) => c.upgrade.map((u) => `- ${u} (${c.hash})`));
  const lines = [`## ${version} (${date})`, "", "### Upgrading", ""];
  if (!previous) lines.push("The first release: nothing to upgrade from.");
  else if (upgrade.length) lines.push(...upgrade);
  else lines.push(`Nothing to do: a stack written by ${previous} previews with no changes and updates with no writes.`);
  lines.push("", "### Changes", "");
  if (!previous) lines.push("The first release of the npm packages, the Python package, the Go module and the provider plugin; what it does is in the README.");
  else if (commits.length) lines.push(...commits.map((c) => `- ${c.subject} (${c.hash})`));
  else lines.push("No changes since the previous release.");
  return `${lines.join("\n")}\n`;
}

/** The head of a new CHANGELOG.md. */
const CHANGELOG_HEAD = `# Changelog

Every release publishes one version of everything: the npm packages \`pulumi-notify\` and
\`@pulumi-notify/native\`, the Python package \`pulumi_notify\`, the Go module
\`github.com/pulumi-notify/pulumi-notify/sdk/go\` (tag \`sdk/go/v<version>\`) and the provider plugin
\`pulumi-resource-notify\`. \`npm run release -- <version>\` writes each section from the commits since the
previous release; a commit whose change needs users to act says what in an \`Upgrade:\` trailer of its
message, which the section lists under "Upgrading".
`;

/** Adds (or replaces) `version`'s section at the top of CHANGELOG.md's sections, in place of the Unreleased one. */
export function addChangelogSection(version: string, date: string, root = REPO_ROOT): void {
  const file = path.join(root, CHANGELOG);
  const section = changelogSection(version, date, root);
  const text = existsSync(file) ? readFileSync(file, "utf8") : CHANGELOG_HEAD;
  // A section of this version already there (a release command run again) is replaced.
  const sections = text.split(/^(?=## )/m);
  const head = sections.shift()!;
  const rest = sections.filter((s) => !s.startsWith(`## ${version} `) && !s.startsWith(`## ${UNRELEASED}\n`));
  writeFileSync(file, [head.trimEnd() + "\n\n", section, ...rest.map((s) => `\n${s.trimEnd()}\n`)].join(""));
}

/** The section of `version` in CHANGELOG.md, without its heading: the GitHub release's notes. */
export function releaseNotes(version = currentVersion(), root = REPO_ROOT): string {
  const text = readFileSync(path.join(root, CHANGELOG), "utf8");
  const section = text.split(/^(?=## )/m).find((s) => s.startsWith(`## ${version} `));
  if (!section) throw new Error(`${CHANGELOG} has no section for ${version}; allowed: ${changelogVersions(root).join(", ") || "(none)"}`);
  return `${section.split("\n").slice(1).join("\n").trim()}\n`;
}

/** What {@link buildArtifacts} built, as written to `release.json` in the folder. */
export interface ReleaseManifest {
  version: string;
  /** The npm tarballs, by package name (file names in the folder). */
  npm: Record<string, string>;
  /** The Python sdist and wheel. */
  python: { sdist: string; wheel: string };
  /** The plugin archives, by target. */
  plugin: Record<string, string>;
  /** The Go module: its path, tag, and the proxy folder (GOPROXY=file://<folder>). */
  go: { module: string; tag: string; proxy: string };
  /** The checksums file. */
  checksums: string;
}

/** Where scripts/release-tools/ensure installed the tools: `python` (build, twine, pypiserver) and `verdaccio`. */
export function releaseTools(root = REPO_ROOT): { python: string; verdaccio: string } {
  const out = execFileSync(path.join(root, "scripts/release-tools/ensure"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const tools = Object.fromEntries(out.trim().split("\n").map((l) => l.split("=", 2) as [string, string]));
  return { python: tools.python!, verdaccio: tools.verdaccio! };
}

/** `npm pack` of `dir` into `out`; the tarball's file name. */
function npmPack(dir: string, out: string): string {
  const json = execFileSync("npm", ["pack", dir, "--json", "--pack-destination", out], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return (JSON.parse(json) as { filename: string }[])[0]!.filename.replace(/^@/, "").replace(/\//, "-");
}

/** Where scripts/ensure-gomodzip built scripts/gomodzip (golang.org/x/mod/zip's module zips), building it on first use. */
export function gomodzip(): string {
  return execFileSync(path.join(REPO_ROOT, "scripts/ensure-gomodzip"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** What golang.org/x/mod/zip's CheckZip says of a module zip: the go command refuses it unless `Invalid` is empty and there is no `Error`. */
export interface CheckedZip {
  Valid: string[];
  Omitted: { Path: string; Err: string }[];
  Invalid: { Path: string; Err: string }[];
  SizeError?: string;
  Error?: string;
}

/** CheckZip of the zip of `module` at `version` (with its `v`), by scripts/gomodzip. */
export function checkGoModuleZip(zip: string, module: string, version: string): CheckedZip {
  const r = spawnSync(gomodzip(), ["check", "-module", module, "-version", version, zip], { encoding: "utf8" });
  if (!r.stdout) throw new Error(`gomodzip check ${zip} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as CheckedZip;
}

/**
 * The files of `dir` that git ignores, when `root` is a git checkout (else none): the go command's
 * zip from the tag cannot hold them, and a zip made from the folder would.
 */
function gitIgnored(root: string, dir: string): string[] {
  try {
    return git(root, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", dir]).split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The Go module at `version` in the layout a Go module proxy serves (the go command's GOPROXY
 * protocol, `go help goproxy`): `<module>/@v/list`, `v<version>.info`, `.mod` and `.zip`.
 *
 * The zip is golang.org/x/mod/zip's (scripts/gomodzip), the package the go command makes module
 * zips with, so it holds what the go command serves from the tag `sdk/go/v<version>`: the files of
 * sdk/go under `<module>@v<version>/` (as CreateFromDir takes them) and the repository's LICENSE, which
 * the go command adds to a subdirectory module without one. It is made from the folder, not from
 * the tag with CreateFromVCS: `npm run release -- <version>` builds the artifacts from the stamped
 * tree before it is committed and tagged, and a copy of the checkout has no .git. So a file git
 * ignores under sdk/go, which the tag would not hold, is refused.
 */
export function writeGoModule(version: string, out: string, root = REPO_ROOT, time = new Date()): { module: string; proxy: string; files: string[] } {
  const module = goModulePath(root);
  const v = `v${version}`;
  const proxy = path.join(out, "goproxy");
  // Module paths are case-encoded in the proxy's layout (an upper-case letter is !lower); this one has none.
  if (/[A-Z]/.test(module)) throw new Error(`module path ${module} has upper-case letters, which this writer does not encode`);
  const ignored = gitIgnored(root, GO_MODULE_DIR);
  if (ignored.length) throw new Error(`${GO_MODULE_DIR} has files git ignores, which the go command's zip from the tag would not hold: ${ignored.join(", ")}; remove them`);
  const at = path.join(proxy, module, "@v");
  mkdirSync(at, { recursive: true });
  const src = path.join(root, GO_MODULE_DIR);
  const zipped = execFileSync(gomodzip(), ["create", "-module", module, "-version", v, "-dir", src, "-license", path.join(root, "LICENSE"), "-out", path.join(at, `${v}.zip`)], {
    encoding: "utf8", stdio: ["ignore", "pipe", "inherit"],
  });
  copyFileSync(path.join(src, "go.mod"), path.join(at, `${v}.mod`));
  writeFileSync(path.join(at, `${v}.info`), `${JSON.stringify({ Version: v, Time: time.toISOString().replace(/\.\d+Z$/, "Z") })}\n`);
  writeFileSync(path.join(at, "list"), `${v}\n`);
  return { module, proxy, files: zipped.trim().split("\n") };
}

/** sha256 of a file, hex. */
export function sha256File(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/**
 * Builds every artifact of the version in `root` into `out` (emptied first): the two npm tarballs,
 * the Python sdist and wheel, the plugin archives of `targets` (default: every platform), the Go
 * module's proxy folder, `SHA256SUMS` of the folder's files and `release.json` naming them.
 * `root` must have been built (`npm run build`).
 */
export async function buildArtifacts(opts: { out?: string; root?: string; targets?: Target[]; log?: (line: string) => void } = {}): Promise<ReleaseManifest> {
  const root = opts.root ?? REPO_ROOT;
  const out = path.resolve(opts.out ?? path.join(root, "dist/release"));
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const version = currentVersion(root);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  // npm: the package as `npm pack` makes it from "files", and the typed SDK compiled, packed from a
  // copy without the build's stamp of its sources, with its README and the LICENSE.
  const npm: Record<string, string> = {};
  npm["pulumi-notify"] = npmPack(root, out);
  runScript(root, "nodejs-sdk");
  const sdkStage = mkdtempSync(path.join(os.tmpdir(), "notify-release-sdk-"));
  try {
    const compiled = path.join(root, "dist/sdk/nodejs");
    cpSync(compiled, sdkStage, { recursive: true, filter: (f) => path.basename(f) !== ".sources.sha256" });
    copyFileSync(path.join(root, "sdk/nodejs/README.md"), path.join(sdkStage, "README.md"));
    copyFileSync(path.join(root, "LICENSE"), path.join(sdkStage, "LICENSE"));
    const sdkName = readJson(path.join(sdkStage, "package.json")).name as string;
    if (readJson(path.join(sdkStage, "package.json")).version !== version) throw new Error(`sdk/nodejs is at version ${readJson(path.join(sdkStage, "package.json")).version}, not ${version}; regenerate it (npm run gen-sdk)`);
    npm[sdkName] = npmPack(sdkStage, out);
  } finally {
    rmSync(sdkStage, { recursive: true, force: true });
  }
  log(`release: npm tarballs ${Object.values(npm).join(", ")}`);

  // Python: `python -m build` of a copy (the checkout gets no build/ or egg-info), without build
  // isolation: its backend is the pinned setuptools of the tools' venv, so the build needs no network.
  const { python } = releaseTools(root);
  const pyStage = mkdtempSync(path.join(os.tmpdir(), "notify-release-python-"));
  try {
    cpSync(path.join(root, "sdk/python"), pyStage, { recursive: true, filter: (f) => !/(__pycache__|\.egg-info|^build)$/.test(path.basename(f)) });
    // Its output only when it fails: setuptools warns on every build about the generated pyproject's licence table.
    const r = spawnSync(python, ["-m", "build", "--quiet", "--sdist", "--wheel", "--no-isolation", "--outdir", out, pyStage], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`python -m build of sdk/python failed:\n${r.stdout}${r.stderr}`);
  } finally {
    rmSync(pyStage, { recursive: true, force: true });
  }
  const built = readdirSync(out);
  const sdist = built.find((f) => f.endsWith(".tar.gz") && f.startsWith("pulumi_notify-"));
  const wheel = built.find((f) => f.endsWith(".whl"));
  if (!sdist || !wheel) throw new Error(`python -m build wrote no sdist or wheel into ${out}: ${built.join(", ")}`);
  log(`release: Python ${sdist}, ${wheel}`);

  const plugin: Record<string, string> = {};
  for (const a of await buildPluginArchives({ targets: opts.targets ?? (Object.keys(TARGETS) as Target[]), outDir: out, log })) plugin[a.target] = path.basename(a.archive);

  const time = new Date(sourceDateEpoch(root) * 1000);
  const go = writeGoModule(version, out, root, time);
  log(`release: Go module ${go.module}@v${version} (${go.files.length} files, golang.org/x/mod/zip) in ${path.relative(out, go.proxy)}/`);

  const files = [...Object.values(npm), sdist, wheel, ...Object.values(plugin)].sort();
  writeFileSync(path.join(out, CHECKSUMS), files.map((f) => `${sha256File(path.join(out, f))}  ${f}\n`).join(""));
  const manifest: ReleaseManifest = { version, npm, python: { sdist, wheel }, plugin, go: { module: go.module, tag: goTag(version), proxy: path.relative(out, go.proxy) }, checksums: CHECKSUMS };
  writeJson(path.join(out, "release.json"), manifest);
  return manifest;
}

/**
 * The time the release's sources are from, in seconds: SOURCE_DATE_EPOCH when set (the
 * reproducible-builds convention), else the last commit's, else now (a copy without git).
 */
function sourceDateEpoch(root: string): number {
  if (process.env.SOURCE_DATE_EPOCH) return Number(process.env.SOURCE_DATE_EPOCH);
  try {
    return Number(git(root, ["log", "-1", "--format=%ct"]).trim());
  } catch {
    return Math.floor(Date.now() / 1000);
  }
}

/** The folder of the stacks a release wrote, kept for later builds to check (test/e2e/releaseCompat.test.ts). */
export const COMPAT_FIXTURES = "test/e2e/fixtures";

/**
 * Writes the compatibility fixture of `version` (its stacks' state and the service's objects) by
 * running the fixture's writer in test/e2e/releaseCompat.test.ts, unless the version has one.
 */
export function writeCompatFixture(version: string, root = REPO_ROOT): void {
  if (existsSync(path.join(root, COMPAT_FIXTURES, `release-${version}`))) return;
  process.stderr.write(`release: writing ${COMPAT_FIXTURES}/release-${version} (the stacks this release writes, for later builds to keep working with)\n`);
  execFileSync(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "test/e2e/releaseCompat.test.ts", "-t", "writing the fixture"], {
    cwd: root, env: { ...process.env, NOTIFY_WRITE_RELEASE_FIXTURE: "1" }, stdio: ["ignore", process.stderr, "inherit"],
  });
}

/** Today in UTC, YYYY-MM-DD. */
const today = () => new Date().toISOString().slice(0, 10);

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  const flag = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  switch (command) {
    case "build": {
      const m = await buildArtifacts({ out: flag("--out") });
      process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
      return;
    }
    case "check-tag": {
      const tag = rest[0] ?? "";
      const want = `v${currentVersion()}`;
      if (tag !== want) throw new Error(`tag ${JSON.stringify(tag)} does not match package.json's version; allowed: ${want} (stamp a version with npm run release -- <version>, commit, then tag)`);
      return;
    }
    case "go-tag":
      process.stdout.write(`${goTag(currentVersion())}\n`);
      return;
    case "notes":
      process.stdout.write(releaseNotes(rest[0] ?? currentVersion()));
      return;
    case undefined:
      throw new Error("usage: npm run release -- <version> [--date YYYY-MM-DD] [--no-build]  (or: build [--out DIR], check-tag TAG, go-tag, notes [VERSION])");
    default: {
      const version = command;
      parseVersion(version);
      const current = currentVersion();
      if (compareVersions(version, current) < 0) throw new Error(`version ${version} is older than the current ${current}; allowed: ${current} or later`);
      const released = changelogVersions();
      if (released.includes(version) && released[0] !== version) throw new Error(`version ${version} was released before ${released[0]}; allowed: a version after ${released[0]}`);
      const date = flag("--date") ?? today();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date ${JSON.stringify(date)} is not a date; allowed: YYYY-MM-DD`);
      stampVersion(version);
      addChangelogSection(version, date);
      process.stderr.write(`release: ${CHANGELOG} has the section of ${version}; write what users must do under "Upgrading" if the commits did not\n`);
      if (!rest.includes("--no-build")) {
        writeCompatFixture(version);
        const m = await buildArtifacts();
        process.stderr.write(`release: the artifacts are in ${path.relative(process.cwd(), RELEASE_DIR) || "."}: ${Object.values(m.npm).length} npm tarballs, the sdist and wheel, ${Object.keys(m.plugin).length} plugin archives, the Go module, ${CHECKSUMS}\n`);
      }
      process.stderr.write(`release: next: review the changes, commit them ("Release v${version}"), then \`git tag v${version} && git push origin HEAD v${version}\`; the tag runs .github/workflows/release.yml\n`);
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`release: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/** The install commands of the README's "Install and configure" section, each line as written (its `# comment` apart). */
export interface InstallCommands {
  /** From the registries, once released. */
  registry: string[];
  /** From a checkout's built artifacts, before a release. */
  checkout: string[];
  /** The stack's connection. */
  configure: string[];
}

/** One line of a shell block: the command, and its comment when it has one. */
export function splitComment(line: string): { command: string; comment?: string } {
  const m = /^(.*?\S)\s{2,}#\s?(.*)$/.exec(line);
  return m ? { command: m[1]!, comment: m[2]! } : { command: line.trim() };
}

/**
 * The shell blocks of the README's "Install and configure" section, in order: the registries',
 * the checkout's, the connection's. The one place the install commands are written: the
 * installation page (scripts/gen-docs.ts) renders them, and the release rehearsal
 * (test/e2e/releaseRehearsal.test.ts) runs them as written.
 */
export function installCommands(root = REPO_ROOT): InstallCommands & { blocks: string[][] } {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.split(/^(?=## )/m).find((s) => s.startsWith("## Install and configure\n"));
  if (!section) throw new Error("README.md has no section \"## Install and configure\"");
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.split("\n").filter((l) => l.trim()));
  if (blocks.length !== 3) throw new Error(`README.md's "Install and configure" has ${blocks.length} sh blocks; it needs 3: the registries', the checkout's and the connection's`);
  const commands = (b: string[]) => b.map((l) => splitComment(l).command);
  return { registry: commands(blocks[0]!), checkout: commands(blocks[1]!), configure: commands(blocks[2]!), blocks };
}
