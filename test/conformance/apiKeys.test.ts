/**
 * API keys at the emulator: the test control that adds and revokes them while it runs
 * (`/__emulator/keys`), and a restart from a saved state file, which must hold each environment
 * once. A revoked key is a key the service no longer knows: production looks the key up in the
 * environments' keys and answers 401 "API Key not found" when none holds it
 * (libs/application-generic/src/services/auth/community.auth.service.ts, getApiKeyUser;
 * apps/api/src/app/auth/e2e/user.auth.guard.e2e.ts), so a revoked key and an unknown one get the
 * same answer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import type * as EmulatorModule from "../../emulator";

const KEY = "keys-test-key-0123456789";

interface Res { status: number; body: any }

async function call(url: string, key: string | null, method: string, p: string, body?: unknown): Promise<Res> {
  const res = await fetch(url + p, {
    method,
    headers: { ...(key !== null ? { authorization: `ApiKey ${key}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** An error body without its timestamp, the one field that differs between two equal answers. */
const timeless = (b: Record<string, unknown>) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== "timestamp"));

describe("the API key control (/__emulator/keys)", () => {
  let emu: EmulatorModule.RunningEmulator;
  const as = (key: string | null, method: string, p: string, body?: unknown) => call(emu.url, key, method, p, body);
  const api = (method: string, p: string, body?: unknown) => as(KEY, method, p, body);
  const environments = async () => ((await api("GET", "/v1/environments")).body.data ?? []) as { _id: string; name: string; apiKeys: { key: string }[] }[];

  beforeAll(async () => { emu = await startEmulator({ apiKeys: [`${KEY}=dev`] }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  it("needs a valid key, as every control does", async () => {
    expect((await as(null, "POST", "/__emulator/keys", { environment: "Production" })).status).toBe(401);
    expect((await as("not-a-key", "DELETE", "/__emulator/keys", { key: KEY })).status).toBe(401);
  });

  it("adds a key to the environment named (by name or id) that reaches that environment's objects", async () => {
    const prod = (await environments()).find((e) => e.name === "Production")!;
    const added = await api("POST", "/__emulator/keys", { environment: "Production" });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ key: expect.stringMatching(/^[0-9a-f]{32}$/), environmentId: prod._id, environmentName: "Production" });
    expect((await as(added.body.key, "POST", "/v2/subscribers", { subscriberId: "in-prod" })).status).toBe(201);
    expect((await api("GET", "/v2/subscribers/in-prod")).status).toBe(404);

    const chosen = await api("POST", "/__emulator/keys", { environment: "env_dev", key: "chosen-key-0123456789" });
    expect(chosen.body).toEqual({ key: "chosen-key-0123456789", environmentId: "env_dev", environmentName: "dev" });
    expect((await as("chosen-key-0123456789", "GET", "/v2/subscribers/in-prod")).status).toBe(404);
    expect((await environments()).find((e) => e._id === "env_dev")!.apiKeys.map((k) => k.key)).toEqual([KEY, "chosen-key-0123456789"]);
  });

  it("refuses an unknown environment naming the ones there are, a key already held, and a malformed body", async () => {
    const unknown = await api("POST", "/__emulator/keys", { environment: "Staging" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/environment: no environment "Staging".*"dev" \(env_dev\).*"Development".*"Production"/);
    const held = await api("POST", "/__emulator/keys", { environment: "Production", key: KEY });
    expect(held.status).toBe(409);
    expect(held.body.message).toMatch(/key: already a key of environment "dev" \(env_dev\)/);
    expect((await api("POST", "/__emulator/keys", {})).status).toBe(400);
    expect((await api("POST", "/__emulator/keys", { environment: "Production", key: "has space" })).status).toBe(400);
  });

  it("revokes a key: it then answers 401 exactly as a key the service never had", async () => {
    const added = (await api("POST", "/__emulator/keys", { environment: "Production" })).body.key as string;
    expect((await as(added, "GET", "/v1/integrations")).status).toBe(200);
    const revoked = await api("DELETE", "/__emulator/keys", { key: added });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ revoked: added, environmentName: "Production" });
    const after = await as(added, "GET", "/v1/integrations");
    const never = await as("never-issued-key-0123456789", "GET", "/v1/integrations");
    expect(after.status).toBe(401);
    expect(timeless(after.body)).toEqual(timeless(never.body));
    const again = await api("DELETE", "/__emulator/keys", { key: added });
    expect(again.status).toBe(404);
  });

  it("rotates the caller's own key: the new one works, the old one is refused", async () => {
    const fresh = (await api("POST", "/__emulator/keys", { environment: "env_dev" })).body.key as string;
    expect((await as(fresh, "DELETE", "/__emulator/keys", { key: KEY })).status).toBe(200);
    expect((await api("GET", "/v1/integrations")).status).toBe(401);
    expect((await as(fresh, "GET", "/v1/integrations")).status).toBe(200);
    // A reset puts the starting environments back, their configured keys included.
    await as(fresh, "POST", "/__emulator/reset");
    expect((await api("GET", "/v1/integrations")).status).toBe(200);
  });
});

describe("a restart from a saved state file", () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

  // Each organisation has one Development and one Production (apps/api/src/app/organization/
  // usecases/create-organization/create-organization.usecase.ts creates the two once); a restart
  // must find them in the file rather than add them again.
  it.each([
    ["an unnamed key (Development's; Production made by the emulator)", [KEY]],
    ["a named key (both made by the emulator)", [`${KEY}=dev`]],
  ])("lists each environment once, with %s", async (_what, apiKeys) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "notify-keys-state-"));
    dirs.push(dir);
    const statePath = path.join(dir, "service.json");
    const list = async (e: EmulatorModule.RunningEmulator) => ((await call(e.url, KEY, "GET", "/v1/environments")).body.data as { _id: string; name: string }[])
      .map((x) => `${x.name} ${x._id}`).sort();
    const first = await startEmulator({ apiKeys, statePath });
    const before = await list(first);
    await first.close();
    for (let restart = 0; restart < 2; restart++) {
      const again = await startEmulator({ apiKeys, statePath });
      try {
        expect(await list(again)).toEqual(before);
      } finally {
        await again.close();
      }
    }
    expect(before.filter((e) => e.startsWith("Production "))).toHaveLength(1);
  });

  it("keeps a key added by the control, and a key revoked stays revoked unless it is a configured one", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "notify-keys-state-"));
    dirs.push(dir);
    const statePath = path.join(dir, "service.json");
    const first = await startEmulator({ apiKeys: [KEY], statePath });
    const added = (await call(first.url, KEY, "POST", "/__emulator/keys", { environment: "Production" })).body.key as string;
    const other = (await call(first.url, KEY, "POST", "/__emulator/keys", { environment: "Production" })).body.key as string;
    await call(first.url, KEY, "DELETE", "/__emulator/keys", { key: other });
    await call(first.url, added, "DELETE", "/__emulator/keys", { key: KEY });
    expect((await call(first.url, KEY, "GET", "/v1/integrations")).status).toBe(401);
    await first.close();
    const again = await startEmulator({ apiKeys: [KEY], statePath });
    try {
      expect((await call(again.url, added, "GET", "/v1/integrations")).status).toBe(200);
      expect((await call(again.url, other, "GET", "/v1/integrations")).status).toBe(401);
      // A key the emulator is started with always works (environments.ts, seedEnvironments).
      expect((await call(again.url, KEY, "GET", "/v1/integrations")).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
