/** Starts the emulator from source for a test, with a small raw API helper for drift and checks. */
import { Agent, fetch } from "undici";
import { startEmulator } from "../../emulator";
import type * as EmulatorModule from "../../emulator";
import type { StoredLists } from "../../emulator/records";
import { CONNECTION_CHECK_ROUTE } from "../../provider/connectionCheck";

export const API_KEY = "test-api-key-0123456789";

export interface TestEmulator {
  url: string;
  key: string;
  close(): Promise<void>;
  /** A raw request with the key; returns status and parsed (unwrapped) body. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The same request with another API key (another environment's). */
  apiAs(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The request log, each entry with its parsed JSON `body` (see LoggedRequest). */
  requests(): Promise<EmulatorModule.LoggedRequest[]>;
  /**
   * The request log without the connection checks (provider/connectionCheck.ts: one read of the
   * key's environment before a program registers, or a plugin takes a configuration): the requests
   * of the operations themselves, for tests of what an operation sends.
   */
  operationRequests(): Promise<EmulatorModule.LoggedRequest[]>;
  clearRequests(): Promise<void>;
  /** Every list of the store (each kind's, from its route module), loosely typed for the tests' probing. */
  state(): Promise<{ [K in keyof StoredLists]: any[] }>;
  /** Stack config that connects the provider to this emulator (the key secret), plus `extra` as plain values. */
  stackConfig(extra?: Record<string, string>): Record<string, { value: string; secret?: boolean }>;
  /**
   * Points NOTIFY_API_URL and NOTIFY_API_KEY of this process at the emulator, for code that runs
   * outside a stack (functions, implementation modules); returns what puts the old values back.
   */
  connectEnvironment(): () => void;
}

const CONNECTION_VARIABLES = ["NOTIFY_API_URL", "NOTIFY_API_KEY"] as const;

/**
 * Points NOTIFY_API_URL and NOTIFY_API_KEY of this process at `url` with `key`; returns what puts
 * the old values back (a TestEmulator's `connectEnvironment`, and the live suite's).
 */
export function connectProcessTo(url: string, key: string): () => void {
  const saved = CONNECTION_VARIABLES.map((k) => [k, process.env[k]] as const);
  process.env.NOTIFY_API_URL = url;
  process.env.NOTIFY_API_KEY = key;
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/**
 * The helper's requests each on a connection of their own (`pipelining: 0`: `connection: close`).
 * A kept-alive connection can be closed by the emulator's idle timeout (30 s, in this process) in
 * the very turn of the event loop that sends a request on it: the server then destroys a socket
 * holding an unread request, and the request fails with ECONNRESET (a fresh clone's suite failed
 * so in test/e2e/releaseRehearsal.test.ts, about 30 s after the test's previous request). The
 * client's own idle timer, which should drop the connection first, counts undici's timer ticks
 * (lib/util/timers.js: 499 ms a tick, however late it runs), so a test that blocks the event loop
 * (`execFileSync`) keeps it from expiring in time. A loopback connection per request costs nothing.
 */
const ONE_CONNECTION_EACH = new Agent({ pipelining: 0 });

export async function startTestEmulator(options: EmulatorModule.EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({ apiKeys: [API_KEY], ...options });
  const apiAs = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.url + path, {
      dispatcher: ONE_CONNECTION_EACH,
      method,
      headers: { authorization: `ApiKey ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* plain text */
    }
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed) && Object.keys(parsed).length === 1 && "data" in parsed) parsed = parsed.data;
    return { status: res.status, body: parsed };
  };
  const api = (method: string, path: string, body?: unknown) => apiAs(API_KEY, method, path, body);
  return {
    url: emu.url,
    key: API_KEY,
    close: () => emu.close(),
    api,
    apiAs,
    requests: async () => (await api("GET", "/__emulator/requests")).body.requests,
    operationRequests: async () => ((await api("GET", "/__emulator/requests")).body.requests as EmulatorModule.LoggedRequest[]).filter((r) => !(r.method === "GET" && r.path === CONNECTION_CHECK_ROUTE)),
    clearRequests: async () => { await api("DELETE", "/__emulator/requests"); },
    state: async () => (await api("GET", "/__emulator/state")).body,
    stackConfig: (extra = {}) => ({
      "notify:apiUrl": { value: emu.url },
      "notify:apiKey": { value: API_KEY, secret: true },
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { value: v }])),
    }),
    connectEnvironment: () => connectProcessTo(emu.url, API_KEY),
  };
}
