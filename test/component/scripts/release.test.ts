/**
 * `npm run release -- <version>` (scripts/release.ts) on a copy of the repository, as the built
 * script (dist/scripts/release.js, so the layer builds first) runs in the copy: it sets every
 * place to the new version, leaves the old one nowhere a user reads, and adds the CHANGELOG.md
 * section of the commits since the previous release with their `Upgrade:` notes; versions and
 * tags are checked with clear errors. test/unit/scripts/release.test.ts checks the version's
 * places from source, test/component/scripts/goModule.test.ts the Go module's zip.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changelogVersions, currentVersion, releaseNotes, UNRELEASED, versionPlaces } from "../../../scripts/release";
import { ROOT } from "../../helpers/pulumi";
import { copyCheckout } from "../../helpers/checkoutCopy";

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
