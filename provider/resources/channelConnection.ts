/**
 * ChannelConnection: a chat workspace's authorisation (a Slack or Teams workspace and its access
 * token) for one integration, belonging to one subscriber or shared by a context; the channel
 * endpoints a workflow delivers to name it.
 *
 *   check   no request
 *   diff    no request
 *   create  with adopt, GET /v1/channel-connections/{identifier} first: an existing connection is
 *           compared, and PATCHed only when its workspace or token differs; else POST
 *           /v1/channel-connections (409 when the identifier is taken, or when a connection of the
 *           same integration, subscriber and contexts exists, which the refusal names)
 *   read    GET /v1/channel-connections/{identifier}
 *   update  PATCH /v1/channel-connections/{identifier} with the workspace and the token (the
 *           service replaces both; everything else replaces the connection)
 *   delete  DELETE /v1/channel-connections/{identifier} (a 404 counts as done)
 *
 * With `removeCreatedContexts`, a create first reads its contexts (GET /v2/contexts/{type}/{id}
 * each) and records those the service did not hold; the delete then removes those that nothing
 * else uses (createdContexts.ts).
 *
 * The service answers the access token in clear: it is secret in the state, compared like any
 * field (so a token rotated in the dashboard shows as drift), and never written in a message.
 */
import { z } from "zod";
import { NotifyApiError, isConflict } from "../client/errors";
import { clientFor } from "../config";
import type { ChannelConnection as ApiConnection } from "../client/channelConnections";
import { SafeString } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { CONTEXT_PART } from "./context";
import { contextOutputs, contextsNotHeld, createdContextKeysOutput, removeCreatedContexts, removeCreatedContextsField, settingOnlyUpdate } from "./createdContexts";
import { type DiffResult, declaredKeys, declaredKeysOf, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs } from "./lifecycle";

/** The most contexts a connection or an endpoint takes (the service's `IsValidContextPayload({ maxCount: 5 })`). */
export const MAX_CHANNEL_CONTEXTS = 5;

const contextPart = (what: string) => z.string().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" })
  .refine((v) => v === UNKNOWN || CONTEXT_PART.test(v), { error: `must contain only letters, digits, _ and - (the ${what} of the context key \`type:id\`)` });

/**
 * The contexts of a channel connection or endpoint: context type to context id (`{ tenant: "acme" }`
 * is the context `tenant:acme`), 1 to 5 of them. The service takes each as an id or as `{id, data}`
 * and creates the contexts it does not hold; only ids are taken here, as the service answers only
 * the keys: declare a context's data with a `Context` resource.
 */
export const ChannelContextInput = z.record(contextPart("type"), contextPart("id"))
  .refine((m) => Object.keys(m).length >= 1, { error: "must name at least one context (the service refuses an empty one); leave context out for none" })
  .refine((m) => Object.keys(m).length <= MAX_CHANNEL_CONTEXTS, { error: `must name at most ${MAX_CHANNEL_CONTEXTS} contexts (the service's limit)` });

/** A context map from the service's context keys (`type:id`; a type holds no `:`, so the first one splits). */
export function contextOfKeys(keys: readonly string[] | undefined): Record<string, string> | undefined {
  if (!keys?.length) return undefined;
  return Object.fromEntries(keys.map((k) => [k.slice(0, k.indexOf(":")), k.slice(k.indexOf(":") + 1)]));
}

/** The connection modes (CreateChannelConnectionRequestDto of spec/openapi.json). */
export const CONNECTION_MODES = ["subscriber", "shared"] as const;

/** The field table of a {@link ChannelConnection}. */
export const CHANNEL_CONNECTION = defineResource({
  name: "ChannelConnection",
  module: "channelConnection",
  doc: "A chat workspace's authorisation (a Slack or Microsoft Teams workspace and its access token) for one integration, belonging to one " +
    "subscriber or shared by a context; channel endpoints name it. The access token is secret in the state (the service answers it in clear). " +
    "The id, and the import id, is the connection's identifier.",
  inputs: {
    // Required here though the service generates one when left out (`chconn_` and 12 characters): it
    // is the connection's address in every call, the import id and what `adopt` looks for, and a
    // generated one would be lost with a create whose answer is lost, leaving a connection no stack owns.
    identifier: field(SafeString().min(1, { error: "must not be empty" }), "The connection's identifier, unique in the environment: its address in every call and " +
      "what channel endpoints name it by. Changing it replaces the connection.", { createOnly: true }),
    integrationIdentifier: field(SafeString().min(1, { error: "must not be empty" }), "The identifier of the chat integration (Slack, Microsoft Teams, ...) " +
      "the connection authorises. Changing it replaces the connection.", { createOnly: true }),
    connectionMode: field(z.enum(CONNECTION_MODES).optional(), "`subscriber` (the default: the connection belongs to `subscriberId`) or `shared` " +
      "(the connection belongs to its `context`, and no subscriber). Changing it replaces the connection.", { createOnly: true, filled: true }),
    subscriberId: field(SafeString().min(1, { error: "must not be empty" }).optional(), "The subscriber the connection belongs to (it must exist): " +
      "required in `subscriber` mode, refused in `shared` mode. Changing it replaces the connection.", { createOnly: true }),
    context: field(ChannelContextInput.optional(), "The contexts of the connection, context type to id (`{ tenant: \"acme\" }`), 1 to 5: required in " +
      "`shared` mode. The service creates a context it does not hold; declare its data with a `Context` resource. Changing it replaces the connection.",
    { createOnly: true }),
    workspace: field(z.strictObject({
      id: SafeString().min(1, { error: "must not be empty" }).describe("The workspace's id at the chat platform (a Slack team id, `T123456`)."),
      name: SafeString().optional().describe("The workspace's name."),
    }), "The workspace, compared whole (the service replaces it on every update).", { exact: true }),
    auth: field(z.strictObject({
      accessToken: z.string().min(1, { error: "must not be empty" }).describe("The workspace's access token (a Slack bot token, `xoxb-...`)."),
    }), "The workspace's authorisation; secret. The service answers it, so a token changed outside the stack shows as drift.", { secret: true, exact: true }),
    removeCreatedContexts: removeCreatedContextsField("connection"),
    adopt: field(z.boolean().optional(), "Take over an existing connection with the same identifier instead of failing.", { control: true }),
  },
  outputs: {
    channel: output(z.string().optional(), "The channel of the connection's integration (`chat`)."),
    providerId: output(z.string().optional(), "The provider of the connection's integration (`slack`, `msteams`, ...)."),
    contextKeys: output(z.array(z.string()), "The connection's contexts as the service keys them, `type:id` each."),
    createdAt: output(z.string().optional(), "When the connection was created (ISO 8601)."),
    createdContextKeys: createdContextKeysOutput(),
  },
});

/** Inputs of a {@link ChannelConnection}. */
export type ChannelConnectionArgs = ArgsOf<typeof CHANNEL_CONNECTION>;
/** The state of a {@link ChannelConnection}: the service's view, each declared input as declared. */
export type ChannelConnectionState = StateOf<typeof CHANNEL_CONNECTION>;

type Inputs = z.infer<typeof CHANNEL_CONNECTION.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Maps the service's connection to outputs: the mode from whether it has a subscriber, the contexts from their keys. */
export function toChannelConnectionOutputs(c: ApiConnection): Props {
  return stripUndefined({
    ...serviceFields(CHANNEL_CONNECTION, c),
    connectionMode: c.subscriberId ? "subscriber" : "shared",
    subscriberId: c.subscriberId ?? undefined,
    context: contextOfKeys(c.contextKeys),
    workspace: stripUndefined({ ...c.workspace }),
    auth: { ...c.auth },
    channel: c.channel ?? undefined, providerId: c.providerId ?? undefined, contextKeys: c.contextKeys ?? [], createdAt: c.createdAt,
  });
}

/**
 * The state of connection `c`: the service's view, the control inputs and the setting as declared,
 * and the contexts its create made (`made` at a create, else as `olds` recorded them).
 */
function outputsFor(c: ApiConnection, declared: Props, keys: string[], made?: string[], olds?: Props): ChannelConnectionState {
  return stripUndefined({
    ...toChannelConnectionOutputs(c), ...controlInputs(declared, CHANNEL_CONNECTION.controlKeys), ...contextOutputs(declared, made, c.contextKeys ?? [], olds), declaredKeys: keys,
  }) as ChannelConnectionState;
}

/** The access tokens a message could carry: the declared one and the one held. */
function tokensOf(...props: (Props | undefined)[]): string[] {
  return props.map((p) => (p?.auth as { accessToken?: unknown } | undefined)?.accessToken).filter((t): t is string => typeof t === "string" && t.length > 0 && t !== UNKNOWN);
}

/**
 * `err` with every token of `tokens` replaced by `[REDACTED]` in its message: whatever a service
 * or a proxy puts in an error, a token never reaches the engine's output or a log.
 */
export function redactTokens<E>(err: E, tokens: readonly string[]): E {
  if (!(err instanceof Error) || !tokens.length) return err;
  let message = err.message;
  for (const t of tokens) message = message.split(t).join("[REDACTED]");
  if (message !== err.message) err.message = message;
  return err;
}

/** Runs `fn`, redacting `tokens` from what it throws. */
async function redacting<T>(tokens: readonly string[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw redactTokens(err, tokens);
  }
}

/**
 * The identifier of the connection a 409 names as holding the integration, subscriber and contexts
 * ('... Connection ID: <identifier>', create-channel-connection.usecase.ts); undefined for the
 * identifier's own 409.
 */
export function holderOf(err: unknown): string | undefined {
  return err instanceof NotifyApiError ? /Connection ID: (\S+)\s*$/.exec(err.serviceMessage)?.[1] : undefined;
}

/** Takes an existing connection over: written only where its workspace or token differs. */
function adopt(existing: ApiConnection, raw: Props, keys: string[]) {
  const id = existing.identifier;
  // An existing connection: its create made nothing of this stack's.
  return adoptExisting(`channel connection "${id}"`, {
    id, compared: outputsFor(existing, raw, keys, []) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(id, olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt channel connection "${id}"`, e);
      }
    },
  });
}

/** The mode's rules (create-channel-connection.usecase.ts, channel-connection.utils.ts `validateConnectionMode`), said before any request. */
function modeFailures(inputs: Props): CheckFailure[] {
  const mode = inputs.connectionMode ?? "subscriber";
  if (mode === "shared") {
    const out: CheckFailure[] = [];
    if (inputs.context === undefined) out.push({ property: "context", reason: 'context: is required when connectionMode is "shared" (the contexts the connection is shared by)' });
    if (inputs.subscriberId !== undefined) {
      out.push({ property: "subscriberId", reason: `subscriberId: is not taken when connectionMode is "shared" (given ${JSON.stringify(inputs.subscriberId)}): the service stores no subscriber on a shared connection; remove it, or set connectionMode "subscriber"` });
    }
    return out;
  }
  if (inputs.subscriberId === undefined) {
    return [{ property: "subscriberId", reason: 'subscriberId: is required when connectionMode is "subscriber" (the default); for a connection shared by a context, set connectionMode "shared" and context' }];
  }
  return [];
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const failures = checkWith(CHANNEL_CONNECTION.schema, inputs, topLevel(unknownKeyHint(Object.keys(CHANNEL_CONNECTION.inputs))));
    if (!failures.length) failures.push(...modeFailures(inputs));
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(CHANNEL_CONNECTION, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, CHANNEL_CONNECTION.inputKeys);
    const api = clientFor().channelConnections;
    const id = inputs.identifier;
    // With removeCreatedContexts: the contexts the service does not hold yet, read once before the
    // first attempt (a retry after a lost answer finds those the first one made).
    let made: Promise<string[] | undefined> | undefined;
    return redacting(tokensOf(raw), () => createOrAdopt({
      what: `channel connection "${id}"`, adopt: inputs.adopt,
      refuse: `A channel connection with identifier "${id}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(id)),
      takeOver: (existing) => adopt(existing, raw, keys),
      // The identifier's 409, or the one of a connection of the same integration, subscriber and contexts under this identifier.
      exists: (err): err is NotifyApiError => isConflict(err) && (holderOf(err) === undefined || holderOf(err) === id),
      hint: (err) => {
        const holder = holderOf(err);
        return holder !== undefined && holder !== id
          ? `the service holds one connection per integration, subscriber and set of contexts, and connection "${holder}" is that one: ` +
            `declare identifier "${holder}" with adopt: true to manage it, or delete it first`
          : undefined;
      },
      create: async () => {
        made ??= contextsNotHeld(raw);
        await made;
        return api.create(requestBody(CHANNEL_CONNECTION, inputs, "create"));
      },
      created: async (live) => ({ id, outs: outputsFor(live, raw, keys, await made) }),
    }));
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    return redacting(tokensOf(props), async () => {
      const live = await readIfPresent(`read channel connection "${id}"`, () => clientFor().channelConnections.read(id));
      if (!live) return gone();
      const outs = outputsFor(live, props, keys, undefined, props);
      return { id, props: outs, inputs: readInputs(props, outs, keys, CHANNEL_CONNECTION.controlKeys) };
    });
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, CHANNEL_CONNECTION.inputKeys);
    // removeCreatedContexts alone: the service holds nothing of it.
    const settingOnly = settingOnlyUpdate(CHANNEL_CONNECTION, olds, news, keys);
    if (settingOnly) return { outs: settingOnly as ChannelConnectionState };
    return redacting(tokensOf(olds, news), async () => {
      try {
        // Workspace and token are all that changes in place, and the service takes them together.
        const body: RequestBody<"ChannelConnectionsController_updateChannelConnection"> = requestBody(CHANNEL_CONNECTION, inputs, "update");
        return { outs: outputsFor(await clientFor().channelConnections.update(id, body), news, keys, undefined, olds) };
      } catch (err) {
        throw failure(`update channel connection "${id}"`, err);
      }
    });
  },

  async delete(id: string, props: Props) {
    await redacting(tokensOf(props), () => deleteIfPresent(`delete channel connection "${id}"`, () => clientFor().channelConnections.delete(id)));
    await removeCreatedContexts(`channel connection "${id}"`, props);
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
