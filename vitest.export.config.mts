/**
 * `npm run test:export`: the exporter's property over EXPORT_K random environments (default 200;
 * EXPORT_SEED replays a run): each exported, adopted by the real engine, with no write but the
 * masked secrets and no diff; and the migration property over half as many (test/property/migration.test.ts):
 * each exported portably and made on a second installation, which then compares equal.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/property/export.test.ts", "test/property/migration.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 24 * 3600_000,
    hookTimeout: 300_000,
    reporters: ["default", "./test/helpers/tallyReporter.ts"],
    globalSetup: ["./test/helpers/globalSetup.ts"],
    env: { EXPORT_K: process.env.EXPORT_K ?? "200" },
  },
});
