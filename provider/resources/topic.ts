/**
 * Topic: a named group of subscribers that a trigger can address at once.
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v2/topics?failIfExists=true, then POST .../subscriptions (100 a call); with adopt:
 *           GET the topic and its subscriptions first, then nothing when it is as declared, else
 *           the update's requests (so too after our own retried create)
 *   read    GET /v2/topics/{key}, GET /v2/topics/{key}/subscriptions (every page)
 *   update  PATCH /v2/topics/{key} when the name changes; when subscribers are added, GET the
 *           subscriptions (a subscriber added who holds one of its own is refused), then POST the
 *           subscribers added and DELETE the plain memberships removed since the state (only
 *           those, by identifier)
 *   delete  DELETE /v2/topics/{key} (its subscriptions go with it; a 404 counts as done)
 *
 * The outputs come from the answers: the create with failIfExists answers the topic it made (the
 * upsert without it answers an existing topic as it was before the update, so the provider never
 * creates that way), the PATCH the renamed topic, and a subscribe that reports no failed item
 * leaves the topic with the subscribers sent (re-subscribing is idempotent; production-notes.md,
 * Third pass §4).
 *
 * `subscribers` are the topic's plain memberships: the subscriptions a subscribe without an
 * identifier makes (identifier `tk_<key>:si_<subscriberId>`, no context). A subscription with an
 * identifier or context of its own is a TopicSubscription's (or made outside the stack): never
 * compared or removed here, and a subscriber added who holds one is refused, since a plain
 * membership beside it would let every notification through whatever its conditions say.
 */
import { z } from "zod";
import { NotifyApiError } from "../client/errors";
import type { NotifyClient } from "../client";
import { clientFor } from "../config";
import { SafeString, type SubscriptionsResult, type Topic as ApiTopic, type TopicSubscription as ListedSubscription } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { asSet, type DiffResult, declaredKeys, declaredKeysOf, deepEqual, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs, warn } from "./lifecycle";

/**
 * The key rule the service applies when a topic is created (packages/shared/src/consts/validIdRegex.ts
 * of the service): letters, digits, `_`, `:`, `.`, `-`; or a loose e-mail form.
 */
export const TOPIC_KEY = /^[a-zA-Z0-9_:.-]+$/;
const TOPIC_EMAIL_KEY = /^\S+@\S+\.\S+$/;

/** A topic key as a program gives it (1 to 100 characters, the key rule above). */
export const TOPIC_KEY_INPUT = z.string().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" })
  .refine((k) => k === UNKNOWN || TOPIC_KEY.test(k) || TOPIC_EMAIL_KEY.test(k), {
    error: "must contain only letters, digits, -, _, : and . (e.g. `news:daily`), or be an email address",
  });

/**
 * The identifier the service gives a subscription made without one: the plain membership of a
 * subscriber (libs/application-generic/src/utils/subscription.ts, `buildDefaultSubscriptionIdentifier`,
 * without context keys).
 */
export const plainIdentifier = (topicKey: string, subscriberId: string) => `tk_${topicKey}:si_${subscriberId}`;

/**
 * Whether a listed subscription is a plain membership: the default identifier and no context. One
 * stored before the service had identifiers carries none; its migration gives it the default.
 */
export function isPlainMembership(topicKey: string, s: Pick<ListedSubscription, "identifier" | "subscriber" | "contextKeys">): boolean {
  if (!s.subscriber || s.contextKeys?.length) return false;
  return s.identifier === undefined || s.identifier === plainIdentifier(topicKey, s.subscriber.subscriberId);
}

/** Subscriber ids sent per subscription call (the service takes 1 to 100). */
const SUBSCRIPTION_BATCH = 100;
/** Subscribers a topic may declare: bounded so a read stays a bounded number of pages. */
const MAX_SUBSCRIBERS = 10_000;

/** The field table of a {@link Topic}. */
export const TOPIC = defineResource({
  name: "Topic",
  module: "topic",
  doc: "A topic of the environment: a key that triggers address, its name, and its plain members, the subscribers subscribed without an identifier of their own (a set: " +
    "order never matters, and adding or removing one sends only that change). The id, and the import id, is the topic key.",
  inputs: {
    key: field(TOPIC_KEY_INPUT, "The topic key (1 to 100 characters: letters, digits, `-`, `_`, `:`, `.`, or an email address); the natural key for `adopt`. Changing it replaces the topic.", { createOnly: true }),
    name: field(SafeString(100).min(1, { error: "must not be empty (leave it out instead)" }).optional(), "Display name (1 to 100 characters)."),
    subscribers: field(z.array(SafeString(200).min(1, { error: "must not be empty" })).max(MAX_SUBSCRIBERS).superRefine((ids, ctx) => {
      const seen = new Map<string, number>();
      ids.forEach((id, i) => {
        if (id !== UNKNOWN && seen.has(id)) ctx.addIssue({ code: "custom", path: [i], message: `lists subscriber ${JSON.stringify(id)} again (first at [${seen.get(id)}])` });
        seen.set(id, i);
      });
    }).optional(),
    "The subscriberIds with a plain membership of the topic (subscribed without an identifier of their own), as a set (each must exist). " +
    "Subscriptions with an identifier or context of their own (TopicSubscription resources) are neither compared nor removed, and a " +
    "subscriber holding one is refused here: declare each subscriber of a topic one way. Left out, the memberships are not managed " +
    "(and not compared); an empty list removes every plain membership.", { local: true }),
    adopt: field(z.boolean().optional(), "Take over an existing topic with the same key instead of failing.", { control: true }),
  },
  outputs: {
    databaseId: output(z.string(), "The service's `_id` of the topic."),
    createdAt: output(z.string().optional(), "When the topic was created (ISO 8601)."),
  },
});

/** Inputs of a {@link Topic}. */
export type TopicArgs = ArgsOf<typeof TOPIC>;
/** The state of a {@link Topic}: the service's view, each declared input as declared. */
export type TopicState = StateOf<typeof TOPIC>;

type Inputs = z.infer<typeof TOPIC.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;


/** Maps the service's topic and its subscribers (read by calls of their own) to outputs. */
export function toTopicOutputs(t: ApiTopic, subscribers: readonly string[]): Props {
  return stripUndefined({ ...serviceFields(TOPIC, t), subscribers: asSet(subscribers), databaseId: t._id, createdAt: t.createdAt });
}

/** A topic's members: the plain memberships' subscribers, and the subscriptions with an identifier or context of their own. */
interface Members {
  subscribers: string[];
  own: { subscriberId: string; identifier: string }[];
}

/** The topic's subscriptions, following the cursor, split into plain memberships and the others. */
async function liveMembers(client: NotifyClient, key: string): Promise<Members> {
  const ids: string[] = [];
  const own: Members["own"] = [];
  let after: string | undefined;
  for (let pages = 0; pages < (MAX_SUBSCRIBERS * 2) / 100 + 10; pages++) {
    const page = await client.topics.listSubscriptions(key, { limit: 100, after });
    for (const s of page.data) {
      if (!s.subscriber) continue;
      if (isPlainMembership(key, s)) ids.push(s.subscriber.subscriberId);
      else own.push({ subscriberId: s.subscriber.subscriberId, identifier: s.identifier ?? s._id });
    }
    if (!page.next || page.data.length === 0) break;
    after = page.next;
  }
  return { subscribers: asSet(ids), own };
}

/**
 * The refusal of subscribers declared here who also hold a subscription of their own in the topic
 * (a TopicSubscription's): the plain membership would let every notification through, whatever that
 * subscription's preferences and conditions say. Undefined when there is none.
 */
export function bothWays(key: string, declared: readonly string[] | undefined, m: Members): string | undefined {
  const clash = m.own.filter((o) => declared?.includes(o.subscriberId));
  if (!clash.length) return undefined;
  return clash.map((o) => `subscriber "${o.subscriberId}" is in the \`subscribers\` of topic "${key}" and also holds its subscription "${o.identifier}" ` +
    "(a TopicSubscription's, or one made with an identifier or context of its own)").join("; ") +
    ". A plain membership lets every notification of the topic through, so that subscription's preferences and conditions would hold " +
    "nothing back: declare each membership one way, either in this Topic's `subscribers` or as the TopicSubscription, not both";
}

function outputsFor(t: ApiTopic, subscribers: readonly string[], declared: Props, keys: string[]): TopicState {
  const out: Props = { ...toTopicOutputs(t, subscribers), ...controlInputs(declared, TOPIC.controlKeys), declaredKeys: keys };
  return stripUndefined(out) as TopicState;
}

function itemErrors(r: SubscriptionsResult | undefined, ignore?: string): string[] {
  return (r?.errors ?? []).filter((e) => e.code !== ignore).map((e) => `${e.subscriberId ?? e.identifier ?? "?"}: ${e.code} (${e.message})`);
}

/**
 * Brings the topic's plain memberships from `live` to `wanted`: one POST of the added subscribers
 * and one DELETE of the removed memberships by identifier (per 100), nothing else. Per-item
 * failures fail the operation, naming each subscriber; an unsubscribe of what is already gone counts as done.
 */
async function syncSubscribers(client: NotifyClient, key: string, live: readonly string[], wanted: readonly string[]): Promise<void> {
  const have = new Set(live), want = new Set(wanted);
  const add = wanted.filter((s) => !have.has(s));
  const remove = live.filter((s) => !want.has(s));
  const problems: string[] = [];
  const run = async (ids: string[], call: (batch: string[]) => Promise<SubscriptionsResult>, ignore?: string) => {
    for (let i = 0; i < ids.length; i += SUBSCRIPTION_BATCH) {
      const batch = ids.slice(i, i + SUBSCRIPTION_BATCH);
      try {
        problems.push(...itemErrors(await call(batch), ignore));
      } catch (err) {
        // Every item failed: the service answers 400 with the per-item errors as details.
        if (!(err instanceof NotifyApiError && err.status === 400)) throw err;
        const details = err.details.filter((d) => !ignore || !d.includes(ignore));
        if (details.length || !err.details.length) problems.push(...(details.length ? details : [err.message]));
      }
    }
  };
  await run(add, (b) => client.topics.subscribe(key, b));
  await run(remove, (b) => client.topics.unsubscribe(key, b.map((id) => plainIdentifier(key, id))), "SUBSCRIPTION_NOT_FOUND");
  if (problems.length) {
    throw new Error(`some subscribers could not be ${add.length ? "subscribed" : "unsubscribed"}: ${problems.slice(0, 20).join("; ")}` +
      (problems.some((p) => p.includes("SUBSCRIBER_NOT_FOUND")) ? ". Each subscriber must exist before it is subscribed" : ""));
  }
}

/** The topic with this key and its subscribers, or undefined when there is none. */
function find(client: NotifyClient, key: string): Promise<{ topic: ApiTopic; subscribers: string[] } | undefined> {
  return findIfPresent(async () => ({ topic: await client.topics.get(key), subscribers: (await liveMembers(client, key)).subscribers }));
}

/**
 * Takes over `existing` (read already): no request when it is as declared, else the update's:
 * a PATCH of the name when it differs, and subscriptions added and removed, only those.
 */
function adopt(existing: { topic: ApiTopic; subscribers: string[] }, raw: Props, keys: string[]) {
  return adoptExisting(`topic "${String(raw.key)}"`, {
    id: existing.topic.key, compared: outputsFor(existing.topic, existing.subscribers, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(existing.topic.key, olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt topic "${String(raw.key)}"`, e);
      }
    },
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const failures = checkWith(TOPIC.schema, inputs, topLevel(unknownKeyHint(Object.keys(TOPIC.inputs))));
    // A set: kept sorted, so that declaring the same subscribers in another order is no change.
    if (!failures.length && Array.isArray(inputs.subscribers)) inputs.subscribers = asSet(inputs.subscribers as string[]);
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    const sorted = (p: Props) => (Array.isArray(p.subscribers) ? { ...p, subscribers: asSet(p.subscribers as string[]) } : p);
    return diffOf(TOPIC, sorted(olds), sorted(news));
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, TOPIC.inputKeys);
    const client = clientFor();
    const action = `create topic "${inputs.key}"`;
    return createOrAdopt({
      what: `topic "${inputs.key}"`, adopt: inputs.adopt,
      refuse: `A topic with key "${inputs.key}" already exists; set adopt: true to manage it with this stack`,
      find: () => find(client, inputs.key),
      takeOver: (existing) => adopt(existing, raw, keys),
      create: () => client.topics.create(requestBody(TOPIC, inputs, "create")),
      created: async (topic) => {
        try {
          if (inputs.subscribers !== undefined) await syncSubscribers(client, inputs.key, [], inputs.subscribers);
        } catch (err) {
          throw failure(action, err);
        }
        return { id: topic.key, outs: outputsFor(topic, inputs.subscribers ?? [], raw, keys) };
      },
      partial: (topic) => ({ id: topic.key, outs: outputsFor(topic, [], raw, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const client = clientFor();
    // The topic and its members at once: neither request needs the other's answer.
    const live = await readIfPresent(`read topic ${id}`, () => findIfPresent(async () => {
      const [topic, members] = await Promise.all([client.topics.read(id), liveMembers(client, id)]);
      return { topic, members };
    }));
    if (!live) return gone();
    const clash = bothWays(id, Array.isArray(props.subscribers) && keys.includes("subscribers") ? (props.subscribers as string[]) : undefined, live.members);
    if (clash) await warn(`topic "${id}": ${clash}`);
    const outs = outputsFor(live.topic, live.members.subscribers, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, TOPIC.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, TOPIC.inputKeys);
    const client = clientFor();
    try {
      // The PATCH only when a field it sends differs (the subscriptions have calls of their own).
      const body: RequestBody<"TopicsController_updateTopic"> = requestBody(TOPIC, inputs, "update");
      const renamed = Object.entries(body).some(([k, v]) => !deepEqual(v, olds[k])) ? await client.topics.update(id, body) : undefined;
      // The subscriptions the state holds (a refresh brings hand edits in first): only the
      // difference is sent, and what is sent is what the topic then holds.
      const held = Array.isArray(olds.subscribers) ? olds.subscribers as string[] : [];
      if (inputs.subscribers !== undefined) {
        const added = inputs.subscribers.filter((s) => !held.includes(s));
        // One listing, only when adding: a subscriber added who holds a subscription of its own in
        // the topic (a TopicSubscription's) is refused before any subscribe.
        const clash = added.length ? bothWays(id, added, await liveMembers(client, id)) : undefined;
        if (clash) throw new Error(clash);
        await syncSubscribers(client, id, held, inputs.subscribers);
      }
      const topic = renamed ?? { _id: String(olds.databaseId), key: id, name: olds.name as string | undefined, createdAt: olds.createdAt as string | undefined };
      return { outs: outputsFor(topic, inputs.subscribers ?? held, news, keys) };
    } catch (err) {
      throw failure(`update topic "${inputs.key}"`, err);
    }
  },

  async delete(id: string, props: Props) {
    await deleteIfPresent(`delete topic "${String(props.key ?? id)}"`, () => clientFor().topics.delete(id));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
