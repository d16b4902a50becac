/**
 * The emulator's agents (`/v1/agents` and their integration links) behave as production, in both
 * modes. Sources: the fifth pass of production-notes.md §4, which reads the service's
 * apps/api/src/app/agents/ (paths cited per test), and spec/openapi.json. Every request here is
 * valid against the document unless the test is about a refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("agents behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const create = (body: Record<string, unknown>) => api("POST", "/v1/agents", body);
  const integration = (identifier: string) => api("POST", "/v1/integrations", { identifier, providerId: "slack", channel: "chat", active: true, check: false });
  /** A key of the organisation's Production environment (type `prod`). */
  const productionKey = async () => (await api("POST", "/__emulator/keys", { environment: "Production" })).body.key as string;

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  // create-agent-request.dto.ts: `active` defaults to true; agent-response.mapper.ts (3.18.1) adds
  // runtime, visibility and the linked integrations to the answer.
  it("creates with 201, active unless told otherwise, and answers the linked integrations", async () => {
    const r = await create({ identifier: "support-bot", name: "Support bot" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ identifier: "support-bot", name: "Support bot", active: true, runtime: "self-hosted", visibility: "public", integrations: [] });
    expect(r.body._id).toMatch(/^[0-9a-f]{24}$/);
    expect((await create({ identifier: "quiet", name: "Quiet", active: false })).body.active).toBe(false);
  });

  // create-agent.usecase.ts (3.15): ConflictException 'An agent with identifier "<id>" already exists in this environment.'
  it("answers a second create of an identifier with 409", async () => {
    await create({ identifier: "dup", name: "First" });
    const r = await create({ identifier: "dup", name: "Second" });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('An agent with identifier "dup" already exists in this environment.');
    expect((await api("GET", "/v1/agents/dup")).body.name).toBe("First");
  });

  // slug-identifier.ts: letters and digits, single -, _ or . between them.
  it("refuses an identifier that is not a slug with 422", async () => {
    for (const identifier of ["support bot", "support--bot", "-bot", "bot."]) {
      expect((await create({ identifier, name: "x" })).status, identifier).toBe(422);
    }
  });

  // create-agent.usecase.ts [newer]: 'managedRuntime is required when runtime is "managed".'
  it("refuses a managed agent without its managed runtime with 422", async () => {
    const r = await create({ identifier: "managed", name: "Managed", runtime: "managed" });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('managedRuntime is required when runtime is \\"managed\\".');
  });

  // GET|PATCH|DELETE /v1/agents/{identifier} take the identifier: 'Agent with identifier "<id>" was not found.'
  it("addresses an agent by identifier and answers 404 for an unknown one", async () => {
    const made = (await create({ identifier: "bot", name: "Bot" })).body;
    expect((await api("GET", "/v1/agents/bot")).body._id).toBe(made._id);
    for (const [method, body] of [["GET", undefined], ["PATCH", { name: "x" }], ["DELETE", undefined]] as const) {
      const r = method === "DELETE" ? await api(method, "/v1/agents/ghost?deleteFromProvider=false") : await api(method, "/v1/agents/ghost", body);
      expect(r.status, method).toBe(404);
      expect(r.body.message).toBe('Agent with identifier "ghost" was not found.');
    }
  });

  // update-agent.usecase.ts: an empty body is a 400 "At least one field must be provided."; the behaviour is set as given.
  it("updates the fields given, and refuses an empty update with 400", async () => {
    await create({ identifier: "bot", name: "Bot" });
    const r = await api("PATCH", "/v1/agents/bot", { name: "Bot 2", behavior: { subscriberAccess: "open" }, bridgeUrl: "https://bots.example.com/a" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Bot 2", behavior: { subscriberAccess: "open" }, bridgeUrl: "https://bots.example.com/a" });
    const empty = await api("PATCH", "/v1/agents/bot", {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("At least one field must be provided.");
  });

  // update-agent.usecase.ts: a bridge URL on an internal or loopback address is a 400 naming the field.
  it("refuses a bridge on a loopback or private address with 400", async () => {
    await create({ identifier: "bot", name: "Bot" });
    for (const url of ["http://127.0.0.1:4000/bridge", "http://localhost/b", "http://10.1.2.3/b", "http://[::1]/b"]) {
      const r = await api("PATCH", "/v1/agents/bot", { bridgeUrl: url });
      expect(r.status, url).toBe(400);
      expect(r.body.message, url).toMatch(/^bridgeUrl: /);
    }
  });

  // update-agent.usecase.ts: "Dev bridge cannot be activated on production environments." (type `prod`).
  it("refuses a dev bridge in a production environment with 403, and takes it in development", async () => {
    const prod = await productionKey();
    await emu.apiAs(prod, "POST", "/v1/agents", { identifier: "bot", name: "Bot" });
    const refused = await emu.apiAs(prod, "PATCH", "/v1/agents/bot", { devBridgeActive: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Dev bridge cannot be activated on production environments.");
    await create({ identifier: "bot", name: "Bot" });
    expect((await api("PATCH", "/v1/agents/bot", { devBridgeActive: true })).status).toBe(200);
  });

  // add-agent-integration.usecase.ts: linked by the integration's identifier; the same pair twice is a 409;
  // unknown integration 404; the agent's answer lists the link.
  it("links integrations by identifier, once each, and the agent's answer lists them", async () => {
    await integration("slack-support");
    await create({ identifier: "bot", name: "Bot" });
    const link = await api("POST", "/v1/agents/bot/integrations", { integrationIdentifier: "slack-support" });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ integration: { identifier: "slack-support", providerId: "slack", channel: "chat" }, connectedAt: null });
    const again = await api("POST", "/v1/agents/bot/integrations", { integrationIdentifier: "slack-support" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This integration is already linked to the agent.");
    expect((await api("POST", "/v1/agents/bot/integrations", { integrationIdentifier: "nope" })).status).toBe(404);
    expect((await api("GET", "/v1/agents/bot")).body.integrations).toEqual([expect.objectContaining({ identifier: "slack-support", providerId: "slack" })]);
    const list = await api("GET", "/v1/agents/bot/integrations");
    expect(list.body.data.map((l: any) => l._id)).toEqual([link.body._id]);
    expect((await api("DELETE", `/v1/agents/bot/integrations/${link.body._id}`)).status).toBe(204);
    expect((await api("GET", "/v1/agents/bot")).body.integrations).toEqual([]);
  });

  // add-agent-integration.usecase.ts [newer]: "Agent integrations cannot be added in production environments." (403).
  it("refuses links in a production environment with 403", async () => {
    const prod = await productionKey();
    await emu.apiAs(prod, "POST", "/v1/integrations", { identifier: "slack-support", providerId: "slack", channel: "chat", active: true, check: false });
    await emu.apiAs(prod, "POST", "/v1/agents", { identifier: "bot", name: "Bot" });
    const r = await emu.apiAs(prod, "POST", "/v1/agents/bot/integrations", { integrationIdentifier: "slack-support" });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("Agent integrations cannot be added in production environments.");
  });

  // delete-agent.usecase.ts: 204, the agent and all its links.
  it("deletes with 204, its links with it", async () => {
    await integration("slack-support");
    await create({ identifier: "bot", name: "Bot" });
    await api("POST", "/v1/agents/bot/integrations", { integrationIdentifier: "slack-support" });
    expect((await api("DELETE", "/v1/agents/bot?deleteFromProvider=false")).status).toBe(204);
    expect((await api("GET", "/v1/agents/bot")).status).toBe(404);
    expect((await emu.state() as any).agentLinks).toEqual([]);
  });
});
