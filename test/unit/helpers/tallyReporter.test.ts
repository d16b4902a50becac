/**
 * The tally line CI reads (test/helpers/tallyReporter.ts): after each run it counts every run the
 * vitest process made, so that `npm test`, one run per layer, ends with the whole suite's tally.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestModule } from "vitest/node";
import TallyReporter from "../../helpers/tallyReporter";

/** A test module as the reporter reads one: its state and its tests' states. */
const testModule = (state: string, tests: string[]) => ({
  state: () => state,
  children: { allTests: () => tests.map((s) => ({ result: () => ({ state: s }) }))[Symbol.iterator]() },
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
});
