/**
 * docs/testing.md's rules of the layers, checked on the test files: `test/unit/` and
 * `test/component/` mirror the repository's folders (a test's folder under its layer is a folder
 * of the repository, or of `test/` for the tests of the tests' own modules); no unit test loads
 * the built package or starts the emulator or a process, and no component test loads the built
 * package into its own process (its processes may run it), as far as each file's text shows.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/workspace";

/** The test files under `dir` (a path from the repository's root), as paths from the root. */
function testFiles(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? testFiles(`${dir}/${e.name}`) : e.name.endsWith(".test.ts") ? [`${dir}/${e.name}`] : []));
}

/** How a test loads the built package into its own process. */
const LOADS_DIST = /\bloadPackage\(|\bnativeRequire\(\s*["'`]pulumi-notify/;

/** What a unit test must not do, each with what it looks like in a file. */
const STARTS = [
  ["loads the built package", new RegExp(`${LOADS_DIST.source}|["'\`]pulumi-notify\/dist\/|\\/dist\\/(provider|emulator|export|bench|scripts|preview)\\b`)],
  ["starts the emulator", /\b(startTestEmulator|emulatorPerBlock|startEmulator)\b|helpers\/implementation["']/],
  ["starts a process", /["']node:child_process["']/],
] as const;

describe("docs/testing.md: the layers' folders and rules", () => {
  it("test/unit and test/component hold their tests in folders of the repository", () => {
    const misplaced = ["test/unit", "test/component"].flatMap((layer) => testFiles(layer).map((f) => path.posix.dirname(path.posix.relative(layer, f))))
      .filter((dir) => dir !== "." && !existsSync(path.join(REPO_ROOT, dir)) && !existsSync(path.join(REPO_ROOT, "test", dir)));
    expect([...new Set(misplaced)]).toEqual([]);
  });

  it("a unit test imports no built package, and starts no emulator and no process", () => {
    // This file names what it looks for.
    const self = path.relative(REPO_ROOT, __filename).split(path.sep).join("/");
    const found = testFiles("test/unit").filter((f) => f !== self).flatMap((f) => {
      const text = readFileSync(path.join(REPO_ROOT, f), "utf8");
      return STARTS.filter(([, re]) => re.test(text)).map(([what]) => `${f} ${what}`);
    });
    expect(found).toEqual([]);
  });

  it("a component test loads the built package only in the processes it starts", () => {
    const found = [...testFiles("test/component"), ...testFiles("test/conformance")].filter((f) => LOADS_DIST.test(readFileSync(path.join(REPO_ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("the rules find what they look for", () => {
    const match = (text: string) => STARTS.filter(([, re]) => re.test(text)).map(([what]) => what);
    expect(match('const p = loadPackage("/dist/provider/resources/topic");')).toEqual(["loads the built package"]);
    expect(match("emu = await startTestEmulator();")).toEqual(["starts the emulator"]);
    expect(match('import { spawnSync } from "node:child_process";')).toEqual(["starts a process"]);
    expect(match('expect(steps).toContain("npm pack <checkout>/dist/sdk/nodejs");')).toEqual([]);
    expect(LOADS_DIST.test('const { startEmulator } = nativeRequire("pulumi-notify/emulator");')).toBe(true);
    expect(LOADS_DIST.test('const auto = nativeRequire("@pulumi/pulumi/automation");')).toBe(false);
  });
});
