import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the plain closing line `N passed, N failed[, N skipped]` that CI reads. The counts are
 * those of every run this vitest process made: `npm test` makes one run per layer
 * (scripts/test-layers.ts), so its last line is the whole suite's tally.
 */
export default class TallyReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    for (const m of modules) {
      let failed = 0;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === "passed") this.passed++;
        else if (s === "failed") failed++;
        else this.skipped++;
      }
      // A hook that failed (a describe's beforeAll or afterAll) fails its suite and no test: the
      // tests it guards show as skipped. Each innermost failed suite without a failed test of its
      // own counts once (its parents fail with it), and a file that failed with nothing counted
      // (it did not load, or its own hook failed) counts once.
      for (const suite of m.children.allSuites()) {
        if (suite.state() !== "failed") continue;
        if ([...suite.children.allSuites()].some((c) => c.state() === "failed")) continue;
        if (![...suite.children.allTests()].some((t) => t.result().state === "failed")) failed++;
      }
      if (failed === 0 && m.state() === "failed") failed = 1;
      this.failed += failed;
    }
    this.failed += errors.length;
    process.stdout.write(`\n${this.passed} passed, ${this.failed} failed${this.skipped ? `, ${this.skipped} skipped` : ""}\n`);
  }
}
