/**
 * The release's version stamp (scripts/release.ts): every place that holds the version agrees
 * today; `release.js <version>` on a copy of the repository sets every place to the new version,
 * leaves the old one nowhere a user reads, and adds the CHANGELOG.md section of the commits since
 * the previous release with their `Upgrade:` notes; versions and tags are checked with clear
 * errors; the Go module's zip is one the go command's layout expects.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  changelogVersions, compareVersions, currentVersion, UNRELEASED, goTag, parseVersion, releaseNotes, versionPlaces, writeGoModule, zipArchive,
} from "../../../scripts/release";
import { ROOT } from "../../helpers/pulumi";
import { copyCheckout } from "../../helpers/checkoutCopy";

describe("the version", () => {
  it("every place that holds it agrees with package.json's", () => {
    const version = currentVersion();
    const places = versionPlaces();
    expect(places.filter((p) => p.version !== version)).toEqual([]);
    // Each kind of place is there (a reader that finds nothing reads undefined, which fails above).
    expect(places.map((p) => p.place.split(" ")[0])).toEqual(expect.arrayContaining(["package.json", "schema.json", "sdk/python/pyproject.toml", "sdk/go/notify/pulumi-plugin.json"]));
  });

  it("has a CHANGELOG.md section, the newest", () => {
    expect(changelogVersions()[0]).toBe(currentVersion());
    expect(releaseNotes()).toMatch(/^### Upgrading\n/);
  });

  it("is a semantic version the Go module's path can carry, or a clear error", () => {
    expect(parseVersion("0.2.0")).toEqual({ major: 0, minor: 2, patch: 0 });
    expect(parseVersion("1.0.0-rc.1")).toEqual({ major: 1, minor: 0, patch: 0, pre: "rc.1" });
    expect(() => parseVersion("v0.2.0")).toThrow(/version "v0.2.0" is not a semantic version; allowed: MAJOR.MINOR.PATCH/);
    expect(() => parseVersion("0.2")).toThrow(/version "0.2" is not a semantic version/);
    expect(() => parseVersion("2.0.0")).toThrow(/major version 2 needs the Go module path to end in \/v2.*allowed without that change: 0.x.y or 1.x.y/);
    expect(goTag("0.2.0")).toBe("sdk/go/v0.2.0");
  });

  it("orders versions as semver does", () => {
    const sorted = ["1.0.0", "0.2.0", "1.0.0-rc.1", "0.10.0", "1.0.0-alpha", "1.0.0-rc.10", "1.0.0-rc.2", "0.2.1"].sort(compareVersions);
    expect(sorted).toEqual(["0.2.0", "0.2.1", "0.10.0", "1.0.0-alpha", "1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0"]);
  });
});

/** The entries of a zip as archive/zip reads them: name and inflated content. */
function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const size = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zlib.inflateRawSync(zip.subarray(dataAt, dataAt + size));
    expect(zlib.crc32(data)).toBe(zip.readUInt32LE(at + 16));
    out.push({ name, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

describe("the Go module in a proxy's layout", () => {
  it("zips sdk/go and the LICENSE under <module>@v<version>/, with its go.mod, info and list", () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "notify-release-go-"));
    try {
      const { module, proxy } = writeGoModule("0.1.0", out, ROOT, new Date("2026-01-02T03:04:05Z"));
      const at = path.join(proxy, module, "@v");
      expect(readdirSync(at).sort()).toEqual(["list", "v0.1.0.info", "v0.1.0.mod", "v0.1.0.zip"]);
      expect(readFileSync(path.join(at, "list"), "utf8")).toBe("v0.1.0\n");
      expect(JSON.parse(readFileSync(path.join(at, "v0.1.0.info"), "utf8"))).toEqual({ Version: "v0.1.0", Time: "2026-01-02T03:04:05Z" });
      expect(readFileSync(path.join(at, "v0.1.0.mod"), "utf8")).toBe(readFileSync(path.join(ROOT, "sdk/go/go.mod"), "utf8"));
      const entries = readZip(readFileSync(path.join(at, "v0.1.0.zip")));
      const prefix = `${module}@v0.1.0/`;
      expect(entries.every((e) => e.name.startsWith(prefix))).toBe(true);
      const names = entries.map((e) => e.name.slice(prefix.length));
      expect(names).toContain("go.mod");
      expect(names).toContain("LICENSE");
      expect(names).toContain("notify/pulumi-plugin.json");
      expect(entries.find((e) => e.name === `${prefix}notify/provider.go`)!.data).toEqual(readFileSync(path.join(ROOT, "sdk/go/notify/provider.go")));
      // One content, one zip: the entries carry no time of their own.
      expect(zipArchive([{ name: "a", data: Buffer.from("x") }])).toEqual(zipArchive([{ name: "a", data: Buffer.from("x") }]));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

/** Files where an old version may stay: records of what was measured or released, lock files of other packages, and the tests' own data. */
const RECORDS = [/(^|\/)go\.sum$/, /^package-lock\.json$/, /^CHANGELOG\.md$/, /^docs\/benchmarks\./, /^docs\/verification\./, /^test\//, /^scripts\/release-tools\//];

describe("npm run release -- <version>, on a copy of the repository", () => {
  let copy: string;
  const runRelease = (...args: string[]) => spawnSync(process.execPath, [path.join(copy, "dist/scripts/release.js"), ...args], { cwd: copy, encoding: "utf8" });
  const gitIn = (...args: string[]) => execFileSync("git", ["-C", copy, ...args], { encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" } });
  let before: string;
  let stamped: ReturnType<typeof spawnSync>;

  beforeAll(() => {
    before = currentVersion();
    copy = mkdtempSync(path.join(os.tmpdir(), "notify-release-copy-"));
    // The compiled scripts too: the copy regenerates itself with its own dist/scripts.
    copyCheckout(copy, { dist: true });
    // History: the release of the current version, then two commits, one of which asks users to act.
    gitIn("init", "--quiet", "--initial-branch=main");
    // The link is no directory to .gitignore's `node_modules/`.
    writeFileSync(path.join(copy, ".git/info/exclude"), "/node_modules\n");
    gitIn("add", "-A");
    gitIn("commit", "--quiet", "-m", `Release v${before}`);
    writeFileSync(path.join(copy, "docs/note-a.md"), "a\n");
    gitIn("add", "-A");
    gitIn("commit", "--quiet", "-m", "Topics keep their order on refresh");
    writeFileSync(path.join(copy, "docs/note-b.md"), "b\n");
    gitIn("add", "-A");
    gitIn("commit", "--quiet", "-m", "Integrations read their credentials again\n\nThe body says why.\n\nUpgrade: run `pulumi up --refresh` once on stacks with integrations.");
    stamped = runRelease("0.2.0", "--date", "2030-01-02", "--no-build");
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it("exits 0", () => {
    expect(stamped.status, String(stamped.stderr)).toBe(0);
  });

  it("sets every place that holds the version to the new one", () => {
    expect(currentVersion(copy)).toBe("0.2.0");
    expect(versionPlaces(copy).filter((p) => p.version !== "0.2.0")).toEqual([]);
  });

  it("leaves the old version in no file a user reads (only in records of what was released or measured)", () => {
    const changed = gitIn("ls-files", "-z").split("\0").filter(Boolean).filter((f) => !RECORDS.some((r) => r.test(f)));
    const pattern = new RegExp(`(^|[^0-9.])v?${before.replace(/\./g, "\\.")}(?![0-9])`);
    const stale = changed.filter((f) => pattern.test(readFileSync(path.join(copy, f), "utf8")));
    expect(stale).toEqual([]);
  });

  it("changes only the version's places, the files generated from them and CHANGELOG.md", () => {
    const changed = gitIn("status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean).map((l) => l.slice(3));
    const expected = /^(package\.json|package-lock\.json|CHANGELOG\.md|schema\.json|examples\/[^/]+\/package\.json|sdk\/.*|docs\/(_index\.md|installation-configuration\.md|api-docs\/.*))$/;
    expect(changed.filter((f) => !expected.test(f))).toEqual([]);
    expect(changed).toContain("CHANGELOG.md");
  });

  it("adds the CHANGELOG.md section of the commits since the previous release, with what users must do", () => {
    expect(changelogVersions(copy).slice(0, 2)).toEqual(["0.2.0", before]);
    const notes = releaseNotes("0.2.0", copy);
    const hash = (subject: string) => gitIn("log", "--format=%h", `--grep=^${subject}$`).trim();
    expect(notes).toBe([
      "### Upgrading",
      "",
      `- run \`pulumi up --refresh\` once on stacks with integrations. (${hash("Integrations read their credentials again")})`,
      "",
      "### Changes",
      "",
      `- Topics keep their order on refresh (${hash("Topics keep their order on refresh")})`,
      `- Integrations read their credentials again (${hash("Integrations read their credentials again")})`,
      "",
    ].join("\n"));
    // The previous section is kept, whole, below the new one.
    expect(releaseNotes(before, copy)).toBe(releaseNotes(before, ROOT));
  });

  it("run again for the same version, replaces its section rather than adding one", () => {
    const again = runRelease("0.2.0", "--date", "2030-01-03", "--no-build");
    expect(again.status, again.stderr).toBe(0);
    expect(changelogVersions(copy).filter((v) => v === "0.2.0")).toHaveLength(1);
    expect(readFileSync(path.join(copy, "CHANGELOG.md"), "utf8")).toContain("## 0.2.0 (2030-01-03)");
  });

  it("takes the place of the Unreleased section, which is no version", () => {
    const file = path.join(copy, "CHANGELOG.md");
    const text = readFileSync(file, "utf8");
    const first = text.indexOf("\n## ") + 1;
    writeFileSync(file, `${text.slice(0, first)}## ${UNRELEASED}\n\n- A change users will see.\n\n${text.slice(first)}`);
    expect(changelogVersions(copy)[0]).toBe("0.2.0");
    const again = runRelease("0.2.0", "--date", "2030-01-03", "--no-build");
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).not.toContain(`## ${UNRELEASED}`);
    expect(changelogVersions(copy).slice(0, 2)).toEqual(["0.2.0", before]);
  });

  it("refuses an older version, a version that is not semver, and a tag that is not the version's, naming what is allowed", () => {
    const older = runRelease("0.1.9", "--no-build");
    expect(older.status).toBe(1);
    expect(older.stderr).toContain("version 0.1.9 is older than the current 0.2.0; allowed: 0.2.0 or later");
    const bad = runRelease("v0.3.0", "--no-build");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('version "v0.3.0" is not a semantic version');
    const tag = runRelease("check-tag", "v0.1.0");
    expect(tag.status).toBe(1);
    expect(tag.stderr).toContain('tag "v0.1.0" does not match package.json\'s version; allowed: v0.2.0');
    expect(runRelease("check-tag", "v0.2.0").status).toBe(0);
    expect(runRelease("go-tag").stdout).toBe("sdk/go/v0.2.0\n");
  });
});
