/** Starts the compiled emulator for a test, with a small raw API helper for drift and checks. */
import { nativeRequire } from "./pulumi";
import type * as EmulatorModule from "../../emulator";

export const API_KEY = "test-api-key-0123456789";

export interface TestEmulator {
  url: string;
  key: string;
  close(): Promise<void>;
  /** A raw request with the key; returns status and parsed (unwrapped) body. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The request log, each entry with its parsed JSON `body` (see LoggedRequest). */
  requests(): Promise<EmulatorModule.LoggedRequest[]>;
  clearRequests(): Promise<void>;
  state(): Promise<{ integrations: any[]; subscribers: any[]; workflows: any[]; events: any[]; messages: any[] }>;
  /** Stack config that connects the provider to this emulator (the key secret), plus `extra` as plain values. */
  stackConfig(extra?: Record<string, string>): Record<string, { value: string; secret?: boolean }>;
}

export async function startTestEmulator(options: EmulatorModule.EmulatorOptions = {}): Promise<TestEmulator> {
  const { startEmulator } = nativeRequire("pulumi-notify/emulator") as typeof EmulatorModule;
  const emu = await startEmulator({ apiKeys: [API_KEY], ...options });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.url + path, {
      method,
      headers: { authorization: `ApiKey ${API_KEY}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
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
  return {
    url: emu.url,
    key: API_KEY,
    close: () => emu.close(),
    api,
    requests: async () => (await api("GET", "/__emulator/requests")).body.requests,
    clearRequests: async () => { await api("DELETE", "/__emulator/requests"); },
    state: async () => (await api("GET", "/__emulator/state")).body,
    stackConfig: (extra = {}) => ({
      "notify:apiUrl": { value: emu.url },
      "notify:apiKey": { value: API_KEY, secret: true },
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { value: v }])),
    }),
  };
}
