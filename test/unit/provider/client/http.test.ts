/** The transport (provider/client/http.ts) through the client, against responses scripted with undici's MockAgent: retries, idempotency keys, errors, paths. */
import { describe, expect, it } from "vitest";
import { MockAgent } from "undici";
import { NotifyClient, NotifyNotFoundError, NotifyConflictError, NotifyValidationError, NotifyResponseError, NotifyApiError, Pacer, buildPath, unwrapEnvelope } from "../../../../provider/client";
import { FAST_RETRY as fast } from "../../../helpers/client";

function mock() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get("http://127.0.0.1:9");
  const client = new NotifyClient({ apiUrl: "http://127.0.0.1:9", apiKey: "secret-key-123", dispatcher: pool, retry: fast, pacer: new Pacer() });
  return { agent, pool, client };
}

const integration = { _id: "i1", _environmentId: "e", _organizationId: "o", name: "n", identifier: "x", providerId: "sendgrid", channel: "email", active: true, deleted: false, primary: false };

describe("the client against scripted responses", () => {
  /** The request's idempotency key. */
  const keyOf = (o: { headers?: unknown }) => String((o.headers as Record<string, string>)["idempotency-key"]);
  /** A reply as the service's idempotency interceptor gives it: the key taken, in the answer's `Idempotency-Key`. */
  const echoing = (status: number, body: unknown, keys?: string[]) => (o: { headers?: unknown }) => {
    keys?.push(keyOf(o));
    return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { "content-type": "application/json", "idempotency-key": keyOf(o) } } };
  };

  it("retries a 503 and then succeeds, reusing one idempotency key across the retries of a POST, on a server that honours the keys", async () => {
    const { pool, client } = mock();
    const keys: string[] = [];
    // A first write answered with its key: the server honours idempotency keys, so a lost create may be sent again.
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(echoing(201, { data: integration }));
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(echoing(503, { message: "busy" }, keys));
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(echoing(201, { data: integration }, keys));
    await client.integrations.create({ providerId: "sendgrid", channel: "email", identifier: "first" });
    const r = await client.integrations.create({ providerId: "sendgrid", channel: "email", identifier: "x" });
    expect(r._id).toBe("i1");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  // production-notes.md, sixth pass: a server with idempotency off ignores the key, and a retried POST makes a second object.
  it("does not send a create again after a 503 on a server not shown to honour idempotency keys, and marks the error maybeWritten", async () => {
    const { pool, client } = mock();
    pool.intercept({ path: "/v1/integrations", method: "POST" }).reply(503, { message: "busy" });
    const err = await client.integrations.create({ providerId: "sendgrid", channel: "email", identifier: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(NotifyApiError);
    expect(err.maybeWritten).toBe(true);
    expect(err.attempts).toBe(1);
    expect(err.message).toMatch(/the create was not sent again blindly/);
    // A request that makes nothing is retried as before.
    pool.intercept({ path: "/v1/integrations/i1/set-primary", method: "POST" }).reply(503, { message: "busy" });
    pool.intercept({ path: "/v1/integrations/i1/set-primary", method: "POST" }).reply(201, { data: integration });
    expect((await client.integrations.setPrimary("i1"))._id).toBe("i1");
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
    // The message says it was retried, and what each attempt got.
    expect(err.message).toMatch(new RegExp(`^503 Service Unavailable: down \\(after ${err.attempts} attempts in \\d+\\.\\d s: ${Array(err.attempts).fill("503").join(", ")}\\)$`));
  });

  it("names what each attempt got when it gives up: a dropped connection by its code, an answer by its status", async () => {
    const { pool } = mock();
    const attempts = 4;
    const client = new NotifyClient({ apiUrl: "http://127.0.0.1:9", apiKey: "k-123456", dispatcher: pool, retry: { ...fast, maxAttempts: attempts }, pacer: new Pacer() });
    const closed = () => Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    pool.intercept({ path: "/v2/workflows/w", method: "DELETE" }).replyWithError(closed());
    pool.intercept({ path: "/v2/workflows/w", method: "DELETE" }).reply(503, { message: "busy" });
    for (let i = 0; i < attempts - 2; i++) pool.intercept({ path: "/v2/workflows/w", method: "DELETE" }).replyWithError(closed());
    const err = await client.workflows.delete("w").catch((e) => e);
    expect(err.attempts).toBe(attempts);
    const got = ["UND_ERR_SOCKET", "503", ...Array(attempts - 2).fill("UND_ERR_SOCKET")].join(", ");
    expect(err.message).toMatch(new RegExp(`^DELETE /v2/workflows/\\{workflowId\\} failed: UND_ERR_SOCKET: other side closed \\(after ${attempts} attempts in \\d+\\.\\d s: ${got}\\)$`));
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
