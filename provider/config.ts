/**
 * Where a connection comes from: stack config (`notify:<key>`), then the environment variable of
 * the same setting. The settings, their variables, defaults and ranges are one table,
 * CONNECTION_SETTINGS (client/settings.ts). Resources get the stack config through the dynamic
 * provider's `configure`; functions run in the program and read `new pulumi.Config("notify")`.
 */
import type { NotifyClient } from "./client";
import { NotifyConfigError } from "./client/errors";
import { CONNECTION_KEYS, CONNECTION_SETTINGS, connectionSetting, REQUEST_TIMEOUT, STEP_ISSUE_MODES, type ConnectionKey } from "./client/settings";

export { CONNECTION_KEYS, CONNECTION_SETTINGS };

/** The settings of a connection, before defaults: each as config or an environment variable gives it. */
export type ConnectionSettings = { [K in ConnectionKey]?: K extends "allowInsecureHttp" ? string | boolean : K extends "requestTimeoutMs" ? string | number : string };

/** The settings read from config by `get` (`notify:apiUrl`, ...), those set only. */
export function settingsFromConfig(get: (key: string) => string | undefined): ConnectionSettings {
  const settings: ConnectionSettings = {};
  for (const k of CONNECTION_KEYS) {
    const v = get(`notify:${k}`);
    if (v !== undefined) settings[k] = v;
  }
  return settings;
}

/**
 * What a refused API key (401) means, given where the key came from (`source`: the provider's stack
 * config and variable, or an option of `notify-export`), for every program that reads the service.
 */
export function refusedKeyHint(source: string): string {
  return `The service refused the API key (401). The key comes from ${source}: check that it is the key of this environment`;
}

/**
 * Added to an error when the service refuses the API key (401): where the key comes from, and how
 * a rotated key reaches refresh and destroy. The engine stores the provider's configuration (for
 * the dynamic provider, the stack config it was given, the key included) with the provider in the
 * stack's state, and refreshes and destroys with that stored configuration unless the operation
 * runs the program (test/e2e/keyRotation.test.ts shows each case).
 */
export const UNAUTHORIZED_HINT =
  refusedKeyHint(`the secret stack config notify:apiKey, else the ${connectionSetting("apiKey").env} environment variable of \`pulumi\``) +
  ". After a key rotation, refresh and destroy still use the key stored with the provider in the stack's state: " +
  "run `pulumi refresh --run-program` or `pulumi destroy --run-program`, or run `pulumi up` once to store the new key";

/**
 * Whether `err` is the service's 401 refusing the API key; not the 401 of a route that takes no API
 * key on that server (code `api_key_not_accepted`), which no other key would pass.
 */
export function isUnauthorized(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { status?: unknown; code?: unknown };
  return e.status === 401 && e.code !== "api_key_not_accepted";
}

let providerConfig: ConnectionSettings = {};
const clients = new Map<string, NotifyClient>();

/** Called by the provider's `configure` with the stack config. */
export function setProviderConfig(settings: ConnectionSettings): void {
  providerConfig = settings;
}

/** The settings the provider was configured with (empty in a program, where nothing configures it). */
export function providerSettings(): ConnectionSettings {
  return providerConfig;
}

/**
 * The dynamic provider's `configure`: takes from the stack config only what the connection needs,
 * so the key stays in the provider process.
 */
export function configureFromStack(req: { config: { get(key: string): string | undefined } }): void {
  setProviderConfig(settingsFromConfig((key) => req.config.get(key)));
}

/** A setting's value: the explicit one if set, else its environment variable. */
function lookup(settings: ConnectionSettings, key: ConnectionKey): string | boolean | number | undefined {
  const v = settings[key];
  return v !== undefined && v !== "" ? v : process.env[connectionSetting(key).env];
}

/** Where a setting is read from, for messages: `stack config notify:apiKey, or NOTIFY_API_KEY`. */
export function settingSources(key: ConnectionKey): string {
  const s = connectionSetting(key);
  return `${s.secret ? "secret " : ""}stack config notify:${s.key}, or ${s.env}`;
}

/** Resolves settings: explicit values first, then the environment. Throws naming both sources. */
export function resolveConnection(settings: ConnectionSettings = providerConfig): { apiUrl: string; apiKey: string; allowInsecureHttp: boolean; timeoutMs?: number } {
  const apiUrl = lookup(settings, "apiUrl");
  const apiKey = lookup(settings, "apiKey");
  const missing: string[] = [];
  if (!apiUrl) missing.push(`the service address (${settingSources("apiUrl")})`);
  if (!apiKey) missing.push(`the API key (${settingSources("apiKey")})`);
  if (missing.length) {
    throw new NotifyConfigError(
      `pulumi-notify has no connection: set ${missing.join(" and ")}. ` +
      "For example: pulumi config set notify:apiUrl https://api.example.com && pulumi config set --secret notify:apiKey <key>",
    );
  }
  const insecure = lookup(settings, "allowInsecureHttp");
  const rawTimeout = lookup(settings, "requestTimeoutMs");
  let timeoutMs: number | undefined;
  if (rawTimeout !== undefined && rawTimeout !== "") {
    timeoutMs = Number(rawTimeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs < REQUEST_TIMEOUT.min || timeoutMs > REQUEST_TIMEOUT.max) {
      throw new NotifyConfigError(`notify:requestTimeoutMs (or ${connectionSetting("requestTimeoutMs").env}) must be an integer number of milliseconds from ${REQUEST_TIMEOUT.min} to ${REQUEST_TIMEOUT.max}, got ${JSON.stringify(rawTimeout)}`);
    }
  }
  return { apiUrl: String(apiUrl), apiKey: String(apiKey), allowInsecureHttp: insecure === true || insecure === "true", timeoutMs };
}

/** What step issues do: `warn` (a warning) or `error` (a warning's text as a failed operation). */
export type StepIssueMode = (typeof STEP_ISSUE_MODES)[number];

/**
 * The provider's step-issue mode: `notify:stepIssues`, else NOTIFY_STEP_ISSUES, else the table's
 * default. Throws naming the value given and the values allowed.
 */
export function stepIssueMode(settings: ConnectionSettings = providerConfig): StepIssueMode {
  const s = connectionSetting("stepIssues");
  const v = lookup(settings, "stepIssues") ?? s.default;
  if (!(STEP_ISSUE_MODES as readonly unknown[]).includes(v)) {
    throw new NotifyConfigError(`notify:stepIssues (or ${s.env}) must be one of ${STEP_ISSUE_MODES.map((m) => JSON.stringify(m)).join(", ")}, got ${JSON.stringify(v)}`);
  }
  return v as StepIssueMode;
}

/** The client of the resolved connection, one per address and key in the process. */
export function clientFor(settings?: ConnectionSettings): NotifyClient {
  const c = resolveConnection(settings);
  const cacheKey = `${c.apiUrl}\u0000${c.apiKey}\u0000${c.allowInsecureHttp}\u0000${c.timeoutMs ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    // Loaded on first use: the provider processes that only check and diff (every preview starts
    // one) never load the HTTP stack (undici), which is most of this package's load time.
    const { NotifyClient: Client } = require("./client") as typeof import("./client");
    client = new Client({ apiUrl: c.apiUrl, apiKey: c.apiKey, allowInsecureHttp: c.allowInsecureHttp, timeoutMs: c.timeoutMs });
    clients.set(cacheKey, client);
  }
  return client;
}
