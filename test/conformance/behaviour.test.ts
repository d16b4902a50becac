/**
 * One test per behaviour of the emulator (issue: auth, tenancy, soft delete, duplicates, error
 * bodies, envelope, credentials, idempotency, rate limit, test controls) and per row of api.md's
 * Limits table, against a running emulator over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import type * as EmulatorModule from "../../emulator";

const KEY = "behaviour-key-0123456789";
const OTHER = "behaviour-other-key-987654";

interface Res { status: number; headers: Headers; body: any; text: string }

function client(url: string, key: string | null) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> => {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...(key !== null ? { authorization: `ApiKey ${key}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try { parsed = JSON.parse(text); } catch { /* text */ }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

const email = (identifier: string, extra: Record<string, unknown> = {}) => ({
  name: "SendGrid", identifier, providerId: "sendgrid", channel: "email", credentials: { apiKey: "SG.k", from: "a@example.com" }, ...extra,
});
const wf = (workflowId: string, extra: Record<string, unknown> = {}) => ({
  name: workflowId, workflowId, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }], ...extra,
});

describe("emulator behaviour (production mode)", () => {
  let emu: EmulatorModule.RunningEmulator;
  let api: ReturnType<typeof client>;
  const data = (r: Res) => r.body?.data ?? r.body;

  beforeAll(async () => {
    emu = await startEmulator({ apiKeys: [`${KEY}=dev`, `${OTHER}=prod`] });
    api = client(emu.url, KEY);
  });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  it("answers 401 on every operation without a valid ApiKey header", async () => {
    const ops: [string, string][] = [
      ["GET", "/v1/integrations"], ["POST", "/v1/integrations"], ["PUT", "/v1/integrations/x"], ["DELETE", "/v1/integrations/x"],
      ["POST", "/v1/integrations/x/set-primary"], ["PUT", "/v1/subscribers/a/credentials"], ["PATCH", "/v1/subscribers/a/credentials"],
      ["DELETE", "/v1/subscribers/a/credentials/slack"], ["POST", "/v2/subscribers"], ["GET", "/v2/subscribers"], ["GET", "/v2/subscribers/a"],
      ["PATCH", "/v2/subscribers/a"], ["DELETE", "/v2/subscribers/a"], ["GET", "/v1/messages"], ["GET", "/v1/notifications"],
      ["GET", "/v1/notifications/x"], ["GET", "/v2/workflows"], ["POST", "/v2/workflows"], ["GET", "/v2/workflows/x"],
      ["PUT", "/v2/workflows/x"], ["DELETE", "/v2/workflows/x"], ["POST", "/v1/events/trigger"], ["POST", "/__emulator/reset"],
    ];
    const variants: (Record<string, string> | null)[] = [null, { authorization: `ApiKey ${KEY}x` }, { authorization: `Bearer ${KEY}` }, { authorization: "ApiKey " }];
    for (const [method, path] of ops) {
      for (const h of variants) {
        const r = await client(emu.url, null)(method, path, undefined, h ?? {});
        expect(r.status, `${method} ${path} ${JSON.stringify(h)}`).toBe(401);
      }
    }
    const r = await client(emu.url, null)("GET", "/v1/integrations");
    expect(r.body).toMatchObject({ statusCode: 401, message: "API Key not found", error: "Unauthorized", path: "/v1/integrations" });
    expect((await api("GET", "/v1/integrations")).status).toBe(200);
  });

  it("gives each key its own environment of one organisation", async () => {
    const a = data(await api("POST", "/v1/integrations", email("main")));
    const other = client(emu.url, OTHER);
    const b = data(await other("POST", "/v1/integrations", email("main")));
    expect(a._environmentId).toBe("env_dev");
    expect(b._environmentId).toBe("env_prod");
    expect(a._organizationId).toBe(b._organizationId);
    const w = data(await other("POST", "/v2/workflows", wf("w1")));
    expect((await api("GET", "/v2/workflows/w1")).status).toBe(404);
    expect((await other("GET", `/v2/workflows/${w.workflowId}`)).status).toBe(200);
    expect((await api("PUT", `/v1/integrations/${b._id}`, { name: "x" })).status).toBe(404);
  });

  it("soft-deletes integrations: flagged, irreversible, absent from lists", async () => {
    const i = data(await api("POST", "/v1/integrations", email("gone")));
    expect((await api("DELETE", `/v1/integrations/${i._id}`)).status).toBe(200);
    expect(data(await api("GET", "/v1/integrations")).map((x: any) => x._id)).not.toContain(i._id);
    const stored = (await api("GET", "/__emulator/state")).body.integrations.find((x: any) => x._id === i._id);
    expect(stored).toMatchObject({ deleted: true, deletedBy: expect.any(String) });
    expect(Date.parse(stored.deletedAt)).toBeGreaterThan(0);
    expect((await api("PUT", `/v1/integrations/${i._id}`, { name: "back" })).status).toBe(404);
    expect((await api("DELETE", `/v1/integrations/${i._id}`)).status).toBe(404);
    // The identifier is free again once the old one is deleted.
    expect((await api("POST", "/v1/integrations", email("gone"))).status).toBe(201);
  });

  it("answers 409 on a duplicate integration identifier in an environment", async () => {
    expect((await api("POST", "/v1/integrations", email("dup"))).status).toBe(201);
    const r = await api("POST", "/v1/integrations", email("dup"));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ statusCode: 409, error: "Conflict", message: expect.stringContaining("identifier") });
    const other = data(await api("POST", "/v1/integrations", email("other")));
    expect((await api("PUT", `/v1/integrations/${other._id}`, { identifier: "dup" })).status).toBe(409);
  });

  it("answers 404 with the production error body", async () => {
    const r = await api("GET", "/v2/subscribers/nobody");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ statusCode: 404, timestamp: expect.any(String), path: "/v2/subscribers/nobody", message: expect.stringContaining("nobody"), error: "Not Found", ctx: {} });
    expect(Number.isNaN(Date.parse(r.body.timestamp))).toBe(false);
  });

  // Production answers request validation failures with 422 "Validation Error" and the
  // validator's messages under errors.general (production-notes.md, Third pass §0).
  it("answers 422 Validation Error with field-level messages on bad bodies and bad query values", async () => {
    const r = await api("POST", "/v1/integrations", { providerId: "sendgrid", channel: "fax", active: "yes" });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ statusCode: 422, message: "Validation Error", errors: { general: { value: "No Value Recorded" } } });
    expect(r.body.errors.general.messages).toEqual(expect.arrayContaining([expect.stringMatching(/^channel: /), expect.stringMatching(/^active: /)]));
    const q = await api("GET", "/v2/subscribers?limit=abc&orderDirection=UP");
    expect(q.status).toBe(422);
    expect(q.body.errors.general.messages).toEqual(expect.arrayContaining([expect.stringMatching(/^limit: /), expect.stringMatching(/^orderDirection: /)]));
    // An email step's subject is required; its body defaults to "" (EmailControlDto).
    const w = await api("POST", "/v2/workflows", wf("bad", { steps: [{ name: "E", type: "email", controlValues: { body: "b" } }] }));
    expect(w.status).toBe(422);
    expect(w.body.errors.general.messages.join(" ")).toContain("steps.0.controlValues.subject");
    const notJson = await fetch(emu.url + "/v1/integrations", { method: "POST", headers: { authorization: `ApiKey ${KEY}`, "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
  });

  it("matches workflow steps by _id on update and gives new steps new stepIds", async () => {
    const created = data(await api("POST", "/v2/workflows", wf("steps", {
      steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "a" } }, { name: "Mail", type: "email", controlValues: { subject: "s", body: "b" } }],
    })));
    const [inbox, mail] = created.steps;
    expect(inbox.stepId).toBe("inbox");
    const put = await api("PUT", "/v2/workflows/steps", {
      name: "steps", origin: "external", preferences: {},
      steps: [
        { _id: mail._id, name: "Renamed mail", type: "email", controlValues: { subject: "t", body: "b" } },
        { name: "Inbox", type: "in_app", controlValues: { body: "new" } },
        { _id: inbox._id, name: "Old inbox", type: "in_app", controlValues: { body: "a" } },
      ],
    });
    expect(put.status, put.text).toBe(200);
    const updated = data(put);
    expect(updated.steps.map((s: any) => [s._id === mail._id, s._id === inbox._id, s.stepId])).toEqual([
      [true, false, mail.stepId], [false, false, "inbox-1"], [false, true, "inbox"],
    ]);
    expect(updated.steps[0].controlValues.subject).toBe("t");
    expect((await api("PUT", "/v2/workflows/steps", { name: "x", origin: "external", preferences: {}, steps: [{ _id: "000000000000000000000000", name: "n", type: "sms" }] })).status).toBe(400);
  });

  it("wraps single objects in {data} and leaves paginated lists bare, by flag", async () => {
    const created = await api("POST", "/v1/integrations", email("env"));
    expect(Object.keys(created.body)).toEqual(["data"]);
    const search = await api("GET", "/v2/subscribers");
    expect(Object.keys(search.body).sort()).toEqual(["data", "next", "previous", "totalCount", "totalCountCapped"]);
    await api("POST", "/__emulator/behaviour", { envelope: false });
    const bare = await api("GET", "/v1/integrations");
    expect(Array.isArray(bare.body)).toBe(true);
    await api("POST", "/__emulator/behaviour", { envelope: true });
    expect(Array.isArray((await api("GET", "/v1/integrations")).body.data)).toBe(true);
  });

  // The integrations controller's canUserAccessCredentials (GHSA-rgr9-mpmj-mpw8, May 2026; e2e test
  // api-key-credentials-exposure.e2e.ts): an API-key caller gets `credentials: {}` in lists, none in write answers.
  it("hides integration credentials in production and returns them when asked", async () => {
    const hidden = data(await api("POST", "/v1/integrations", email("creds")));
    expect(hidden).not.toHaveProperty("credentials");
    expect(data(await api("GET", "/v1/integrations"))[0].credentials).toEqual({});
    await api("POST", "/__emulator/behaviour", { hideCredentials: false });
    expect(data(await api("GET", "/v1/integrations"))[0].credentials).toEqual({ apiKey: "SG.k", from: "a@example.com" });
    // The 2.0 server: each secret field of a write answer encrypted (`nvsk.` and hex, new every time), lists in clear.
    await api("POST", "/__emulator/behaviour", { encryptCredentialAnswers: true });
    const written = data(await api("PUT", `/v1/integrations/${hidden._id}`, { name: "renamed", check: false }));
    expect(written.credentials).toEqual({ apiKey: expect.stringMatching(/^nvsk\.[0-9a-f]{32}$/), from: "a@example.com" });
    expect(data(await api("GET", "/v1/integrations"))[0].credentials).toEqual({ apiKey: "SG.k", from: "a@example.com" });
    await api("POST", "/__emulator/behaviour", { hideCredentials: true, encryptCredentialAnswers: false });
  });

  describe("idempotency on POST and PATCH", () => {
    it("replays a completed request with the same key and body, with the replay header", async () => {
      const h = { "idempotency-key": "k-1" };
      const first = await api("POST", "/v1/integrations", email("idem"), h);
      const again = await api("POST", "/v1/integrations", email("idem"), h);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotency-replay")).toBe("true");
      expect(first.headers.get("idempotency-replay")).toBeNull();
      expect(first.headers.get("idempotency-key")).toBe("k-1");
      expect(data(await api("GET", "/v1/integrations"))).toHaveLength(1);
    });

    it("answers 422 when a key is reused with a different body", async () => {
      await api("POST", "/v2/subscribers", { subscriberId: "s1" }, { "idempotency-key": "k-2" });
      const r = await api("POST", "/v2/subscribers", { subscriberId: "s2" }, { "idempotency-key": "k-2" });
      expect(r.status).toBe(422);
      expect(r.body.message).toContain("k-2");
      expect((await api("GET", "/v2/subscribers/s2")).status).toBe(404);
    });

    it("answers 409 with Retry-After while the first request with the key is in flight", async () => {
      await api("POST", "/__emulator/faults", { processingMs: 400 });
      const h = { "idempotency-key": "k-3" };
      const slow = api("PATCH", "/v2/subscribers/nobody", { firstName: "A" }, h);
      await new Promise((r) => setTimeout(r, 100));
      const busy = await api("PATCH", "/v2/subscribers/nobody", { firstName: "A" }, h);
      expect(busy.status).toBe(409);
      expect(busy.headers.get("retry-after")).toBe("1");
      expect((await slow).status).toBe(404);
      await api("POST", "/__emulator/faults", {});
    });

    it("ignores keys on PUT and when idempotency is off, and refuses keys over 255 characters", async () => {
      const i = data(await api("POST", "/v1/integrations", email("put")));
      const h = { "idempotency-key": "k-4" };
      await api("PUT", `/v1/integrations/${i._id}`, { name: "one" }, h);
      const second = await api("PUT", `/v1/integrations/${i._id}`, { name: "two" }, h);
      expect(second.status).toBe(200);
      expect(data(second).name).toBe("two");
      expect((await api("POST", "/v2/subscribers", { subscriberId: "long" }, { "idempotency-key": "x".repeat(256) })).status).toBe(400);
      await api("POST", "/__emulator/behaviour", { idempotency: false });
      await api("POST", "/v2/subscribers", { subscriberId: "n1" }, { "idempotency-key": "k-5" });
      const other = await api("POST", "/v2/subscribers", { subscriberId: "n2" }, { "idempotency-key": "k-5" });
      expect(other.status).toBe(201);
      await api("POST", "/__emulator/behaviour", { idempotency: true });
    });
  });

  describe("rate limit", () => {
    it("sends RateLimit headers on every response and no 429 when off (the default)", async () => {
      for (let n = 0; n < 30; n++) {
        const r = await api("GET", n % 2 ? "/v1/integrations" : "/v2/workflows/none");
        expect(r.status).not.toBe(429);
        for (const h of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"]) expect(r.headers.get(h), h).not.toBeNull();
      }
    });

    it("answers 429 with Retry-After once the token bucket is empty", async () => {
      await api("POST", "/__emulator/behaviour", { rateLimit: { rate: 1, burst: 3 } });
      const statuses: number[] = [];
      let last: Res | undefined;
      for (let n = 0; n < 5; n++) {
        last = await api("GET", "/v1/integrations");
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get("ratelimit-limit")).toBe("1");
      expect(last!.headers.get("ratelimit-remaining")).toBe("0");
      expect(last!.text).toBe("API rate limit exceeded");
      // Keys have their own buckets.
      expect((await client(emu.url, OTHER)("GET", "/v1/integrations")).status).toBe(200);
      await api("POST", "/__emulator/behaviour", { rateLimit: null });
    });
  });

  describe("api.md Limits table and list parameters", () => {
    const events = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
      Array.from({ length: n }, (_, i) => ({ createdAt: new Date(Date.now() - (i + 1) * 60_000).toISOString(), transactionId: `tx-${i}`, ...extra(i) }));

    it("events limit: default 10, minimum 1, maximum 50", async () => {
      await api("POST", "/__emulator/seed", { events: events(60) });
      const def = await api("GET", "/v1/notifications");
      expect(def.body.data).toHaveLength(10);
      expect(def.body.pageSize).toBe(10);
      expect((await api("GET", "/v1/notifications?limit=50")).body.data).toHaveLength(50);
      expect((await api("GET", "/v1/notifications?limit=1")).body.data).toHaveLength(1);
      for (const bad of ["0", "51", "-1", "ten", "1.5"]) {
        const r = await api("GET", `/v1/notifications?limit=${bad}`);
        expect(r.status, bad).toBe(422);
        expect(r.body.errors.general.messages.join(" ")).toMatch(/^limit: /);
      }
    });

    it("events page: default 0, minimum 0", async () => {
      await api("POST", "/__emulator/seed", { events: events(15) });
      const first = await api("GET", "/v1/notifications");
      expect(first.body.page).toBe(0);
      expect(first.body.hasMore).toBe(true);
      const second = await api("GET", "/v1/notifications?page=1");
      expect(second.body.data).toHaveLength(5);
      expect(second.body.hasMore).toBe(false);
      expect(second.body.data[0].transactionId).toBe("tx-10");
      expect((await api("GET", "/v1/notifications?page=-1")).status).toBe(422);
    });

    it("events time window: after and before, from the plan's earliest date to the request time", async () => {
      const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
      await api("POST", "/__emulator/seed", {
        events: [
          { transactionId: "old", createdAt: new Date(Date.now() - 40 * 86_400_000).toISOString() },
          { transactionId: "m60", createdAt: at(60) }, { transactionId: "m30", createdAt: at(30) },
          { transactionId: "m5", createdAt: at(5) }, { transactionId: "future", createdAt: new Date(Date.now() + 3_600_000).toISOString() },
        ],
      });
      const tx = (r: Res) => r.body.data.map((e: any) => e.transactionId);
      expect(tx(await api("GET", "/v1/notifications"))).toEqual(["m5", "m30", "m60"]);
      expect(tx(await api("GET", `/v1/notifications?after=${encodeURIComponent(at(45))}`))).toEqual(["m5", "m30"]);
      expect(tx(await api("GET", `/v1/notifications?before=${encodeURIComponent(at(15))}`))).toEqual(["m30", "m60"]);
      expect(tx(await api("GET", `/v1/notifications?after=${encodeURIComponent(at(45))}&before=${encodeURIComponent(at(15))}`))).toEqual(["m30"]);
      // An `after` older than the plan allows is clamped to the plan's earliest date.
      expect(tx(await api("GET", "/v1/notifications?after=2000-01-01T00:00:00Z"))).toEqual(["m5", "m30", "m60"]);
      await api("POST", "/__emulator/behaviour", { retentionDays: 60 });
      expect(tx(await api("GET", "/v1/notifications"))).toEqual(["m5", "m30", "m60", "old"]);
      await api("POST", "/__emulator/behaviour", { retentionDays: 30 });
      expect((await api("GET", "/v1/notifications?after=yesterday")).status).toBe(422);
    });

    it("messages: page default 0, limit default 10", async () => {
      await api("POST", "/__emulator/seed", { messages: Array.from({ length: 25 }, (_, i) => ({ transactionId: `m-${i}` })) });
      const r = await api("GET", "/v1/messages");
      expect(r.body).toMatchObject({ page: 0, pageSize: 10, totalCount: 25, hasMore: true });
      expect(r.body.data).toHaveLength(10);
      const last = await api("GET", "/v1/messages?page=2&limit=10");
      expect(last.body.data).toHaveLength(5);
      expect(last.body.hasMore).toBe(false);
      expect((await api("GET", "/v1/messages?page=-1")).status).toBe(422);
      expect((await api("GET", "/v1/messages?channel=fax")).status).toBe(422);
    });

    it("contextKeys match as an order-insensitive exact set, on messages and events", async () => {
      await api("POST", "/__emulator/seed", {
        messages: [{ transactionId: "ab", contextKeys: ["tenant:a", "region:b"] }, { transactionId: "a", contextKeys: ["tenant:a"] }],
        events: [{ transactionId: "ab", contextKeys: ["region:b", "tenant:a"], createdAt: new Date().toISOString() }, { transactionId: "a", contextKeys: ["tenant:a"], createdAt: new Date().toISOString() }],
      });
      for (const path of ["/v1/messages", "/v1/notifications"]) {
        const get = async (q: string) => (await api("GET", `${path}?${q}`)).body.data.map((m: any) => m.transactionId);
        expect(await get("contextKeys=region:b&contextKeys=tenant:a")).toEqual(["ab"]);
        expect(await get("contextKeys=tenant:a&contextKeys=region:b")).toEqual(["ab"]);
        expect(await get("contextKeys=tenant:a")).toEqual(["a"]);
        expect(await get("contextKeys=region:b")).toEqual([]);
        expect((await api("GET", `${path}?contextKeys=nocolon`)).status).toBe(422);
      }
    });

    it("subscriber search: totalCount counted up to 50,000, then totalCountCapped", async () => {
      await api("POST", "/__emulator/seed", { generate: { subscribers: 50_000 } });
      const at = await api("GET", "/v2/subscribers?limit=1");
      expect(at.body).toMatchObject({ totalCount: 50_000, totalCountCapped: false });
      await api("POST", "/__emulator/seed", { subscribers: [{ subscriberId: "one-more" }] });
      const over = await api("GET", "/v2/subscribers?limit=1");
      expect(over.body).toMatchObject({ totalCount: 50_000, totalCountCapped: true });
    });

    it("subscriber search: after/before cursors, next/previous, includeCursor, orderBy and orderDirection", async () => {
      await api("POST", "/__emulator/seed", { subscribers: ["s1", "s2", "s3", "s4", "s5"].map((subscriberId, i) => ({ subscriberId, email: `${"edcba"[i]}@example.com` })) });
      const ids = async (q: string) => {
        const r = await api("GET", `/v2/subscribers?orderBy=subscriberId&orderDirection=ASC&limit=2${q}`);
        expect(r.status, q).toBe(200);
        return r.body;
      };
      const p1 = await ids("");
      expect(p1.data.map((s: any) => s.subscriberId)).toEqual(["s1", "s2"]);
      expect(p1.previous).toBeNull();
      const p2 = await ids(`&after=${p1.next}`);
      expect(p2.data.map((s: any) => s.subscriberId)).toEqual(["s3", "s4"]);
      expect(p2.previous).toBe(p2.data[0]._id);
      const p3 = await ids(`&after=${p2.next}`);
      expect(p3.data.map((s: any) => s.subscriberId)).toEqual(["s5"]);
      expect(p3.next).toBeNull();
      const back = await ids(`&before=${p3.previous}`);
      expect(back.data.map((s: any) => s.subscriberId)).toEqual(["s3", "s4"]);
      const incl = await ids(`&after=${p1.next}&includeCursor=true`);
      expect(incl.data.map((s: any) => s.subscriberId)).toEqual(["s2", "s3"]);
      const byEmailDesc = await api("GET", "/v2/subscribers?orderBy=email&orderDirection=DESC&limit=5");
      expect(byEmailDesc.body.data.map((s: any) => s.subscriberId)).toEqual(["s1", "s2", "s3", "s4", "s5"]);
      expect((await api("GET", "/v2/subscribers?after=nope")).status).toBe(400);
      expect((await api("GET", "/v2/subscribers?orderBy=shoeSize")).status).toBe(422);
    });

    it("subscriber search filters are case-sensitive", async () => {
      await api("POST", "/__emulator/seed", { subscribers: [{ subscriberId: "Alice", email: "Alice@example.com" }, { subscriberId: "alice2", email: "alice@example.com" }] });
      const get = async (q: string) => (await api("GET", `/v2/subscribers?${q}`)).body.data.map((s: any) => s.subscriberId);
      expect(await get("email=Alice@")).toEqual(["Alice"]);
      expect(await get("subscriberId=alice")).toEqual(["alice2"]);
    });

    it("workflows: limit, offset, orderBy, query, tags and status", async () => {
      for (const [id, tags, active] of [["alpha", ["a"], true], ["beta", ["b"], false], ["gamma", ["a", "b"], true]] as const) {
        expect((await api("POST", "/v2/workflows", wf(id, { name: id.toUpperCase(), tags, active }))).status).toBe(201);
      }
      const names = async (q: string) => data(await api("GET", `/v2/workflows?${q}`)).workflows.map((w: any) => w.workflowId);
      expect(await names("orderBy=name&orderDirection=ASC")).toEqual(["alpha", "beta", "gamma"]);
      expect(await names("orderBy=name&orderDirection=ASC&limit=1&offset=1")).toEqual(["beta"]);
      expect(await names("query=amm")).toEqual(["gamma"]);
      expect(await names("query=ALPHA")).toEqual(["alpha"]);
      expect((await names("tags=a&orderBy=name&orderDirection=ASC"))).toEqual(["alpha", "gamma"]);
      expect(await names("status=INACTIVE")).toEqual(["beta"]);
      expect((await api("GET", "/v2/workflows?status=PAUSED")).status).toBe(422);
      expect((await api("GET", "/v2/workflows?limit=0")).status).toBe(422);
      expect(data(await api("GET", "/v2/workflows")).totalCount).toBe(3);
    });
  });

  describe("production-only operations", () => {
    it("set-primary makes one integration primary per channel and environment", async () => {
      const a = data(await api("POST", "/v1/integrations", email("a")));
      const b = data(await api("POST", "/v1/integrations", email("b")));
      expect(data(await api("POST", `/v1/integrations/${a._id}/set-primary`)).primary).toBe(true);
      await api("POST", `/v1/integrations/${b._id}/set-primary`);
      const list = data(await api("GET", "/v1/integrations"));
      expect(list.find((x: any) => x._id === a._id).primary).toBe(false);
      expect(list.find((x: any) => x._id === b._id)).toMatchObject({ primary: true, active: true });
    });

    // POST /v2/subscribers is an upsert, 409 only with failIfExists=true; credentials need an
    // active integration of the provider (production-notes.md, Second pass).
    it("creates subscribers, then removes one provider's credentials", async () => {
      expect((await api("POST", "/v2/subscribers", { subscriberId: "alice" })).status).toBe(201);
      expect((await api("POST", "/v2/subscribers?failIfExists=true", { subscriberId: "alice" })).status).toBe(409);
      await api("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true });
      await api("POST", "/v1/integrations", { identifier: "disc", providerId: "discord", channel: "chat", active: true });
      await api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://h.example/1" } });
      await api("PUT", "/v1/subscribers/alice/credentials", { providerId: "discord", credentials: { webhookUrl: "https://h.example/2" } });
      expect(data(await api("GET", "/v2/subscribers/alice")).channels).toHaveLength(2);
      expect((await api("DELETE", "/v1/subscribers/alice/credentials/slack")).status).toBe(204);
      expect(data(await api("GET", "/v2/subscribers/alice")).channels.map((c: any) => c.providerId)).toEqual(["discord"]);
    });

    it("creates, gets and deletes workflows; 409 on a duplicate workflowId", async () => {
      expect((await api("POST", "/v2/workflows", wf("w"))).status).toBe(201);
      expect((await api("POST", "/v2/workflows", wf("w"))).status).toBe(409);
      expect(data(await api("GET", "/v2/workflows/w")).workflowId).toBe("w");
      expect((await api("DELETE", "/v2/workflows/w")).status).toBe(204);
      expect((await api("GET", "/v2/workflows/w")).status).toBe(404);
    });

    it("trigger records an event with one job per step and one message per channel step and recipient", async () => {
      await api("POST", "/v2/workflows", wf("flow", {
        steps: [
          { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }, { name: "Wait", type: "delay", controlValues: { amount: 1, unit: "minutes" } },
          { name: "Mail", type: "email", controlValues: { subject: "S", body: "B" } },
        ],
      }));
      const r = await api("POST", "/v1/events/trigger", { name: "flow", to: ["u1", { subscriberId: "u2", email: "u2@example.com" }], payload: { x: 1 } });
      expect(r.status).toBe(201);
      const { transactionId } = data(r);
      const evs = (await api("GET", `/v1/notifications?transactionId=${transactionId}`)).body.data;
      expect(evs).toHaveLength(2);
      for (const e of evs) {
        expect(e.jobs.map((j: any) => j.type)).toEqual(["in_app", "delay", "email"]);
        for (const j of e.jobs) expect(j.executionDetails.length).toBeGreaterThan(0);
      }
      const msgs = (await api("GET", `/v1/messages?transactionId=${transactionId}&limit=50`)).body.data;
      expect(msgs.map((m: any) => m.channel).sort()).toEqual(["email", "email", "in_app", "in_app"]);
      expect((await api("POST", "/v1/events/trigger", { name: "none", to: "u1" })).status).toBe(422);
    });
  });

  describe("test controls", () => {
    it("logs each API request with method, path, query, status, idempotency key and time", async () => {
      await api("DELETE", "/__emulator/requests");
      await api("GET", "/v2/subscribers?limit=2&email=a");
      await api("POST", "/v2/subscribers", { subscriberId: "z" }, { "idempotency-key": "log-1" });
      const log = (await api("GET", "/__emulator/requests")).body.requests;
      expect(log).toHaveLength(2);
      expect(log[0]).toMatchObject({ method: "GET", path: "/v2/subscribers", query: { limit: "2", email: "a" }, status: 200 });
      expect(log[1]).toMatchObject({ method: "POST", path: "/v2/subscribers", status: 201, idempotencyKey: "log-1" });
      expect(Date.parse(log[1].time)).toBeGreaterThan(0);
    });

    it("logs how many requests were in flight when each arrived (itself included; the test controls neither count nor are counted)", async () => {
      await api("DELETE", "/__emulator/requests");
      await api("GET", "/v1/integrations");
      // Three at once, each held a second by the latency: they overlap.
      await api("POST", "/__emulator/faults", { latencyMs: [1000, 1000] });
      await Promise.all([1, 2, 3].map(() => api("GET", "/v1/integrations")));
      await api("POST", "/__emulator/faults", {});
      await api("GET", "/v1/integrations");
      const log = (await api("GET", "/__emulator/requests")).body.requests as { inFlight: number }[];
      expect(log).toHaveLength(5);
      // One at a time: the count went back down after each.
      expect([log[0]!.inFlight, log[4]!.inFlight]).toEqual([1, 1]);
      const overlapping = log.slice(1, 4).map((r) => r.inFlight);
      expect(Math.max(...overlapping)).toBeGreaterThanOrEqual(2);
      expect(Math.max(...overlapping)).toBeLessThanOrEqual(3);
    });

    it("reset empties the store and the log", async () => {
      await api("POST", "/v2/subscribers", { subscriberId: "r" });
      await api("POST", "/__emulator/reset");
      expect((await api("GET", "/v2/subscribers/r")).status).toBe(404);
      const state = (await api("GET", "/__emulator/state")).body;
      expect(state.subscribers).toEqual([]);
    });

    it("faults are bounded, off by default and replayable from a seed", async () => {
      expect((await api("GET", "/__emulator/faults")).body).toEqual({});
      expect((await api("POST", "/__emulator/faults", { errorRate: 2 })).status).toBe(400);
      expect((await api("POST", "/__emulator/faults", { latencyMs: [0, 60_000] })).status).toBe(400);
      const run = async () => {
        await api("POST", "/__emulator/faults", { errorRate: 0.3, rateLimitRate: 0.2, seed: 42 });
        const out: number[] = [];
        for (let n = 0; n < 30; n++) out.push((await api("GET", "/v1/integrations")).status);
        return out;
      };
      const a = await run();
      const b = await run();
      expect(a).toEqual(b);
      expect(new Set(a).size).toBeGreaterThan(1);
      await api("POST", "/__emulator/faults", { dropRate: 1 });
      await expect(api("GET", "/v1/integrations")).rejects.toThrow();
      await api("POST", "/__emulator/faults", {});
      expect((await api("GET", "/v1/integrations")).status).toBe(200);
    });
  });
});

describe("emulator behaviour (spec mode)", () => {
  let emu: EmulatorModule.RunningEmulator;
  beforeAll(async () => { emu = await startEmulator({ apiKeys: [KEY], mode: "spec" }); });
  afterAll(async () => { await emu.close(); });

  it("returns bare bodies and the integration credentials", async () => {
    const api = client(emu.url, KEY);
    const created = await api("POST", "/v1/integrations", email("spec"));
    expect(created.body).toMatchObject({ identifier: "spec", credentials: { apiKey: "SG.k" } });
    expect(Array.isArray((await api("GET", "/v1/integrations")).body)).toBe(true);
  });
});
