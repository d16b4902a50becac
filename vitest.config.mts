import { defineConfig } from "vitest/config";

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
