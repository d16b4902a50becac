/**
 * `npm run test:soak`: the reliability tests at a larger scale than `npm test` runs them:
 * faults over 400 resources, SIGKILL at nine points of an up of 50, and a server stopped at the
 * first write of every create that is more than one request, in an up of 100.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/reliability.test.ts", "test/e2e/interrupt.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 300_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts"],
    globalSetup: ["./test/helpers/globalSetup.ts"],
    env: { NOTIFY_FAULTS_N: "400", NOTIFY_KILL_POINTS: "1,5,10,15,25,30,35,45,49", NOTIFY_STOP_POINTS: "all", NOTIFY_STOP_N: "100" },
  },
});
