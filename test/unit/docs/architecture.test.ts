/**
 * docs/architecture.md is the map of the code: every path it names from the repository's root
 * (`provider/schemas/`, `emulator/collection.ts`, `test/kinds/`, ...) must exist, so
 * a file moved or renamed without the map fails here rather than misleading the next reader.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/workspace";

/** The paths in code spans of `text` that start with a top-level entry of the repository (patterns with `<...>`, `*` or `{...}` left out). */
export function rootedPaths(text: string, roots: ReadonlySet<string>): string[] {
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/:.*$/, ""));
  return [...new Set(spans.filter((p) => p.includes("/") && !/[<>*{}]/.test(p) && roots.has(p.split("/")[0]!)))];
}

describe("docs/architecture.md", () => {
  const roots = new Set(readdirSync(REPO_ROOT).filter((e) => !e.startsWith(".") && e !== "node_modules" && e !== "dist"));
  const named = rootedPaths(readFileSync(path.join(REPO_ROOT, "docs/architecture.md"), "utf8"), roots);

  it("names files and folders of the repository (the check below reads them)", () => {
    expect(named).toContain("provider/schemas/");
    expect(rootedPaths("`provider/gone.ts` and `x/y` and `provider/<kind>.ts`", new Set(["provider"]))).toEqual(["provider/gone.ts"]);
  });

  it("names only paths that exist", () => {
    expect(named.filter((p) => !existsSync(path.join(REPO_ROOT, p)))).toEqual([]);
  });
});
