/**
 * `npm run test:live` (scripts/live.ts): the acceptance suite against a live service,
 * test/live/acceptance.live.ts. Its name is not `*.test.ts`, so no layer of `npm test` takes it
 * (test/e2e/live.test.ts runs it as a user does, against emulators at an address). One file, one
 * worker: the run's parts share its names, its report and its cleanup.
 */
import { defineConfig } from "vitest/config";
import { sourceRequires } from "./vitest.config.mts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  plugins: [sourceRequires()],
  test: {
    include: ["test/live/acceptance.live.ts"],
    pool: "forks",
    maxWorkers: 1,
    // A guard against a hang, never what decides a test (a real service may be slow).
    testTimeout: 3600_000,
    hookTimeout: 3600_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts"],
    globalSetup: ["./test/helpers/globalSetup.ts"],
  },
});
