import { defineConfig } from "vitest/config";

// e2e tests start the real Pulumi CLI; two cores, so at most two files at once.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/conformance/**/*.test.ts", "test/e2e/**/*.test.ts", "test/property/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts"],
    globalSetup: ["./test/helpers/globalSetup.ts"],
  },
});
