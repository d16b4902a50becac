/** docs/benchmarks.md (scripts/render-bench.ts): the rendering of docs/benchmarks.json, and how a run's figures are published into it. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH_PAGE, benchmarksPage, goalsSection, publish, renderBenchmarks, requestWaitMs } from "../../../scripts/render-bench";
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

describe("docs/benchmarks.md goals", () => {
  const row = (n: number, op: string, o: Record<string, number | number[]> = {}) => ({
    bench: "scale", n, op, notifyMs: 10 * n, baselineMs: 8 * n, nativeMs: 800, wideBaselineMs: 1000, ratio: 1.2, ratioToWideBaseline: 1, msPerResource: 10,
    requests: n, requestFloor: n, providerPeakRssMiB: 200, baselineProviderPeakRssMiB: 150, ...o,
  });
  const goal = (lines: string[], text: string) => lines.find((l) => l.startsWith(`| ${text}`));

  it("computes each goal from the scale records: the figure at each N and whether it is met", () => {
    const lines = goalsSection([
      row(200, "up", { requests: 210, requestFloor: 200 }), row(2000, "up", { requests: 2000, requestFloor: 2000, notifyMs: 26000, baselineMs: 20000 }),
      row(200, "refresh-preview", { wideBaselineMs: 1550 }), row(2000, "refresh-preview", { notifyMs: 22000, wideBaselineMs: 22000, providerPeakRssMiB: 400, baselineProviderPeakRssMiB: 170 }),
    ]);
    expect(goal(lines, "`up` requests at most 1.05 times the floor")).toBe("| `up` requests at most 1.05 times the floor | 200: 1.05, 2000: 1 | yes |");
    expect(goal(lines, "dynamic `preview --refresh` at most 1.1 times the wide")).toContain("| 200: 1.29, 2000: 1 | **no** |");
    expect(goal(lines, "`up`: time a resource")).toContain("| 10 ms at 200, 13 ms at 2000: 1.3 (baseline: 8, 10: 1.25) | **no** |");
    // Two sizes: no cost of an added resource to compare.
    expect(goal(lines, "`up`: each added resource's time")).toBeUndefined();
    expect(goal(lines, "`preview --refresh`: time a resource")).toContain(": 1.1 (baseline: 8, 8: 1) | yes |");
    expect(goal(lines, "the provider process's peak memory")).toContain("200 MiB from 200 to 2000 (the baseline's plugin: 20 MiB) | **no** |");
    // A goal whose figures the run lacks is left out (no destroy or update ran here).
    expect(goal(lines, "`destroy` requests")).toBeUndefined();
  });

  it("sets the refresh's requests' least wait apart: rounds of the most requests in flight at once, one latency each", () => {
    // 206 requests, 8 at once: 26 rounds of 20 ms, 520 ms; (4240 - 520) / 3364 = 1.11.
    const measured = row(200, "refresh-preview", { notifyMs: 4240, wideBaselineMs: 3364, requests: 206, peakInFlight: 8, latencyMs: 20 });
    expect(requestWaitMs(measured as never)).toBe(520);
    const label = "dynamic `preview --refresh` less its requests' least wait";
    expect(goal(goalsSection([measured]), label)).toContain("| 200: 1.11 (the wait: 206 requests, at most 8 at once, 20 ms each: 520 ms) | **no** |");
    expect(goal(goalsSection([{ ...measured, notifyMs: 4100 }]), label)).toContain("| 200: 1.06 (the wait");
    expect(goal(goalsSection([{ ...measured, notifyMs: 4100 }]), label)).toMatch(/\| yes \|$/);
    // The plugin's row reads the plugin's figures: 210 requests, 7 at once: 30 rounds, 600 ms; (3000 - 600) / 3364 = 0.71.
    const plugin = { ...measured, nativeMs: 3000, nativeRequests: 210, nativePeakInFlight: 7 };
    expect(requestWaitMs(plugin as never, "plugin")).toBe(600);
    expect(goal(goalsSection([plugin]), "plugin `preview --refresh` less its requests' least wait")).toContain("| 200: 0.71 (the wait: 210 requests, at most 7 at once, 20 ms each: 600 ms) | yes |");
    // (4240 - 520) / 2000 = 1.86 against the baseline.
    expect(goal(goalsSection([{ ...measured, baselineMs: 2000 }]), "dynamic `preview --refresh` less its requests' least wait at most 1.4")).toContain("| 200: 1.86 (");
    // A run published before the figure was measured leaves the row out.
    expect(goal(goalsSection([row(200, "refresh-preview")]), label)).toBeUndefined();
  });

  it("shows beside a time ratio the same ratio in each round, which the machine's noise moves", () => {
    // Rounds run the stacks one after another: round i's dynamic time over round i's wide baseline's.
    const measured = row(500, "refresh-preview", {
      notifyMs: 7408, wideBaselineMs: 5292, nativeMs: 5672,
      notifyRunsMs: [6785, 8318, 7408], wideBaselineRunsMs: [5292, 6646, 5120], nativeRunsMs: [5585, 5672, 6509],
    } as never);
    const lines = goalsSection([measured]);
    expect(goal(lines, "dynamic `preview --refresh` at most 1.1 times the wide")).toContain("| 500: 1.4 (each round: 1.28, 1.25, 1.45) | **no** |");
    expect(goal(lines, "plugin `preview --refresh` at most the wide")).toContain("| 500: 1.07 (each round: 1.06, 0.85, 1.27) | **no** |");
    // Less the least wait (397 requests, 8 at once: 50 rounds of 20 ms, 1000 ms) in each round too:
    // (6785 - 1000) / 5292 = 1.09, (8318 - 1000) / 6646 = 1.1, (7408 - 1000) / 5120 = 1.25.
    const waited = { ...measured, requests: 397, peakInFlight: 8, latencyMs: 20 };
    expect(goal(goalsSection([waited]), "dynamic `preview --refresh` less its requests' least wait at most 1.1")).toContain("| 500: 1.21 (each round: 1.09, 1.1, 1.25) (the wait: 397 requests");
    // A run published before the rounds were kept shows the ratio alone.
    expect(goal(goalsSection([row(500, "refresh-preview")]), "dynamic `preview --refresh` at most 1.1 times the wide")).toContain("| 500: 5 | **no** |");
  });

  it("holds the refresh against the waiting wide baseline, and says whether the wide baseline's 1.1 leaves a provider any room", () => {
    // The wide baseline 3000 ms; with its reads waiting 3600 ms (1.2: over 1.1, so the raw goal is below the floor's wait).
    const measured = row(200, "refresh-preview", {
      notifyMs: 3900, nativeMs: 3500, wideBaselineMs: 3000, waitingWideBaselineMs: 3600,
      notifyRunsMs: [3900, 3700], wideBaselineRunsMs: [3000, 2900], waitingWideBaselineRunsMs: [3600, 3700],
    } as never);
    const lines = goalsSection([measured]);
    expect(goal(lines, "the wide baseline's `preview --refresh` with its reads waiting")).toContain("| 200: 1.2 (each round: 1.2, 1.28) | **no** |");
    // 3900 / 3600 = 1.08, 3700 / 3700 = 1; the plugin: 3500 / 3600 = 0.97.
    expect(goal(lines, "dynamic `preview --refresh` at most 1.1 times the waiting wide baseline's time")).toContain("| 200: 1.08 (each round: 1.08, 1) | yes |");
    expect(goal(lines, "plugin `preview --refresh` at most the waiting wide baseline's time")).toContain("| 200: 0.97 | yes |");
    // A run published before the waiting baseline was measured leaves its rows out.
    expect(goal(goalsSection([row(200, "refresh-preview")]), "dynamic `preview --refresh` at most 1.1 times the waiting")).toBeUndefined();
  });

  it("leaves the section out of a page whose run has no scale records", () => {
    expect(goalsSection([{ bench: "functions", ms: 1 }])).toEqual([]);
    expect(renderBenchmarks([{ bench: "functions", ms: 1 }])).not.toContain("## Goals");
  });
});

describe("docs/benchmarks.md growth goals", () => {
  const row = (bench: string, n: number, notifyMs: number) => ({
    bench, n, op: "up", notifyMs, baselineMs: 8 * n, nativeMs: 1, wideBaselineMs: 1, ratio: 1, ratioToWideBaseline: 1, requests: n, requestFloor: n,
  });
  const growthLine = (lines: string[]) => lines.find((l) => l.startsWith("| `up`: time a resource"));

  it("come from scale-final-checkpoint when it ran at two sizes or more, and from scale otherwise", () => {
    const scale = [row("scale", 200, 2000), row("scale", 1000, 30000)];
    expect(growthLine(goalsSection(scale))).toContain("| 10 ms at 200, 30 ms at 1000: 3");
    const both = [...scale, row("scale-final-checkpoint", 200, 2000), row("scale-final-checkpoint", 2000, 22000)];
    expect(growthLine(goalsSection(both))).toMatch(/^\| `up`: time a resource .* \(`scale-final-checkpoint`\) \| 10 ms at 200, 11 ms at 2000: 1\.1 .* \| yes \|$/);
    expect(growthLine(goalsSection([...scale, row("scale-final-checkpoint", 200, 2000)]))).toContain("30 ms at 1000");
  });

  it("set the cost of each added resource at the largest sizes against that at the smaller: a cost growing faster than N shows", () => {
    const rows = [row("scale", 200, 4000), row("scale", 1000, 10000), row("scale", 2000, 21000)];
    // 6000 ms for 800 more resources (7.5 each), then 11000 ms for 1000 more (11 each), while the time a resource falls (20, 10.5).
    expect(goalsSection(rows).find((l) => l.startsWith("| `up`: each added"))).toContain("| 7.5 ms from 200 to 1000, 11 ms from 1000 to 2000: 1.47 (baseline: 8, 8: 1) | **no** |");
    expect(growthLine(goalsSection(rows))).toContain("| yes |");
  });
});
