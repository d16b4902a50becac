import { defineConfig } from "vitest/config";

// e2e tests start the real Pulumi CLI; two cores, so at most two files at once.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/conformance/**/*.test.ts", "test/e2e/**/*.test.ts", "test/property/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    // A guard against a hang, never what decides a test: a slow but correct run on a loaded
    // machine must pass. One limit for every test and hook; no test sets a shorter one.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts"],
    globalSetup: ["./test/helpers/globalSetup.ts"],
  },
});
