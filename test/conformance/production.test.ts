/**
 * The emulator follows production where spec/production-notes.md ("Second pass" and "Third pass
 * §0") says production differs from api.md. One test per behaviour, each citing where the fact
 * comes from: the notes, the published OpenAPI document (spec/openapi.json, the service's name
 * written `platform`), or the service's public source (repository paths as in its repo).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { validateRequest } from "../../emulator/contract";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe("the emulator behaves as production", () => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  /** The helper unwraps `{data}` single-object bodies; paginated lists keep their own `data`. */
  const data = (r: { body: any }) => r.body;
  const env = "env_env0";
  const integration = (identifier: string, providerId: string, channel: string, extra: Record<string, unknown> = {}) =>
    api("POST", "/v1/integrations", { identifier, providerId, channel, credentials: {}, ...extra });

  beforeAll(async () => { emu = await startTestEmulator(); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  describe("request validation (Third pass §0)", () => {
    // apps/api/src/exception-filter.ts and bootstrap.ts (global validation pipe): DTO failures
    // are 422, message "Validation Error", errors.general.messages / value "No Value Recorded".
    it("answers a body that breaks its DTO with 422 and production's validation body", async () => {
      const r = await api("POST", "/v2/subscribers", { email: "no-id@example.com" });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({
        statusCode: 422, timestamp: expect.any(String), path: "/v2/subscribers", message: "Validation Error", ctx: {},
        errors: { general: { messages: ["subscriberId: must have required property 'subscriberId'"], value: "No Value Recorded" } },
      });
      expect(Number.isNaN(Date.parse(r.body.timestamp))).toBe(false);
    });

    // production-notes.md, Second pass: "the validation pipe transforms but does not whitelist".
    it("ignores unknown body fields instead of refusing them", async () => {
      const r = await api("POST", "/v2/subscribers", { subscriberId: "extra", shoeSize: 44 });
      expect(r.status).toBe(201);
      expect(data(r)).not.toHaveProperty("shoeSize");
    });

    // production-notes.md, Second pass: "Throttle step unit is minutes, hours or days only"
    // (ThrottleControlDto.unit in openapi.json).
    it("refuses a throttle step whose unit is not minutes, hours or days with 422", async () => {
      const throttle = (unit: string) => api("POST", "/v2/workflows", {
        name: `t-${unit}`, workflowId: `t-${unit}`, steps: [{ name: "Throttle", type: "throttle", controlValues: { type: "fixed", amount: 1, unit } }],
      });
      const weeks = await throttle("weeks");
      expect(weeks.status).toBe(422);
      expect(weeks.body.errors.general.messages.join(" ")).toContain("steps.0.controlValues.unit");
      expect((await throttle("hours")).status).toBe(201);
    });

    // production-notes.md, Second pass: the events list `channels` takes channel types only
    // (ChannelTypeEnum: in_app, email, sms, chat, push, and tool in the newer live document).
    it("refuses step types in the events list channels filter with 422 and accepts channel types", async () => {
      const digest = await api("GET", "/v1/notifications?channels=digest");
      expect(digest.status).toBe(422);
      expect(digest.body.errors.general.messages.join(" ")).toMatch(/^channels/);
      expect((await api("GET", "/v1/notifications?channels=email&channels=tool")).status).toBe(200);
    });
  });

  describe("subscribers", () => {
    // production-notes.md, Second pass; libs/application-generic/src/usecases/create-or-update-subscriber/
    // create-or-update-subscriber.usecase.ts updates an existing subscriber. The controller
    // (apps/api/src/app/subscribers-v2/subscribers.controller.ts) sets no status, so both paths
    // answer the framework's POST default, 201 (Third pass §0), the only success openapi.json lists.
    it("upserts on POST /v2/subscribers: an existing subscriberId is updated and answered", async () => {
      const created = await api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice", email: "a@example.com" });
      expect(created.status).toBe(201);
      const again = await api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alicia" });
      expect(again.status).toBe(201);
      expect(data(again)).toMatchObject({ _id: data(created)._id, subscriberId: "alice", firstName: "Alicia", email: "a@example.com" });
      const state = (await api("GET", "/__emulator/state")).body.subscribers.filter((s: any) => s.subscriberId === "alice");
      expect(state).toHaveLength(1);
    });

    // production-notes.md, Second pass: "Only with the query failIfExists=true does it answer 409,
    // and that 409 body is the existing subscriber". openapi.json documents the 409 response of
    // POST /v2/subscribers as SubscriberResponseDto; the use case throws ConflictException
    // 'Subscriber with id "<id>" already exists'. The emulator sends the error body with the
    // subscriber as its ctx, which the exception filter copies to the top level
    // (apps/api/src/exception-filter.ts): the body is both an error body and a subscriber.
    it("answers 409 carrying the existing subscriber only when failIfExists=true", async () => {
      const created = data(await api("POST", "/v2/subscribers", { subscriberId: "bob", lastName: "B" }));
      const r = await api("POST", "/v2/subscribers?failIfExists=true", { subscriberId: "bob", lastName: "Other" });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({
        statusCode: 409, error: "Conflict", path: "/v2/subscribers", message: 'Subscriber with id "bob" already exists',
        _id: created._id, subscriberId: "bob", lastName: "B", ctx: { _id: created._id, subscriberId: "bob" },
      });
      expect(data(await api("GET", "/v2/subscribers/bob")).lastName).toBe("B");
      expect((await api("POST", "/v2/subscribers?failIfExists=true", { subscriberId: "carol" })).status).toBe(201);
    });
  });

  describe("subscriber credentials", () => {
    // libs/application-generic/src/usecases/subscribers/update-subscriber-channel/update-subscriber-channel.usecase.ts:
    // the integration is found by environment, providerId, active: true (and identifier when
    // given), newest first; none → ApiException (400) "Subscribers environment (<env>) do not
    // have active <providerId> integration."
    it("needs an active integration of the provider in the environment, else 400", async () => {
      await api("POST", "/v2/subscribers", { subscriberId: "dan" });
      await integration("slack-off", "slack", "chat", { active: false });
      const r = await api("PUT", "/v1/subscribers/dan/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/1" } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ statusCode: 400, error: "Bad Request", message: `Subscribers environment (${env}) do not have active slack integration.` });
      const named = await api("PUT", "/v1/subscribers/dan/credentials", { providerId: "slack", integrationIdentifier: "slack-off", credentials: { webhookUrl: "https://h.example/1" } });
      expect(named.status).toBe(400);
      await integration("slack-old", "slack", "chat", { active: true });
      await new Promise((r) => setTimeout(r, 5));
      const newest = data(await integration("slack-new", "slack", "chat", { active: true }));
      const ok = await api("PUT", "/v1/subscribers/dan/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/1" } });
      expect(ok.status).toBe(200);
      expect(data(ok).channels).toEqual([expect.objectContaining({ providerId: "slack", _integrationId: newest._id })]);
      const old = (await api("GET", "/v1/integrations")).body.find((i: any) => i.identifier === "slack-old");
      const byName = await api("PUT", "/v1/subscribers/dan/credentials", { providerId: "slack", integrationIdentifier: "slack-old", credentials: { webhookUrl: "https://h.example/2" } });
      // An entry is { _integrationId, providerId, credentials }: addChannelToSubscriber stores no identifier.
      expect(data(byName).channels).toEqual([
        { providerId: "slack", _integrationId: newest._id, credentials: { webhookUrl: "https://h.example/1" } },
        { providerId: "slack", _integrationId: old._id, credentials: { webhookUrl: "https://h.example/2" } },
      ]);
    });

    // Same use case: an unknown subscriber is ApiException "SubscriberId: <id> not found" (400).
    it("answers 400 for an unknown subscriber", async () => {
      await integration("slack-main", "slack", "chat", { active: true });
      const r = await api("PUT", "/v1/subscribers/nobody/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/1" } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("SubscriberId: nobody not found");
    });

    // Same use case, createUpdatePayload: only webhookUrl, deviceTokens (de-duplicated) and
    // channel are kept of the sent credentials.
    it("stores only webhookUrl, de-duplicated deviceTokens and channel of the credentials", async () => {
      await api("POST", "/v2/subscribers", { subscriberId: "eve" });
      await integration("mm", "mattermost", "chat", { active: true });
      const r = await api("PUT", "/v1/subscribers/eve/credentials", {
        providerId: "mattermost",
        credentials: { webhookUrl: "https://h.example/m", channel: "general", deviceTokens: ["a", "a", "b"], title: "T", alertUid: "u", state: "s" },
      });
      expect(r.status).toBe(200);
      expect(data(r).channels[0].credentials).toEqual({ webhookUrl: "https://h.example/m", channel: "general", deviceTokens: ["a", "b"] });
    });

    // Same use case, updateExistingSubscriberChannel / mapChannel: an existing entry (same
    // provider and integration) is merged into; PUT is the idempotent path, so deviceTokens are
    // replaced by the sent list, an empty list clears them, and no deviceTokens leaves [].
    it("merges a PUT into the existing entry and replaces its device tokens", async () => {
      await api("POST", "/v2/subscribers", { subscriberId: "fay" });
      await integration("fcm-main", "fcm", "push", { active: true });
      const put = async (credentials: Record<string, unknown>) =>
        data(await api("PUT", "/v1/subscribers/fay/credentials", { providerId: "fcm", credentials })).channels;
      expect((await put({ deviceTokens: ["t1", "t2"], webhookUrl: "https://h.example/p" }))[0].credentials).toEqual({ deviceTokens: ["t1", "t2"], webhookUrl: "https://h.example/p" });
      expect((await put({ deviceTokens: ["t3"] }))[0].credentials).toEqual({ deviceTokens: ["t3"], webhookUrl: "https://h.example/p" });
      expect((await put({ channel: "c" }))[0].credentials).toEqual({ deviceTokens: [], webhookUrl: "https://h.example/p", channel: "c" });
      await put({ deviceTokens: ["t4"] });
      const cleared = await put({ deviceTokens: [] });
      expect(cleared).toHaveLength(1);
      expect(cleared[0].credentials.deviceTokens).toEqual([]);
    });

    // Same use case: PATCH is the non-idempotent path, the sent tokens are added to the stored ones.
    it("appends device tokens on PATCH instead of replacing them", async () => {
      await api("POST", "/v2/subscribers", { subscriberId: "gus" });
      await integration("apns-main", "apns", "push", { active: true });
      await api("PUT", "/v1/subscribers/gus/credentials", { providerId: "apns", credentials: { deviceTokens: ["a"] } });
      const r = await api("PATCH", "/v1/subscribers/gus/credentials", { providerId: "apns", credentials: { deviceTokens: ["b", "a"] } });
      expect(data(r).channels[0].credentials.deviceTokens).toEqual(["a", "b"]);
    });
  });

  // production-notes.md, Second pass; apps/api/src/app/integrations/usecases/get-active-integration/
  // get-active-integration.usecase.ts: every active integration of the organisation, each with
  // `selected` when it is the one selected for its environment and channel (the primary, else
  // the first active). openapi.json: "credentials field is returned as an empty object".
  it("lists active integrations with a selected flag per channel on GET /v1/integrations/active", async () => {
    const first = data(await integration("mail-1", "sendgrid", "email", { active: true }));
    const second = data(await integration("mail-2", "mailgun", "email", { active: true }));
    const chat = data(await integration("chat-1", "slack", "chat", { active: true }));
    await integration("off", "twilio", "sms", { active: false });
    const before = data(await api("GET", "/v1/integrations/active"));
    expect(before.map((i: any) => [i.identifier, i.selected])).toEqual([["mail-1", true], ["mail-2", false], ["chat-1", true]]);
    for (const i of before) expect(i.credentials).toEqual({});
    await api("POST", `/v1/integrations/${second._id}/set-primary`);
    const after = data(await api("GET", "/v1/integrations/active"));
    expect(Object.fromEntries(after.map((i: any) => [i._id, i.selected]))).toEqual({ [first._id]: false, [second._id]: true, [chat._id]: true });
  });

  describe("trigger", () => {
    const flow = (workflowId: string, steps: unknown[]) => api("POST", "/v2/workflows", { name: workflowId, workflowId, steps });

    // production-notes.md, Second pass: `context` maps a context type to an id or {id, data};
    // each entry is the context key `type:id` on the event and its messages, which the
    // contextKeys filters match; the body has no `contextKeys` field (an unknown field, ignored).
    it("turns each context entry into a type:id context key on the event and its messages", async () => {
      await flow("ctx", [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }]);
      const r = await api("POST", "/v1/events/trigger", { name: "ctx", to: "u1", context: { tenant: "acme", region: { id: "eu", data: { x: 1 } } } });
      expect(r.status).toBe(201);
      const q = "contextKeys=region:eu&contextKeys=tenant:acme";
      expect((await api("GET", `/v1/messages?${q}`)).body.data).toHaveLength(1);
      expect((await api("GET", `/v1/notifications?${q}`)).body.data).toHaveLength(1);
      const old = await api("POST", "/v1/events/trigger", { name: "ctx", to: "u2", contextKeys: ["tenant:old"] });
      expect(old.status).toBe(201);
      expect((await api("GET", "/v1/messages?contextKeys=tenant:old")).body.data).toHaveLength(0);
      const tx = data(old).transactionId;
      expect((await api("GET", `/v1/notifications?transactionId=${tx}`)).body.data[0].contextKeys).toEqual([]);
    });

    // production-notes.md, Second pass: `actor` (an id or a subscriber object), `tenant`,
    // `overrides` and `bridgeUrl` are accepted (TriggerEventRequestDto in openapi.json).
    it("accepts actor, tenant, overrides and bridgeUrl", async () => {
      await flow("extras", [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }]);
      for (const actor of ["boss", { subscriberId: "boss-2", firstName: "B" }]) {
        const r = await api("POST", "/v1/events/trigger", {
          name: "extras", to: [{ subscriberId: "u1" }], actor, tenant: { identifier: "acme", name: "Acme" },
          overrides: { providers: { sendgrid: { templateId: "1" } } }, bridgeUrl: "https://tunnel.example/api",
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
      }
    });

    // production-notes.md, Second pass: http_request steps (HttpRequestControlDto), accepted on
    // create and update, typed http_request in responses and list overviews; a job, no message.
    it("accepts http_request steps, shows their type, and triggers a job without a message", async () => {
      const controls = { method: "POST", url: "https://hooks.example/x", headers: [{ key: "a", value: "b" }], body: [{ key: "k", value: "v" }], continueOnFailure: true };
      const created = await flow("hook", [{ name: "Call", type: "http_request", controlValues: controls }, { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }]);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const w = data(created);
      expect(w.steps[0]).toMatchObject({ type: "http_request", controlValues: controls });
      const put = await api("PUT", `/v2/workflows/${w._id}`, {
        name: "hook", preferences: {}, origin: w.origin,
        steps: [{ _id: w.steps[0]._id, name: "Call", type: "http_request", controlValues: { ...controls, body: "{\"raw\":true}" } }, { name: "New", type: "http_request", controlValues: { method: "GET", url: "https://hooks.example/y" } }],
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(data(put).steps.map((s: any) => s.type)).toEqual(["http_request", "http_request"]);
      const bad = await api("POST", "/v2/workflows", { name: "bad", workflowId: "bad-hook", steps: [{ name: "Call", type: "http_request", controlValues: { method: "FETCH", url: "x" } }] });
      expect(bad.status).toBe(422);
      const list = data(await api("GET", "/v2/workflows"));
      expect(list.workflows[0].stepTypeOverviews).toEqual(["http_request", "http_request"]);
      const tx = data(await api("POST", "/v1/events/trigger", { name: "hook", to: "u1" })).transactionId;
      expect((await api("GET", `/v1/notifications?transactionId=${tx}`)).body.data[0].jobs.map((j: any) => j.type)).toEqual(["http_request", "http_request"]);
      expect((await api("GET", `/v1/messages?transactionId=${tx}`)).body.data).toEqual([]);
    });
  });

  // production-notes.md, Second pass ("Reads must stay open"; origins spelt with the service's
  // real name); packages/shared/src/types/general.ts of the service: ResourceOriginEnum
  // { NOVU_CLOUD = 'novu-cloud', NOVU_CLOUD_V1 = 'novu-cloud-v1', EXTERNAL = 'external' }.
  it("serves, updates and deletes seeded records of kinds it does not know, with production's spelling", async () => {
    const seeded = (await api("POST", "/__emulator/seed", {
      integrations: [
        { identifier: "agent-1", providerId: "novu-agent", kind: "agent", active: true },
        { identifier: "novu-email", providerId: "novu-email", channel: "email", active: true, primary: true },
        { identifier: "novu-slack", providerId: "novu-slack", channel: "chat", active: true },
      ],
      workflows: [
        { workflowId: "future", name: "Future", origin: "novu-cloud", active: true, steps: [{ name: "Agent", type: "ai_agent", controlValues: { model: "x" } }, { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] },
        { workflowId: "hooked", name: "Hooked", origin: "novu-cloud-v1", steps: [{ name: "Call", type: "http_request", controlValues: { method: "GET", url: "https://h.example" } }] },
      ],
    })).body;
    expect(seeded).toMatchObject({ integrations: 3, workflows: 2, ids: { integrations: expect.any(Array), workflows: expect.any(Array) } });
    const [agentId] = seeded.ids.integrations;
    const [futureId, hookedId] = seeded.ids.workflows;

    expect(data(await api("GET", "/v1/integrations")).map((i: any) => i._id)).toContain(agentId);
    const active = data(await api("GET", "/v1/integrations/active"));
    expect(active.find((i: any) => i._id === agentId)).toMatchObject({ kind: "agent", selected: false });
    expect(active.find((i: any) => i.identifier === "novu-email").selected).toBe(true);

    const future = data(await api("GET", `/v2/workflows/${futureId}`));
    expect(future).toMatchObject({ origin: "novu-cloud", steps: [{ type: "ai_agent" }, { type: "in_app" }] });
    expect(data(await api("GET", "/v2/workflows/hooked")).steps[0].type).toBe("http_request");
    expect(data(await api("GET", "/v2/workflows")).workflows.map((w: any) => w.stepTypeOverviews)).toEqual(expect.arrayContaining([["ai_agent", "in_app"], ["http_request"]]));

    // Sent back with its _id, an unknown step kind is kept; a new step of that kind is refused.
    const stepsBack = future.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues }));
    const put = await api("PUT", `/v2/workflows/${futureId}`, { name: "Future 2", preferences: {}, origin: future.origin, steps: stepsBack });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(data(put)).toMatchObject({ name: "Future 2", origin: "novu-cloud", steps: [{ _id: future.steps[0]._id, type: "ai_agent", controlValues: { model: "x" } }, { type: "in_app" }] });
    const fresh = await api("PUT", `/v2/workflows/${futureId}`, { name: "Future 3", preferences: {}, origin: "novu-cloud", steps: [{ name: "Agent", type: "ai_agent" }] });
    expect(fresh.status).toBe(422);

    const tx = data(await api("POST", "/v1/events/trigger", { name: "future", to: "u1" })).transactionId;
    const events = (await api("GET", `/v1/notifications?transactionId=${tx}`)).body.data;
    expect(events[0].jobs.map((j: any) => j.type)).toEqual(["ai_agent", "in_app"]);
    expect((await api("GET", `/v1/notifications/${events[0]._id}`)).status).toBe(200);

    expect((await api("PUT", `/v1/integrations/${agentId}`, { name: "Agent" })).status).toBe(200);
    expect((await api("DELETE", `/v1/integrations/${agentId}`)).status).toBe(200);
    expect((await api("DELETE", `/v2/workflows/${futureId}`)).status).toBe(204);
    expect((await api("DELETE", `/v2/workflows/${hookedId}`)).status).toBe(204);
    expect(data(await api("GET", "/v2/workflows")).totalCount).toBe(0);
  });

  // The service's upsert-workflow use case (apps/api/src/app/workflows-v2/usecases/upsert-workflow/
  // upsert-workflow.usecase.ts): `existingStep?.stepId || step.stepId || generateUniqueStepId(step,
  // existingWorkflow ? existingWorkflow.steps : tempSteps)`. A given stepId is taken as given, even
  // when a step before it already got that id from its name; a generated one avoids the ids
  // assigned so far on create, and the existing steps' ids on update.
  it("takes a given stepId as given and makes a generated one unique, as production's upsert-workflow does", async () => {
    const steps = [
      { name: "Alert", type: "chat", controlValues: {} },
      { name: "Second", type: "sms", stepId: "alert", controlValues: {} },
      { name: "Alert", type: "in_app", controlValues: { body: "x" } },
    ];
    const w = data(await api("POST", "/v2/workflows", { name: "ids", workflowId: "ids", steps }));
    expect(w.steps.map((s: any) => s.stepId)).toEqual(["alert", "alert", expect.stringMatching(/^alert-.+/)]);
    const kept = w.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues }));
    const u = data(await api("PUT", `/v2/workflows/${w._id}`, {
      name: "ids", preferences: {}, origin: w.origin,
      steps: [...kept, { name: "Alert", type: "push", controlValues: {} }, { name: "Fresh", type: "push", controlValues: {} }],
    }));
    const ids = u.steps.map((s: any) => s.stepId);
    expect(ids.slice(0, 3)).toEqual(w.steps.map((s: any) => s.stepId));
    expect(ids[3]).toMatch(/^alert-.+/);
    expect(ids[3]).not.toBe(ids[2]);
    expect(ids[4]).toBe("fresh");
  });

  // production-notes.md, Second pass: the provider must send back the origin it read; the
  // emulator writes platform-cloud (api.md's spelling) and accepts either spelling back.
  it("accepts on update the origin it produced, and production's spelling of it", async () => {
    const w = data(await api("POST", "/v2/workflows", { name: "o", workflowId: "o", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "x" } }] }));
    expect(w.origin).toBe("platform-cloud");
    for (const origin of ["platform-cloud", "novu-cloud", "novu-cloud-v1", "external"]) {
      const r = await api("PUT", `/v2/workflows/${w._id}`, { name: "o", preferences: {}, origin, steps: [{ _id: w.steps[0]._id, name: "Inbox", type: "in_app", controlValues: { body: "x" } }] });
      expect(r.status, origin).toBe(200);
    }
    expect((await api("PUT", `/v2/workflows/${w._id}`, { name: "o", preferences: {}, origin: "elsewhere", steps: [] })).status).toBe(422);
  });

  // The patch-workflow use case (apps/api/src/app/workflows-v2/usecases/patch-workflow/patch-workflow.usecase.ts;
  // production-notes.md, Fifth pass): each field sent and not null is written, the others and the
  // steps kept; isTranslationEnabled is not stored; 200 with the whole workflow.
  it("writes on PATCH /v2/workflows only the fields sent, keeping the steps, as production's patch-workflow does", async () => {
    const w = data(await api("POST", "/v2/workflows", { name: "p", workflowId: "p", description: "kept", tags: ["a"], steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "x" } }] }));
    const r = await api("PATCH", `/v2/workflows/${w._id}`, { name: "renamed", tags: ["b"], payloadSchema: null, isTranslationEnabled: true });
    expect(r.status).toBe(200);
    expect(data(r)).toMatchObject({ _id: w._id, name: "renamed", description: "kept", tags: ["b"], isTranslationEnabled: false, steps: [{ _id: w.steps[0]._id, stepId: w.steps[0].stepId }] });
    expect(data(await api("GET", "/v2/workflows/p"))).toEqual(data(r));
  });

  // The request log keeps each parsed body, so a test can check every recorded request
  // against the contract (bodies over 64 KB are logged as bodyOmitted: "too-large").
  it("records request bodies in the log, each valid against the contract", async () => {
    await api("POST", "/v2/subscribers", { subscriberId: "logged", email: "l@example.com" });
    await api("POST", "/v2/workflows", { name: "l", workflowId: "l", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "x" } }] });
    await api("POST", "/v1/events/trigger", { name: "l", to: "logged", context: { tenant: "t" } });
    await api("POST", "/v2/subscribers", { subscriberId: "big", data: { blob: "x".repeat(70_000) } });
    const log = (await api("GET", "/__emulator/requests")).body.requests;
    expect(log.map((r: any) => r.body?.subscriberId ?? r.body?.name)).toEqual(["logged", "l", "l", undefined]);
    expect(log[3]).toMatchObject({ bodyOmitted: "too-large", status: 201 });
    const templates: Record<string, string> = { "/v2/subscribers": "/v2/subscribers", "/v2/workflows": "/v2/workflows", "/v1/events/trigger": "/v1/events/trigger" };
    for (const r of log.filter((x: any) => x.body !== undefined)) {
      expect(validateRequest(r.method, templates[r.path]!, { body: r.body, query: r.query })).toEqual([]);
    }
  });
});
