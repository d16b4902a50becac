/** provider/run.ts (`notify-run`): the PATH it gives the CLI, so the engine finds the dynamic-provider plugin without warning. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pathWithDynamicPlugin } from "../../../provider/run";
import { REPO_ROOT } from "../../../scripts/workspace";

const root = mkdtempSync(path.join(os.tmpdir(), "notify-run-path-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory holding an executable `pulumi`, and the dynamic-provider plugin beside it when `bundled`. */
function cli(name: string, bundled: boolean): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
  if (bundled) writeFileSync(path.join(dir, "pulumi-resource-pulumi-nodejs"), "#!/bin/sh\n", { mode: 0o755 });
  return dir;
}

const sdk = path.join(REPO_ROOT, "node_modules/@pulumi/pulumi");
const entries = (p: string) => p.split(path.delimiter);

describe("notify-run's PATH", () => {
  it("leaves @pulumi/pulumi off PATH when the CLI has the plugin beside it, as a release archive does (the engine would warn of the other)", () => {
    const release = cli("release", true);
    const p = pathWithDynamicPlugin(REPO_ROOT, release);
    expect(entries(p)).not.toContain(sdk);
    expect(entries(p)).toEqual([path.dirname(process.execPath), release]);
  });

  it("follows a link to the CLI to where the engine looks (a package manager's bin/)", () => {
    const release = cli("cellar", true);
    const bin = path.join(root, "bin");
    mkdirSync(bin);
    symlinkSync(path.join(release, "pulumi"), path.join(bin, "pulumi"));
    expect(entries(pathWithDynamicPlugin(REPO_ROOT, bin))).not.toContain(sdk);
  });

  it("puts @pulumi/pulumi first for a CLI without the plugin beside it, or for none", () => {
    const bare = cli("bare", false);
    expect(entries(pathWithDynamicPlugin(REPO_ROOT, bare))[0]).toBe(sdk);
    expect(entries(pathWithDynamicPlugin(REPO_ROOT, path.join(root, "empty")))[0]).toBe(sdk);
  });
});
