import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** A `require` of a relative path written as a string literal (not a template, not a variable). */
const RELATIVE_REQUIRE = /\brequire\((["'])(\.{1,2}\/[^"'`$]*)\1\)/g;

/**
 * Lets the tests import the TypeScript source rather than the compiled `dist/`.
 *
 * Some modules load a sibling only when first used, with CommonJS `require("./client")`, so that
 * a provider process that only checks and diffs never loads the HTTP stack (provider/config.ts,
 * provider/native/server.ts). Compiled, that is Node's require of the `.js` file beside it. Under
 * vitest the source runs as ES modules in vitest's own module graph, where `require` is still
 * Node's: it finds no `./client.js` beside `config.ts`, and even if it did it would load a second
 * copy of the module, whose error classes would fail every `instanceof` of the first copy's code.
 * So each such call in the package's source becomes a static import of the same module, and the
 * source gets vitest's one copy. Only the tests load eagerly what the package loads lazily; what
 * a process of the built package loads is checked against `dist/`
 * (test/component/provider/loading.test.ts).
 */
export function sourceRequires(): Plugin {
  const skipped = ["test", "node_modules"].map((d) => path.join(ROOT, d) + path.sep);
  return {
    name: "notify:source-requires",
    transform(code, id) {
      const file = id.split("?")[0]!;
      if (!file.endsWith(".ts") || !file.startsWith(ROOT + path.sep) || skipped.some((d) => file.startsWith(d))) return undefined;
      const imports: string[] = [];
      const rewritten = code.replace(RELATIVE_REQUIRE, (_call, _quote: string, specifier: string) => {
        const name = `__sourceRequire${imports.length}`;
        imports.push(`import * as ${name} from ${JSON.stringify(specifier)};`);
        return name;
      });
      // On the first line, so that every other line keeps its number in stack traces.
      return imports.length ? { code: imports.join(" ") + rewritten, map: null } : undefined;
    },
  };
}

/**
 * The layers of docs/testing.md, one project each, in order of speed (`sequence.groupOrder`: a
 * run of several layers finishes one before it starts the next); `npm test` runs them one at a
 * time and stops at the first that fails (scripts/test-layers.ts).
 * - unit: the source, in the test's process; starts no emulator and no process, needs no build.
 * - component: the emulator (in the test's process or as one; test/conformance holds the tests
 *   of the emulator against the service), the built package (its bins, its declarations, what
 *   its processes load) and the compilers and generators the checkout uses. Needs the build.
 * - e2e: the real Pulumi engine. Only this layer needs the pinned CLI, so only it sets it up.
 */
export default defineConfig({
  // Tests import the source as the compiler sees it: `pulumi-notify` and `pulumi-notify/dist/*`
  // are the source by tsconfig.json's `paths`.
  resolve: { tsconfigPaths: true },
  plugins: [sourceRequires()],
  test: {
    // e2e tests start the real Pulumi CLI; two cores, so at most two files at once.
    pool: "forks",
    maxWorkers: 2,
    // A guard against a hang, never what decides a test: a slow but correct run on a loaded
    // machine must pass. One limit for every test and hook; no test sets a shorter one.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "component", include: ["test/component/**/*.test.ts", "test/conformance/**/*.test.ts"], sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/property/**/*.test.ts"],
          sequence: { groupOrder: 2 },
          globalSetup: ["./test/helpers/globalSetup.ts"],
        },
      },
    ],
  },
});
