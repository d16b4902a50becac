import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lostSuiteRun, publishVerdict, renderVerdicts, verdictOfLog, verificationPage, VERDICT_PAGE, type Verdict } from "../../../scripts/render-verdicts";
import { REPO_ROOT } from "../../../scripts/workspace";

/** Lines as the checks print them (vitest colours them; the parser strips the colours). */
const ORACLE_LOG = [
  "\u001b[90mstdout\u001b[2m | test/property/oracle.test.ts",
  "oracle: seed 42 (replay with ORACLE_SEED=42 ORACLE_RUNS=3)",
  "oracle: stack 0: spec mode, Topic; topic-0 deleted",
  "oracle: stack 2: production mode, Layout Context; context-0 data edited",
  "oracle: stack 2 (seed 42, path 2) {\"spurious\":[\"preview after up: context-0 update [data]\"],\"missed\":[]}",
  "oracle: stack 1: production mode, Domain; domain-0 deleted",
  "oracle: 3 stacks, 1 spurious diffs, 0 missed drifts",
].join("\n");

const EXPORT_LOG = [
  "export property: seed 7 (replay with EXPORT_SEED=7 EXPORT_K=200)",
  "export property: environment 0: 1 Integration, 0 Workflow: {\"unexpectedWrites\":[],\"changes\":[]}",
  "export property: environment 1: 0 Integration, 2 Workflow: {\"unexpectedWrites\":[\"PUT /v2/workflows/{workflowId}\"],\"changes\":[\"preview: update 1\"]}",
].join("\n");

const MIGRATION_LOG = [
  "migration property: seed 9 (replay with EXPORT_SEED=9 EXPORT_K=8)",
  "migration property: environment 0 (spec to production): 1 Integration, 0 Workflow: moved",
  "migration property: environment 1 (production to production): 0 Integration, 2 Workflow: the environments differ: {}",
  "migration property: environment 2 (production to production): 0 Integration, 1 Workflow: moved",
].join("\n");

describe("the verdicts of the long checks (scripts/render-verdicts.ts)", () => {
  it("reads the migration property's environments: those moved whole and those not, of half EXPORT_K", () => {
    expect(verdictOfLog("migration", MIGRATION_LOG)).toEqual({ check: "migration", seed: 9, planned: 4, completed: 3, failed: 1, findings: "2 moved whole, 1 not" });
  });

  it("reads the oracle's seed, its stacks, the failing ones and its final line", () => {
    expect(verdictOfLog("oracle", ORACLE_LOG)).toEqual({ check: "oracle", seed: 42, planned: 3, completed: 3, failed: 1, findings: "1 spurious diffs, 0 missed drifts" });
  });

  it("says so when the oracle's run stopped before its verdict", () => {
    const cut = ORACLE_LOG.split("\n").slice(0, 4).join("\n");
    expect(verdictOfLog("oracle", cut)).toMatchObject({ planned: 3, completed: 2, failed: 0, findings: expect.stringContaining("stopped early") });
  });

  it("reads the export property's environments and counts what they found", () => {
    expect(verdictOfLog("export", EXPORT_LOG)).toEqual({ check: "export", seed: 7, planned: 200, completed: 2, failed: 1, findings: "1 unexpected writes, 1 changes shown" });
  });

  it("refuses a log that is not the check's", () => {
    expect(() => verdictOfLog("export", ORACLE_LOG)).toThrow(/export property: seed/);
  });

  it("publishing replaces the check's verdict and keeps the other's; the page shows a stopped run as such", () => {
    const info = { commit: "abc1234", machine: { cpu: "x", cores: 2, memoryGiB: 24, platform: "linux" }, versions: { node: "v24", pulumi: "3", pulumiNotify: "0.1.0" }, date: "2026-11-24T00:00:00.000Z" };
    const old: Verdict = { ...verdictOfLog("oracle", ORACLE_LOG), ...info };
    const run: Verdict = { ...verdictOfLog("export", EXPORT_LOG), ...info, commit: "def5678" };
    const data = publishVerdict(publishVerdict([], old), run);
    expect(data.map((v) => v.check)).toEqual(["export", "oracle"]);
    const page = renderVerdicts(data);
    expect(page).toContain("- Verdict: 2 environments (stopped after 2 of 200), 1 failing; 1 unexpected writes, 1 changes shown");
    expect(page).toContain("`EXPORT_K=200 EXPORT_SEED=7 npm run test:export`");
    expect(page).toContain("- Verdict: 3 stacks, 1 failing; 1 spurious diffs, 0 missed drifts");
  });

  it("docs/verification.md is the rendering of docs/verification.json (run `npm run verdicts`)", () => {
    expect(readFileSync(path.join(REPO_ROOT, VERDICT_PAGE), "utf8")).toBe(verificationPage());
  });
});

describe("the suite's runs (scripts/render-verdicts.ts)", () => {
  const info = { commit: "abc1234", machine: { cpu: "x", cores: 2, memoryGiB: 24, platform: "linux" }, versions: { node: "v24", pulumi: "3", pulumiNotify: "0.1.0" }, date: "2026-11-24T00:00:00.000Z" };
  const log = (passed: number, failed: number) => ["\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[32m73 passed\u001b[39m\u001b[22m\u001b[90m (73)\u001b[39m", "\u001b[2m   Duration \u001b[22m 1500.25s\u001b[2m (transform 1s)", "", `${passed} passed, ${failed} failed`].join("\n");

  it("reads the tally, the test files and vitest's duration", () => {
    expect(verdictOfLog("suite", log(960, 4))).toEqual({ check: "suite", planned: 964, completed: 964, failed: 4, findings: "960 passed, 4 failed; 73 test files; vitest's duration 1500 s" });
    expect(() => verdictOfLog("suite", "no tally here")).toThrow(/passed, <F> failed/);
  });

  it("adds up the test files and the durations of the layers' runs, and reads the last tally, every layer's", () => {
    const layers = [log(700, 0), log(960, 4).replace("(73)", "(20)").replace("1500.25s", "100.5s")].join("\n");
    expect(verdictOfLog("suite", layers)).toEqual({ check: "suite", planned: 964, completed: 964, failed: 4, findings: "960 passed, 4 failed; 93 test files; vitest's duration 1601 s" });
  });

  it("reads the whole run's time from .ci/run's line before the tally", () => {
    const ci = log(994, 0).replace(/\n(?=994 passed)/, "\nci: the whole run took 1201 s (set-up and npm test)\n");
    expect(verdictOfLog("suite", ci).findings).toBe("994 passed, 0 failed; 73 test files; vitest's duration 1500 s; the whole run 1201 s");
    expect(readFileSync(path.join(REPO_ROOT, ".ci/run"), "utf8")).toContain('echo "ci: the whole run took ${SECONDS} s');
  });

  it("says which caches the run started from, from .ci/run's line, so that a run from empty caches is published as such", () => {
    const ci = log(994, 0).replace(/^/, "ci: caches at the start: Go modules empty, npm empty, pip empty, project (Pulumi CLI, Python venv, plugins) empty\n");
    expect(verdictOfLog("suite", ci).findings).toBe("994 passed, 0 failed; 73 test files; vitest's duration 1500 s; caches at the start: Go modules empty, npm empty, pip empty, project (Pulumi CLI, Python venv, plugins) empty");
    expect(readFileSync(path.join(REPO_ROOT, ".ci/run"), "utf8")).toContain('echo "ci: caches at the start: Go modules');
  });

  it("keeps the runs one after another, the newest ten, and counts the clean ones up to the newest", () => {
    let data: Verdict[] = [];
    for (let i = 0; i < 12; i++) data = publishVerdict(data, { ...verdictOfLog("suite", log(900, i === 7 ? 1 : 0)), ...info, commit: `c${i}` });
    const suites = data.filter((v) => v.check === "suite");
    expect(suites.map((v) => v.commit)).toEqual(["c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11"]);
    expect(renderVerdicts(data)).toContain("Consecutive runs without a failure, up to the newest: 4.");
  });

  it("records a failed run whose log is lost among the others by its date, and counts the clean runs from it", () => {
    let data: Verdict[] = [];
    for (let i = 0; i < 4; i++) data = publishVerdict(data, { ...verdictOfLog("suite", log(900, 0)), ...info, commit: `c${i}`, date: `2026-01-0${i + 1}T00:00:00.000Z` });
    expect(renderVerdicts(data)).toContain("Consecutive runs without a failure, up to the newest: 4.");
    // Between c1 and c2: published after c3, it takes its place by date.
    data = publishVerdict(data, lostSuiteRun("lost1", "2026-01-02T12:00:00Z", "a beforeAll failed with ECONNRESET", info));
    expect(data.filter((v) => v.check === "suite").map((v) => v.commit)).toEqual(["c0", "c1", "lost1", "c2", "c3"]);
    const page = renderVerdicts(data);
    expect(page).toContain("Consecutive runs without a failure, up to the newest: 2.");
    expect(page).toContain("| 2026-01-02T12:00:00.000Z | `lost1` | failed; its log is lost, so this is all that is known: a beforeAll failed with ECONNRESET (the date is when the run had ended by) |");
    expect(() => lostSuiteRun("x", "yesterday", "why", info)).toThrow('--before must be an ISO date, not "yesterday"');
    expect(() => lostSuiteRun("x", "2026-01-02", " ", info)).toThrow("--why must say");
  });
});
