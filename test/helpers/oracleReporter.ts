import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the oracle's verdict, `oracle: <K> stacks, <S> spurious diffs, <M> missed drifts`, as
 * the very last line of the run (after the tally), so that any run can be judged from it.
 */
export default class OracleReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const line = (t.meta() as { oracle?: string }).oracle;
        if (line) process.stdout.write(`${line}\n`);
      }
    }
  }
}
