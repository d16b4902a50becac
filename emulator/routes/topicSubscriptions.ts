/**
 * One topic subscription: `GET` and `PATCH /v2/topics/{topicKey}/subscriptions/{identifier}`, and
 * what the topic's bulk subscribe (routes/topics.ts) shares with them: the subscription's answer,
 * its preferences and its context. As the service's apps/api/src/app/subscriptions/ and
 * topics-v2/ do it (production-notes.md, fifth pass §7), in both modes:
 *
 * - a GET of an unknown topic or subscription answers 204 with no body, not 404
 *   (topics.controller.ts `getTopicSubscription`); a found one carries `id`, `identifier`, `name`,
 *   `preferences` (only when some are stored) and `contextKeys` (get-subscription.usecase.ts,
 *   utils/subscriptions.ts `mapTopicSubscriptionToDto`);
 * - a PATCH takes `name` and `preferences`; unknown topic or subscription → 404; `preferences`
 *   replace every stored one (`[]` clears them); `{workflowId, enabled}` loses `enabled` on this
 *   route, the filter form keeps it (topics.controller.ts `convertPreferencesToGroupFilters`); a
 *   workflow id or tag that matches nothing is skipped without an error; an absent `enabled` takes
 *   the subscriber's current preference (update-subscription.usecase.ts,
 *   create-subscription-preferences.usecase.ts);
 * - while the organisation's context preferences are off, a trailing `:ctx_…` is cut off the
 *   identifier a GET or PATCH looks up, and a subscribe's `context` is ignored
 *   (utils/subscriptions.ts `stripContextFromIdentifier`, create-subscriptions.usecase.ts).
 */
import { notFound } from "../errors";
import { emulatorKind, list } from "../kind";
import type { ContextRecord, JsonObject, Scoped, SubscriberRecord, SubscriptionRecord, TopicRecord, WorkflowRecord } from "../records";
import { ofTenant, type Store } from "../store";
import type { Reply, RequestContext, Route } from "../types";
import type { RequestBody } from "../../spec/operations";
import { bodyOf, objectId } from "../util";

/**
 * One workflow's preference of a topic subscription (a preferences entity of type
 * `SUBSCRIPTION_SUBSCRIBER_WORKFLOW` in the service): `all.enabled` and the JSON Logic `all.condition`.
 */
export interface SubscriptionPreferenceRecord extends Scoped {
  /** The subscription's `_id`. */
  _topicSubscriptionId: string;
  _subscriberId: string;
  /** The workflow's `_id`. */
  _templateId: string;
  enabled: boolean;
  condition?: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** A preference as the service's use cases hold one: which workflows it is for, and its values. */
export interface GroupFilter {
  filter: { workflowIds?: string[]; tags?: string[] };
  enabled?: boolean;
  condition?: JsonObject;
}

type PreferenceItem = NonNullable<RequestBody<"TopicsController_updateTopicSubscription">["preferences"]>[number];

/** The preferences of a request in the filter form (topics.controller.ts `convertPreferencesToGroupFilters`). */
export function groupFilters(items: readonly PreferenceItem[]): GroupFilter[] {
  return items.map((p) => {
    if (typeof p === "string") return { filter: { workflowIds: [p] } };
    if ("filter" in p) return p as GroupFilter;
    // `{workflowId, enabled, condition}`: the admin route keeps the condition and drops `enabled`.
    return { filter: { workflowIds: [p.workflowId] }, ...(p.condition !== undefined ? { condition: p.condition as JsonObject } : {}) };
  });
}

/** A 24-hex database id (`BaseRepository.isInternalId`). */
const INTERNAL_ID = /^[0-9a-f]{24}$/i;

/**
 * The workflows the filters name, each once: ids by database id or trigger identifier, tags over
 * active workflows (`filterActive`); what matches nothing is skipped (validateAndFetchWorkflows logs it only).
 */
export function resolveWorkflows(c: RequestContext, filters: readonly GroupFilter[]): WorkflowRecord[] {
  const all = ofTenant(c.store.data.workflows, c.tenant);
  const found = new Map<string, WorkflowRecord>();
  for (const f of filters) {
    for (const id of f.filter.workflowIds ?? []) {
      const w = all.find((x) => (INTERNAL_ID.test(id) ? x._id === id : x.workflowId === id));
      if (w) found.set(w._id, w);
    }
    if (f.filter.tags?.length) for (const w of all.filter((x) => x.active && f.filter.tags!.some((t) => x.tags.includes(t)))) found.set(w._id, w);
  }
  return [...found.values()];
}

/** The filter a workflow takes its preference from: the first that names it (`findPreferenceFilterDefinition`). */
function filterFor(filters: readonly GroupFilter[], w: WorkflowRecord): GroupFilter | undefined {
  return filters.find((f) => (f.filter.tags?.length ? f.filter.tags.some((t) => w.tags.includes(t))
    : (f.filter.workflowIds ?? []).some((id) => id === w._id || id === w.workflowId)));
}

/**
 * What an absent `enabled` becomes. The service asks the subscriber's merged preferences for the
 * workflow (GetPreferences); the emulator merges the workflow's own (user over workflow defaults).
 */
function defaultEnabled(w: WorkflowRecord): boolean {
  const all = (p: JsonObject | null | undefined) => (p?.all as JsonObject | undefined)?.enabled;
  const v = all(w.preferences.user) ?? all(w.preferences.workflow);
  return typeof v === "boolean" ? v : true;
}

/** Stores one preference per workflow of `workflows` for the subscription. */
export function storePreferences(c: RequestContext, sub: SubscriptionRecord, filters: readonly GroupFilter[], workflows: readonly WorkflowRecord[]): void {
  const now = new Date().toISOString();
  for (const w of workflows) {
    const f = filterFor(filters, w);
    c.store.data.subscriptionPreferences.push({
      _id: objectId(), _environmentId: sub._environmentId, _organizationId: sub._organizationId, _topicSubscriptionId: sub._id,
      _subscriberId: sub._subscriberId, _templateId: w._id, enabled: f?.enabled ?? defaultEnabled(w),
      ...(f?.condition !== undefined ? { condition: f.condition } : {}), createdAt: now, updatedAt: now,
    });
  }
}

/** Removes the preferences of the subscriptions `ids` (deleted with them: delete-topic-subscriptions.usecase.ts). */
export function dropPreferences(store: Store, ids: ReadonlySet<string>): void {
  store.data.subscriptionPreferences = store.data.subscriptionPreferences.filter((p) => !ids.has(p._topicSubscriptionId));
}

/**
 * The stored preferences of a subscription (only those of `workflows` when given) as the service
 * answers them: the workflow absent when it no longer exists.
 */
export function preferencesOut(c: RequestContext, sub: SubscriptionRecord, workflows?: readonly WorkflowRecord[]): JsonObject[] {
  const all = ofTenant(c.store.data.workflows, c.tenant);
  return c.store.data.subscriptionPreferences
    .filter((p) => p._topicSubscriptionId === sub._id && (!workflows || workflows.some((w) => w._id === p._templateId)))
    .map((p: SubscriptionPreferenceRecord) => {
      const w = all.find((x) => x._id === p._templateId);
      return {
        subscriptionId: sub.identifier,
        ...(w ? { workflow: { id: w._id, identifier: w.workflowId, name: w.name, critical: false, tags: w.tags, severity: w.severity ?? "none" } } : {}),
        enabled: p.enabled, ...(p.condition !== undefined ? { condition: p.condition } : {}),
      };
    });
}

/** A subscriber as a subscription's answer shows it (`SubscriberDto`). */
export const subscriberOut = (s: SubscriberRecord): JsonObject => ({
  _id: s._id, subscriberId: s.subscriberId, avatar: s.avatar, firstName: s.firstName, lastName: s.lastName, email: s.email,
  createdAt: s.createdAt, updatedAt: s.updatedAt,
});

/** A subscription as a subscribe (each item) or an update answers it (`SubscriptionResponseDto`). */
export function subscriptionOut(sub: SubscriptionRecord, t: TopicRecord, s: SubscriberRecord | undefined, preferences?: JsonObject[]): JsonObject {
  return {
    _id: sub._id, identifier: sub.identifier, name: sub.name, topic: { _id: t._id, key: t.key, name: t.name },
    subscriber: s ? subscriberOut(s) : null, ...(preferences?.length ? { preferences } : {}), contextKeys: sub.contextKeys,
    createdAt: sub.createdAt, updatedAt: sub.updatedAt,
  };
}

/** The identifier a subscription gets without one (libs/application-generic/src/utils/subscription.ts). */
export function defaultIdentifier(topicKey: string, subscriberId: string, contextKeys?: readonly string[]): string {
  const base = `tk_${topicKey}:si_${subscriberId}`;
  return contextKeys?.length ? `${base}:ctx_${[...contextKeys].sort().join(",")}` : base;
}

/**
 * The context keys of a subscribe's `context`: undefined while the organisation's context
 * preferences are off (ignored); else each entry's context, made when the environment lacks it
 * (`findOrCreateContextsFromPayload`), by key `type:id`.
 */
export function subscriptionContext(c: RequestContext, context: RequestBody<"TopicsController_createTopicSubscriptions">["context"]): string[] | undefined {
  if (!c.behaviour.contextPreferences) return undefined;
  const keys: string[] = [];
  const now = new Date().toISOString();
  for (const [type, v] of Object.entries(context ?? {})) {
    const id = typeof v === "string" ? v : v.id;
    const key = `${type}:${id}`;
    if (!ofTenant(c.store.data.contexts, c.tenant).some((x) => x.key === key)) {
      const made: ContextRecord = {
        _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, type, id, key,
        data: typeof v === "string" ? {} : ((v.data as JsonObject | undefined) ?? {}), createdAt: now, updatedAt: now,
      };
      c.store.data.contexts.push(made);
    }
    keys.push(key);
  }
  return keys;
}

/** The identifier a GET or PATCH looks up: without a trailing `:ctx_…` while context preferences are off. */
function lookedUp(c: RequestContext, identifier: string): string {
  const at = identifier.lastIndexOf(":ctx_");
  return c.behaviour.contextPreferences || at === -1 ? identifier : identifier.slice(0, at);
}

/** `GET /v2/topics/{topicKey}/subscriptions/{identifier}` (get-subscription.usecase.ts): 204 when there is none. */
function getSubscription(c: RequestContext): Reply {
  const identifier = lookedUp(c, c.params.identifier!);
  const sub = ofTenant(c.store.data.subscriptions, c.tenant).find((x) => x.topicKey === c.params.topicKey && x.identifier === identifier);
  if (!sub) return { status: 204 };
  const preferences = preferencesOut(c, sub);
  return {
    status: 200,
    body: {
      id: sub._id, identifier: sub.identifier, ...(sub.name !== undefined ? { name: sub.name } : {}), ...(preferences.length ? { preferences } : {}),
      // Stored only while context preferences are on (the service leaves the field out otherwise).
      ...(c.behaviour.contextPreferences || sub.contextKeys.length ? { contextKeys: sub.contextKeys } : {}),
    },
  };
}

/** `PATCH /v2/topics/{topicKey}/subscriptions/{identifier}` (update-subscription.usecase.ts). */
function updateSubscription(c: RequestContext): Reply {
  const b = bodyOf(c, "TopicsController_updateTopicSubscription");
  const key = c.params.topicKey!;
  const identifier = lookedUp(c, c.params.identifier!);
  const filters = b.preferences ? groupFilters(b.preferences) : undefined;
  const workflows = filters ? resolveWorkflows(c, filters) : [];
  const t = ofTenant(c.store.data.topics, c.tenant).find((x) => x.key === key);
  if (!t) throw notFound(`Topic with key ${key} not found`);
  const sub = ofTenant(c.store.data.subscriptions, c.tenant).find((x) => x._topicId === t._id && x.identifier === identifier);
  if (!sub) throw notFound(`Subscription with identifier ${identifier} not found for topic ${key}`);
  if (filters) {
    dropPreferences(c.store, new Set([sub._id]));
    storePreferences(c, sub, filters, workflows);
  }
  if (b.name !== undefined) sub.name = b.name;
  sub.updatedAt = new Date().toISOString();
  c.store.touch();
  const s = c.store.data.subscribers.find((x) => x._id === sub._subscriberId && !x.deleted);
  // The answer's preferences: the stored ones of the workflows this request named.
  return { status: 200, body: subscriptionOut(sub, t, s, workflows.length ? preferencesOut(c, sub, workflows) : undefined) };
}

const topicSubscriptionRoutes: Route[] = [
  { method: "GET", path: "/v2/topics/{topicKey}/subscriptions/{identifier}", handler: getSubscription },
  { method: "PATCH", path: "/v2/topics/{topicKey}/subscriptions/{identifier}", handler: updateSubscription },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ subscriptionPreferences: list<SubscriptionPreferenceRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Single topic subscriptions and their preferences: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: topicSubscriptionRoutes });
