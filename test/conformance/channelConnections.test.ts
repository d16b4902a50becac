/**
 * The emulator's channel connections (`/v1/channel-connections`) behave as production, in both
 * modes. Sources: the fifth pass of production-notes.md §5, which reads the service's
 * apps/api/src/app/channel-connections/ (paths cited per test), and spec/openapi.json. Every
 * request here is valid against the document unless the test is about a refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("channel connections behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  let env: string;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const base = { integrationIdentifier: "slack-ops", workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: "xoxb-secret-1" } };
  const create = (body: Record<string, unknown>) => api("POST", "/v1/channel-connections", { ...base, ...body });

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await api("POST", "/v1/integrations", { identifier: "slack-ops", providerId: "slack", channel: "chat", active: true, check: false });
    await api("POST", "/v2/subscribers", { subscriberId: "alice" });
    env = (await api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Development")._id;
  });

  // create-channel-connection.usecase.ts: 201; dtos/dto.mapper.ts and GetChannelConnectionResponseDto:
  // the integration's channel and provider, the subscriber, the context keys, the workspace and the token in clear.
  it("creates with 201 and answers the token in clear", async () => {
    const r = await create({ identifier: "acme-slack", subscriberId: "alice" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      identifier: "acme-slack", channel: "chat", providerId: "slack", integrationIdentifier: "slack-ops", subscriberId: "alice", contextKeys: [],
      workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: "xoxb-secret-1" }, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect((await api("GET", "/v1/channel-connections/acme-slack")).body.auth).toEqual({ accessToken: "xoxb-secret-1" });
  });

  // create-channel-connection.usecase.ts: `chconn_${shortId(12)}` when no identifier is given.
  it("generates an identifier chconn_ and 12 characters when none is given", async () => {
    const r = await create({ subscriberId: "alice" });
    expect(r.status).toBe(201);
    expect(r.body.identifier).toMatch(/^chconn_[a-z0-9]{12}$/);
  });

  // channel-connection.utils.ts validateConnectionMode: each a 400, before anything is looked up.
  it("refuses a mode without what it needs with 400", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ connectionMode: "shared", identifier: "a" }, 'context is required when connectionMode is "shared"'],
      [{ connectionMode: "subscriber", identifier: "b", context: { tenant: "acme" } }, 'subscriberId is required when connectionMode is "subscriber"'],
      [{ identifier: "c" }, "Either subscriberId or context must be provided"],
    ];
    for (const [body, message] of cases) {
      const r = await create({ ...body, integrationIdentifier: "nope" });
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
    }
  });

  // create-channel-connection.usecase.ts: a shared connection stores no subscriberId, even one given; the answer says null.
  it("stores no subscriber on a shared connection, and creates the contexts it names", async () => {
    const r = await create({ identifier: "shared", connectionMode: "shared", subscriberId: "alice", context: { tenant: "acme", region: { id: "eu", data: { dc: "fra" } } } });
    expect(r.status).toBe(201);
    expect(r.body.subscriberId).toBeNull();
    expect(r.body.contextKeys).toEqual(["tenant:acme", "region:eu"]);
    // The context repository's findOrCreateContextsFromPayload: the contexts exist now, with the payload's data.
    expect((await api("GET", "/v2/contexts/region/eu")).body).toMatchObject({ type: "region", id: "eu", data: { dc: "fra" } });
    expect((await api("GET", "/v2/contexts/tenant/acme")).status).toBe(200);
  });

  // create-channel-connection.usecase.ts: "Integration not found: <id>", "Subscriber not found: <id>" (404s).
  it("answers 404 for an unknown integration or subscriber", async () => {
    const i = await create({ identifier: "x", subscriberId: "alice", integrationIdentifier: "nope" });
    expect(i.status).toBe(404);
    expect(i.body.message).toBe("Integration not found: nope");
    const s = await create({ identifier: "x", subscriberId: "ghost" });
    expect(s.status).toBe(404);
    expect(s.body.message).toBe("Subscriber not found: ghost");
  });

  // create-channel-connection.usecase.ts ensureUniqueConnectionForResourceAndContext, then the identifier's own 409.
  it("keeps one connection per integration, subscriber and exact set of contexts, and each identifier once", async () => {
    await create({ identifier: "first", subscriberId: "alice", context: { tenant: "acme" } });
    const same = await create({ identifier: "second", subscriberId: "alice", context: { tenant: "acme" } });
    expect(same.status).toBe(409);
    expect(same.body.message).toBe('A channel connection already exists for integration "slack-ops" with subscriberId "alice" and context [tenant:acme]. Connection ID: first');
    // Another set of contexts (here none) is another connection.
    expect((await create({ identifier: "second", subscriberId: "alice" })).status).toBe(201);
    await create({ identifier: "shared-1", connectionMode: "shared", context: { team: "ops" } });
    const shared = await create({ identifier: "shared-2", connectionMode: "shared", context: { team: "ops" } });
    expect(shared.status).toBe(409);
    expect(shared.body.message).toBe('A channel connection already exists for integration "slack-ops" with no subscriberId and context [team:ops]. Connection ID: shared-1');
    const dup = await create({ identifier: "first", subscriberId: "alice", context: { app: "jira" } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`Channel connection with identifier "first" already exists in environment "${env}"`);
  });

  // is-valid-context-payload.validator.ts, `maxCount: 5` on the request DTO: 422s of the validation pipe.
  it("refuses more than five contexts, or an empty context, with 422", async () => {
    const six = await create({ identifier: "six", subscriberId: "alice", context: { a: "1", b: "2", c: "3", d: "4", e: "5", f: "6" } });
    expect(six.status).toBe(422);
    expect(JSON.stringify(six.body)).toContain("Too many contexts: 6 provided, maximum allowed is 5");
    const empty = await create({ identifier: "empty", subscriberId: "alice", context: {} });
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.body)).toContain("Invalid context payload structure");
  });

  // update-channel-connection.usecase.ts: workspace and auth replaced whole, both required; its 404 in double quotes.
  it("replaces workspace and auth on PATCH, both required, and answers 404 for an unknown one", async () => {
    await create({ identifier: "acme-slack", subscriberId: "alice" });
    const r = await api("PATCH", "/v1/channel-connections/acme-slack", { workspace: { id: "T999" }, auth: { accessToken: "xoxb-rotated" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workspace: { id: "T999" }, auth: { accessToken: "xoxb-rotated" }, subscriberId: "alice" });
    expect(r.body.workspace.name).toBeUndefined();
    expect((await api("PATCH", "/v1/channel-connections/acme-slack", { workspace: { id: "T1" } })).status).toBe(422);
    const ghost = await api("PATCH", "/v1/channel-connections/ghost", { workspace: { id: "T1" }, auth: { accessToken: "x" } });
    expect(ghost.status).toBe(404);
    expect(ghost.body.message).toBe('Channel connection with identifier "ghost" not found');
  });

  // get-/delete-channel-connection.usecase.ts: 404 "Channel connection with identifier '<id>' not found"; DELETE 204.
  it("deletes with 204 and answers 404 for an unknown one, in single quotes", async () => {
    await create({ identifier: "acme-slack", subscriberId: "alice" });
    expect((await api("DELETE", "/v1/channel-connections/acme-slack")).status).toBe(204);
    for (const method of ["GET", "DELETE"]) {
      const r = await api(method, "/v1/channel-connections/acme-slack");
      expect(r.status, method).toBe(404);
      expect(r.body.message).toBe("Channel connection with identifier 'acme-slack' not found");
    }
  });

  // list-channel-connections.usecase.ts: cursor page, each filter exact, the contexts an exact set.
  it("lists with the cursor and filters by subscriber, integration and exact contexts", async () => {
    await create({ identifier: "a", subscriberId: "alice" });
    await create({ identifier: "b", subscriberId: "alice", context: { tenant: "acme" } });
    await create({ identifier: "c", connectionMode: "shared", context: { tenant: "acme", app: "jira" } });
    const all = await api("GET", "/v1/channel-connections?limit=2");
    expect(all.body.data).toHaveLength(2);
    expect(all.body.totalCount).toBe(3);
    const ids = async (q: string) => (await api("GET", `/v1/channel-connections?${q}`)).body.data.map((x: { identifier: string }) => x.identifier).sort();
    expect(await ids("subscriberId=alice")).toEqual(["a", "b"]);
    expect(await ids("contextKeys=tenant:acme")).toEqual(["b"]);
    expect(await ids("contextKeys=app:jira&contextKeys=tenant:acme")).toEqual(["c"]);
    expect(await ids("integrationIdentifier=other")).toEqual([]);
  });
});
