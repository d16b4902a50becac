/**
 * What `npm pack` ships. The engine's dynamic-provider host registers source-map-support, so a
 * shipped source map would turn a stack trace from the provider into paths of `.ts` files the
 * package does not contain; the package therefore ships compiled JavaScript and declarations and
 * no map and no TypeScript source (traces name the shipped `.js` files). The files listed are the
 * built ones, so this layer builds first.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/workspace";

describe("the packed package", () => {
  const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path);

  it("ships the compiled provider and emulator", () => {
    expect(files).toContain("dist/provider/index.js");
    expect(files).toContain("dist/emulator/index.js");
  });

  it("ships no source map and no TypeScript source, so no stack trace points into a file it lacks", () => {
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  });
});
