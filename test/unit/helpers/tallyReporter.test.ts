/**
 * The tally line CI reads (test/helpers/tallyReporter.ts): after each run it counts every run the
 * vitest process made, so that `npm test`, one run per layer, ends with the whole suite's tally.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestModule } from "vitest/node";
import TallyReporter from "../../helpers/tallyReporter";

/** A suite as the reporter reads one: its state, its tests' states (its own and its children's), and its suites. */
interface FakeSuite { state: string; tests?: string[]; suites?: FakeSuite[] }
const collection = (tests: string[], suites: FakeSuite[]): unknown => {
  const all = (s: FakeSuite): string[] => [...(s.tests ?? []), ...(s.suites ?? []).flatMap(all)];
  const allSuites = (list: FakeSuite[]): FakeSuite[] => list.flatMap((s) => [s, ...allSuites(s.suites ?? [])]);
  return {
    allTests: () => [...tests, ...suites.flatMap(all)].map((s) => ({ result: () => ({ state: s }) }))[Symbol.iterator](),
    allSuites: () => allSuites(suites).map((s) => ({ state: () => s.state, children: collection(s.tests ?? [], s.suites ?? []) }))[Symbol.iterator](),
  };
};
/** A test module as the reporter reads one: its state, its own tests' states, and its suites. */
const testModule = (state: string, tests: string[], suites: FakeSuite[] = []) => ({
  state: () => state,
  children: collection(tests, suites),
}) as unknown as TestModule;

describe("the tally reporter", () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it("prints after each run the tests of every run so far; a module that failed without tests, and an error outside tests, count as failures", () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((text) => { lines.push(String(text).trim()); return true; });
    const tally = new TallyReporter();
    tally.onTestRunEnd([testModule("passed", ["passed", "passed"]), testModule("skipped", ["skipped"])], []);
    tally.onTestRunEnd([testModule("failed", []), testModule("failed", ["passed", "failed"])], [new Error("unhandled")]);
    expect(lines).toEqual(["2 passed, 0 failed, 1 skipped", "3 passed, 3 failed, 1 skipped"]);
  });

  it("counts a describe whose beforeAll failed as a failure, once, though its tests show as skipped and its parents fail with it", () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((text) => { lines.push(String(text).trim()); return true; });
    // test/e2e/releaseRehearsal.test.ts in a fresh clone's run: a nested describe's beforeAll
    // failed, its three tests were skipped, and the tally said "0 failed".
    const rehearsal = testModule("failed", ["passed"], [{
      state: "failed", tests: ["passed"],
      suites: [{ state: "passed", tests: ["passed", "passed"] }, { state: "failed", tests: ["skipped", "skipped", "skipped"] }],
    }]);
    // A failed test inside a failed suite is that suite's failure: not counted again.
    const failedTest = testModule("failed", [], [{ state: "failed", tests: ["failed", "passed"] }]);
    new TallyReporter().onTestRunEnd([rehearsal, failedTest], []);
    expect(lines).toEqual(["5 passed, 2 failed, 3 skipped"]);
  });
});
