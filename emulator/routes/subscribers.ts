/**
 * Subscribers: `/v2/subscribers` (upsert, search), `/v2/subscribers/{subscriberId}` (get, patch,
 * delete) and their channel credentials under `/v1/subscribers/{subscriberId}/credentials`.
 */
import { HttpError, badRequest, conflict, notFound } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader } from "../params";
import type { ChannelEntry, IntegrationRecord, JsonObject, StoredCredentials, SubscriberRecord } from "../records";
import { ofTenant, type Store, type Tenant } from "../store";
import type { RequestContext, Route } from "../types";
import { newSubscriber } from "../shared";
import { bodyOf, objectId, stableHash } from "../util";

const SEARCH_CAP = 50_000;
const PROFILE_FIELDS = ["firstName", "lastName", "email", "phone", "avatar", "locale", "timezone", "data"] as const;

/** The live subscriber with this `subscriberId` in the tenant's environment, if any. */
export function liveSubscriber(store: Store, t: Tenant, subscriberId: string): SubscriberRecord | undefined {
  return ofTenant(store.data.subscribers, t).find((s) => s.subscriberId === subscriberId && !s.deleted);
}

/**
 * The subscriber of the path, or the use case's 404: each v2 use case words it its own way
 * (get-subscriber.usecase.ts "Subscriber: <id> was not found"; patch-subscriber.usecase.ts
 * "Subscriber <id> was not found").
 */
function findSubscriber(c: RequestContext, message = (id: string) => `Subscriber: ${id} was not found`): SubscriberRecord {
  const s = liveSubscriber(c.store, c.tenant, c.params.subscriberId!);
  if (!s) throw notFound(message(c.params.subscriberId!));
  return s;
}

/**
 * The profile fields a write sets, as production's UpdateSubscriber use case takes them
 * (libs/application-generic/src/usecases/update-subscriber/update-subscriber.usecase.ts): `email`
 * whenever given (null clears it), every other field only when neither null nor absent (null
 * leaves it as it is), `data` replaced whole. Answers whether anything changed: an update that
 * changes nothing is not written (`subscriberNeedUpdate`), so `updatedAt` stays.
 */
function applyProfile(s: SubscriberRecord, b: Partial<Record<(typeof PROFILE_FIELDS)[number], unknown>>): boolean {
  let changed = false;
  for (const f of PROFILE_FIELDS) {
    const v = b[f];
    if (v === undefined || (v === null && f !== "email")) continue;
    if (stableHash(s[f]) === stableHash(v)) continue;
    Object.assign(s, { [f]: v });
    changed = true;
  }
  return changed;
}

/**
 * `POST /v2/subscribers` creates or updates (production's CreateOrUpdateSubscriber); with
 * `failIfExists=true` an existing one is a 409 whose body is that subscriber (the operation
 * documents its 409 response as `SubscriberResponseDto`), flattened into the error body.
 * Both paths answer 201: the controller does not override the framework's POST default.
 *
 * The controller (apps/api/src/app/subscribers-v2/subscribers.controller.ts) passes each profile
 * field as `body.<field> || undefined`, so an empty or null one is not written, and `data` as
 * `body.data || {}`: a create without data stores `{}`, and an upsert without data replaces the
 * existing subscriber's data with `{}`.
 */
function upsertSubscriber(c: RequestContext): { status: number; body: JsonObject } {
  const b = bodyOf(c, "SubscribersController_createSubscriber");
  const existing = liveSubscriber(c.store, c.tenant, b.subscriberId);
  const now = new Date().toISOString();
  const given = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, f === "data" ? b.data || {} : b[f] || undefined]));
  if (existing) {
    if (c.query.get("failIfExists") === "true") throw conflict(`Subscriber with id "${b.subscriberId}" already exists`, { ...existing });
    if (applyProfile(existing, given)) Object.assign(existing, { updatedAt: now, __v: existing.__v + 1 });
    c.store.touch();
    return { status: 201, body: subscriberOut(existing) };
  }
  const rec = newSubscriber({ subscriberId: b.subscriberId, ...stripAbsent(given) }, c.tenant, now);
  c.store.data.subscribers.push(rec);
  c.store.touch();
  return { status: 201, body: subscriberOut(rec) };
}

/**
 * A subscriber as the v2 routes answer it: the real 3.15.0 server leaves unset fields out, where
 * the stored record has them null, and answers no `topics` or `__v` (production-notes.md, seventh
 * pass; the v2 subscriber DTO's mapper copies only what the entity holds).
 */
export function subscriberOut(s: SubscriberRecord): JsonObject {
  const { topics: _t, __v: _v, ...rest } = s;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null && v !== undefined)) as JsonObject;
}

/** An object without its undefined values. */
const stripAbsent = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const sortCache = new WeakMap<Store, Map<string, { version: number; list: SubscriberRecord[] }>>();

function sortedSubscribers(store: Store, t: Tenant, orderBy: string, dir: string): SubscriberRecord[] {
  const cache = sortCache.get(store) ?? new Map<string, { version: number; list: SubscriberRecord[] }>();
  sortCache.set(store, cache);
  const key = `${t.environmentId}|${orderBy}|${dir}`;
  const hit = cache.get(key);
  if (hit && hit.version === store.version) return hit.list;
  const list = ofTenant(store.data.subscribers, t).filter((s) => !s.deleted);
  const sign = dir === "ASC" ? 1 : -1;
  list.sort((a, b) => {
    const av = String(a[orderBy] ?? ""), bv = String(b[orderBy] ?? "");
    if (av !== bv) return av < bv ? -sign : sign;
    return a._id < b._id ? -sign : a._id > b._id ? sign : 0;
  });
  cache.set(key, { version: store.version, list });
  return list;
}

function searchSubscribers(c: RequestContext) {
  const q = c.query;
  const p = new ParamReader(q);
  const limit = p.int("limit", 10, 1, 100);
  const dir = p.oneOf("orderDirection", ["ASC", "DESC"], "DESC");
  const orderBy = p.oneOf("orderBy", ["_id", "createdAt", "updatedAt", "subscriberId", "email", "firstName", "lastName"], "_id");
  const includeCursor = p.bool("includeCursor", false);
  p.done();
  const filters = { email: q.get("email"), phone: q.get("phone"), subscriberId: q.get("subscriberId"), name: q.get("name") };
  let list = sortedSubscribers(c.store, c.tenant, orderBy, dir);
  if (filters.email || filters.phone || filters.subscriberId || filters.name) {
    list = list.filter((s) =>
      (!filters.email || String(s.email ?? "").includes(filters.email)) &&
      (!filters.phone || String(s.phone ?? "").includes(filters.phone)) &&
      (!filters.subscriberId || s.subscriberId.includes(filters.subscriberId)) &&
      (!filters.name || `${s.firstName ?? ""} ${s.lastName ?? ""}`.includes(filters.name)));
  }
  const after = q.get("after"), before = q.get("before");
  let start = 0, end = list.length;
  if (after) {
    const i = list.findIndex((s) => s._id === after);
    if (i < 0) throw badRequest(["after: cursor does not match a subscriber"]);
    start = includeCursor ? i : i + 1;
    end = Math.min(list.length, start + limit);
  } else if (before) {
    const i = list.findIndex((s) => s._id === before);
    if (i < 0) throw badRequest(["before: cursor does not match a subscriber"]);
    end = includeCursor ? i + 1 : i;
    start = Math.max(0, end - limit);
  } else {
    end = Math.min(list.length, limit);
  }
  const page = list.slice(start, end);
  return {
    status: 200,
    bare: true,
    body: {
      data: page.map(subscriberOut),
      next: end < list.length && page.length ? page[page.length - 1]!._id : null,
      previous: start > 0 && page.length ? page[0]!._id : null,
      totalCount: Math.min(list.length, SEARCH_CAP),
      totalCountCapped: list.length > SEARCH_CAP,
    },
  };
}


/** What production keeps of sent credentials: `webhookUrl`, `deviceTokens` (de-duplicated), `channel`. */
function storedPart(sent: JsonObject): StoredCredentials {
  return {
    ...(typeof sent.webhookUrl === "string" ? { webhookUrl: sent.webhookUrl } : {}),
    ...(Array.isArray(sent.deviceTokens) ? { deviceTokens: [...new Set(sent.deviceTokens.map(String))] } : {}),
    ...(typeof sent.channel === "string" ? { channel: sent.channel } : {}),
  };
}

/**
 * PUT (`replace`) and PATCH (`append`) of one provider's credentials, as production's
 * UpdateSubscriberChannel does it: an unknown subscriber and an environment without an active
 * integration of the provider are 400s; the newest active integration (or the one named by
 * `integrationIdentifier`) is used; an existing entry of that provider and integration is merged
 * into, its tokens replaced (PUT) or unioned (PATCH), an empty list clearing them, and a body
 * without tokens leaving the entry with none.
 */
function putCredentials(c: RequestContext, tokens: "replace" | "append") {
  const subscriberId = c.params.subscriberId!;
  const s = liveSubscriber(c.store, c.tenant, subscriberId);
  if (!s) throw badRequest(`SubscriberId: ${subscriberId} not found`);
  const b = bodyOf(c, "SubscribersV1Controller_updateSubscriberChannel");
  const integration = ofTenant(c.store.data.integrations, c.tenant)
    .filter((i) => i.providerId === b.providerId && i.active && !i.deleted && (b.integrationIdentifier === undefined || i.identifier === b.integrationIdentifier))
    .reduce<IntegrationRecord | undefined>((newest, i) => (!newest || i.createdAt >= newest.createdAt ? i : newest), undefined);
  if (!integration) {
    throw badRequest(`Subscribers environment (${c.tenant.environmentId}) do not have active ${b.providerId} integration.`);
  }
  const sent = storedPart(b.credentials ?? {});
  const existing = s.channels.find((ch) => ch.providerId === b.providerId && ch._integrationId === integration._id);
  if (existing) {
    if (stableHash(existing.credentials) !== stableHash(sent)) {
      const merged: string[] = !sent.deviceTokens ? []
        : sent.deviceTokens.length === 0 || tokens === "replace" ? sent.deviceTokens
          : [...new Set([...(existing.credentials.deviceTokens ?? []), ...sent.deviceTokens])];
      existing.credentials = { ...existing.credentials, ...sent, deviceTokens: merged };
    }
  } else {
    // Production's entry has no integrationIdentifier (addChannelToSubscriber stores the integration's _id).
    const entry: ChannelEntry = { providerId: b.providerId, _integrationId: integration._id, credentials: sent };
    s.channels.push(entry);
  }
  s.updatedAt = new Date().toISOString();
  c.store.touch();
  return { status: 200, body: s };
}

const subscriberRoutes: Route[] = [
  { method: "POST", path: "/v2/subscribers", handler: upsertSubscriber },
  { method: "GET", path: "/v2/subscribers", handler: searchSubscribers },
  { method: "GET", path: "/v2/subscribers/{subscriberId}", handler: (c) => ({ status: 200, body: subscriberOut(findSubscriber(c)) }) },
  {
    method: "PATCH", path: "/v2/subscribers/{subscriberId}",
    handler: (c) => {
      const s = findSubscriber(c, (id) => `Subscriber ${id} was not found`);
      const b = bodyOf(c, "SubscribersController_patchSubscriber") ?? {};
      if (applyProfile(s, b)) Object.assign(s, { updatedAt: new Date().toISOString(), __v: s.__v + 1 });
      c.store.touch();
      return { status: 200, body: subscriberOut(s) };
    },
  },
  {
    // apps/api/src/app/subscribers-v2/usecases/remove-subscriber/remove-subscriber.usecase.ts: 404
    // "Subscriber was not found" (with the id as `externalSubscriberId`); else the subscriber goes
    // with its topic subscriptions and its preferences, answered `{acknowledged: true, status: "deleted"}`.
    method: "DELETE", path: "/v2/subscribers/{subscriberId}",
    handler: (c) => {
      const s = liveSubscriber(c.store, c.tenant, c.params.subscriberId!);
      if (!s) throw new HttpError(404, "Subscriber was not found", { ctx: { externalSubscriberId: c.params.subscriberId } });
      s.deleted = true;
      c.store.data.subscriptions = c.store.data.subscriptions.filter((x) => x._environmentId !== s._environmentId || x._subscriberId !== s._id);
      c.store.data.subscriberPreferences = c.store.data.subscriberPreferences.filter((x) => x._subscriberId !== s._id);
      c.store.touch();
      return { status: 200, body: { acknowledged: true, status: "deleted" } };
    },
  },
  { method: "PUT", path: "/v1/subscribers/{subscriberId}/credentials", handler: (c) => putCredentials(c, "replace") },
  { method: "PATCH", path: "/v1/subscribers/{subscriberId}/credentials", handler: (c) => putCredentials(c, "append") },
  {
    method: "DELETE", path: "/v1/subscribers/{subscriberId}/credentials/{providerId}",
    handler: (c) => {
      const s = findSubscriber(c);
      s.channels = s.channels.filter((ch) => ch.providerId !== c.params.providerId);
      c.store.touch();
      return { status: 204 };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ subscribers: list<SubscriberRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Subscribers: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: subscriberRoutes });
