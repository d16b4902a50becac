/**
 * The release workflow, .github/workflows/release.yml: it passes actionlint (and shellcheck on its
 * run: blocks, when installed), and it does what a release of a Pulumi registry provider does on
 * a version tag: the tests first, then the artifacts of `release.js build` (with Go set up for the
 * Go module's zip), the GitHub release
 * where the schema's pluginDownloadURL points (before any package that names it), npm with
 * provenance and PyPI through trusted publishing, no long-lived token anywhere, and the Go
 * module's tag.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ensureActionlint, lintWorkflow, NO_SHELLCHECK, shellcheck } from "../helpers/actionlint";
import { ROOT } from "../helpers/pulumi";
import { PLUGIN_DOWNLOAD_URL } from "../../scripts/schema";

const FILE = path.join(ROOT, ".github/workflows/release.yml");

interface Step { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string>; "working-directory"?: string }
interface Job { needs?: string | string[]; permissions?: Record<string, string>; environment?: string; steps: Step[] }
interface Workflow { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, Job> }

const text = () => readFileSync(FILE, "utf8");
const workflow = () => parseYaml(text()) as Workflow;
const runs = (job: Job) => job.steps.map((s) => s.run ?? "").join("\n");
const needs = (job: Job) => [job.needs ?? []].flat();

describe("the release workflow", () => {
  let actionlint: string;
  const dirs: string[] = [];
  beforeAll(() => {
    actionlint = ensureActionlint();
    if (!shellcheck) console.warn(`release.yml: ${NO_SHELLCHECK}; its run: blocks were not shellchecked`);
  });
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("passes actionlint", () => {
    expect(lintWorkflow(actionlint, FILE)).toEqual({ status: 0, output: "" });
  });

  it("fails actionlint when broken (the check is real)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "notify-release-lint-"));
    dirs.push(dir);
    const broken = path.join(dir, "release.yml");
    writeFileSync(broken, text().replace("node dist/scripts/release.js check-tag \"$GITHUB_REF_NAME\"", "node dist/scripts/release.js check-tag \"${{ github.ref_nam }}\""));
    const r = lintWorkflow(actionlint, broken);
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(/ref_nam/);
  });

  it("runs on version tags only, with read-only rights unless a job needs more", () => {
    const wf = workflow();
    expect(Object.keys(wf.on)).toEqual(["push"]);
    expect(wf.on.push.tags).toEqual(["v*.*.*"]);
    expect(wf.permissions).toEqual({ contents: "read" });
  });

  it("tests first: the tag must be package.json's version, then the whole suite as CI runs it", () => {
    const test = workflow().jobs.test!;
    expect(runs(test)).toContain('node dist/scripts/release.js check-tag "$GITHUB_REF_NAME"');
    expect(runs(test)).toContain("bash .ci/run");
    expect(needs(workflow().jobs.build!)).toEqual(["test"]);
  });

  it("builds the artifacts with the release script and checks their checksums", () => {
    const build = workflow().jobs.build!;
    expect(runs(build)).toContain("node dist/scripts/release.js build");
    expect(runs(build)).toContain("sha256sum -c SHA256SUMS");
    // The Go module's zip is made by scripts/gomodzip, a Go program the script builds: Go of its go.mod.
    const go = build.steps.find((s) => s.uses?.startsWith("actions/setup-go@"));
    expect(go?.with).toEqual({ "go-version-file": "scripts/gomodzip/go.mod" });
    expect(build.steps.indexOf(go!)).toBeLessThan(build.steps.findIndex((s) => s.run?.includes("node dist/scripts/release.js build")));
  });

  it("creates the GitHub release of the tag, where the schema's pluginDownloadURL points, before publishing any package", () => {
    const wf = workflow();
    // The engine fetches <pluginDownloadURL with ${VERSION}>/<archive>: the release of tag v<version>.
    expect(PLUGIN_DOWNLOAD_URL).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/releases\/download\/v\$\{VERSION\}$/);
    const github = wf.jobs.github!;
    expect(github.permissions).toEqual({ contents: "write" });
    expect(runs(github)).toMatch(/gh release create "\$GITHUB_REF_NAME" --verify-tag/);
    // Every file SHA256SUMS names (the plugin archives among them), and SHA256SUMS.
    expect(runs(github)).toContain("awk '{print $2}' SHA256SUMS");
    expect(runs(github)).toMatch(/"\$\{files\[@\]\}" SHA256SUMS/);
    expect(needs(wf.jobs.npm!)).toEqual(["github"]);
    expect(needs(wf.jobs.pypi!)).toEqual(["github"]);
  });

  it("pushes the Go module's tag that release.json names, and checks the proxy resolves it", () => {
    const github = workflow().jobs.github!;
    expect(runs(github)).toContain("jq -r .go.tag dist/release/release.json");
    expect(runs(github)).toContain('git push origin "refs/tags/$tag"');
    expect(runs(github)).toMatch(/GOPROXY=https:\/\/proxy\.golang\.org go list -m/);
  });

  it("publishes to npm with provenance and to PyPI by trusted publishing, with no long-lived token", () => {
    const wf = workflow();
    for (const name of ["npm", "pypi"]) {
      expect(wf.jobs[name]!.permissions).toEqual({ contents: "read", "id-token": "write" });
      expect(wf.jobs[name]!.environment).toBe(name);
    }
    expect(runs(wf.jobs.npm!)).toContain('npm publish "$tarball" --provenance --access public');
    const pypi = wf.jobs.pypi!.steps.find((s) => s.uses?.startsWith("pypa/gh-action-pypi-publish@"));
    expect(pypi?.with).toEqual({ "packages-dir": "dist/pypi" });
    expect(text()).not.toMatch(/secrets\.|NODE_AUTH_TOKEN|password:/);
  });
});
