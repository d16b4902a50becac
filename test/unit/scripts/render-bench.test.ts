/** docs/benchmarks.md (scripts/render-bench.ts): the rendering of docs/benchmarks.json, and how a run's figures are published into it. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH_PAGE, benchmarksPage, publish, renderBenchmarks } from "../../../scripts/render-bench";
import { REPO_ROOT } from "../../../scripts/workspace";

describe("docs/benchmarks.md", () => {
  it("docs/benchmarks.md is the rendering of docs/benchmarks.json, with the run's commit and machine (run `npm run bench-docs`)", () => {
    const page = benchmarksPage();
    expect(readFileSync(path.join(REPO_ROOT, BENCH_PAGE), "utf8")).toBe(page);
    expect(page).toMatch(/- Commit: `[0-9a-f]{7,}/);
    expect(page).toMatch(/- Machine: cpu /);
    const other = renderBenchmarks([{ bench: "scale", n: 1, op: "up", notifyMs: 1, commit: "abc1234", machine: { cpu: "x" } }]);
    expect(other).not.toBe(page);
  });

  it("publishing a run replaces the published figures of the benches it ran and keeps the others, each bench under its own run's commit", () => {
    const published = [
      { bench: "scale", n: 50, commit: "aaaaaaa" }, { bench: "scale", n: 200, commit: "aaaaaaa" }, { bench: "state", bytes: 1, commit: "aaaaaaa" },
    ];
    const run = [{ bench: "scale", n: 500, commit: "bbbbbbb" }, { bench: "export", n: 500, commit: "bbbbbbb" }];
    const merged = publish(published, run);
    expect(merged).toEqual([{ bench: "state", bytes: 1, commit: "aaaaaaa" }, ...run]);
    const page = renderBenchmarks(merged);
    expect(page.indexOf("`aaaaaaa`")).toBeGreaterThan(page.indexOf("## state"));
    expect(page.indexOf("`bbbbbbb`")).toBeGreaterThan(page.indexOf("## scale"));
  });
});
