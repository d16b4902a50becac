import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONNECTION_SETTINGS, REQUEST_TIMEOUT, describeSetting } from "../../../../provider/client/settings";
import { resolveConnection, settingsFromConfig } from "../../../../provider/config";
import { buildSchema } from "../../../../scripts/schema";

const ENV = CONNECTION_SETTINGS.map((s) => s.env);

describe("the connection settings table", () => {
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(ENV.map((e) => [e, process.env[e]]));
    for (const e of ENV) delete process.env[e];
  });
  afterEach(() => {
    for (const e of ENV) if (saved[e] === undefined) delete process.env[e]; else process.env[e] = saved[e];
  });

  it("is what the schema declares as config variables and provider inputs, secrecy and description included", () => {
    const schema = buildSchema() as { config: { variables: Record<string, { type: string; secret?: boolean; description: string }> } };
    expect(Object.keys(schema.config.variables)).toEqual(CONNECTION_SETTINGS.map((s) => s.key));
    for (const s of CONNECTION_SETTINGS) {
      expect(schema.config.variables[s.key]).toEqual({ type: s.type, ...("secret" in s ? { secret: true } : {}), description: describeSetting(s) });
      expect(describeSetting(s)).toContain(s.env);
    }
  });

  it("reads each setting from its environment variable when config leaves it unset, and config wins", () => {
    process.env.NOTIFY_API_URL = "https://env.example";
    process.env.NOTIFY_API_KEY = "env-key";
    process.env.NOTIFY_ALLOW_INSECURE_HTTP = "true";
    process.env.NOTIFY_REQUEST_TIMEOUT_MS = "1234";
    expect(resolveConnection({})).toEqual({ apiUrl: "https://env.example", apiKey: "env-key", allowInsecureHttp: true, timeoutMs: 1234 });
    const fromConfig = settingsFromConfig((k) => ({ "notify:apiUrl": "https://cfg.example", "notify:apiKey": "cfg-key", "notify:requestTimeoutMs": "999" })[k]);
    expect(resolveConnection(fromConfig)).toEqual({ apiUrl: "https://cfg.example", apiKey: "cfg-key", allowInsecureHttp: true, timeoutMs: 999 });
  });

  it("names both sources of each missing required setting", () => {
    expect(() => resolveConnection({})).toThrow(/stack config notify:apiUrl, or NOTIFY_API_URL.*secret stack config notify:apiKey, or NOTIFY_API_KEY/);
  });

  it("takes the timeout's bounds from the table: the bounds pass, one past each is refused with the range", () => {
    const base = { apiUrl: "https://x.example", apiKey: "k" };
    expect(resolveConnection({ ...base, requestTimeoutMs: REQUEST_TIMEOUT.min }).timeoutMs).toBe(REQUEST_TIMEOUT.min);
    expect(resolveConnection({ ...base, requestTimeoutMs: REQUEST_TIMEOUT.max }).timeoutMs).toBe(REQUEST_TIMEOUT.max);
    for (const bad of [REQUEST_TIMEOUT.min - 1, REQUEST_TIMEOUT.max + 1, "1.5", "soon"]) {
      expect(() => resolveConnection({ ...base, requestTimeoutMs: bad })).toThrow(`from ${REQUEST_TIMEOUT.min} to ${REQUEST_TIMEOUT.max}`);
    }
    expect(resolveConnection(base).timeoutMs).toBeUndefined();
  });
});
