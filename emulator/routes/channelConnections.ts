/**
 * Channel connections: `/v1/channel-connections` (create, list) and
 * `/v1/channel-connections/{identifier}` (get, patch, delete), as the service's
 * apps/api/src/app/channel-connections/ does it (production-notes.md, fifth pass §5), in both modes:
 *
 * - create (create-channel-connection.usecase.ts, channel-connection.utils.ts): the mode's rules
 *   first (400); the integration by identifier (404 "Integration not found: <id>"); the contexts,
 *   created when the environment does not hold them; the subscriber (404 "Subscriber not found:
 *   <id>"); one connection per integration, subscriber (or none) and exact set of contexts (409
 *   naming the holder); the identifier, generated `chconn_` + 12 characters when left out, unique
 *   in the environment (409); a shared connection stores no subscriber;
 * - the answer (dtos/dto.mapper.ts, GetChannelConnectionResponseDto): no database ids, the
 *   subscriber null when shared, the access token in clear;
 * - PATCH replaces workspace and auth, both required (update-channel-connection.usecase.ts);
 * - DELETE leaves the endpoints that name the connection (delete-channel-connection.usecase.ts).
 */
import { randomBytes } from "node:crypto";
import { defineCollection } from "../collection";
import { badRequest, conflict, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader, sameSet } from "../params";
import type { ContextRecord, IntegrationRecord, JsonObject, Scoped } from "../records";
import { ofTenant } from "../store";
import type { RequestContext } from "../types";
import { objectId } from "../util";
import { liveSubscriber } from "./subscribers";

/**
 * A channel connection (`/v1/channel-connections`): a workspace's authorisation for one
 * integration, per environment, addressed by its identifier. The token is kept as given (the
 * service encrypts it at rest and answers it in clear).
 */
export interface ChannelConnectionRecord extends Scoped {
  identifier: string;
  integrationIdentifier: string;
  providerId: string;
  channel: string | null;
  /** Absent on a shared connection. */
  subscriberId?: string;
  contextKeys: string[];
  workspace: JsonObject;
  auth: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** The service's `IsValidContextPayload({ maxCount: 5 })` on connections and endpoints. */
const MAX_CONTEXTS = 5;
/** A context type or id (packages/shared's context types: `CONTEXT_IDENTIFIER_REGEX`, 1 to 100 characters). */
const CONTEXT_PART = /^[a-zA-Z0-9_-]{1,100}$/;

/** What the service generates for an identifier left out: a prefix and 12 characters (`shortId(12)`). */
export function generatedIdentifier(prefix: "chconn_" | "chendp_"): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return prefix + [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join("");
}

/**
 * The checks of the service's context-payload validator (libs/application-generic's
 * is-valid-context-payload.validator.ts, `maxCount: 5`), a 422 as the validation pipe answers it:
 * an object of at least one context, each an id or `{id, data?}` with a valid id, at most five.
 */
export function checkContextPayload(context: unknown): void {
  if (context === undefined || context === null) return;
  const valid = typeof context === "object" && !Array.isArray(context) && Object.keys(context).length > 0 &&
    Object.values(context as JsonObject).every((v) => typeof v === "string" ? CONTEXT_PART.test(v)
      : typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as JsonObject).id === "string" && CONTEXT_PART.test((v as JsonObject).id as string) &&
        ((v as JsonObject).data === undefined || (typeof (v as JsonObject).data === "object" && (v as JsonObject).data !== null)));
  if (!valid) {
    throw validationFailed(["Invalid context payload structure. Expected object with context types as keys and string IDs or {id, data} objects as values"]);
  }
  const n = Object.keys(context).length;
  if (n > MAX_CONTEXTS) throw validationFailed([`Too many contexts: ${n} provided, maximum allowed is ${MAX_CONTEXTS}`]);
}

/**
 * The keys (`type:id`) of a context payload, each context created when the environment does not
 * hold it (the context repository's `findOrCreateContextsFromPayload`: with the payload's data, if
 * any; an existing context is left as it is).
 */
export function resolveContexts(c: RequestContext, context: JsonObject | undefined): string[] {
  if (!context) return [];
  const held = ofTenant(c.store.data.contexts, c.tenant);
  return Object.entries(context).map(([type, v]) => {
    const id = typeof v === "string" ? v : String((v as JsonObject).id);
    const key = `${type}:${id}`;
    if (!held.some((x) => x.key === key)) {
      const now = new Date().toISOString();
      const made: ContextRecord = {
        _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, type, id, key,
        data: typeof v === "object" && (v as JsonObject).data ? { ...((v as JsonObject).data as JsonObject) } : {}, createdAt: now, updatedAt: now,
      };
      c.store.data.contexts.push(made);
    }
    return key;
  });
}

/** The integration of the caller's environment with this identifier, or the service's 404. */
export function integrationNamed(c: RequestContext, identifier: string): IntegrationRecord {
  const i = ofTenant(c.store.data.integrations, c.tenant).find((x) => x.identifier === identifier && !x.deleted);
  if (!i) throw notFound(`Integration not found: ${identifier}`);
  return i;
}

/** The subscriber must exist in the caller's environment (404 "Subscriber not found: <id>"). */
export function requireSubscriber(c: RequestContext, subscriberId: string | undefined): void {
  if (subscriberId && !liveSubscriber(c.store, c.tenant, subscriberId)) throw notFound(`Subscriber not found: ${subscriberId}`);
}

/** `validateConnectionMode` of channel-connection.utils.ts: 400s, before anything is looked up. */
function checkMode(b: { connectionMode?: string; subscriberId?: string; context?: unknown }): void {
  if (b.connectionMode === "shared") {
    if (!b.context) throw badRequest('context is required when connectionMode is "shared"');
    return;
  }
  if (b.connectionMode === "subscriber") {
    if (!b.subscriberId) throw badRequest('subscriberId is required when connectionMode is "subscriber"');
    return;
  }
  if (!b.subscriberId && !b.context) throw badRequest("Either subscriberId or context must be provided");
}

/** The connection's answer (GetChannelConnectionResponseDto). */
function connectionOut(x: ChannelConnectionRecord): JsonObject {
  return {
    identifier: x.identifier, channel: x.channel, providerId: x.providerId, integrationIdentifier: x.integrationIdentifier,
    subscriberId: x.subscriberId ?? null, contextKeys: x.contextKeys, workspace: x.workspace, auth: x.auth, createdAt: x.createdAt, updatedAt: x.updatedAt,
  };
}

/** The exact filters the channel connection and endpoint listings share (list-channel-connections.usecase.ts, list-channel-endpoints.usecase.ts). */
export const CHANNEL_FILTERS = ["subscriberId", "channel", "providerId", "integrationIdentifier"] as const;

/** A listing's filter: each of `fields` given in the query matched exactly, the contexts (`contextKeys`) as an exact set. */
export function channelListFilter(query: URLSearchParams, fields: readonly string[]): (x: { contextKeys: string[] }) => boolean {
  const p = new ParamReader(query);
  const contextKeys = p.contextKeys();
  p.done();
  return (x) => fields.every((f) => !query.get(f) || (x as unknown as Record<string, unknown>)[f] === query.get(f)) && (!contextKeys || sameSet(contextKeys, x.contextKeys));
}

/** Channel connections, declared (see ../collection.ts); the create's rules run in `build`, in the use case's order. */
const connections = defineCollection({
  store: "channelConnections",
  path: "/v1/channel-connections",
  item: "/v1/channel-connections/{identifier}",
  key: { identifier: "identifier" },
  // get-channel-connection.usecase.ts and delete-channel-connection.usecase.ts quote the identifier in single quotes.
  notFound: (k) => `Channel connection with identifier '${k.identifier}' not found`,
  conflict: (k, c) => `Channel connection with identifier "${k.identifier}" already exists in environment "${c.tenant.environmentId}"`,
  out: connectionOut,
  list: {
    style: "cursor",
    // list-channel-connections.usecase.ts: each filter exact, the contexts an exact set.
    filter: (c) => channelListFilter(c.query, CHANNEL_FILTERS),
  },
  create: {
    check: (c, b) => {
      checkContextPayload(b.context);
      checkMode(b);
      const integration = integrationNamed(c, b.integrationIdentifier);
      const contextKeys = resolveContexts(c, b.context as JsonObject | undefined);
      requireSubscriber(c, b.subscriberId);
      // One per integration, subscriber and exact set of contexts. The query names the request's
      // subscriberId, which Mongoose reads as null when absent: it then meets the connections without one.
      const holder = ofTenant(c.store.data.channelConnections, c.tenant).find((x) => x.integrationIdentifier === integration.identifier &&
        (x.subscriberId ?? null) === (b.subscriberId ?? null) && sameSet(x.contextKeys, contextKeys));
      if (holder) {
        throw conflict(`A channel connection already exists for integration "${integration.identifier}" with ${b.subscriberId ? `subscriberId "${b.subscriberId}"` : "no subscriberId"} ` +
          `and ${contextKeys.length ? `context [${contextKeys.join(", ")}]` : "no context"}. Connection ID: ${holder.identifier}`);
      }
    },
    build: (c, b) => {
      const integration = integrationNamed(c, b.integrationIdentifier);
      return {
        identifier: b.identifier ?? generatedIdentifier("chconn_"), integrationIdentifier: integration.identifier, providerId: integration.providerId,
        channel: integration.channel ?? null,
        // A shared connection keeps no subscriber, even one given.
        ...(b.connectionMode !== "shared" && b.subscriberId ? { subscriberId: b.subscriberId } : {}),
        contextKeys: resolveContexts(c, b.context as JsonObject | undefined),
        workspace: { ...b.workspace }, auth: { ...b.auth },
      };
    },
  },
  update: {
    // update-channel-connection.usecase.ts: its own 404, in double quotes.
    check: (c) => {
      if (!ofTenant(c.store.data.channelConnections, c.tenant).some((x) => x.identifier === c.params.identifier)) {
        throw notFound(`Channel connection with identifier "${c.params.identifier}" not found`);
      }
    },
    apply: (_c, _x, b) => ({ workspace: { ...b.workspace }, auth: { ...b.auth } }),
  },
  remove: true,
});

const channelConnectionRoutes = connections.routes;

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ channelConnections: list<ChannelConnectionRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Channel connections: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: channelConnectionRoutes });
