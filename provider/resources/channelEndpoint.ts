/**
 * ChannelEndpoint: where a subscriber is reached on a chat platform or by phone (a Slack channel
 * or user, a Teams channel or user, a webhook, a phone number, a Telegram chat, a Webex room or
 * person, a LINE user), for one integration, through a channel connection when the platform needs
 * one.
 *
 *   check   no request; the endpoint's keys checked against its type's exact keys
 *   diff    no request
 *   create  with adopt, GET /v1/channel-endpoints/{identifier} first: an existing endpoint is
 *           compared, and PATCHed only when its data differs; else POST /v1/channel-endpoints
 *           (409 when the identifier is taken: the only thing the service keeps unique)
 *   read    GET /v1/channel-endpoints/{identifier}
 *   update  PATCH /v1/channel-endpoints/{identifier} with the endpoint's data (all that changes
 *           in place: a change of type, subscriber, integration, connection or context replaces)
 *   delete  DELETE /v1/channel-endpoints/{identifier} (a 404 counts as done)
 *
 * With `removeCreatedContexts`, a create first reads its contexts (GET /v2/contexts/{type}/{id}
 * each) and records those the service did not hold; the delete then removes those that nothing
 * else uses (createdContexts.ts).
 */
import { z } from "zod";
import { NotifyApiError, isNotFound } from "../client/errors";
import { clientFor } from "../config";
import type { ChannelEndpoint as ApiEndpoint } from "../client/channelEndpoints";
import { SafeString } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, propertyPath, topLevel, unknownKeyHint, unknownKeyMessage, type CheckFailure } from "./check";
import { ChannelContextInput, contextOfKeys } from "./channelConnection";
import { contextOutputs, contextsNotHeld, createdContextKeysOutput, removeCreatedContexts, removeCreatedContextsField, settingOnlyUpdate } from "./createdContexts";
import { type DiffResult, declaredKeys, declaredKeysOf, containsUnknown, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs } from "./lifecycle";

/** What each key of an endpoint's data is, whichever types take it. */
const KEY_DOCS = {
  channelId: "The channel's id (Slack `C0123456`, Teams `19:...@thread.tacv2`).",
  userId: "The user's id (Slack `U0123456`, Teams `29:...`, LINE `U...`).",
  url: "The webhook's URL (http or https).",
  channel: "The channel the webhook posts to, where it takes one.",
  phoneNumber: "The phone number, in E.164 format (`+14155550123`).",
  teamId: "The Teams team's id.",
  tenantId: "The Teams user's Azure AD tenant, for delivery across tenants.",
  chatId: "The Telegram chat's id.",
  roomId: "The Webex room's id.",
  parentId: "A Webex message to reply under, in a thread.",
  personId: "The Webex person's id (or personEmail).",
  personEmail: "The Webex person's email (or personId).",
} as const;
type EndpointKey = keyof typeof KEY_DOCS;

const id = (key: EndpointKey) => SafeString().min(1, { error: "must not be empty" }).describe(KEY_DOCS[key]);

/**
 * Each endpoint type production accepts, with its exact keys (the service's
 * libs/application-generic/src/schemas/channel-endpoint/channel-endpoint.schema.ts: a key of
 * another type, or none of the required ones, is refused). A webhook's URL and a phone number are
 * checked further here (http(s), E.164) since nothing else can deliver.
 */
export const ENDPOINT_SHAPES = {
  slack_channel: z.strictObject({ channelId: id("channelId") }),
  slack_user: z.strictObject({ userId: id("userId") }),
  webhook: z.strictObject({
    url: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).describe(KEY_DOCS.url),
    channel: id("channel").optional(),
  }),
  phone: z.strictObject({
    phoneNumber: z.string().regex(/^\+[1-9]\d{1,14}$/, { error: "must be a phone number in E.164 format (`+` and up to 15 digits, e.g. +14155550123)" })
      .describe(KEY_DOCS.phoneNumber),
  }),
  ms_teams_channel: z.strictObject({ teamId: id("teamId"), channelId: id("channelId") }),
  ms_teams_user: z.strictObject({ userId: id("userId"), tenantId: id("tenantId").optional() }),
  telegram_chat: z.strictObject({ chatId: id("chatId") }),
  webex_room: z.strictObject({ roomId: id("roomId"), parentId: id("parentId").optional() }),
  webex_person: z.strictObject({ personId: id("personId").optional(), personEmail: id("personEmail").optional() })
    .refine((e) => (e.personId === undefined) !== (e.personEmail === undefined), { error: "takes exactly one of personId, personEmail" }),
  line_user: z.strictObject({ userId: id("userId") }),
} as const;

/** The endpoint types, in the service's order. */
export type EndpointType = keyof typeof ENDPOINT_SHAPES;
export const ENDPOINT_TYPES = Object.keys(ENDPOINT_SHAPES) as [EndpointType, ...EndpointType[]];

/** The keys each type takes. */
export const ENDPOINT_KEYS = Object.fromEntries(ENDPOINT_TYPES.map((t) => [t, Object.keys(ENDPOINT_SHAPES[t].shape)])) as Record<EndpointType, string[]>;

/** An endpoint's type and data, one branch per type: the check of a declared pair. */
export const ChannelEndpointData = z.discriminatedUnion("type",
  ENDPOINT_TYPES.map((t) => z.object({ type: z.literal(t), endpoint: ENDPOINT_SHAPES[t] })) as unknown as [z.ZodObject<{ type: z.ZodLiteral<EndpointType>; endpoint: z.ZodType }>]);

/**
 * The endpoint's data as one object of every key (a Pulumi schema has no unions): each key with
 * the types that take it; which keys a type takes is checked against {@link ChannelEndpointData}.
 */
const EndpointInput = z.strictObject(Object.fromEntries((Object.keys(KEY_DOCS) as EndpointKey[]).map((k) => {
  const types = ENDPOINT_TYPES.filter((t) => ENDPOINT_KEYS[t].includes(k));
  return [k, z.string().optional().describe(`${KEY_DOCS[k]} Type${types.length > 1 ? "s" : ""} ${types.map((t) => `\`${t}\``).join(", ")}.`)];
})));

/** The field table of a {@link ChannelEndpoint}. */
export const CHANNEL_ENDPOINT = defineResource({
  name: "ChannelEndpoint",
  module: "channelEndpoint",
  doc: "Where a subscriber is reached on a chat platform or by phone: a Slack channel or user, a Microsoft Teams channel or user, a webhook, " +
    "a phone number, a Telegram chat, a Webex room or person, a LINE user; for one integration, through a channel connection where the " +
    "platform needs one. The id, and the import id, is the endpoint's identifier.",
  inputs: {
    // Required here though the service generates one when left out (`chendp_` and 12 characters): it is
    // the only thing the service keeps unique, so without it a create whose answer is lost would leave a
    // second endpoint to the same place, which no stack owns, and nothing could adopt or import it.
    identifier: field(SafeString().min(1, { error: "must not be empty" }), "The endpoint's identifier, unique in the environment: its address in every call. " +
      "Changing it replaces the endpoint.", { createOnly: true }),
    subscriberId: field(SafeString().min(1, { error: "must not be empty" }), "The subscriber the endpoint reaches (it must exist). Changing it replaces the endpoint.",
      { createOnly: true }),
    integrationIdentifier: field(SafeString().min(1, { error: "must not be empty" }), "The identifier of the integration that delivers to the endpoint. " +
      "Changing it replaces the endpoint.", { createOnly: true }),
    type: field(z.enum(ENDPOINT_TYPES), `The endpoint's type: ${ENDPOINT_TYPES.map((t) => `\`${t}\` (${ENDPOINT_KEYS[t].join(", ")})`).join(", ")}. ` +
      "Changing it replaces the endpoint.", { createOnly: true }),
    endpoint: field(EndpointInput, "The endpoint's data: exactly the keys its type takes (see `type`), compared whole (the service replaces it on every update).",
      { exact: true }),
    connectionIdentifier: field(SafeString().min(1, { error: "must not be empty" }).optional(), "The identifier of the channel connection (of the same integration) " +
      "the endpoint delivers through; Webex endpoints need one, with the same contexts. Changing it replaces the endpoint.", { createOnly: true }),
    context: field(ChannelContextInput.optional(), "The contexts of the endpoint, context type to id (`{ tenant: \"acme\" }`), 1 to 5. The service creates a context " +
      "it does not hold; declare its data with a `Context` resource. Changing it replaces the endpoint.", { createOnly: true }),
    removeCreatedContexts: removeCreatedContextsField("endpoint"),
    adopt: field(z.boolean().optional(), "Take over an existing endpoint with the same identifier instead of failing.", { control: true }),
  },
  outputs: {
    channel: output(z.string().optional(), "The channel of the endpoint's integration (`chat`, `sms`, ...)."),
    providerId: output(z.string().optional(), "The provider of the endpoint's integration."),
    contextKeys: output(z.array(z.string()), "The endpoint's contexts as the service keys them, `type:id` each."),
    createdAt: output(z.string().optional(), "When the endpoint was created (ISO 8601)."),
    createdContextKeys: createdContextKeysOutput(),
  },
});

/** Inputs of a {@link ChannelEndpoint}. */
export type ChannelEndpointArgs = ArgsOf<typeof CHANNEL_ENDPOINT>;
/** The state of a {@link ChannelEndpoint}: the service's view, each declared input as declared. */
export type ChannelEndpointState = StateOf<typeof CHANNEL_ENDPOINT>;

type Inputs = z.infer<typeof CHANNEL_ENDPOINT.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Maps the service's endpoint to outputs: the contexts from their keys. */
export function toChannelEndpointOutputs(e: ApiEndpoint): Props {
  return stripUndefined({
    ...serviceFields(CHANNEL_ENDPOINT, e),
    subscriberId: e.subscriberId ?? undefined, integrationIdentifier: e.integrationIdentifier ?? undefined, connectionIdentifier: e.connectionIdentifier ?? undefined,
    context: contextOfKeys(e.contextKeys), endpoint: stripUndefined({ ...e.endpoint }),
    channel: e.channel ?? undefined, providerId: e.providerId ?? undefined, contextKeys: e.contextKeys ?? [], createdAt: e.createdAt,
  });
}

/**
 * The state of endpoint `e`: the service's view, the control inputs and the setting as declared,
 * and the contexts its create made (`made` at a create, else as `olds` recorded them).
 */
function outputsFor(e: ApiEndpoint, declared: Props, keys: string[], made?: string[], olds?: Props): ChannelEndpointState {
  return stripUndefined({
    ...toChannelEndpointOutputs(e), ...controlInputs(declared, CHANNEL_ENDPOINT.controlKeys), ...contextOutputs(declared, made, e.contextKeys ?? [], olds), declaredKeys: keys,
  }) as ChannelEndpointState;
}

/**
 * The endpoint's data against its type's exact keys: each key of another type named, with the keys
 * the type takes; a required key missing; a value its type refuses.
 */
export function endpointFailures(type: unknown, endpoint: unknown): CheckFailure[] {
  if (!ENDPOINT_TYPES.includes(type as EndpointType) || containsUnknown(endpoint) || typeof endpoint !== "object" || endpoint === null) return [];
  const t = type as EndpointType;
  const r = ChannelEndpointData.safeParse({ type: t, endpoint });
  if (r.success) return [];
  const takes = `type "${t}" takes ${ENDPOINT_KEYS[t].join(", ")}`;
  return r.error.issues.map((issue) => {
    const property = propertyPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      return { property: "endpoint", reason: `endpoint: ${issue.keys.map((k) => JSON.stringify(k)).join(", ")} ${issue.keys.length > 1 ? "are not keys" : "is not a key"} of type "${t}" (${takes})` };
    }
    if (issue.code === "invalid_type" && (endpoint as Props)[String(issue.path[1])] === undefined) {
      return { property, reason: `${property}: is required for type "${t}" (${takes})` };
    }
    if (issue.path.length === 1) return { property, reason: `${property}: type "${t}" ${issue.message}` };
    const given = issue.path.length > 1 ? ` (given ${JSON.stringify((endpoint as Props)[String(issue.path[1])])})` : "";
    return { property, reason: `${property}: ${issue.message}${given}` };
  });
}

/** Takes an existing endpoint over: written only where its data differs. */
function adopt(existing: ApiEndpoint, raw: Props, keys: string[]) {
  const ident = existing.identifier;
  // An existing endpoint: its create made nothing of this stack's.
  return adoptExisting(`channel endpoint "${ident}"`, {
    id: ident, compared: outputsFor(existing, raw, keys, []) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(ident, olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt channel endpoint "${ident}"`, e);
      }
    },
  });
}

/** The hint of a create the service refused for a subscriber it does not hold (create-channel-endpoint.usecase.ts: "Subscriber not found: <id>"). */
function subscriberHint(err: unknown): string | undefined {
  return isNotFound(err) && err instanceof NotifyApiError && err.serviceMessage.startsWith("Subscriber not found")
    ? "the subscriber must exist before its endpoints: create it first (pass a Subscriber resource's subscriberId output, so the engine orders the two)"
    : undefined;
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const allowed = Object.keys(CHANNEL_ENDPOINT.inputs);
    // A key no type takes: the closest of the keys the declared type takes, naming the type (as a
    // key of another type is named, in endpointFailures); of every type's keys when the type is not one.
    const known = ENDPOINT_TYPES.includes(inputs.type as EndpointType);
    const typeKeys = known ? ENDPOINT_KEYS[inputs.type as EndpointType] : Object.keys(EndpointInput.shape);
    const failures = checkWith(CHANNEL_ENDPOINT.schema, inputs, (issue) => {
      if (issue.code === "unrecognized_keys" && issue.path.length === 1 && issue.path[0] === "endpoint") {
        return issue.keys.map((k) => unknownKeyMessage(k, typeKeys, known ? `type ${JSON.stringify(inputs.type)}` : undefined)).join("; ");
      }
      return topLevel(unknownKeyHint(allowed))(issue);
    });
    if (!failures.some((f) => f.property === "type" || f.property.startsWith("endpoint"))) failures.push(...endpointFailures(inputs.type, inputs.endpoint));
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(CHANNEL_ENDPOINT, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, CHANNEL_ENDPOINT.inputKeys);
    const api = clientFor().channelEndpoints;
    const ident = inputs.identifier;
    // With removeCreatedContexts: the contexts the service does not hold yet, read once before the
    // first attempt (a retry after a lost answer finds those the first one made).
    let made: Promise<string[] | undefined> | undefined;
    return createOrAdopt({
      what: `channel endpoint "${ident}"`, adopt: inputs.adopt,
      refuse: `A channel endpoint with identifier "${ident}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(ident)),
      takeOver: (existing) => adopt(existing, raw, keys),
      hint: subscriberHint,
      create: async () => {
        made ??= contextsNotHeld(raw);
        await made;
        return api.create(requestBody(CHANNEL_ENDPOINT, inputs, "create"));
      },
      created: async (live) => ({ id: ident, outs: outputsFor(live, raw, keys, await made) }),
    });
  },

  async read(ident: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const live = await readIfPresent(`read channel endpoint "${ident}"`, () => clientFor().channelEndpoints.read(ident));
    if (!live) return gone();
    const outs = outputsFor(live, props, keys, undefined, props);
    return { id: ident, props: outs, inputs: readInputs(props, outs, keys, CHANNEL_ENDPOINT.controlKeys) };
  },

  async update(ident: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, CHANNEL_ENDPOINT.inputKeys);
    // removeCreatedContexts alone: the service holds nothing of it.
    const settingOnly = settingOnlyUpdate(CHANNEL_ENDPOINT, olds, news, keys);
    if (settingOnly) return { outs: settingOnly as ChannelEndpointState };
    try {
      // The endpoint's data is all that changes in place.
      const body: RequestBody<"ChannelEndpointsController_updateChannelEndpoint"> = requestBody(CHANNEL_ENDPOINT, inputs, "update");
      return { outs: outputsFor(await clientFor().channelEndpoints.update(ident, body), news, keys, undefined, olds) };
    } catch (err) {
      throw failure(`update channel endpoint "${ident}"`, err);
    }
  },

  async delete(ident: string, props: Props = {}) {
    await deleteIfPresent(`delete channel endpoint "${ident}"`, () => clientFor().channelEndpoints.delete(ident));
    await removeCreatedContexts(`channel endpoint "${ident}"`, props);
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
