/**
 * The emulator's single topic subscription (`/v2/topics/{topicKey}/subscriptions/{identifier}`)
 * and what the topic's bulk subscribe and unsubscribe share with it behave as production, in both
 * modes (api.md does not describe them). Sources: production-notes.md, fifth pass §7, and the
 * service's public repository (paths cited per test). spec/openapi.json is wrong in two places the
 * tests below keep to production in: it documents no 204 for the GET (the controller answers one
 * for a missing subscription), and its example identifier `tk=…:si=…` (the service writes `tk_…:si_…`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("topic subscriptions behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const subscribe = (topic: string, body: Record<string, unknown>) => api("POST", `/v2/topics/${topic}/subscriptions`, body);
  const get = (topic: string, identifier: string) => api("GET", `/v2/topics/${topic}/subscriptions/${encodeURIComponent(identifier)}`);
  const patch = (topic: string, identifier: string, body: unknown) => api("PATCH", `/v2/topics/${topic}/subscriptions/${encodeURIComponent(identifier)}`, body);
  const workflow = (workflowId: string, extra: Record<string, unknown> = {}) => api("POST", "/v2/workflows", {
    workflowId, name: workflowId, active: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }], ...extra,
  });

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    for (const subscriberId of ["alice", "bob"]) await api("POST", "/v2/subscribers", { subscriberId });
    await api("POST", "/v2/topics", { key: "news" });
  });

  // topics.controller.ts `getTopicSubscription`: `if (!result) { res.status(HttpStatus.NO_CONTENT); return; }`;
  // get-subscription.usecase.ts answers null for a subscription (or topic) it does not find.
  it("answers the GET of an unknown subscription or topic with 204 and no body, not 404", async () => {
    for (const [topic, identifier] of [["news", "nobody"], ["no-such-topic", "nobody"]]) {
      const res = await fetch(`${emu.url}/v2/topics/${topic}/subscriptions/${identifier}`, { headers: { authorization: `ApiKey ${emu.key}` } });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
    }
  });

  // utils/subscriptions.ts `mapTopicSubscriptionToDto`: id, identifier, name, preferences (left out when
  // none is stored), contextKeys; each preference names the subscription by its identifier.
  it("answers a found subscription with its id, identifier and name, and preferences only when some are stored", async () => {
    const made = await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news", name: "Alice's news" }] });
    expect(made.status).toBe(201);
    const r = await get("news", "alice-news");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: made.body.data[0]._id, identifier: "alice-news", name: "Alice's news" });
    await workflow("digest", { tags: ["weekly"] });
    await patch("news", "alice-news", { preferences: [{ filter: { workflowIds: ["digest"] }, enabled: false }] });
    expect((await get("news", "alice-news")).body.preferences).toEqual([{
      subscriptionId: "alice-news", enabled: false,
      workflow: { id: expect.any(String), identifier: "digest", name: "digest", critical: false, tags: ["weekly"], severity: "none" },
    }]);
  });

  // update-subscription.usecase.ts `updatePreferencesForSubscription`: every stored preference of the
  // subscription is deleted, then those of the request are made (none for `[]`).
  it("replaces every stored preference with a PATCH's, and clears them with []", async () => {
    await workflow("digest");
    await workflow("alerts");
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news" }] });
    await patch("news", "alice-news", { preferences: [{ filter: { workflowIds: ["digest", "alerts"] }, enabled: false }] });
    expect((await get("news", "alice-news")).body.preferences.map((p: any) => p.workflow.identifier).sort()).toEqual(["alerts", "digest"]);
    const cond = { "==": [{ var: "payload.tier" }, "premium"] };
    const r = await patch("news", "alice-news", { preferences: [{ filter: { workflowIds: ["alerts"] }, condition: cond }] });
    expect(r.status).toBe(200);
    expect(r.body.preferences).toEqual([expect.objectContaining({ workflow: expect.objectContaining({ identifier: "alerts" }), enabled: true, condition: cond })]);
    expect((await get("news", "alice-news")).body.preferences).toHaveLength(1);
    expect((await patch("news", "alice-news", { preferences: [] })).body.preferences).toBeUndefined();
    expect((await get("news", "alice-news")).body.preferences).toBeUndefined();
  });

  // topics.controller.ts `convertPreferencesToGroupFilters`: `{workflowId, condition}` becomes a filter
  // without `enabled`, which create-subscription-preferences.usecase.ts then takes from the
  // subscriber's preferences (true by default); the filter form keeps `enabled`. A bare string names a workflow.
  it("drops enabled from {workflowId, enabled} items and keeps it in the filter form", async () => {
    await workflow("digest");
    await workflow("alerts");
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news" }] });
    const r = await patch("news", "alice-news", { preferences: [{ workflowId: "digest", enabled: false }, { filter: { workflowIds: ["alerts"] }, enabled: false }] });
    const enabled = Object.fromEntries(r.body.preferences.map((p: any) => [p.workflow.identifier, p.enabled]));
    expect(enabled).toEqual({ digest: true, alerts: false });
    expect((await patch("news", "alice-news", { preferences: ["digest"] })).body.preferences).toEqual([expect.objectContaining({ enabled: true })]);
  });

  // update-subscription.usecase.ts `validateAndFetchWorkflows`: unknown ids and tags are logged
  // ("Workflows not found"), not refused; tags match active workflows (`filterActive`).
  it("skips workflows and tags that match nothing without an error, and matches tags over active workflows", async () => {
    await workflow("digest", { tags: ["weekly"] });
    await workflow("paused", { tags: ["weekly"], active: false });
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news" }] });
    const r = await patch("news", "alice-news", { preferences: [{ filter: { workflowIds: ["ghost"] } }, { filter: { tags: ["weekly", "nothing"] }, enabled: false }] });
    expect(r.status).toBe(200);
    expect(r.body.preferences.map((p: any) => p.workflow.identifier)).toEqual(["digest"]);
  });

  // update-subscription.usecase.ts: "Topic with key <key> not found"; "Subscription with identifier
  // <id> not found for topic <key>" (both NotFoundException).
  it("answers a PATCH of an unknown topic or subscription with 404 and the service's messages", async () => {
    const noTopic = await patch("nope", "x", { name: "n" });
    expect(noTopic.status).toBe(404);
    expect(noTopic.body.message).toBe("Topic with key nope not found");
    const noSub = await patch("news", "x", { name: "n" });
    expect(noSub.status).toBe(404);
    expect(noSub.body.message).toBe("Subscription with identifier x not found for topic news");
  });

  // update-subscription.usecase.ts: the answer is a SubscriptionResponseDto (topic, subscriber), its
  // preferences those of the workflows the request named (none when it named none).
  it("renames with a PATCH and answers the subscription with its topic and subscriber, without preferences when none were named", async () => {
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news", name: "Old" }] });
    const r = await patch("news", "alice-news", { name: "New" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ identifier: "alice-news", name: "New", topic: { key: "news" }, subscriber: { subscriberId: "alice" } });
    expect(r.body.preferences).toBeUndefined();
    expect((await get("news", "alice-news")).body.name).toBe("New");
  });

  // create-subscriptions.usecase.ts: an identifier the topic holds is answered as it is (the
  // request's name not applied); the identifier is unique in the environment (topic-subscribers.schema.ts,
  // unique index `_environmentId, identifier`), so another topic's answers SUBSCRIPTION_CREATE_FAILED.
  it("answers a subscribe of an identifier the topic holds with it unchanged, and refuses one another topic holds", async () => {
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-sub", name: "First" }] });
    const again = await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-sub", name: "Second" }] });
    expect(again.status).toBe(201);
    expect(again.body.data[0].name).toBe("First");
    const elsewhere = await subscribe("other", { subscriptions: [{ subscriberId: "alice", identifier: "alice-sub" }] });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors).toEqual([expect.objectContaining({ subscriberId: "alice", code: "SUBSCRIPTION_CREATE_FAILED", message: expect.stringContaining("duplicate key") })]);
  });

  // create-subscriptions.usecase.ts `createPreferencesForSubscriptionsBatch`: a subscribe's preferences
  // are stored for the subscriptions it makes.
  it("stores a subscribe's preferences for the subscription it makes", async () => {
    await workflow("digest");
    const r = await subscribe("news", { subscriptions: [{ subscriberId: "bob", identifier: "bob-news" }], preferences: [{ filter: { workflowIds: ["digest"] }, enabled: false }] });
    expect(r.body.data[0].preferences).toEqual([expect.objectContaining({ enabled: false })]);
    expect((await get("news", "bob-news")).body.preferences).toEqual([expect.objectContaining({ enabled: false })]);
  });

  // delete-topic-subscriptions.usecase.ts `lookupByIdentifiers` and `performDeletion`: an item naming
  // the identifier alone removes that subscription and its preferences; the subscriber's others stay.
  it("deletes one subscription by its identifier alone, with its preferences, and leaves the subscriber's others", async () => {
    await workflow("digest");
    await subscribe("news", { subscriptions: ["alice"] });
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-vip" }] });
    await patch("news", "alice-vip", { preferences: [{ filter: { workflowIds: ["digest"] } }] });
    expect((await emu.state() as any).subscriptionPreferences).toHaveLength(1);
    const r = await api("DELETE", "/v2/topics/news/subscriptions", { subscriptions: [{ identifier: "alice-vip" }] });
    expect(r.status).toBe(200);
    expect((await get("news", "alice-vip")).status).toBe(204);
    expect((await get("news", "tk_news:si_alice")).status).toBe(200);
    expect((await emu.state() as any).subscriptionPreferences).toEqual([]);
  });

  // create-subscriptions.usecase.ts: with the organisation's context preferences off, `context` is
  // ignored; utils/subscriptions.ts `stripContextFromIdentifier` cuts a trailing `:ctx_…` off the
  // identifier a GET or PATCH looks up.
  it("ignores a subscribe's context while context preferences are off, and cuts :ctx_ off the identifier looked up", async () => {
    const r = await subscribe("news", { subscriptions: ["alice"], context: { tenant: "acme" } });
    expect(r.body.data[0].identifier).toBe("tk_news:si_alice");
    expect(r.body.data[0].contextKeys).toEqual([]);
    expect((await get("news", "tk_news:si_alice:ctx_tenant:acme")).body.identifier).toBe("tk_news:si_alice");
    await subscribe("news", { subscriptions: [{ subscriberId: "bob", identifier: "bob:ctx_x" }] });
    expect((await get("news", "bob:ctx_x")).status).toBe(204);
  });

  // create-subscriptions.usecase.ts `resolveContexts` (flag on): the contexts are found or made
  // (`findOrCreateContextsFromPayload`) and their keys stored; the default identifier gains
  // `:ctx_<sorted keys>` (libs/application-generic/src/utils/subscription.ts).
  it("with context preferences on, stores the context keys, makes missing contexts and suffixes the default identifier", async () => {
    await api("POST", "/__emulator/behaviour", { contextPreferences: true });
    try {
      const r = await subscribe("news", { subscriptions: ["alice"], context: { tenant: "acme", app: { id: "web", data: { n: 1 } } } });
      expect(r.body.data[0].identifier).toBe("tk_news:si_alice:ctx_app:web,tenant:acme");
      expect(r.body.data[0].contextKeys.sort()).toEqual(["app:web", "tenant:acme"]);
      expect((await api("GET", "/v2/contexts/app/web")).body.data).toEqual({ n: 1 });
      expect((await get("news", "tk_news:si_alice:ctx_app:web,tenant:acme")).body.contextKeys.sort()).toEqual(["app:web", "tenant:acme"]);
    } finally {
      await api("POST", "/__emulator/behaviour", { contextPreferences: false });
    }
  });

  // topics.controller.ts `deleteTopic` (force) and delete-topic.usecase.ts: the topic's subscriptions
  // go with it (and their preferences), so their single GET answers 204.
  it("removes a topic's subscriptions with the topic, and their preferences", async () => {
    await workflow("digest");
    await subscribe("news", { subscriptions: [{ subscriberId: "alice", identifier: "alice-news" }] });
    await patch("news", "alice-news", { preferences: ["digest"] });
    await api("DELETE", "/v2/topics/news");
    expect((await get("news", "alice-news")).status).toBe(204);
    expect((await emu.state() as any).subscriptionPreferences).toEqual([]);
  });
});
