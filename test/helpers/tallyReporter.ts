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
      if (m.state() === "failed" && [...m.children.allTests()].length === 0) this.failed++;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === "passed") this.passed++;
        else if (s === "failed") this.failed++;
        else this.skipped++;
      }
    }
    this.failed += errors.length;
    process.stdout.write(`\n${this.passed} passed, ${this.failed} failed${this.skipped ? `, ${this.skipped} skipped` : ""}\n`);
  }
}
