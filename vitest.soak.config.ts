/**
 * `npm run test:soak`: the reliability tests at a larger scale than `npm test` runs them:
 * faults over 400 resources, and SIGKILL at nine points of an up of 50.
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
    env: { NOTIFY_FAULTS_N: "400", NOTIFY_KILL_POINTS: "1,5,10,15,25,30,35,45,49" },
  },
});
