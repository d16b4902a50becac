/**
 * `npm run test:oracle`: the engine-layer oracle of exact diffs over ORACLE_RUNS random stacks
 * (default 500; ORACLE_SEED replays a run). Its last line is the verdict, `oracle: <K> stacks,
 * <S> spurious diffs, <M> missed drifts`. ORACLE_CONCURRENCY stacks run at once (default 2).
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/property/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 24 * 3600_000,
    hookTimeout: 300_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts", "./test/helpers/oracleReporter.ts"],
    globalSetup: ["./test/helpers/globalSetup.ts"],
    env: { ORACLE_RUNS: process.env.ORACLE_RUNS ?? "500", ORACLE_CONCURRENCY: process.env.ORACLE_CONCURRENCY ?? "2" },
  },
});
