/**
 * What a live run is given (environment variables; scripts/live.ts turns its flags into them), and
 * the checks before it writes anything: the address answers as the service, the key is accepted,
 * its environment is not a production one (unless allowed), and nothing there carries the run's
 * prefix already.
 */
import os from "node:os";
import path from "node:path";
import { fetch } from "undici";
import { NotifyClient } from "../../provider/client/index";
import type { Environment } from "../../provider/schemas";
import { newPrefix, PREFIX_PATTERN } from "./namespace";
import { listPrefixed } from "./owned";

export interface LiveConfig {
  url: string;
  key: string;
  /** A second environment's key, for what needs two (optional). */
  key2?: string;
  prefix: string;
  allowProduction: boolean;
  reportDir: string;
  frontEnd: "dynamic" | "native";
}

/** The variables a live run reads, each with what it is. */
export const LIVE_VARIABLES = {
  NOTIFY_LIVE_API_URL: "the service's API address (required)",
  NOTIFY_LIVE_API_KEY: "an API key of the environment to run in (required)",
  NOTIFY_LIVE_API_KEY_2: "a second environment's API key (optional)",
  NOTIFY_LIVE_PREFIX: "the run prefix (default: lv and 6 random characters)",
  NOTIFY_LIVE_ALLOW_PRODUCTION: "1 to run in a production-type environment (--allow-production)",
  NOTIFY_LIVE_REPORT_DIR: "where the report goes (default: a new folder under the system's temp folder)",
  NOTIFY_LIVE_FRONT_END: "dynamic (default) or native: the front end the engine's stack uses",
} as const;

export class LiveConfigError extends Error {
  override name = "LiveConfigError";
}

/** The run's configuration from `env`; throws naming each variable missing or wrong. */
export function liveConfig(env: NodeJS.ProcessEnv = process.env): LiveConfig {
  const problems: string[] = [];
  const url = env.NOTIFY_LIVE_API_URL ?? "";
  const key = env.NOTIFY_LIVE_API_KEY ?? "";
  if (!url) problems.push(`NOTIFY_LIVE_API_URL is not set: ${LIVE_VARIABLES.NOTIFY_LIVE_API_URL}`);
  else {
    try {
      new URL(url);
    } catch {
      problems.push(`NOTIFY_LIVE_API_URL ${JSON.stringify(url)} is not a URL (e.g. https://api.example.com)`);
    }
  }
  if (!key) problems.push(`NOTIFY_LIVE_API_KEY is not set: ${LIVE_VARIABLES.NOTIFY_LIVE_API_KEY}`);
  const prefix = env.NOTIFY_LIVE_PREFIX || newPrefix();
  if (!PREFIX_PATTERN.test(prefix)) problems.push(`NOTIFY_LIVE_PREFIX ${JSON.stringify(prefix)}: must be a lower-case letter then 3 to 15 lower-case letters or digits`);
  const frontEnd = env.NOTIFY_LIVE_FRONT_END || "dynamic";
  if (frontEnd !== "dynamic" && frontEnd !== "native") problems.push(`NOTIFY_LIVE_FRONT_END ${JSON.stringify(frontEnd)}: must be dynamic or native`);
  if (problems.length) throw new LiveConfigError(problems.join("\n"));
  return {
    url, key, key2: env.NOTIFY_LIVE_API_KEY_2 || undefined, prefix,
    allowProduction: env.NOTIFY_LIVE_ALLOW_PRODUCTION === "1" || env.NOTIFY_LIVE_ALLOW_PRODUCTION === "true",
    reportDir: env.NOTIFY_LIVE_REPORT_DIR || path.join(os.tmpdir(), `notify-live-${prefix}`),
    frontEnd: frontEnd as LiveConfig["frontEnd"],
  };
}

/** What the checks found. */
export interface Preflight {
  version: string | null;
  environment: Environment;
  mode: "production" | "spec";
}

/** Whether the service counts an environment as production: its type (`prod`), or its name. */
export const isProductionType = (e: Pick<Environment, "name"> & { type?: unknown }) => e.type === "prod" || e.name === "Production";

/**
 * The checks before a run writes anything; throws {@link LiveConfigError} saying why a run must
 * not start: the key refused, a production-type environment without `allowProduction`, objects
 * that carry the prefix already (a run killed before its cleanup, or a prefix given twice).
 */
export async function preflight(cfg: LiveConfig, client = new NotifyClient({ apiUrl: cfg.url, apiKey: cfg.key })): Promise<Preflight> {
  const version = (await client.http.serverVersion()) ?? null;
  let environment: Environment;
  try {
    environment = await client.environments.me();
  } catch (e) {
    throw new LiveConfigError(`the service at ${cfg.url} did not answer the key's environment (GET /v1/environments/me): ${e instanceof Error ? e.message : String(e)}`);
  }
  if (isProductionType(environment as Environment & { type?: unknown }) && !cfg.allowProduction) {
    throw new LiveConfigError(
      `refusing to run in environment ${JSON.stringify(environment.name)}: the service counts it as a production environment ` +
      `(type ${JSON.stringify((environment as { type?: unknown }).type)}). The run makes and removes objects of its own there, ` +
      "and touches nothing else; to run there anyway, give --allow-production (NOTIFY_LIVE_ALLOW_PRODUCTION=1)",
    );
  }
  const taken = await listPrefixed(client, cfg.prefix);
  if (taken.length) {
    throw new LiveConfigError(
      `refusing to start: the environment holds ${taken.length} object(s) carrying the run prefix ${cfg.prefix} ` +
      `(${taken.slice(0, 10).map((o) => `${o.kind} ${o.identifier}`).join(", ")}${taken.length > 10 ? ", ..." : ""}), which the run would collide with. ` +
      `Remove them with: npm run test:live -- --cleanup ${cfg.prefix}`,
    );
  }
  const raw = await fetch(`${cfg.url.replace(/\/+$/, "")}/v1/environments/me`, { headers: { authorization: `ApiKey ${cfg.key}` } });
  const body = (await raw.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const mode = body && typeof body === "object" && Object.keys(body).length === 1 && "data" in body ? "production" : "spec";
  return { version, environment, mode };
}
