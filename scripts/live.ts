/**
 * `npm run test:live -- [options]`: the acceptance suite against a live service
 * (test/live/acceptance.live.ts, docs/testing.md). Checks the address, the key and the environment first
 * (test/live/config.ts), then runs the suite with vitest; `--cleanup PREFIX` removes what a killed
 * run left instead, and `--preflight` only checks.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { NotifyClient } from "../provider/client/index";
import { LIVE_VARIABLES, LiveConfigError, liveConfig, preflight } from "../test/live/config";
import { cleanUp } from "../test/live/owned";

const ROOT = path.resolve(__dirname, "../..");

const HELP = `Usage: npm run test:live -- [options]

Runs the acceptance suite against a live service: the probes of every operation, every kind's
scenario through the real engine, and every function, each object named with a run prefix and
removed at the end. Writes a Markdown and a JSON report.

Options:
  --allow-production   run even in a production-type environment
  --cleanup PREFIX     remove every object carrying PREFIX (what a killed run left), then stop
  --preflight          only check the address, the key, the environment and the prefix
  --report-dir DIR     where the report goes (NOTIFY_LIVE_REPORT_DIR)
  --front-end NAME     dynamic (default) or native (NOTIFY_LIVE_FRONT_END)
  --help               show this help

Environment:
${Object.entries(LIVE_VARIABLES).map(([k, v]) => `  ${k.padEnd(29)}${v}`).join("\n")}
`;

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        "allow-production": { type: "boolean" }, cleanup: { type: "string" }, preflight: { type: "boolean" },
        "report-dir": { type: "string" }, "front-end": { type: "string" }, help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`test:live: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (values["allow-production"]) env.NOTIFY_LIVE_ALLOW_PRODUCTION = "1";
  if (values["report-dir"]) env.NOTIFY_LIVE_REPORT_DIR = path.resolve(values["report-dir"]);
  if (values["front-end"]) env.NOTIFY_LIVE_FRONT_END = values["front-end"];
  if (values.cleanup !== undefined) env.NOTIFY_LIVE_PREFIX = values.cleanup;

  const cfg = liveConfig(env);
  const client = new NotifyClient({ apiUrl: cfg.url, apiKey: cfg.key });
  try {
    if (values.cleanup !== undefined) {
      const { removed, failed } = await cleanUp(client, cfg.prefix);
      process.stdout.write(`removed ${removed.length} object(s) carrying ${cfg.prefix}${removed.length ? `: ${removed.join(", ")}` : ""}\n`);
      if (failed.length) process.stderr.write(`could not remove: ${failed.join("; ")}\n`);
      return failed.length ? 1 : 0;
    }
    const pre = await preflight(cfg, client);
    process.stdout.write(
      `live service ${cfg.url}: version ${pre.version ?? "not said"}, ${pre.mode} mode, environment ${pre.environment.name}; run prefix ${cfg.prefix}\n`,
    );
    if (values.preflight) return 0;
  } finally {
    await client.close();
  }
  // The prefix checked is the prefix the suite uses.
  env.NOTIFY_LIVE_PREFIX = cfg.prefix;
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "vitest.live.config.mts"], { cwd: ROOT, env, stdio: "inherit" });
  return r.status ?? 1;
}

main().then((code) => process.exit(code), (e: unknown) => {
  process.stderr.write(`test:live: ${e instanceof LiveConfigError ? e.message : e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(2);
});
