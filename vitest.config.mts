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
    // A stray rejection of the Node.js SDK's setRootResource call to an inline run's engine
    // (SDK_RUN_RACE in test/helpers/pulumi.ts) is the SDK's, not a test's; it is ignored only when
    // it is exactly that gRPC error from that call. Any other stray error fails the run.
    onUnhandledError: (error) => {
      const e = error as { code?: number; details?: string; message?: string; stack?: string };
      const race = e.code === 14 && /No connection established/.test(`${e.details ?? ""} ${e.message ?? ""}`) && /setRootResource/.test(e.stack ?? "");
      return race ? false : undefined;
    },
  },
});
