/**
 * Channel endpoints: `/v1/channel-endpoints` (create, list) and `/v1/channel-endpoints/{identifier}`
 * (get, patch, delete), as the service's apps/api/src/app/channel-endpoints/ does it
 * (production-notes.md, fifth pass §5), in both modes:
 *
 * - the create body is a TypeScript union the validation pipe cannot check: the command checks it
 *   (create-channel-endpoint.command.ts), so a body of the wrong shape is a 422 whose message is the
 *   endpoint validator's "Endpoint must match the required format for type "<type>"";
 * - each type's exact keys (libs/application-generic/src/schemas/channel-endpoint/channel-endpoint.schema.ts);
 * - create (create-channel-endpoint.usecase.ts): the integration (404), the contexts (created when
 *   missing), the subscriber, required (404), the identifier, generated `chendp_` + 12 characters
 *   when left out and the only thing kept unique (409); then **[newer]** a Webex endpoint needs a
 *   Webex Messaging integration and a connection (400s); the connection, of the same integration
 *   (404 "Channel connection not found: <id>"); **[newer]** a Webex endpoint's contexts those of its connection (400);
 * - PATCH takes `{endpoint}` only, which must fit the stored type, else 400 with the same message
 *   (update-channel-endpoint.usecase.ts); its 404 names the environment;
 * - get and delete answer 404 "Channel endpoint with identifier '<id>' not found" (their use cases).
 */
import { defineCollection } from "../collection";
import { badRequest, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import { sameSet } from "../params";
import type { JsonObject, Scoped } from "../records";
import { ofTenant } from "../store";
import type { RequestContext } from "../types";
import { CHANNEL_FILTERS, channelListFilter, checkContextPayload, generatedIdentifier, integrationNamed, requireSubscriber, resolveContexts } from "./channelConnections";

/** A channel endpoint (`/v1/channel-endpoints`): where a subscriber is reached, per environment, addressed by its identifier. */
export interface ChannelEndpointRecord extends Scoped {
  identifier: string;
  subscriberId: string;
  integrationIdentifier: string;
  providerId: string;
  channel: string | null;
  connectionIdentifier?: string;
  contextKeys: string[];
  type: string;
  endpoint: JsonObject;
  createdAt: string;
  updatedAt: string;
}

const isString = (v: unknown): v is string => typeof v === "string";
const nonEmpty = (v: unknown) => isString(v) && v.length > 0;
const only = (e: JsonObject, keys: string[]) => Object.keys(e).every((k) => keys.includes(k));

/** Each type's rule, as the service's CHANNEL_ENDPOINT_SCHEMAS validates an endpoint (channel-endpoint.schema.ts). */
const ENDPOINT_RULES: Record<string, (e: JsonObject) => boolean> = {
  slack_channel: (e) => isString(e.channelId) && Object.keys(e).length === 1,
  slack_user: (e) => isString(e.userId) && Object.keys(e).length === 1,
  webhook: (e) => isString(e.url) && Object.keys(e).length <= 2 && (e.channel === undefined || isString(e.channel)) && only(e, ["url", "channel"]),
  phone: (e) => isString(e.phoneNumber) && Object.keys(e).length === 1,
  ms_teams_channel: (e) => isString(e.teamId) && isString(e.channelId) && Object.keys(e).length === 2,
  // **[newer]** tenantId, the user's Azure AD tenant, as an optional second key.
  ms_teams_user: (e) => isString(e.userId) && Object.keys(e).length <= 2 && (e.tenantId === undefined || isString(e.tenantId)) && only(e, ["userId", "tenantId"]),
  telegram_chat: (e) => isString(e.chatId) && Object.keys(e).length === 1,
  webex_room: (e) => nonEmpty(e.roomId) && (e.parentId === undefined || nonEmpty(e.parentId)) && only(e, ["roomId", "parentId"]),
  webex_person: (e) => only(e, ["personId", "personEmail"]) && ("personId" in e) !== ("personEmail" in e) &&
    (!("personId" in e) || nonEmpty(e.personId)) && (!("personEmail" in e) || nonEmpty(e.personEmail)),
  line_user: (e) => isString(e.userId) && Object.keys(e).length === 1,
};
const ENDPOINT_TYPES = Object.keys(ENDPOINT_RULES);
const WEBEX_TYPES = ["webex_room", "webex_person"];
/** The Webex Messaging provider (the service's `ChatProviderIdEnum.WebexMessaging`). */
const WEBEX_PROVIDER = "webex-messaging";

/** Whether `endpoint` fits `type` (validateEndpointForTypeFromSchema). */
function fits(type: string, endpoint: unknown): boolean {
  const rule = ENDPOINT_RULES[type];
  return !!rule && typeof endpoint === "object" && endpoint !== null && !Array.isArray(endpoint) && rule(endpoint as JsonObject);
}
const formatMessage = (type: string) => `Endpoint must match the required format for type "${type}"`;

/**
 * The command's checks of a create (class-validator on CreateChannelEndpointCommand), a 422 with
 * every violated constraint: required strings, the type among the known ones, the endpoint for its
 * type, the context payload.
 */
function checkCommand(b: JsonObject): void {
  const messages: string[] = [];
  for (const k of ["integrationIdentifier", "subscriberId"]) {
    if (b[k] === undefined || b[k] === null) messages.push(`${k} should not be null or undefined`);
    else if (!isString(b[k])) messages.push(`${k} must be a string`);
  }
  for (const k of ["identifier", "connectionIdentifier"]) if (b[k] !== undefined && !isString(b[k])) messages.push(`${k} must be a string`);
  if (!ENDPOINT_TYPES.includes(String(b.type))) messages.push(`type must be one of the following values: ${ENDPOINT_TYPES.join(", ")}`);
  if (b.endpoint === undefined || b.endpoint === null) messages.push("endpoint should not be null or undefined");
  else if (b.type !== undefined && !fits(String(b.type), b.endpoint)) messages.push(formatMessage(String(b.type)));
  if (messages.length) throw validationFailed(messages);
  checkContextPayload(b.context);
}

/** The endpoint's answer (GetChannelEndpointResponseDto). */
function endpointOut(x: ChannelEndpointRecord): JsonObject {
  return {
    identifier: x.identifier, channel: x.channel, providerId: x.providerId, integrationIdentifier: x.integrationIdentifier,
    connectionIdentifier: x.connectionIdentifier ?? null, subscriberId: x.subscriberId, contextKeys: x.contextKeys, type: x.type, endpoint: x.endpoint,
    createdAt: x.createdAt, updatedAt: x.updatedAt,
  };
}

/** The Webex rules and the connection, which the use case checks after the identifier's 409. */
function connectionOf(c: RequestContext, b: JsonObject, integration: { identifier: string; providerId: string }, contextKeys: string[]): string | undefined {
  const webex = WEBEX_TYPES.includes(String(b.type));
  if (webex) {
    if (integration.providerId !== WEBEX_PROVIDER) throw badRequest(`Channel endpoint type "${String(b.type)}" requires a Webex Messaging integration`);
    if (!b.connectionIdentifier) throw badRequest(`Channel endpoint type "${String(b.type)}" requires a connectionIdentifier`);
  }
  if (!b.connectionIdentifier) return undefined;
  const connection = ofTenant(c.store.data.channelConnections, c.tenant)
    .find((x) => x.identifier === b.connectionIdentifier && x.integrationIdentifier === integration.identifier);
  if (!connection) throw notFound(`Channel connection not found: ${String(b.connectionIdentifier)}`);
  if (webex && !sameSet(contextKeys, connection.contextKeys)) {
    throw badRequest(`Webex endpoint context must match channel connection "${connection.identifier}" context`);
  }
  return connection.identifier;
}

/** Channel endpoints, declared (see ../collection.ts); the create's rules in the use case's order around the 409. */
const endpoints = defineCollection({
  store: "channelEndpoints",
  path: "/v1/channel-endpoints",
  item: "/v1/channel-endpoints/{identifier}",
  key: { identifier: "identifier" },
  notFound: (k) => `Channel endpoint with identifier '${k.identifier}' not found`,
  conflict: (k, c) => `Channel endpoint with identifier "${k.identifier}" already exists in environment "${c.tenant.environmentId}"`,
  out: endpointOut,
  list: {
    style: "cursor",
    // list-channel-endpoints.usecase.ts: the connections' filters and the connection, each exact, the contexts an exact set.
    filter: (c) => channelListFilter(c.query, [...CHANNEL_FILTERS, "connectionIdentifier"]),
  },
  create: {
    check: (c, body) => {
      const b = body as unknown as JsonObject;
      checkCommand(b);
      integrationNamed(c, String(b.integrationIdentifier));
      resolveContexts(c, b.context as JsonObject | undefined);
      requireSubscriber(c, String(b.subscriberId));
    },
    build: (c, body) => {
      const b = body as unknown as JsonObject;
      const integration = integrationNamed(c, String(b.integrationIdentifier));
      const contextKeys = resolveContexts(c, b.context as JsonObject | undefined);
      const connectionIdentifier = connectionOf(c, b, integration, contextKeys);
      return {
        identifier: isString(b.identifier) ? b.identifier : generatedIdentifier("chendp_"), subscriberId: String(b.subscriberId),
        integrationIdentifier: integration.identifier, providerId: integration.providerId, channel: integration.channel ?? null,
        ...(connectionIdentifier ? { connectionIdentifier } : {}), contextKeys, type: String(b.type), endpoint: { ...(b.endpoint as JsonObject) },
      };
    },
  },
  update: {
    // update-channel-endpoint.usecase.ts: its own 404, naming the environment; then the stored type's shape (400).
    check: (c, b) => {
      const x = ofTenant(c.store.data.channelEndpoints, c.tenant).find((e) => e.identifier === c.params.identifier);
      if (!x) throw notFound(`Channel endpoint with identifier "${c.params.identifier}" not found in environment "${c.tenant.environmentId}"`);
      if (!fits(x.type, b.endpoint)) throw badRequest(formatMessage(x.type));
    },
    apply: (_c, _x, b) => ({ endpoint: { ...(b.endpoint as JsonObject) } }),
  },
  remove: true,
});

const channelEndpointRoutes = endpoints.routes;

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ channelEndpoints: list<ChannelEndpointRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Channel endpoints: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: channelEndpointRoutes });
