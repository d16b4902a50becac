/**
 * TopicSubscription: one subscription of a subscriber to a topic, with an identifier of its own, a
 * name, and per-workflow preferences (whether the workflow's notifications pass, and a JSON Logic
 * condition the service evaluates when a trigger fans out to the topic).
 *
 *   check   no request; the preferences kept sorted by workflow, each with `enabled` (true unless
 *           given), the context keys sorted; an identifier in the form of a plain membership refused
 *   diff    no request
 *   create  GET /v2/topics/{topicKey}/subscriptions/{identifier} (204: none; found: adopt or refuse);
 *           GET /v2/topics/{topicKey}/subscriptions?subscriberId= (404: no such topic; the subscriber's
 *           plain membership: refused); POST /v2/topics/{topicKey}/subscriptions with this one
 *           subscription and its preferences; the subscriber's subscriptions again (a plain
 *           membership made meanwhile: this one deleted again, refused)
 *   read    GET /v2/topics/{topicKey}/subscriptions/{identifier} (204: gone); on import, the topic's
 *           subscriptions too, for the subscriber the GET does not name
 *   update  PATCH /v2/topics/{topicKey}/subscriptions/{identifier} with what changed
 *   delete  DELETE /v2/topics/{topicKey}/subscriptions naming the identifier alone (gone counts as done)
 *
 * The service's sharp edges: a missing subscription reads as 204, not 404; `preferences` in a PATCH
 * replace every stored one, and a workflow it does not know is skipped without an error (so each
 * answer is checked; 3.15's subscribe refuses one with a 404 instead); `{workflowId, enabled}` loses
 * `enabled` on this route (the filter form keeps it); the subscribe makes a missing topic and
 * answers an identifier the topic holds as a success, unchanged.
 */
import { z } from "zod";
import { clientFor } from "../config";
import { NotifyApiError, isNotFound, NotifyConflictError } from "../client/errors";
import type { NotifyClient } from "../client";
import type { Subscription, SubscriptionDetails, SubscriptionPreference } from "../client/topicSubscriptions";
import { JsonObject, SafeString, type TopicSubscription as ListedSubscription } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { CONTEXT_PART } from "./context";
import { asSet, type DiffResult, containsUnknown, declaredKeys, declaredKeysOf, deepEqual, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, failure, gone, readInputs, ResourceInitFailure } from "./lifecycle";
import { isPlainMembership, plainIdentifier, TOPIC_KEY_INPUT } from "./topic";

/** Longest subscription identifier the service takes (`TopicSubscriberIdentifierDto.identifier`, maxLength 512). */
const MAX_IDENTIFIER = 512;
/** Subscriptions one subscriber may hold in one topic (create-subscriptions.usecase.ts, `MAX_SUBSCRIPTIONS_PER_SUBSCRIBER`). */
export const SUBSCRIPTIONS_PER_SUBSCRIBER = 10;
/**
 * The marker the service cuts off an identifier it looks up while the organisation's context
 * preferences are off (apps/api/src/app/subscriptions/utils/subscriptions.ts, `stripContextFromIdentifier`).
 */
const CONTEXT_MARKER = ":ctx_";

/** A JSON Logic rule: an object of exactly one operator (json-logic-js reads any other object as data, never true). */
const Condition = JsonObject.superRefine((c, ctx) => {
  const ops = Object.keys(c);
  if (ops.length !== 1) {
    ctx.addIssue({
      code: "custom",
      message: `must be a JSON Logic rule: an object of exactly one operator, e.g. {"==": [{"var": "payload.tier"}, "premium"]} ` +
        `(given ${ops.length ? `the keys ${ops.map((k) => JSON.stringify(k)).join(", ")}` : "an empty object, which never passes"})`,
    });
  }
});

/** One workflow's preference in a subscription. */
const Preference = z.strictObject({
  workflowId: z.string().min(1, { error: "must not be empty" }).describe("The workflow's identifier (its `workflowId`; pass a `Workflow`'s output, so the engine makes it first)."),
  enabled: z.boolean().optional().describe("Whether the workflow's notifications pass for this subscription when no condition is given (default true)."),
  condition: Condition.optional().describe("A JSON Logic rule the service evaluates against the trigger when it fans out to the topic; the notification passes when it is true."),
}).meta({ id: "TopicSubscriptionPreference", description: "One workflow's preference in a topic subscription." });

/** A context key `type:id` (each part as a Context's: letters, digits, `_`, `-`). */
const ContextKeyInput = z.string().refine((k) => {
  if (k === UNKNOWN) return true;
  const [type, id, ...rest] = k.split(":");
  return rest.length === 0 && !!type && !!id && CONTEXT_PART.test(type) && CONTEXT_PART.test(id);
}, { error: "must be a context key `type:id` (letters, digits, _ and - on each side; a Context's `key` output)" });

/** The field table of a {@link TopicSubscription}. */
export const TOPIC_SUBSCRIPTION = defineResource({
  name: "TopicSubscription",
  module: "topicSubscription",
  doc: "One subscription of a subscriber to a topic, with an identifier of its own, a name, and per-workflow preferences whose " +
    "conditions the service evaluates when a trigger fans out to the topic. A `Topic`'s `subscribers` holds plain memberships " +
    "(every notification passes); this resource holds one subscription that filters. The same subscriber is declared one way per topic: " +
    "the provider refuses a subscription beside the subscriber's plain membership, and a Topic's `subscribers` beside a subscription. " +
    "The id, and the import id, is `<topic key>/<identifier>`.",
  inputs: {
    topic: field(TOPIC_KEY_INPUT, "The topic's key (pass a `Topic`'s `key` output, so the engine makes the topic first); the topic must exist. " +
      "Changing it replaces the subscription.", { replaces: true, path: true }),
    subscriber: field(SafeString(200).min(1, { error: "must not be empty" }), "The subscriberId of the subscriber (it must exist). Changing it replaces the subscription.",
      { createOnly: true, local: true }),
    identifier: field(SafeString(MAX_IDENTIFIER).min(1, { error: "must not be empty" }).refine((v) => !v.includes(CONTEXT_MARKER), {
      error: `must not contain "${CONTEXT_MARKER}" (the service cuts a trailing "${CONTEXT_MARKER}…" off the identifier it looks up while the ` +
        "organisation's context preferences are off, so the subscription would read as deleted)",
    }), "The subscription's identifier, unique in the environment (1 to 512 characters), its address in every call. Not the form " +
      "`tk_<topic>:si_<subscriber>` the service gives a plain membership (a Topic's `subscribers`). Changing it replaces the subscription.",
    { replaces: true, path: true }),
    name: field(z.string().min(1, { error: "must not be empty (leave it out instead)" }).optional(), "The subscription's name."),
    preferences: field(z.array(Preference).superRefine((list, ctx) => {
      const seen = new Map<string, number>();
      list.forEach((p, i) => {
        if (p.workflowId !== UNKNOWN && seen.has(p.workflowId)) {
          ctx.addIssue({ code: "custom", path: [i, "workflowId"], message: `lists workflow ${JSON.stringify(p.workflowId)} again (first at [${seen.get(p.workflowId)}])` });
        }
        seen.set(p.workflowId, i);
      });
    }).optional(), "The subscription's preferences, one per workflow (a set: order never matters), compared whole: the service " +
      "replaces every stored preference on each write, so one added in the dashboard shows as drift. A workflow without a preference " +
      "passes. Left out, the preferences are not managed; an empty list removes every one.", { exact: true }),
    contextKeys: field(z.array(ContextKeyInput).superRefine((keys, ctx) => {
      const byType = new Map<string, number>();
      keys.forEach((k, i) => {
        if (k === UNKNOWN) return;
        const type = k.split(":")[0]!;
        if (byType.has(type)) ctx.addIssue({ code: "custom", path: [i], message: `names context type ${JSON.stringify(type)} again (first at [${byType.get(type)}]; the service takes one id per type)` });
        byType.set(type, i);
      });
    }).optional(), "The context keys (`type:id`, e.g. a `Context`'s `key` output) that scope the subscription, as a set. The service takes them only " +
      "while the organisation's context preferences are on; otherwise the create fails rather than leave them out. Changing them replaces " +
      "the subscription.", { createOnly: true, local: true }),
    adopt: field(z.boolean().optional(), "Take over an existing subscription with the same identifier in the topic instead of failing.", { control: true }),
  },
  outputs: {
    subscriptionId: output(z.string(), "The service's `_id` of the subscription."),
  },
});

/** Inputs of a {@link TopicSubscription}. */
export type TopicSubscriptionArgs = ArgsOf<typeof TOPIC_SUBSCRIPTION>;
/** The state of a {@link TopicSubscription}: the service's view, each declared input as declared. */
export type TopicSubscriptionState = StateOf<typeof TOPIC_SUBSCRIPTION>;

type Inputs = z.infer<typeof TOPIC_SUBSCRIPTION.schema>;
type PreferenceInput = z.infer<typeof Preference>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/**
 * The resource id: `<topic key>/<identifier>`, with `%` and `/` escaped inside each part so that
 * the one `/` between them is the separator (a topic key of the e-mail form may hold a `/`).
 */
export function topicSubscriptionId(topic: string, identifier: string): string {
  const part = (s: string) => s.replace(/%/g, "%25").replace(/\//g, "%2F");
  return `${part(topic)}/${part(identifier)}`;
}

/** The topic key and identifier of a resource id. */
export function parseTopicSubscriptionId(id: string): { topic: string; identifier: string } {
  const at = id.indexOf("/");
  if (at <= 0 || at === id.length - 1) throw new Error(`"${id}" is not a topic subscription id: it has the form <topic key>/<identifier>`);
  const part = (s: string) => s.replace(/%2F/gi, "/").replace(/%25/g, "%");
  return { topic: part(id.slice(0, at)), identifier: part(id.slice(at + 1)) };
}

/** Preferences in the one order state keeps them in, so order is never a diff. */
const byWorkflow = <T extends { workflowId?: unknown }>(list: readonly T[]) =>
  [...list].sort((a, b) => (String(a.workflowId) < String(b.workflowId) ? -1 : String(a.workflowId) > String(b.workflowId) ? 1 : 0));

/**
 * The stored preferences as inputs: one per workflow, named as declared (a workflow may be given by
 * its identifier or by its database id), sorted. A preference whose workflow is gone names no
 * workflow and applies to none, so it is left out.
 */
function preferencesOf(stored: readonly SubscriptionPreference[] | null | undefined, declared: unknown): Props[] {
  const named = Array.isArray(declared) ? (declared as Props[]).map((d) => d.workflowId) : [];
  return byWorkflow((stored ?? []).flatMap((p) => {
    if (!p.workflow) return [];
    const workflowId = named.includes(p.workflow.id) ? p.workflow.id : p.workflow.identifier;
    return [stripUndefined({ workflowId, enabled: p.enabled, condition: p.condition ?? undefined })];
  }));
}

/** What the service holds of a subscription, as the details or an update's answer give it. */
interface Held {
  id: string;
  name?: string | null;
  preferences?: readonly SubscriptionPreference[] | null;
  contextKeys?: readonly string[] | null;
}

const heldOf = (s: SubscriptionDetails | Subscription): Held => ({ ...s, id: "id" in s && typeof s.id === "string" ? s.id : (s as Subscription)._id });

/** Maps the service's subscription (and what its answer does not name: its topic, subscriber and identifier) to outputs. */
export function toTopicSubscriptionOutputs(topic: string, subscriber: string, identifier: string, s: Held, declaredPreferences?: unknown): Props {
  return stripUndefined({
    topic, subscriber, identifier, name: s.name ?? undefined, preferences: preferencesOf(s.preferences, declaredPreferences),
    // None is no key at all, as a declaration of none is (check drops an empty list): an import then declares none either.
    contextKeys: s.contextKeys?.length ? asSet(s.contextKeys) : undefined, subscriptionId: s.id,
  });
}

function outputsFor(topic: string, subscriber: string, identifier: string, s: Held, declared: Props, keys: string[]): TopicSubscriptionState {
  return stripUndefined({
    ...toTopicSubscriptionOutputs(topic, subscriber, identifier, s, declared.preferences),
    ...controlInputs(declared, TOPIC_SUBSCRIPTION.controlKeys), declaredKeys: keys,
  }) as TopicSubscriptionState;
}

/**
 * The preferences as the PATCH sends them: each in the filter form, the one form the service's
 * admin route keeps `enabled` in (topics.controller.ts `convertPreferencesToGroupFilters` drops it
 * from `{workflowId, enabled}`), with `enabled` always given, since an absent one takes the
 * subscriber's current preference for the workflow (create-subscription-preferences.usecase.ts).
 */
function wirePreferences(list: readonly PreferenceInput[]): NonNullable<RequestBody<"TopicsController_updateTopicSubscription">["preferences"]> {
  return list.map((p) => stripUndefined({ filter: { workflowIds: [p.workflowId] }, enabled: p.enabled ?? true, condition: p.condition }));
}

/** The update body of the fields that differ from `held` (the service's object as inputs); undefined when none does. */
function changedBody(inputs: Inputs, held: Props): RequestBody<"TopicsController_updateTopicSubscription"> | undefined {
  const body: RequestBody<"TopicsController_updateTopicSubscription"> = requestBody(TOPIC_SUBSCRIPTION, {
    name: inputs.name !== undefined && inputs.name !== held.name ? inputs.name : undefined,
    preferences: inputs.preferences !== undefined && !deepEqual(inputs.preferences, held.preferences) ? wirePreferences(inputs.preferences) : undefined,
  }, "update");
  return Object.keys(body).length ? body : undefined;
}

/**
 * Fails naming each declared workflow the answer of a write that named it lacks (the answer lists
 * every stored preference of the workflows the request named): the service skips a workflow it
 * does not know without an error (update-subscription.usecase.ts, and the newer subscribe).
 */
function checkStored(declared: readonly PreferenceInput[] | undefined, answer: readonly SubscriptionPreference[] | null | undefined): void {
  if (!declared?.length) return;
  const stored = new Set((answer ?? []).flatMap((p) => (p.workflow ? [p.workflow.identifier, p.workflow.id] : [])));
  const missing = declared.map((p, i) => [p.workflowId, i] as const).filter(([w]) => !stored.has(w));
  if (missing.length) {
    throw new Error(missing.map(([w, i]) => `preferences[${i}].workflowId: no workflow ${JSON.stringify(w)} in this environment (the service skips an unknown workflow without an error)`).join("; "));
  }
}

/** Sends `body` and checks that every workflow of its preferences is stored. */
async function write(client: NotifyClient, topic: string, identifier: string, body: RequestBody<"TopicsController_updateTopicSubscription">, declared: readonly PreferenceInput[] | undefined): Promise<Subscription> {
  const answer = await client.topicSubscriptions.update(topic, identifier, body);
  if (body.preferences) checkStored(declared, answer.preferences);
  return answer;
}

/** Every subscription of `subscriber` in the topic (a 404 when the topic does not exist). */
async function subscriptionsOf(client: NotifyClient, topic: string, subscriber: string): Promise<ListedSubscription[]> {
  const all: ListedSubscription[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.topics.listSubscriptions(topic, { subscriberId: subscriber, limit: 100, after });
    all.push(...page.data);
    if (!page.next || page.data.length === 0) return all;
    after = page.next;
  }
}

/** The subscriber of the topic's subscription `identifier`: among `hint`'s first, else over every page of the topic. */
async function ownerOf(client: NotifyClient, topic: string, identifier: string, hint?: string): Promise<string | undefined> {
  if (hint && (await subscriptionsOf(client, topic, hint)).some((s) => s.identifier === identifier)) return hint;
  let after: string | undefined;
  for (;;) {
    const page = await client.topics.listSubscriptions(topic, { limit: 100, after });
    const found = page.data.find((s) => s.identifier === identifier);
    if (found?.subscriber) return found.subscriber.subscriberId;
    if (!page.next || page.data.length === 0) return undefined;
    after = page.next;
  }
}

/**
 * The refusal of a subscription beside its subscriber's plain membership of the topic. The service
 * evaluates each subscription of a subscriber on its own and delivers when any one passes; a plain
 * membership has no preferences, so it always passes (trigger-multicast.usecase.ts,
 * `evaluateSubscriptionPreferences`): this subscription's preferences and conditions would hold
 * nothing back. A Topic's `subscribers` refuses the same pair from its side (topic.ts).
 */
export function bothWaysMessage(topic: string, subscriber: string, subscription: string): string {
  return `subscriber "${subscriber}" holds the plain membership of topic "${topic}" (subscription "${plainIdentifier(topic, subscriber)}", ` +
    "which a Topic's `subscribers` list, or a subscribe without an identifier, makes) and would hold the TopicSubscription " +
    `"${subscription}" too. A plain membership lets every notification of the topic through, so this subscription's preferences and ` +
    `conditions would hold nothing back: declare the membership one way, either "${subscriber}" in the Topic's \`subscribers\` or this ` +
    "TopicSubscription, not both";
}

/** Fails when the subscriber's subscriptions of the topic include the plain membership. */
function refuseBothWays(topic: string, subscriber: string, identifier: string, theirs: readonly ListedSubscription[]): void {
  if (theirs.some((s) => isPlainMembership(topic, s))) throw new Error(bothWaysMessage(topic, subscriber, identifier));
}

/** A hint for a refused subscribe, from the service's message and per-item errors: which of its rules refused it. */
function subscribeHint(inputs: Inputs, status: number, text: string): string | undefined {
  if (/Workflows not found/.test(text)) return "each workflow of `preferences` must exist in this environment (give its workflowId, a Workflow's output)";
  if (status === 404) return `topic "${inputs.topic}" does not exist: declare it with a Topic and pass its \`key\` output as \`topic\` (the service's subscribe would make it outside the stack)`;
  if (text.includes("SUBSCRIBER_NOT_FOUND")) return `subscriber "${inputs.subscriber}" does not exist: create it first`;
  if (text.includes("SUBSCRIPTION_LIMIT_EXCEEDED")) return `a subscriber holds at most ${SUBSCRIPTIONS_PER_SUBSCRIBER} subscriptions of one topic`;
  if (/SUBSCRIPTION_CREATE_FAILED|duplicate key/.test(text)) return `identifier "${inputs.identifier}" is taken in this environment (an identifier is unique across every topic of an environment)`;
  return undefined;
}

/**
 * The create body: this one subscription, its context and its preferences when declared (the
 * topic's own `name` is never sent: it would rename the topic). The subscribe stores the
 * preferences of the subscriptions it makes (create-subscriptions.usecase.ts), in the filter form
 * as the update does.
 */
function createBody(inputs: Inputs): RequestBody<"TopicsController_createTopicSubscriptions"> {
  const context = inputs.contextKeys?.length ? Object.fromEntries(inputs.contextKeys.map((k) => k.split(":") as [string, string])) : undefined;
  return stripUndefined({
    subscriptions: [stripUndefined({ subscriberId: inputs.subscriber, identifier: inputs.identifier, name: inputs.name })], context,
    preferences: inputs.preferences?.length ? wirePreferences(inputs.preferences) : undefined,
  });
}

/** An existing subscription, with the subscriber it belongs to and that subscriber's subscriptions of the topic. */
interface Existing {
  held: Held;
  owner: string | undefined;
  theirs: ListedSubscription[];
}

async function find(client: NotifyClient, inputs: Inputs): Promise<Existing | undefined> {
  const details = await client.topicSubscriptions.get(inputs.topic, inputs.identifier);
  if (!details) return undefined;
  const theirs = await subscriptionsOf(client, inputs.topic, inputs.subscriber);
  const owner = theirs.some((s) => s.identifier === inputs.identifier) ? inputs.subscriber : await ownerOf(client, inputs.topic, inputs.identifier);
  return { held: heldOf(details), owner, theirs };
}

/** Takes an existing subscription over: written only where it differs from the declaration. */
function adopt(client: NotifyClient, existing: Existing, raw: Props, keys: string[]) {
  const inputs = raw as Inputs;
  const what = `subscription "${inputs.identifier}" of topic "${inputs.topic}"`;
  if (existing.owner === inputs.subscriber) refuseBothWays(inputs.topic, inputs.subscriber, inputs.identifier, existing.theirs);
  // An owner no page names (a subscriber deleted since) compares as different: a replacement could not be an adoption.
  const compared = outputsFor(inputs.topic, existing.owner ?? "(a subscriber that no longer exists)", inputs.identifier, existing.held, raw, keys);
  return adoptExisting(what, {
    id: topicSubscriptionId(inputs.topic, inputs.identifier), compared: compared as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(topicSubscriptionId(inputs.topic, inputs.identifier), olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt ${what}`, e);
      }
    },
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const failures = checkWith(TOPIC_SUBSCRIPTION.schema, inputs, topLevel(unknownKeyHint(Object.keys(TOPIC_SUBSCRIPTION.inputs))));
    const { topic, subscriber, identifier } = inputs as Partial<Record<"topic" | "subscriber" | "identifier", string>>;
    if (!failures.length && topic !== undefined && subscriber !== undefined && ![topic, subscriber].includes(UNKNOWN) && identifier === plainIdentifier(topic, subscriber)) {
      failures.push({
        property: "identifier",
        reason: `identifier: ${JSON.stringify(identifier)} is the identifier the service gives the plain membership of "${subscriber}" in "${topic}" ` +
          "(what a Topic's `subscribers` makes): give this subscription an identifier of its own, or declare the membership in the Topic's `subscribers`",
      });
    }
    // Sets, kept in one order, with `enabled` filled in: the program's declaration and the service's answer then compare whole.
    if (!failures.length && Array.isArray(inputs.preferences)) {
      const prefs: Props[] = (inputs.preferences as Props[]).map((p) => ({ ...p, enabled: p.enabled ?? true }));
      inputs.preferences = containsUnknown(prefs.map((p) => p.workflowId)) ? prefs : byWorkflow(prefs);
    }
    if (!failures.length && Array.isArray(inputs.contextKeys) && !inputs.contextKeys.includes(UNKNOWN)) {
      // No context is one thing however it is written: an empty list is the key left out.
      if (inputs.contextKeys.length) inputs.contextKeys = asSet(inputs.contextKeys as string[]);
      else delete inputs.contextKeys;
    }
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    const sorted = (p: Props) => stripUndefined({
      ...p,
      preferences: Array.isArray(p.preferences) && !containsUnknown(p.preferences) ? byWorkflow(p.preferences as Props[]) : p.preferences,
      contextKeys: Array.isArray(p.contextKeys) && !p.contextKeys.includes(UNKNOWN) ? asSet(p.contextKeys as string[]) : p.contextKeys,
    });
    const diff = diffOf(TOPIC_SUBSCRIPTION, sorted(olds), sorted(news));
    // The identifier is unique in the environment: a replacement that keeps it (another topic,
    // subscriber or context) must delete the old subscription before it makes the new one.
    return diff.replaces.length && news.identifier === olds.identifier ? { ...diff, deleteBeforeReplace: true } : diff;
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, TOPIC_SUBSCRIPTION.inputKeys);
    const client = clientFor();
    const { topic, subscriber, identifier } = inputs;
    const what = `subscription "${identifier}" of topic "${topic}"`;
    const id = topicSubscriptionId(topic, identifier);
    return createOrAdopt({
      what, adopt: inputs.adopt,
      refuse: `A subscription with identifier "${identifier}" exists in topic "${topic}"; set adopt: true to manage it with this stack`,
      find: () => find(client, inputs),
      takeOver: (existing) => adopt(client, existing, raw, keys),
      hint: (err) => (err instanceof NotifyApiError ? subscribeHint(inputs, err.status, [err.serviceMessage, ...err.details].join(" ")) : undefined),
      create: async () => {
        // The subscribe answers an identifier the topic holds as a success: the look comes first.
        if (await client.topicSubscriptions.get(topic, identifier)) {
          throw new NotifyConflictError({ status: 409, method: "POST", path: "/v2/topics/{topicKey}/subscriptions", attempts: 1, serviceMessage: `${what} exists` });
        }
        // The listing answers 404 for a missing topic, which the subscribe would make.
        refuseBothWays(topic, subscriber, identifier, await subscriptionsOf(client, topic, subscriber));
        return client.topicSubscriptions.create(topic, createBody(inputs));
      },
      created: async (made) => {
        const mine = made.data.find((s) => s.identifier === identifier);
        if (!mine || mine.subscriber?.subscriberId !== subscriber) {
          const problems = (made.errors ?? []).map((e) => `${e.subscriberId ?? e.identifier ?? "?"}: ${e.code} (${e.message})`);
          const cause = problems.length ? problems.join("; ")
            : `the service answered ${mine ? `a subscription of subscriber "${mine.subscriber?.subscriberId ?? "(none)"}"` : "no subscription"} for "${identifier}"`;
          throw failure(`create ${what}`, new Error(cause), subscribeHint(inputs, 400, cause));
        }
        let held = heldOf(mine);
        try {
          const asked = inputs.contextKeys ?? [];
          // A subscribe's answer may leave contextKeys out (the real 3.15.0 server did): unknown, not
          // none, so where some were asked the subscription is read for what the service stored.
          let stored = mine.contextKeys ?? undefined;
          if (stored === undefined && asked.length) stored = (await client.topicSubscriptions.get(topic, identifier))?.contextKeys ?? [];
          held = { ...held, contextKeys: stored ?? [] };
          if (!deepEqual(asSet(stored ?? []), asSet(asked))) {
            throw new Error(`contextKeys: the service stored ${JSON.stringify(asSet(stored ?? []))} for ${JSON.stringify(asSet(asked))}: it takes context only ` +
              "while the organisation's context preferences are on; leave contextKeys out, or have the feature turned on");
          }
          checkStored(inputs.preferences, mine.preferences);
          // A plain membership made between the look and the subscribe (a Topic applied at the same time) shows now.
          refuseBothWays(topic, subscriber, identifier, await subscriptionsOf(client, topic, subscriber));
          return { id, outs: outputsFor(topic, subscriber, identifier, held, raw, keys) };
        } catch (err) {
          // A subscription made here whose settings failed is removed again, so that a rerun starts
          // afresh; one that cannot be removed (the service went away) is kept in the stack as made.
          const cause = failure(`create ${what}`, err);
          const removed = await client.topicSubscriptions.remove(topic, identifier).then(() => true, () => false);
          if (removed) throw cause;
          const kept = `the subscription "${identifier}" of topic "${topic}" was created and could not be removed again, so it is kept in the stack; the next pulumi up finishes it`;
          throw new ResourceInitFailure(`${cause.message}. ${kept[0]!.toUpperCase()}${kept.slice(1)}`, id, outputsFor(topic, subscriber, identifier, held, raw, keys) as Props, [cause.message, kept]);
        }
      },
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const { topic, identifier } = typeof props.topic === "string" && typeof props.identifier === "string"
      ? { topic: props.topic, identifier: props.identifier } : parseTopicSubscriptionId(id);
    const client = clientFor();
    try {
      const live = await client.topicSubscriptions.get(topic, identifier);
      if (!live) return gone();
      // The answer names no subscriber; it cannot change, so state keeps it (an import looks it up).
      const subscriber = typeof props.subscriber === "string" ? props.subscriber : await ownerOf(client, topic, identifier);
      if (subscriber === undefined) return gone();
      const outs = outputsFor(topic, subscriber, identifier, heldOf(live), props, keys);
      return { id, props: outs, inputs: readInputs(props, outs, keys, TOPIC_SUBSCRIPTION.controlKeys) };
    } catch (err) {
      throw failure(`read subscription "${identifier}" of topic "${topic}"`, err);
    }
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, TOPIC_SUBSCRIPTION.inputKeys);
    const client = clientFor();
    const { topic, subscriber, identifier } = inputs;
    try {
      const body = changedBody(inputs, olds);
      if (body) {
        const answer = await write(client, topic, identifier, body, inputs.preferences);
        // The update's answer lists the preferences of the workflows it names only: without preferences in the body, those held stand.
        const held = heldOf(body.preferences ? answer : { ...answer, preferences: undefined });
        const outs = outputsFor(topic, subscriber, identifier, held, news, keys);
        if (!body.preferences) outs.preferences = (olds.preferences ?? []) as never;
        return { outs };
      }
      return { outs: stripUndefined({ ...olds, ...controlInputs(news, TOPIC_SUBSCRIPTION.controlKeys), declaredKeys: keys }) as TopicSubscriptionState };
    } catch (err) {
      throw failure(`update subscription "${identifier}" of topic "${topic}"`, err);
    }
  },

  async delete(id: string, props: Props) {
    const { topic, identifier } = typeof props.topic === "string" && typeof props.identifier === "string"
      ? { topic: props.topic, identifier: props.identifier } : parseTopicSubscriptionId(id);
    try {
      await clientFor().topicSubscriptions.remove(topic, identifier);
    } catch (err) {
      // Gone already: the topic (404) or the subscription (every item failed, SUBSCRIPTION_NOT_FOUND) counts as deleted.
      if (isNotFound(err) || (err instanceof NotifyApiError && err.status === 400 && err.details.some((d) => d.includes("SUBSCRIPTION_NOT_FOUND")))) return;
      throw failure(`delete subscription "${identifier}" of topic "${topic}"`, err);
    }
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
