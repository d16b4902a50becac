/**
 * What `npm pack` ships. The engine's dynamic-provider host registers source-map-support, so a
 * shipped source map would turn a stack trace from the provider into paths of `.ts` files the
 * package does not contain; the package therefore ships compiled JavaScript and declarations and
 * no map and no TypeScript source (traces name the shipped `.js` files). The files listed are the
 * built ones, so this layer builds first.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
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

  // Benchmark code (the bench's baseline resource) lives in bench/, which the package does not
  // ship: a module the entry points never load is code only the bench or a test uses.
  it("ships only modules its entry points load (its exports, its bins, the plugin's main)", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { main: string; exports: Record<string, string | { default?: string }>; bin: Record<string, string> };
    const scripts = Object.values(pkg.bin).filter((b) => !b.endsWith(".js")).map((b) => readFileSync(path.join(REPO_ROOT, b), "utf8"));
    const entries = [pkg.main, ...Object.values(pkg.exports).map((e) => (typeof e === "string" ? e : e.default ?? "")), ...Object.values(pkg.bin),
      ...scripts.flatMap((text) => [...text.matchAll(/(dist\/[\w/.-]+\.js)/g)].map((m) => m[1]!))]
      .map((e) => path.normalize(e)).filter((e) => files.includes(e));
    const seen = new Set<string>();
    const queue = [...entries];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const [, spec] of readFileSync(path.join(REPO_ROOT, file), "utf8").matchAll(/require\("([^"]+)"\)/g)) {
        const target = spec!.startsWith(".") ? path.join(path.dirname(file), spec!) : spec!.startsWith("pulumi-notify/") ? spec!.slice("pulumi-notify/".length) : undefined;
        const js = target && [target, `${target}.js`, path.join(target, "index.js")].find((t) => files.includes(t));
        if (js) queue.push(js);
      }
    }
    expect(entries).toContain("dist/provider/native/main.js");
    // A module of types alone compiles to no code; it ships for its declarations, which others' name.
    const typesOnly = (file: string) => readFileSync(path.join(REPO_ROOT, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "")
      .replace(/"use strict";/, "").replace(/Object\.defineProperty\(exports, "__esModule", \{ value: true \}\);/, "").trim() === "";
    expect(files.filter((f) => f.endsWith(".js") && !seen.has(f) && !typesOnly(f))).toEqual([]);
  });
});
