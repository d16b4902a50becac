import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockAgent } from "undici";
import { NotifyClient, NotifyConnectionError, NotifyNotFoundError, NotifyConflictError, NotifyValidationError, NotifyResponseError, NotifyApiError, Pacer, buildPath, unwrapEnvelope } from "../../provider/client";
import { backoffDelay, DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter } from "../../provider/client/retry";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const fast = { baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 10_000, random: () => 0.5 };

function mock() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get("http://127.0.0.1:9");
  const client = new NotifyClient({ apiUrl: "http://127.0.0.1:9", apiKey: "secret-key-123", dispatcher: pool, retry: fast, pacer: new Pacer() });
  return { agent, pool, client };
}

const integration = { _id: "i1", _environmentId: "e", _organizationId: "o", name: "n", identifier: "x", providerId: "sendgrid", channel: "email", active: true, deleted: false, primary: false };

describe("retry rules", () => {
  it("retries connection errors, 408, 429 and 5xx, and a 409 only with Retry-After", () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(s, false)).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 422]) expect(isRetryableStatus(s, false)).toBe(false);
    expect(isRetryableStatus(409, true)).toBe(true);
  });
  it("waits at least what Retry-After asks, with full jitter below the exponential ceiling otherwise", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(backoffDelay({ ...DEFAULT_RETRY_POLICY, random: () => 0.999 }, 3)).toBeLessThan(800);
    expect(backoffDelay({ ...DEFAULT_RETRY_POLICY, random: () => 0 }, 3, 1500)).toBe(1500);
  });
});

describe("the client against scripted responses", () => {
  it("retries a 503 and then succeeds, reusing one idempotency key across the retries of a POST", async () => {
    const { pool, client } = mock();
    const keys: string[] = [];
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(503, (o) => { keys.push(String((o.headers as Record<string, string>)["idempotency-key"])); return { message: "busy" }; });
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(201, (o) => { keys.push(String((o.headers as Record<string, string>)["idempotency-key"])); return { data: integration }; });
    const r = await client.integrations.create({ providerId: "sendgrid", channel: "email", identifier: "x" });
    expect(r._id).toBe("i1");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("uses a fresh idempotency key for each new logical request", async () => {
    const { pool, client } = mock();
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(201, (o) => { keys.push(String((o.headers as Record<string, string>)["idempotency-key"])); return { data: integration }; });
    await client.integrations.create({ providerId: "sendgrid", channel: "email" });
    await client.integrations.create({ providerId: "sendgrid", channel: "email" });
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("does not retry a plain 409 and reports it as a conflict", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(409, { statusCode: 409, message: "Integration with identifier already exists", error: "Conflict" });
    const err = await client.integrations.create({ providerId: "sendgrid", channel: "email" }).catch((e) => e);
    expect(err).toBeInstanceOf(NotifyConflictError);
    expect(err.message).toBe("409 Conflict: Integration with identifier already exists");
    expect(err.attempts).toBe(1);
    expect(err.path).toBe("/v1/integrations");
  });

  it("retries a 409 that carries Retry-After (an idempotency key still in flight)", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(409, { message: "in progress" }, { headers: { "retry-after": "0" } });
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(201, { data: integration });
    expect((await client.integrations.create({ providerId: "sendgrid", channel: "email" }))._id).toBe("i1");
  });

  it("honours Retry-After on a 429", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v1/integrations", method: "GET" }).reply(429, "API rate limit exceeded", { headers: { "retry-after": "1" } });
    pool.intercept({ path: "/v1/integrations", method: "GET" }).reply(200, { data: [] });
    const t0 = Date.now();
    await client.integrations.list();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it("stops retrying at the total-time cap and reports the last error", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get("http://127.0.0.1:9");
    pool.intercept({ path: "/v1/integrations", method: "GET" }).reply(503, { message: "down" }).persist();
    const client = new NotifyClient({ apiUrl: "http://127.0.0.1:9", apiKey: "k-123456", dispatcher: pool, retry: { ...fast, maxAttempts: 100, baseDelayMs: 50, maxDelayMs: 50, random: () => 1, maxElapsedMs: 300 }, pacer: new Pacer() });
    const t0 = Date.now();
    const err = await client.integrations.list().catch((e) => e);
    expect(err).toBeInstanceOf(NotifyApiError);
    expect(err.status).toBe(503);
    expect(err.attempts).toBeGreaterThan(2);
    expect(err.attempts).toBeLessThan(100);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it("never retries a 400 or a 404 and gives each its class", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v1/integrations/abc", method: "PUT" }).reply(400, { statusCode: 400, message: ["credentials.apikey: unknown"], error: "Bad Request" });
    pool.intercept({ path: "/v2/subscribers/nobody", method: "GET" }).reply(404, { statusCode: 404, message: "Subscriber not found", error: "Not Found" });
    const e1 = await client.integrations.update("abc", {}).catch((e) => e);
    expect(e1).toBeInstanceOf(NotifyValidationError);
    expect(e1.details).toEqual(["credentials.apikey: unknown"]);
    const e2 = await client.subscribers.get("nobody").catch((e) => e);
    expect(e2).toBeInstanceOf(NotifyNotFoundError);
    expect(e2.code).toBe("not_found");
  });

  it("gives a clear message for an HTML error page and redacts the key echoed by the service", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v1/integrations", method: "GET" }).reply(401, "<html><body>401</body></html>");
    pool.intercept({ path: "/v2/workflows/w", method: "GET" }).reply(400, { message: "bad header ApiKey secret-key-123" });
    const e1 = await client.integrations.list().catch((e) => e);
    expect(e1.message).toBe("401 Unauthorized: the service answered with an HTML page");
    const e2 = await client.workflows.get("w").catch((e) => e);
    expect(e2.message).not.toContain("secret-key-123");
    expect(e2.message).toContain("[REDACTED]");
  });

  it("fails clearly when a required field is missing from a response", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v2/subscribers/a", method: "GET" }).reply(200, { data: { subscriberId: "a" } });
    const e = await client.subscribers.get("a").catch((x) => x);
    expect(e).toBeInstanceOf(NotifyResponseError);
    expect(e.message).toMatch(/get subscriber "a": unexpected response shape: _organizationId: /);
  });

  it("unwraps the envelope only when data is the sole key", () => {
    expect(unwrapEnvelope({ data: [1] })).toEqual([1]);
    const page = { data: [], next: null };
    expect(unwrapEnvelope(page)).toBe(page);
  });

  it("encodes each path parameter as one segment", () => {
    expect(buildPath("/v1/integrations/{integrationId}", { integrationId: "../v1/integrations" })).toBe("/v1/integrations/..%2Fv1%2Fintegrations");
    expect(buildPath("/v2/subscribers/{subscriberId}", { subscriberId: "a/b?c#d%é" })).toBe("/v2/subscribers/a%2Fb%3Fc%23d%25%C3%A9");
    expect(buildPath("/v2/subscribers/{subscriberId}", { subscriberId: ".." })).toBe("/v2/subscribers/%2E%2E");
  });

  it("refuses plain http to a host other than loopback unless allowed", () => {
    expect(() => new NotifyClient({ apiUrl: "http://notify.example.com", apiKey: "k" })).toThrow(/allowInsecureHttp/);
    expect(() => new NotifyClient({ apiUrl: "http://notify.example.com", apiKey: "k", allowInsecureHttp: true })).not.toThrow();
    expect(() => new NotifyClient({ apiUrl: "http://127.0.0.1:1", apiKey: "k" })).not.toThrow();
  });
});

describe("pacing", () => {
  it("spaces requests once less than half the quota remains", async () => {
    const p = new Pacer();
    p.observe({ limit: 10, remaining: 3, resetMs: 1000, windowMs: 1000 });
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await p.acquire();
    // Three spacings of 100 ms (window / limit) at least.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });
  it("does not slow down while plenty of quota remains", async () => {
    const p = new Pacer();
    p.observe({ limit: 100, remaining: 90, resetMs: 1000 });
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) await p.acquire();
    expect(Date.now() - t0).toBeLessThan(50);
  });
});

describe("the client against the emulator", () => {
  let emu: TestEmulator;
  let client: NotifyClient;
  beforeAll(async () => {
    emu = await startTestEmulator();
    client = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key, retry: fast, pacer: new Pacer() });
  });
  afterAll(async () => { await client.close(); await emu.close(); });
  beforeEach(async () => { await emu.api("POST", "/__emulator/reset"); });

  it("reads integrations from one listing until the client writes", async () => {
    const a = await client.integrations.create({ providerId: "slack", channel: "chat", identifier: "a", active: true });
    const b = await client.integrations.create({ providerId: "discord", channel: "chat", identifier: "b", active: true });
    await emu.clearRequests();
    const lists = async () => (await emu.requests()).filter((r) => r.method === "GET" && r.path === "/v1/integrations").length;
    for (let i = 0; i < 20; i++) await client.integrations.get(i % 2 ? a._id : b._id);
    expect(await lists()).toBe(1);
    // A change made elsewhere is not seen until the listing is dropped ...
    await emu.api("PUT", `/v1/integrations/${a._id}`, { name: "renamed by hand" });
    expect((await client.integrations.get(a._id))?.name).not.toBe("renamed by hand");
    // ... which any write of this client does.
    await client.integrations.update(b._id, { name: "B", check: false });
    expect((await client.integrations.get(a._id))?.name).toBe("renamed by hand");
    expect(await lists()).toBe(2);
  });

  it("reads environments from one listing until the client writes (the service has no read-one route)", async () => {
    const [dev, prod] = await client.environments.list();
    await emu.clearRequests();
    const lists = async () => (await emu.requests()).filter((r) => r.method === "GET" && r.path === "/v1/environments").length;
    for (let i = 0; i < 10; i++) await client.environments.get(i % 2 ? dev!._id : prod!._id);
    expect(await lists()).toBe(1);
    await client.environments.update(dev!._id, { color: "#000000" });
    expect((await client.environments.get(dev!._id))?.color).toBe("#000000");
    expect(await lists()).toBe(2);
  });

  it("runs every method", async () => {
    const i = await client.integrations.create({ providerId: "slack", channel: "chat", identifier: "slack-main", active: true });
    expect((await client.integrations.list()).map((x) => x._id)).toEqual([i._id]);
    expect((await client.integrations.update(i._id, { name: "Slack 2", check: false })).name).toBe("Slack 2");
    expect((await client.integrations.setPrimary(i._id)).primary).toBe(true);
    expect(await client.integrations.get(i._id)).toMatchObject({ _id: i._id });
    const w = await client.workflows.create({ name: "W", workflowId: "w1", steps: [{ name: "Chat", type: "chat", controlValues: { body: "b" } }], active: true });
    expect((await client.workflows.get("w1"))._id).toBe(w._id);
    expect((await client.workflows.list()).totalCount).toBe(1);
    const w2 = await client.workflows.update(w._id, { name: "W2", steps: [{ _id: w.steps[0]!._id, name: "Chat", type: "chat", controlValues: { body: "c" } }], preferences: {}, origin: "platform-cloud" });
    expect(w2.steps[0]!.stepId).toBe(w.steps[0]!.stepId);
    await client.subscribers.create({ subscriberId: "bob", email: "bob@example.com" });
    expect((await client.subscribers.update("bob", { firstName: "Bob" })).firstName).toBe("Bob");
    expect((await client.subscribers.search({ email: "bob@" })).data).toHaveLength(1);
    const s = await client.subscribers.updateCredentials("bob", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://h.example/x" } });
    expect(s.channels?.[0]?._integrationId).toBe(i._id);
    await client.subscribers.deleteCredentials("bob", "slack");
    expect((await client.subscribers.get("bob")).channels).toEqual([]);
    const t = await client.events.trigger({ name: "w1", to: "bob", transactionId: "tx1" });
    expect(t.transactionId).toBe("tx1");
    const ev = await client.events.list({ transactionId: "tx1" });
    expect((await client.events.get(ev.data[0]!._id!)).jobs).toHaveLength(1);
    expect((await client.messages.list({ channel: "chat" })).data).toHaveLength(1);
    await client.workflows.delete(w._id);
    const remaining = await client.integrations.delete(i._id);
    expect(remaining).toEqual([]);
  });

  it("recovers from injected 5xx, 429 and dropped connections", async () => {
    await emu.api("POST", "/__emulator/faults", { errorRate: 0.3, rateLimitRate: 0.1, dropRate: 0.1, seed: 7 });
    for (let n = 0; n < 20; n++) await client.subscribers.create({ subscriberId: `s${n}` });
    await emu.api("POST", "/__emulator/faults", {});
    const all = await client.subscribers.search({ limit: 100 });
    expect(all.data.map((s) => s.subscriberId).sort()).toHaveLength(20);
    const log = await emu.requests();
    expect(log.some((r: any) => r.fault === "5xx")).toBe(true);
    expect(log.some((r: any) => r.fault === "drop")).toBe(true);
  });

  it("paces a burst under the emulator's rate limit with few 429s", async () => {
    await emu.api("POST", "/__emulator/behaviour", { rateLimit: { rate: 20, burst: 10 } });
    const fresh = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key, retry: fast, pacer: new Pacer() });
    try {
      await Promise.all(Array.from({ length: 40 }, () => fresh.integrations.list()));
      const log = await emu.requests();
      const limited = log.filter((r: any) => r.status === 429).length;
      expect(limited).toBeLessThanOrEqual(4);
    } finally {
      await fresh.close();
      await emu.api("POST", "/__emulator/behaviour", { rateLimit: null });
    }
  });

  it("reports a dropped connection as a connection error once retries run out", async () => {
    const c = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key, retry: { ...fast, maxAttempts: 2 }, pacer: new Pacer() });
    await emu.api("POST", "/__emulator/faults", { dropRate: 1 });
    try {
      const e = await c.integrations.list().catch((x) => x);
      expect(e).toBeInstanceOf(NotifyConnectionError);
      expect(e.attempts).toBe(2);
    } finally {
      await emu.api("POST", "/__emulator/faults", {});
      await c.close();
    }
  });
});
