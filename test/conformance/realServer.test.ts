/**
 * The emulator answers as the real open-source server 3.15.0 did where spec/production-notes.md
 * ("Sixth pass" and "Seventh pass": the same requests sent to both) found them apart, and plays
 * the servers of other versions and builds through its behaviours. Each rule cites the notes and
 * the service's source (repository paths as in its repository).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMULATED_VERSION } from "../../emulator";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const CHANNELS = ["email", "sms", "in_app", "chat", "push"];

describe("the emulator answers as the real 3.15.0 server", () => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const behaviour = (b: Record<string, unknown>) => api("POST", "/__emulator/behaviour", b);
  const inbox = [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }];

  beforeAll(async () => { emu = await startTestEmulator(); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await behaviour({ suffixDuplicateWorkflows: false, version: EMULATED_VERSION, routeGates: [] });
  });

  // apps/api/src/app/health/health.controller.ts: `@Controller('health-check')`, no authentication;
  // `apiVersion: { version, status: 'up' }` with the API's package version; answered in `{data}`.
  it("answers GET /v1/health-check without a key, with its version", async () => {
    const r = await emu.apiAs("not-a-key", "GET", "/v1/health-check");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "ok", info: { apiVersion: { version: EMULATED_VERSION, status: "up" } } });
    await behaviour({ version: "2.0.0" });
    expect((await api("GET", "/v1/health-check")).body.info.apiVersion.version).toBe("2.0.0");
  });

  // environments-v1.controller.ts: `@Get('/me') @ExternalApiAccessible()`, the key's environment
  // without its apiKeys (`findOne(..., '-apiKeys')`).
  it("answers GET /v1/environments/me with the key's environment, without its keys", async () => {
    const r = await api("GET", "/v1/environments/me");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ _id: "env_env0", name: "Development" });
    expect(r.body.apiKeys).toBeUndefined();
  });

  // Seventh pass: unknown routes answer 404 "Cannot <METHOD> <path>" (NestJS's router, before any guard).
  it("answers an unknown route with NestJS's 404, whatever the key", async () => {
    for (const key of [emu.key, "not-a-key"]) {
      const r = await emu.apiAs(key, "GET", "/v2/nothing/here");
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ statusCode: 404, message: "Cannot GET /v2/nothing/here", error: "Not Found" });
    }
  });

  // Seventh pass: "POST /v2/workflows with a workflowId that already exists: real 201, a second
  // workflow ... `<id>-wf-df1t`"; libs/application-generic/src/usecases/create-workflow-v0/
  // create-workflow.usecase.ts tries the identifier, then `${identifier}-${shortId()}`.
  it("with suffixDuplicateWorkflows, keeps a taken workflowId as a suffixed second workflow and answers 201", async () => {
    expect((await api("POST", "/v2/workflows", { workflowId: "welcome", name: "One", steps: inbox })).status).toBe(201);
    expect((await api("POST", "/v2/workflows", { workflowId: "welcome", name: "Two", steps: inbox })).status).toBe(409);
    await behaviour({ suffixDuplicateWorkflows: true });
    const second = await api("POST", "/v2/workflows", { workflowId: "welcome", name: "Two", steps: inbox });
    expect(second.status).toBe(201);
    expect(second.body.workflowId).toMatch(/^welcome-wf-[0-9a-f]{4}$/);
  });

  // Seventh pass: workflows created without `active` are active, validatePayload true, an empty
  // object payload schema. The upsert use case: `workflowDto?.active ?? true`; create-workflow.usecase.ts:
  // without a payloadSchema, `{ type: 'object', additionalProperties: true, properties: {} }` and
  // `validatePayload ?? true`.
  it("makes a workflow created without active active, with an open payload schema validated", async () => {
    const r = await api("POST", "/v2/workflows", { workflowId: "plain", name: "Plain", steps: inbox });
    expect(r.body).toMatchObject({ active: true, status: "ACTIVE", validatePayload: true, payloadSchema: { type: "object", additionalProperties: true, properties: {} } });
    const schema = { type: "object", properties: { orderId: { type: "string" } } };
    const given = await api("POST", "/v2/workflows", { workflowId: "typed", name: "Typed", steps: inbox, payloadSchema: schema, active: false });
    expect(given.body).toMatchObject({ active: false, status: "INACTIVE", validatePayload: false, payloadSchema: schema });
  });

  // Seventh pass: a PUT whose preferences.user.channels names only some channels: real 422
  // "userPreferences.channels.sms: sms must be an object; ..."; upsert-preferences.command.ts's
  // PreferencesRequired: `@IsObject() @ValidateNested()` on each of the five channels.
  it("refuses a user preferences block that does not name every channel, on create and update", async () => {
    const partial = { user: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false }, in_app: { enabled: true } } } };
    const made = await api("POST", "/v2/workflows", { workflowId: "prefs", name: "Prefs", steps: inbox, preferences: partial });
    expect(made.status).toBe(422);
    expect(made.body.errors.general.messages).toEqual(["sms", "chat", "push"].map((ch) => `userPreferences.channels.${ch}: ${ch} must be an object`));
    const all = { user: { all: { enabled: true, readOnly: false }, channels: Object.fromEntries(CHANNELS.map((ch) => [ch, { enabled: ch !== "sms" }])) } };
    expect((await api("POST", "/v2/workflows", { workflowId: "prefs", name: "Prefs", steps: inbox, preferences: all })).status).toBe(201);
    const put = { name: "Prefs", steps: inbox, origin: "external" };
    expect((await api("PUT", "/v2/workflows/prefs", { ...put, preferences: partial })).status).toBe(422);
    expect((await api("PUT", "/v2/workflows/prefs", { ...put, preferences: all })).status).toBe(200);
  });

  // Seventh pass: "The first active email integration: real primary: true". create-integration.usecase.ts
  // (calculatePriorityAndPrimary): an active integration of a channel with a primary becomes it when none is.
  it("makes the first active email integration of an environment primary, and not the next", async () => {
    const first = await api("POST", "/v1/integrations", { identifier: "a", providerId: "sendgrid", channel: "email", active: true, check: false });
    const second = await api("POST", "/v1/integrations", { identifier: "b", providerId: "mailgun", channel: "email", active: true, check: false });
    const chat = await api("POST", "/v1/integrations", { identifier: "c", providerId: "slack", channel: "chat", active: true, check: false });
    expect([first.body.primary, second.body.primary, chat.body.primary]).toEqual([true, false, false]);
  });

  // Seventh pass: workflow not found: real "Workflow cannot be found" with workflowId and ctx.workflowId, no
  // `error`; get-workflow-by-ids.usecase.ts: NotFoundException({ message: 'Workflow cannot be found', workflowId }).
  it("answers a missing workflow as the real server does", async () => {
    const r = await api("GET", "/v2/workflows/nobody");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ statusCode: 404, message: "Workflow cannot be found", workflowId: "nobody", ctx: { workflowId: "nobody" } });
    expect(r.body.error).toBeUndefined();
  });

  // Seventh pass: "Subscribers: real leaves out unset fields; emulator answers them as null plus
  // data: {}, topics: [], __v"; and "Every real error body has ctx".
  it("answers a subscriber without its unset fields, and every error with ctx", async () => {
    const made = await api("POST", "/v2/subscribers", { subscriberId: "sparse", firstName: "Sparse" });
    expect(made.body.firstName).toBe("Sparse");
    for (const body of [made.body, (await api("GET", "/v2/subscribers/sparse")).body, (await api("GET", "/v2/subscribers?subscriberId=sparse")).body.data[0]]) {
      expect(Object.entries(body).filter(([, v]) => v === null)).toEqual([]);
      expect(body).not.toHaveProperty("lastName");
      expect(body).not.toHaveProperty("topics");
      expect(body).not.toHaveProperty("__v");
    }
    const missing = await api("GET", "/v2/subscribers/nobody");
    expect(missing.body).toMatchObject({ statusCode: 404, message: "Subscriber: nobody was not found", ctx: {} });
  });

  // Seventh pass: POST /v2/topics/{key}/subscriptions: "real answers createdAt: "", updatedAt: "" and no
  // contextKeys or subscriber.avatar"; the single read is as before (matched exactly).
  it("with bareSubscribeAnswers, answers a subscribe as 3.15.0 did", async () => {
    await api("POST", "/v2/subscribers", { subscriberId: "alice", avatar: "https://example.com/a.png" });
    await api("POST", "/v2/topics", { key: "news", name: "News" });
    await behaviour({ bareSubscribeAnswers: true });
    try {
      const made = await api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news" }] });
      const [item] = made.body.data;
      expect(item).toMatchObject({ identifier: "alice-news", createdAt: "", updatedAt: "" });
      expect(item).not.toHaveProperty("contextKeys");
      expect(item.subscriber).not.toHaveProperty("avatar");
      expect((await api("GET", "/v2/topics/news/subscriptions/alice-news")).body).toMatchObject({ identifier: "alice-news" });
    } finally {
      await behaviour({ bareSubscribeAnswers: false });
    }
  });

  // Sixth and seventh passes: a server without a module answers "Cannot <METHOD> <path>" (2.0.0 for
  // every v2 subscriber route; 3.15.0 for translations), a feature flag 404 "Feature not enabled"
  // (channel-connections.controller.ts: `throw new NotFoundException('Feature not enabled')`), a
  // route that takes no API key 401 "API endpoint not accessible" (3.15.0's agents routes;
  // community.user.auth.guard.ts says "API endpoint not available").
  it("plays routes a build lacks or gates", async () => {
    await behaviour({ routeGates: [{ prefix: "/v2/translations", as: "absent" }, { prefix: "/v1/channel-connections", as: "feature-off" }, { prefix: "/v1/agents", as: "session-only" }] });
    const absent = await api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "x", locale: "en_US", content: {} });
    expect([absent.status, absent.body.message]).toEqual([404, "Cannot POST /v2/translations"]);
    const off = await api("GET", "/v1/channel-connections");
    expect([off.status, off.body.message]).toEqual([404, "Feature not enabled"]);
    const session = await api("POST", "/v1/agents", { identifier: "bot", name: "Bot" });
    expect([session.status, session.body.message]).toEqual([401, "API endpoint not accessible"]);
  });
});
