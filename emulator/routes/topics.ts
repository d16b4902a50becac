/**
 * Topics v2: `/v2/topics` (upsert, list), `/v2/topics/{topicKey}` (get, patch, delete) and
 * `/v2/topics/{topicKey}/subscriptions` (subscribe, list, unsubscribe), as production-notes.md,
 * Third pass §4 describes production: per environment; the key format checked on creation only;
 * the upsert answers 201 with the topic as it was before the update; subscriptions per item,
 * with errors per item and a 400 when every item fails. A subscription's identifier is unique in
 * the environment; its preferences and context, and the single subscription's routes, are in
 * ./topicSubscriptions.ts.
 */
import { cursorPage } from "../collection";
import { HttpError, conflict, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader, sameSet } from "../params";
import type { JsonObject, SubscriberRecord, SubscriptionRecord, TopicRecord } from "../records";
import { ofTenant } from "../store";
import type { Reply, RequestContext, Route } from "../types";
import { bodyOf, objectId } from "../util";
import { liveSubscriber } from "./subscribers";
import {
  defaultIdentifier, dropPreferences, groupFilters, preferencesOut, resolveWorkflows, storePreferences, subscriptionContext, subscriptionOut,
} from "./topicSubscriptions";

/** Subscriptions one subscriber may hold in one topic (create-subscriptions.usecase.ts). */
const SUBSCRIPTIONS_PER_SUBSCRIBER = 10;

/** The key rule on creation (packages/shared/src/consts/validIdRegex.ts of the service). */
const PLAIN_KEY = /^[a-zA-Z0-9_:.-]+$/;
const EMAIL_KEY = /^\S+@\S+\.\S+$/;

function checkKeyFormat(key: string): void {
  if (!PLAIN_KEY.test(key) && !EMAIL_KEY.test(key)) {
    throw new HttpError(400, `Invalid topic key: ${key} must contain only alphanumeric characters (a-z, A-Z, 0-9), hyphens (-), underscores (_), colons (:), or be a valid email address.`);
  }
}

function topicsOf(c: RequestContext): TopicRecord[] {
  return ofTenant(c.store.data.topics, c.tenant);
}

function findTopic(c: RequestContext, key: string): TopicRecord {
  const t = topicsOf(c).find((x) => x.key === key);
  if (!t) throw notFound(`Topic with key ${key} not found`);
  return t;
}

const topicOut = (t: TopicRecord): JsonObject => ({ _id: t._id, key: t.key, name: t.name, createdAt: t.createdAt, updatedAt: t.updatedAt });

function newTopic(c: RequestContext, key: string, name: string | undefined): TopicRecord {
  checkKeyFormat(key);
  const now = new Date().toISOString();
  const t: TopicRecord = {
    _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, key,
    ...(name !== undefined ? { name } : {}), createdAt: now, updatedAt: now,
  };
  c.store.data.topics.push(t);
  c.store.touch();
  return t;
}

function listTopics(c: RequestContext): Reply {
  const key = (c.query.get("key") ?? "").toLowerCase(), name = (c.query.get("name") ?? "").toLowerCase();
  const list = topicsOf(c).filter((t) => (!key || t.key.toLowerCase().includes(key)) && (!name || (t.name ?? "").toLowerCase().includes(name)));
  return cursorPage(c, list, topicOut);
}

/**
 * `POST /v2/topics`: creates, or updates the name when a non-empty one is given. Both paths answer
 * 201, and the update path answers the topic as it was before the update (upsert-topic.usecase.ts
 * computes "created" after reassigning the topic, and the repository's update returns the old
 * document).
 */
function upsertTopic(c: RequestContext): Reply {
  const b = bodyOf(c, "TopicsController_upsertTopic");
  const existing = topicsOf(c).find((t) => t.key === b.key);
  if (!existing) return { status: 201, body: topicOut(newTopic(c, b.key, b.name)) };
  if (c.query.get("failIfExists") === "true") throw conflict(`Topic with key "${b.key}" already exists`);
  const before = topicOut(existing);
  if (b.name) {
    existing.name = b.name;
    existing.updatedAt = new Date().toISOString();
    c.store.touch();
  }
  return { status: 201, body: before };
}

interface ItemError { subscriberId?: string; identifier?: string; code: string; message: string }

/** A bulk answer: 201/200 with `{data, meta, errors?}`, or 400 with the same when every item failed. */
function bulkReply(c: RequestContext, status: number, data: JsonObject[], errors: ItemError[]): Reply {
  const body = { data, meta: { totalCount: data.length + errors.length, successful: data.length, failed: errors.length }, ...(errors.length ? { errors } : {}) };
  if (data.length === 0 && errors.length > 0) {
    throw new HttpError(400, "Api Exception Raised with status 400", { fields: body });
  }
  return { status, bare: true, body };
}

type Item = string | { subscriberId?: string; identifier?: string; name?: string };

function itemsOf(b: { subscriptions?: Item[]; subscriberIds?: string[] }): Item[] | undefined {
  const items = b.subscriptions ?? b.subscriberIds;
  if (items && (items.length < 1 || items.length > 100)) throw validationFailed(["subscriptions: must contain 1 to 100 items"]);
  return items;
}

function subscriptionsOf(c: RequestContext, t: TopicRecord): SubscriptionRecord[] {
  return ofTenant(c.store.data.subscriptions, c.tenant).filter((s) => s._topicId === t._id);
}

/** `POST /v2/topics/{topicKey}/subscriptions` (create-subscriptions.usecase.ts). */
function subscribe(c: RequestContext): Reply {
  const b = bodyOf(c, "TopicsController_createTopicSubscriptions");
  const items = itemsOf(b);
  if (!items) throw validationFailed(["subscriptions: either subscriptions or subscriberIds must be given"]);
  const key = c.params.topicKey!;
  // A missing topic is created first, so it exists even when every subscriber fails.
  let t = topicsOf(c).find((x) => x.key === key);
  if (!t) t = newTopic(c, key, b.name);
  else if (b.name) Object.assign(t, { name: b.name, updatedAt: new Date().toISOString() });
  const data: JsonObject[] = [];
  const errors: ItemError[] = [];
  const now = new Date().toISOString();
  const contextKeys = subscriptionContext(c, b.context);
  const filters = b.preferences ? groupFilters(b.preferences) : undefined;
  const workflows = filters ? resolveWorkflows(c, filters) : [];
  for (const item of items) {
    const subscriberId = typeof item === "string" ? item : item.subscriberId ?? "";
    const s = liveSubscriber(c.store, c.tenant, subscriberId);
    if (!s) {
      errors.push({ subscriberId, code: "SUBSCRIBER_NOT_FOUND", message: `Subscriber with id ${subscriberId} not found` });
      continue;
    }
    const identifier = (typeof item === "object" && item.identifier) || defaultIdentifier(t.key, subscriberId, contextKeys);
    const mine = subscriptionsOf(c, t).filter((x) => x._subscriberId === s._id);
    const same = mine.find((x) => x.identifier === identifier && (!contextKeys || sameSet(x.contextKeys, contextKeys)));
    if (same) {
      // An existing subscription answers as it is: the request's name and preferences are not applied to it.
      data.push(subscriptionOut(same, t, s, workflows.length ? preferencesOut(c, same, workflows) : undefined));
      continue;
    }
    // The identifier is unique in the environment (the `_environmentId, identifier` index): another
    // subscription's fails the write with a duplicate key; one of this topic is answered beside the error.
    const taken = ofTenant(c.store.data.subscriptions, c.tenant).find((x) => x.identifier === identifier);
    if (taken) {
      if (taken._topicId === t._id) data.push(subscriptionOut(taken, t, undefined));
      errors.push({
        subscriberId, code: "SUBSCRIPTION_CREATE_FAILED",
        message: `E11000 duplicate key error collection: topicsubscribers index: _environmentId_1_identifier_1 dup key: { identifier: ${JSON.stringify(identifier)} }`,
      });
      continue;
    }
    if (mine.length >= SUBSCRIPTIONS_PER_SUBSCRIBER) {
      errors.push({ subscriberId, code: "SUBSCRIPTION_LIMIT_EXCEEDED", message: `Subscriber ${subscriberId} already has ${SUBSCRIPTIONS_PER_SUBSCRIBER} subscriptions to topic ${t.key}` });
      continue;
    }
    const sub: SubscriptionRecord = {
      _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, _topicId: t._id, topicKey: t.key,
      _subscriberId: s._id, subscriberId, identifier, ...(typeof item === "object" && item.name ? { name: item.name } : {}),
      contextKeys: contextKeys ?? [], createdAt: now, updatedAt: now,
    };
    c.store.data.subscriptions.push(sub);
    if (filters && workflows.length) storePreferences(c, sub, filters, workflows);
    data.push(subscriptionOut(sub, t, s, workflows.length ? preferencesOut(c, sub, workflows) : undefined));
  }
  c.store.touch();
  return bulkReply(c, 201, c.behaviour.bareSubscribeAnswers ? data.map(bareSubscribeAnswer) : data, errors);
}

/** `DELETE /v2/topics/{topicKey}/subscriptions` (delete-topic-subscriptions.usecase.ts). */
function unsubscribe(c: RequestContext): Reply {
  const t = findTopic(c, c.params.topicKey!);
  const items = itemsOf(bodyOf(c, "TopicsController_deleteTopicSubscriptions") ?? {}) ?? [];
  const data: JsonObject[] = [];
  const errors: ItemError[] = [];
  for (const item of items) {
    const subscriberId = typeof item === "string" ? item : item.subscriberId;
    const identifier = typeof item === "object" ? item.identifier : undefined;
    let s: SubscriberRecord | undefined;
    if (subscriberId !== undefined) {
      s = liveSubscriber(c.store, c.tenant, subscriberId);
      if (!s) {
        errors.push({ subscriberId, code: "SUBSCRIBER_NOT_FOUND", message: `Subscriber with id ${subscriberId} not found` });
        continue;
      }
    }
    const gone = subscriptionsOf(c, t).filter((x) => (identifier === undefined || x.identifier === identifier) && (!s || x._subscriberId === s._id));
    if (!gone.length) {
      errors.push({ ...(subscriberId !== undefined ? { subscriberId } : {}), ...(identifier !== undefined ? { identifier } : {}), code: "SUBSCRIPTION_NOT_FOUND", message: "Subscription not found" });
      continue;
    }
    c.store.data.subscriptions = c.store.data.subscriptions.filter((x) => !gone.includes(x));
    dropPreferences(c.store, new Set(gone.map((g) => g._id)));
    for (const g of gone) {
      const owner = s ?? c.store.data.subscribers.find((x) => x._id === g._subscriberId);
      if (owner) data.push(subscriptionOut(g, t, owner));
    }
  }
  c.store.touch();
  return bulkReply(c, 200, data, errors);
}

/**
 * A subscription as the real 3.15.0 server's subscribe answered it (production-notes.md, seventh
 * pass): empty `createdAt` and `updatedAt`, no `contextKeys`, no subscriber `avatar`; its reads
 * answer them.
 */
function bareSubscribeAnswer(item: JsonObject): JsonObject {
  const { contextKeys: _k, ...rest } = item;
  const subscriber = rest.subscriber && typeof rest.subscriber === "object" ? (({ avatar: _a, ...x }) => x)(rest.subscriber as JsonObject) : rest.subscriber;
  return { ...rest, subscriber, createdAt: "", updatedAt: "" };
}

/** `GET /v2/topics/{topicKey}/subscriptions`: subscriptions of subscribers that still exist. */
function listSubscriptions(c: RequestContext): Reply {
  const t = findTopic(c, c.params.topicKey!);
  const p = new ParamReader(c.query);
  const contextKeys = p.contextKeys();
  p.done();
  const subscriberId = c.query.get("subscriberId");
  const owners = new Map<string, SubscriberRecord>();
  for (const s of ofTenant(c.store.data.subscribers, c.tenant)) if (!s.deleted) owners.set(s._id, s);
  const list = subscriptionsOf(c, t).filter((x) => owners.has(x._subscriberId) && (!subscriberId || x.subscriberId === subscriberId) &&
    (!contextKeys || (x.contextKeys.length === contextKeys.length && contextKeys.every((k) => x.contextKeys.includes(k)))));
  return cursorPage(c, list, (x) => {
    const s = owners.get(x._subscriberId)!;
    return {
      _id: x._id, identifier: x.identifier, topic: topicOut(t),
      subscriber: { _id: s._id, subscriberId: s.subscriberId, firstName: s.firstName, lastName: s.lastName, email: s.email, avatar: s.avatar },
      contextKeys: x.contextKeys, createdAt: x.createdAt,
    };
  });
}

const topicRoutes: Route[] = [
  { method: "POST", path: "/v2/topics", handler: upsertTopic },
  { method: "GET", path: "/v2/topics", handler: listTopics },
  { method: "GET", path: "/v2/topics/{topicKey}", handler: (c) => ({ status: 200, body: topicOut(findTopic(c, c.params.topicKey!)) }) },
  {
    method: "PATCH", path: "/v2/topics/{topicKey}",
    handler: (c) => {
      const t = findTopic(c, c.params.topicKey!);
      const name = bodyOf(c, "TopicsController_updateTopic").name;
      if (!name) throw validationFailed(["name: should not be empty"]);
      Object.assign(t, { name, updatedAt: new Date().toISOString() });
      c.store.touch();
      return { status: 200, body: topicOut(t) };
    },
  },
  {
    method: "DELETE", path: "/v2/topics/{topicKey}",
    handler: (c) => {
      const t = findTopic(c, c.params.topicKey!);
      // The v2 route always forces: subscriptions first, then the topic (delete-topic.usecase.ts).
      dropPreferences(c.store, new Set(c.store.data.subscriptions.filter((x) => x._topicId === t._id).map((x) => x._id)));
      c.store.data.subscriptions = c.store.data.subscriptions.filter((x) => x._topicId !== t._id);
      c.store.data.topics = c.store.data.topics.filter((x) => x !== t);
      c.store.touch();
      return { status: 200, body: { acknowledged: true } };
    },
  },
  { method: "POST", path: "/v2/topics/{topicKey}/subscriptions", handler: subscribe },
  { method: "GET", path: "/v2/topics/{topicKey}/subscriptions", handler: listSubscriptions },
  { method: "DELETE", path: "/v2/topics/{topicKey}/subscriptions", handler: unsubscribe },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ topics: list<TopicRecord>(), subscriptions: list<SubscriptionRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Topics and their subscriptions: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: topicRoutes });
