/** The TopicSubscription kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, slug, strip, text } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/** The topics, subscribers and workflows subscriptions are generated with; {@link createSubscriptionTargets} makes them. */
export const SUBSCRIPTION_TOPICS = ["tsub-alerts", "tsub-digest:daily"] as const;
export const SUBSCRIPTION_SUBSCRIBERS = ["tsub-ann", "tsub-ben", "tsub-cy"] as const;
export const SUBSCRIPTION_WORKFLOWS = ["tsub-incident", "tsub-invoice", "tsub-weekly"] as const;
/** Context keys of distinct types (the service takes one id per type), none a Context kind's generator makes. */
const CONTEXT_KEYS = ["tenant:tsub-acme", "region:tsub-eu", "app:tsub-web"] as const;
/** JSON Logic rules as a program writes them. */
const CONDITIONS = [
  { "==": [{ var: "payload.tier" }, "premium"] },
  { ">": [{ var: "payload.amount" }, 100] },
  { in: ["eu", { var: "payload.regions" }] },
] as const;

/**
 * Makes, once per emulator, what the generated subscriptions name (each create is an upsert or
 * answered 409, so repeating is harmless), and turns the organisation's context preferences on:
 * `contextKeys` need them (the service's flag; off, the create fails as the provider must).
 */
export async function createSubscriptionTargets(emu: TestEmulator): Promise<void> {
  await ok(emu.api("POST", "/__emulator/behaviour", { contextPreferences: true }), "context preferences on");
  for (const subscriberId of SUBSCRIPTION_SUBSCRIBERS) await ok(emu.api("POST", "/v2/subscribers", { subscriberId }), "create subscriber");
  for (const key of SUBSCRIPTION_TOPICS) await ok(emu.api("POST", "/v2/topics", { key }), "create topic");
  for (const [i, workflowId] of SUBSCRIPTION_WORKFLOWS.entries()) {
    const r = await emu.api("POST", "/v2/workflows", {
      workflowId, name: workflowId, active: true, tags: i === 0 ? ["ops"] : ["billing"],
      steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "{{payload.text}}" } }],
    });
    if (r.status >= 300 && r.status !== 409) throw new Error(`create workflow ${workflowId}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

const preference = fc.record({
  workflowId: fc.constantFrom(...SUBSCRIPTION_WORKFLOWS),
  enabled: opt(fc.boolean()),
  condition: opt(fc.constantFrom(...CONDITIONS)),
}, { requiredKeys: ["workflowId"] });

/** A subscription: a topic and subscriber of the setup's, an identifier carrying the run's suffix, and any of its settings. */
export const topicSubscriptionInputs = (suffix: string) => fc.record({
  topic: fc.constantFrom(...SUBSCRIPTION_TOPICS),
  subscriber: fc.constantFrom(...SUBSCRIPTION_SUBSCRIBERS),
  identifier: slug.map((s) => `${s}-${suffix}`),
  name: opt(text(1, 60)),
  preferences: opt(fc.uniqueArray(preference, { maxLength: SUBSCRIPTION_WORKFLOWS.length, selector: (p) => p.workflowId })),
  // An empty list is the key left out (check drops it), so a list, when given, holds one key at least.
  contextKeys: opt(fc.subarray([...CONTEXT_KEYS], { minLength: 1 })),
}, { requiredKeys: ["topic", "subscriber", "identifier"] }).map(strip);

/** The adopt case's subscription, as the service holds it after the seed. */
const ADOPTED = { topic: "alerts", subscriber: "dana", identifier: "dana-alerts", name: "Dana's alerts", preferences: [{ workflowId: "subscription-digest", enabled: false }] };
const sub = (over: Obj) => ({ topic: "news", subscriber: "alice", identifier: "alice-news", ...over });
const path = (i: Obj) => `/v2/topics/${encodeURIComponent(String(i.topic))}/subscriptions/${encodeURIComponent(String(i.identifier))}`;
/** A declared preference in the form the service's PATCH keeps `enabled` in. */
const wire = (p: Obj) => strip({ filter: { workflowIds: [p.workflowId] }, enabled: p.enabled ?? true, condition: p.condition });

export const topicSubscriptionKind: KindDescriptor<"TopicSubscription"> = {
  kind: "TopicSubscription",
  inputs: topicSubscriptionInputs,
  setup: createSubscriptionTargets,
  prepare: null,
  // Every call addresses the subscription by topic and identifier; its update takes only the name
  // and the preferences (UpdateTopicSubscriptionRequestDto): the subscriber and the context are
  // fixed at the subscribe.
  replaceOnChange: ["topic", "subscriber", "identifier", "contextKeys"],
  // The service replaces every stored preference on each write (update-subscription.usecase.ts).
  exact: ["preferences"],
  handEdits: (i, _mode, add) => {
    const patch = (body: Obj, what: string) => () => async (emu: TestEmulator) => void (await ok(emu.api("PATCH", path(i), body), what));
    add("name", "renamed", patch({ name: `${String(i.name ?? "").slice(0, 50)} (edited)` }, "hand edit rename subscription"));
    const prefs = (i.preferences ?? []) as Obj[];
    add("preferences", prefs.length ? "the first workflow switched" : "one workflow switched off",
      patch({ preferences: prefs.length ? [{ ...wire(prefs[0]!), enabled: !(prefs[0]!.enabled ?? true), condition: undefined }, ...prefs.slice(1).map(wire)]
        : [wire({ workflowId: SUBSCRIPTION_WORKFLOWS[0], enabled: false })] }, "hand edit subscription preferences"));
  },
  // Never called (see undeletable): the service has no path that deletes one subscription.
  deletePath: (i) => path(i),
  undeletable: "the service deletes one subscription only by a bulk DELETE whose body names it, which a hand deletion by path cannot send; " +
    "reading one deleted so is test/conformance/topicSubscriptions.test.ts's",
  remains: (state, declared) => state.subscriptions!.filter((s) => declared.some((d) => d.identifier === s.identifier)),
  // Its own topic, subscriber and workflow, so that it holds beside every other kind's adopt case in one environment.
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/subscribers", { subscriberId: "dana" }), "seed");
      await ok(emu.api("POST", "/v2/workflows", { workflowId: "subscription-digest", name: "Digest", active: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] }), "seed");
      await ok(emu.api("POST", "/v2/topics", { key: "alerts" }), "seed");
      await ok(emu.api("POST", "/v2/topics/alerts/subscriptions", { subscriptions: [{ subscriberId: "dana", identifier: "dana-alerts", name: "Dana's alerts" }] }), "seed");
      await ok(emu.api("PATCH", "/v2/topics/alerts/subscriptions/dana-alerts", { preferences: [wire({ workflowId: "subscription-digest", enabled: false })] }), "seed");
    },
    equal: ADOPTED,
    // The subscription, then the subscriber's subscriptions of the topic (its owner, and no plain membership beside it).
    reads: ["GET /v2/topics/{topicKey}/subscriptions/{identifier}", "GET /v2/topics/{topicKey}/subscriptions"],
    differing: { ...ADOPTED, name: "Dana, alerts" },
    writes: ["PATCH /v2/topics/{topicKey}/subscriptions/{identifier}"],
  },
  floor: {
    // create: the look (the subscribe answers an identifier the topic holds as a success, unchanged,
    // so only a read tells the subscription is new), the subscriber's subscriptions of the topic (its
    // plain membership, refused beside this one; a missing topic's 404, which the subscribe would
    // make), the subscribe with the name, context and preferences, and the subscriber's subscriptions
    // again (a plain membership made meanwhile). A subscriber holds at most 10 subscriptions of a
    // topic: one page each. read: the GET (it names no subscriber, which cannot change). update: one
    // PATCH of the name and the preferences. delete: one DELETE naming the identifier.
    of: () => ({ create: 4, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, name: `${String(i.name ?? i.identifier)} (renamed)` }),
    listing: null,
  },
  badInput: [
    ["subscription identifier of the plain membership form", sub({ topic: "news", subscriber: "alice", identifier: "tk_news:si_alice" }),
      /identifier: "tk_news:si_alice" is the identifier the service gives the plain membership of "alice" in "news"/],
    ["subscription identifier with a context marker", sub({ identifier: "alice:ctx_tenant:acme" }), /identifier: must not contain ":ctx_"/],
    ["subscription identifier over 512 characters", sub({ identifier: "i".repeat(513) }), /identifier: must be at most 512 characters/],
    ["subscription without a subscriber", without(sub({}), "subscriber"), /subscriber: is required/],
    ["subscription topic key with a space", sub({ topic: "daily news" }), /topic: must contain only letters, digits/],
    ["empty subscription name", sub({ name: "" }), /name: must not be empty/],
    ["subscription workflow listed twice", sub({ preferences: [{ workflowId: "digest" }, { workflowId: "digest" }] }), /preferences\[1\]\.workflowId: lists workflow "digest" again \(first at \[0\]\)/],
    ["subscription condition of two operators", sub({ preferences: [{ workflowId: "digest", condition: { "==": [1, 1], "!=": [1, 2] } }] }),
      /preferences\[0\]\.condition: must be a JSON Logic rule: an object of exactly one operator.*given the keys "==", "!="/],
    ["subscription condition empty", sub({ preferences: [{ workflowId: "digest", condition: {} }] }), /preferences\[0\]\.condition: .*given an empty object, which never passes/],
    ["subscription preference enabled not a boolean", sub({ preferences: [{ workflowId: "digest", enabled: "yes" }] }), /preferences\[0\]\.enabled: must be a boolean \(given "yes"\)/],
    ["subscription preference key misspelt", sub({ preferences: [{ workflowId: "digest", enable: false }] }), /preferences\[0\]: unknown property "enable"/],
    ["subscription context key without a type", sub({ contextKeys: ["acme"] }), /contextKeys\[0\]: must be a context key `type:id`/],
    ["subscription context type twice", sub({ contextKeys: ["tenant:a", "tenant:b"] }), /contextKeys\[1\]: names context type "tenant" again/],
    ["misspelt subscription field", sub({ subscriberId: "alice" }), /unknown property "subscriberId": did you mean "subscriber"\?/],
  ],
  stack: { max: 2, unique: (s) => s.identifier },
  exportSoak: { max: 2, unique: (s) => s.identifier },
  bench: {
    per: 20,
    /** Subscriber `bench-sub-<j + 2>` of topic j of the mix, which that topic's `subscribers` (j and j + 1) leave out; workflow i's preference. */
    args: (i, r) => {
      const j = i % Math.max(1, r.counts.Topic);
      return {
        topic: r.output("Topic", j, "key"), subscriber: `bench-sub-${j + 2}`, identifier: `bench-tsub-${i}`, name: `Bench subscription ${i}`,
        preferences: [{ workflowId: r.output("Workflow", i % Math.max(1, r.counts.Workflow), "workflowId"), condition: { "==": [{ var: "payload.tier" }, "premium"] } }],
      };
    },
  },
  scenario: {
    declared: {
      topic: SUBSCRIPTION_TOPICS[0], subscriber: SUBSCRIPTION_SUBSCRIBERS[0], identifier: "scenario-subscription", name: "Scenario subscription",
      preferences: [{ workflowId: SUBSCRIPTION_WORKFLOWS[0], condition: CONDITIONS[0] }],
    },
  },
  openapiCases: {
    "GET /v2/topics/{topicKey}/subscriptions/{identifier}": async (c) => {
      await c.api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-read", name: "Read" }] });
      await c.api("PATCH", "/v2/topics/news/subscriptions/alice-read", { preferences: [{ filter: { workflowIds: [c.made.workflowId] }, enabled: false }] });
      return c.call(200, "/v2/topics/news/subscriptions/alice-read");
    },
    "PATCH /v2/topics/{topicKey}/subscriptions/{identifier}": async (c) => {
      await c.api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-patched" }] });
      return c.call(200, "/v2/topics/news/subscriptions/alice-patched", {
        name: "Patched", preferences: [{ filter: { workflowIds: [c.made.workflowId] }, condition: { "==": [{ var: "payload.tier" }, "premium"] } }],
      });
    },
  },
  // Create with a name, preferences and (context preferences on) a context, read, update, adopt, delete; getTopicSubscriptions.
  requests: {
    run: async ({ moduleOf, created, client, fns, emu }) => {
      const subscription = moduleOf("topicSubscription");
      await client.topics.create({ key: "alerts" });
      await ok(emu.api("POST", "/__emulator/behaviour", { contextPreferences: true }), "context preferences on");
      const aliceAlerts = await created(subscription, {
        topic: "alerts", subscriber: "alice", identifier: "alice-alerts", name: "Alice", contextKeys: ["tenant:acme"],
        preferences: [{ workflowId: "welcome", condition: { "==": [{ var: "payload.tier" }, "premium"] } }],
      });
      await ok(emu.api("POST", "/__emulator/behaviour", { contextPreferences: false }), "context preferences off");
      await subscription.provider.read(aliceAlerts.id, aliceAlerts.outs);
      await subscription.provider.update(aliceAlerts.id, aliceAlerts.outs, { ...aliceAlerts.inputs, name: "Alice on call", preferences: [{ workflowId: "welcome", enabled: false }] });
      await client.topicSubscriptions.create("alerts", { subscriptions: [{ subscriberId: "bob", identifier: "bob-alerts" }] });
      const adopted = await created(subscription, { topic: "alerts", subscriber: "bob", identifier: "bob-alerts", name: "Bob", adopt: true });
      await fns.getTopicSubscriptions({ topicKey: "alerts", subscriberId: "alice", maxResults: 10 });
      return async () => {
        for (const r of [aliceAlerts, adopted]) await subscription.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
