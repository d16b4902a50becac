/**
 * `npm test`'s runs: the layers of vitest.config.mts (its projects: unit, component, e2e), one
 * after another in their order of speed (`sequence.groupOrder`), stopping at the first layer that
 * fails, so that a broken unit test is reported in a minute rather than after the engine's tests,
 * and the pinned Pulumi CLI is set up only when the engine's layer starts (its globalSetup).
 * One vitest process makes one run per layer, so the tally reporter's last line is the tally of
 * every test that ran. Arguments name the layers to run (default: all).
 */
import { createVitest, type TestSpecification } from "vitest/node";
import { REPO_ROOT } from "./workspace";

/** What the order needs of a layer: a vitest project's name and its `sequence.groupOrder`. */
export interface Layer {
  name: string;
  config: { sequence: { groupOrder: number } };
}

/** The layers to run, fastest first: those named in `only` (all when empty); an unknown name is refused, naming the layers. */
export function layerOrder<L extends Layer>(layers: readonly L[], only: readonly string[] = []): L[] {
  const unknown = only.filter((name) => !layers.some((l) => l.name === name));
  if (unknown.length) throw new Error(`unknown layer ${unknown.map((n) => JSON.stringify(n)).join(", ")}; allowed: ${layers.map((l) => l.name).join(", ")}`);
  return [...layers].sort((a, b) => a.config.sequence.groupOrder - b.config.sequence.groupOrder).filter((l) => !only.length || only.includes(l.name));
}

async function main(only: string[]): Promise<number> {
  // As vitest's own command line sets them for the tests.
  process.env.TEST = "true";
  process.env.VITEST = "true";
  process.env.NODE_ENV ??= "test";
  const vitest = await createVitest("test", { root: REPO_ROOT, watch: false });
  try {
    const layers = layerOrder(vitest.projects, only);
    await vitest.standalone();
    const specifications = await vitest.globTestSpecifications();
    for (const layer of layers) {
      const mine: TestSpecification[] = specifications.filter((s) => s.project.name === layer.name);
      process.stdout.write(`\ntest-layers: ${layer.name}, ${mine.length} files\n`);
      const { testModules, unhandledErrors } = await vitest.runTestSpecifications(mine, true);
      if (unhandledErrors.length || testModules.some((m) => !m.ok())) {
        process.stderr.write(`test-layers: the ${layer.name} layer failed; the slower layers did not run\n`);
        return 1;
      }
    }
    return 0;
  } finally {
    await vitest.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
    process.stderr.write(`test-layers: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
