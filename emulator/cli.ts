#!/usr/bin/env node
/** `notify-emulator`: runs the emulator until SIGINT or SIGTERM. */
import { parseArgs } from "node:util";
import { startEmulator, DEFAULT_API_KEY } from "./index";
import { PLANS, type Plan } from "./types";

const HELP = `Usage: notify-emulator [options]

A local emulator of the notification delivery service.

Options:
  --port N             port to listen on (0 picks a free port; default 4000)
  --host ADDR          address to listen on (default 127.0.0.1)
  --api-key KEY[=ENV]  an accepted API key, with its environment name; repeatable
                       (default: ${DEFAULT_API_KEY})
  --mode MODE          production ({data} envelope, hidden credentials; default) or spec (api.md bodies)
  --envelope / --no-envelope               override the mode's envelope
  --hide-credentials / --show-credentials  override the mode's credential hiding
  --no-idempotency     ignore idempotency-key headers
  --rate-limit N       token bucket of N requests/s per key (off by default)
  --burst N            bucket size (default: the rate)
  --retention-days N   the plan's event history window (default 30)
  --plan PLAN          free, pro, business (default), enterprise or unlimited; free and pro
                       answer 402 to environment create and delete, as production does
  --state FILE         keep the store in FILE across restarts
  --help               show this help

Prints one line, "notify-emulator listening on http://HOST:PORT", once it listens.
`;

function fail(msg: string): never {
  process.stderr.write(`notify-emulator: ${msg}\n\n${HELP}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        port: { type: "string" }, host: { type: "string" }, "api-key": { type: "string", multiple: true },
        mode: { type: "string" }, envelope: { type: "boolean" }, "no-envelope": { type: "boolean" },
        "hide-credentials": { type: "boolean" }, "show-credentials": { type: "boolean" },
        "no-idempotency": { type: "boolean" }, "rate-limit": { type: "string" }, burst: { type: "string" }, "retention-days": { type: "string" }, plan: { type: "string" },
        state: { type: "string" }, help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = v.port === undefined ? 4000 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${v.port}`);
  if (v.mode !== undefined && v.mode !== "production" && v.mode !== "spec") fail(`--mode must be production or spec, got ${v.mode}`);
  let rateLimit: { rate: number; burst: number } | undefined;
  if (v["rate-limit"] !== undefined) {
    const rate = Number(v["rate-limit"]);
    const burst = v.burst === undefined ? rate : Number(v.burst);
    if (!(rate > 0) || !(burst >= 1)) fail("--rate-limit and --burst must be positive numbers");
    rateLimit = { rate, burst };
  }
  const retentionDays = v["retention-days"] === undefined ? undefined : Number(v["retention-days"]);
  if (retentionDays !== undefined && !(Number.isInteger(retentionDays) && retentionDays >= 1)) fail(`--retention-days must be a positive integer, got ${v["retention-days"]}`);
  if (v.plan !== undefined && !(PLANS as readonly string[]).includes(v.plan)) fail(`--plan must be one of ${PLANS.join(", ")}, got ${v.plan}`);
  const emu = await startEmulator({
    port, host: v.host, apiKeys: v["api-key"], mode: v.mode as "production" | "spec" | undefined,
    envelope: v["no-envelope"] ? false : v.envelope,
    hideCredentials: v["show-credentials"] ? false : v["hide-credentials"],
    idempotency: v["no-idempotency"] ? false : undefined,
    rateLimit, retentionDays, statePath: v.state, plan: v.plan as Plan | undefined,
  });
  process.stdout.write(`notify-emulator listening on ${emu.url}\n`);
  const stop = () => { void emu.close().then(() => process.exit(0)); };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`notify-emulator: ${(e as Error).message}\n`);
  process.exit(1);
});
