/**
 * SubscriberCredentials: one subscriber's credentials for one chat or push provider.
 *
 *   check   no request
 *   diff    no request
 *   create  GET /v2/subscribers/{subscriberId}, then PUT /v1/subscribers/{subscriberId}/credentials
 *   read    GET /v2/subscribers/{subscriberId}
 *   update  PUT /v1/subscribers/{subscriberId}/credentials (only credentials change in place)
 *   delete  DELETE /v1/subscribers/{subscriberId}/credentials/{providerId} (gone already counts as done)
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isNotFound } from "../client/errors";
import { clientFor } from "../config";
import { NotifyApiError } from "../client/errors";
import {
  CHANNEL_CREDENTIAL_KEYS, ChannelCredentialsInput, HttpUrl, SafeString, SUBSCRIBER_PROVIDERS,
  type ChannelCredentials, type ChannelSettings, type Subscriber, type SubscriberProviderId as ProviderIdT,
} from "../schemas";
import { changedKeys, checkWith, controlInputs, readInputs, declaredKeys, deleteIfPresent, failure, isPlainObject, project, stripUndefined, suggest, unknownKeyHint, withSecrets, type CheckFailure } from "./common";
import { dynamicProvider as makeDynamicProvider, NotifyResource } from "./dynamic";

/** Inputs of {@link SubscriberCredentials}. */
export interface SubscriberCredentialsArgs {
  /** The subscriber (it must exist). Changing it replaces the resource. */
  subscriberId: pulumi.Input<string>;
  /**
   * The chat or push provider: `slack`, `discord`, `msteams`, `webex-messaging`, `telegram`, `fcm`,
   * `apns`, ... (the contract's list), or an id of the same shape the service added since. An id
   * one edit away from a known one is refused as a typo. The environment needs an active
   * integration of it. Changing it replaces the resource.
   */
  providerId: pulumi.Input<ProviderIdT>;
  /** Which integration of that provider, when there are several. Changing it replaces the resource. */
  integrationIdentifier?: pulumi.Input<string>;
  /** Webhook URL, device tokens, ...; stored as a secret. */
  credentials: pulumi.Input<{ [K in keyof ChannelCredentials]?: pulumi.Input<ChannelCredentials[K]> }>;
  /** Take over credentials already set for this subscriber and provider instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

export const SUBSCRIBER_CREDENTIALS_INPUT_KEYS = ["subscriberId", "providerId", "integrationIdentifier", "credentials"] as const;
export const SUBSCRIBER_CREDENTIALS_REPLACE_ON_CHANGE = ["subscriberId", "providerId", "integrationIdentifier"] as const;
/** Inputs (and outputs) kept secret in state and in the engine's events. */
export const SUBSCRIBER_CREDENTIALS_SECRET_KEYS = ["credentials"] as const;

/** The shape of a provider id: lowercase letters and digits, with `-` or `_` between them. */
const PROVIDER_ID_SHAPE = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/**
 * The known provider an unknown id is most likely a typo of: the same letters in another case, or
 * one edit away (two for ids of eight characters or more). Further off, an id is taken as one the
 * service added after this release.
 */
export function nearProviderId(id: string): string | undefined {
  return suggest(id, SUBSCRIBER_PROVIDERS, id.length >= 8 ? 2 : 1);
}

/**
 * A subscriber provider id: a known one, or an unknown one of the same shape (production adds
 * providers; the service then checks it has an active integration of it). An unknown id close to
 * a known one is refused with a suggestion, as it is most likely a typo.
 */
export const SubscriberProviderIdInput = z.string().superRefine((id, ctx) => {
  if ((SUBSCRIBER_PROVIDERS as readonly string[]).includes(id)) return;
  const near = nearProviderId(id);
  if (near) {
    ctx.addIssue({ code: "custom", message: `unknown provider ${JSON.stringify(id)}: did you mean ${JSON.stringify(near)}? Known: ${SUBSCRIBER_PROVIDERS.join(", ")}` });
  } else if (!PROVIDER_ID_SHAPE.test(id)) {
    ctx.addIssue({ code: "custom", message: `must be a provider id (lowercase letters and digits, with - or _ between them): one of ${SUBSCRIBER_PROVIDERS.join(", ")}, or one the service added since` });
  }
}) as z.ZodType<ProviderIdT>;

/**
 * The credential fields production keeps (webhookUrl, deviceTokens, channel: the service's
 * update-subscriber-channel use case; production-notes.md, Second pass). It drops the others, so
 * they cannot be read back there: read carries their declared value from state (as for every field
 * the service does not return), and they never show as drift. A server that keeps them (api.md's)
 * returns them, and drift in them shows.
 */
export const STORED_CREDENTIAL_KEYS = ["webhookUrl", "deviceTokens", "channel"] as const;

/** Schema of the inputs, used by check. */
export const SubscriberCredentialsInputs = z.strictObject({
  subscriberId: SafeString(200).min(1, { error: "must not be empty" }),
  providerId: SubscriberProviderIdInput,
  integrationIdentifier: SafeString(200).min(1).optional(),
  credentials: ChannelCredentialsInput.extend({
    webhookUrl: HttpUrl.optional(),
    imageUrl: HttpUrl.optional(),
    externalUrl: HttpUrl.optional(),
    // The service keeps one of each token, so a repeated one would read back as a change forever.
    deviceTokens: z.array(SafeString(4096).min(1, { error: "must not be empty" })).max(1000)
      .refine((tokens) => new Set(tokens).size === tokens.length, { error: "must not repeat a token (the service keeps one of each)" }).optional(),
  }),
  adopt: z.boolean().optional(),
  __provider: z.string().optional(),
});
type Inputs = z.infer<typeof SubscriberCredentialsInputs>;
type Outputs = Record<string, unknown>;

/** `subscriberId/providerId/integrationIdentifier`, each part URI-encoded so the id splits back exactly. */
export function credentialsId(subscriberId: string, providerId: string, integrationIdentifier?: string): string {
  return [subscriberId, providerId, integrationIdentifier ?? ""].map(encodeURIComponent).join("/");
}

/** The parts of an id made by {@link credentialsId}. */
export function parseCredentialsId(id: string): { subscriberId: string; providerId: string; integrationIdentifier?: string } {
  const parts = id.split("/").map(decodeURIComponent);
  if (parts.length !== 3 || !parts[0] || !parts[1]) throw new Error(`not a SubscriberCredentials id: ${JSON.stringify(id)} (expected subscriberId/providerId/integrationIdentifier)`);
  return { subscriberId: parts[0], providerId: parts[1], integrationIdentifier: parts[2] || undefined };
}

/**
 * The subscriber's channel entry for this provider (and integration, when named), with the
 * integration's identifier. Production stores an entry as `{ providerId, _integrationId,
 * credentials }` (its update-subscriber-channel use case), without the identifier; api.md's shape
 * may carry `integrationIdentifier`. An entry is matched by that when present, else by the
 * `_integrationId` of the named integration in the subscriber's environment (from the listing
 * reads share, so N credentials cost one listing).
 */
export async function findChannel(sub: Subscriber, providerId: string, integrationIdentifier?: string): Promise<ChannelSettings | undefined> {
  const ofProvider = (sub.channels ?? []).filter((c) => c.providerId === providerId);
  if (!integrationIdentifier) return ofProvider[0];
  const named = ofProvider.find((c) => c.integrationIdentifier === integrationIdentifier);
  if (named || !ofProvider.some((c) => c.integrationIdentifier === undefined)) return named;
  const integration = await clientFor().integrations.getByIdentifier(integrationIdentifier, sub._environmentId);
  const entry = integration && ofProvider.find((c) => c._integrationId === integration._id);
  return entry && { ...entry, integrationIdentifier };
}

/** Maps a channel entry to outputs. */
export function toSubscriberCredentialsOutputs(subscriberId: string, entry: ChannelSettings): Outputs {
  return stripUndefined({
    subscriberId,
    providerId: entry.providerId,
    integrationIdentifier: entry.integrationIdentifier,
    integrationId: entry._integrationId,
    credentials: entry.credentials,
  });
}

function outputsFor(subscriberId: string, entry: ChannelSettings, declared: Outputs, keys: string[]): Outputs {
  const svc = toSubscriberCredentialsOutputs(subscriberId, entry);
  // Fields the service did not return (production drops all but STORED_CREDENTIAL_KEYS) keep the
  // declared value; a stored field missing from the answer is drift and shows.
  if (isPlainObject(declared.credentials)) {
    const read: Outputs = { ...(isPlainObject(svc.credentials) ? svc.credentials : {}) };
    for (const [k, v] of Object.entries(declared.credentials)) {
      if (read[k] === undefined && !(STORED_CREDENTIAL_KEYS as readonly string[]).includes(k)) read[k] = v;
    }
    svc.credentials = read;
  }
  const outs: Outputs = { ...svc, ...controlInputs(declared), declaredKeys: keys };
  for (const k of keys) outs[k] = project(svc[k], declared[k]);
  return stripUndefined(outs);
}

const missingSubscriberHint = (subscriberId: string) =>
  `Subscriber "${subscriberId}" does not exist; create it first (subscribers are created by your application or by a trigger)`;

/**
 * What to do about the service's refusal of a credentials write: production answers 400 when the
 * environment has no active integration of the provider ("Subscribers environment (<env>) do not
 * have active <provider> integration.") or does not know the subscriber ("SubscriberId: <id> not
 * found").
 */
export function credentialsHint(err: unknown, inputs: { subscriberId: string; providerId: string }): string | undefined {
  if (!(err instanceof NotifyApiError) || err.status !== 400) return undefined;
  if (/do not have active/i.test(err.serviceMessage)) {
    return `Declare an active ${inputs.providerId} Integration (active: true) in this stack and pass its identifier as integrationIdentifier ` +
      `(integrationIdentifier: integration.identifier), or list it in dependsOn, so that it exists and is active before the credentials are set`;
  }
  if (/SubscriberId: .* not found/i.test(err.serviceMessage)) return missingSubscriberHint(inputs.subscriberId);
  return undefined;
}

async function put(inputs: Inputs): Promise<ChannelSettings> {
  const sub = await clientFor().subscribers.updateCredentials(inputs.subscriberId, stripUndefined({
    providerId: inputs.providerId, integrationIdentifier: inputs.integrationIdentifier, credentials: inputs.credentials,
  }));
  const entry = await findChannel(sub, inputs.providerId, inputs.integrationIdentifier);
  if (!entry) throw new Error(`the service accepted the credentials but the subscriber has no ${inputs.providerId} entry afterwards`);
  return entry;
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Outputs, news: Outputs): Promise<{ inputs: Outputs; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(SubscriberCredentialsInputs, news, unknownKeyHint(CHANNEL_CREDENTIAL_KEYS)) };
  },

  async diff(_id: string, olds: Outputs, news: Outputs) {
    const changed = changedKeys(olds, news, SUBSCRIBER_CREDENTIALS_INPUT_KEYS);
    const replaces = changed.filter((k) => (SUBSCRIBER_CREDENTIALS_REPLACE_ON_CHANGE as readonly string[]).includes(k));
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && olds.subscriberId === news.subscriberId && olds.providerId === news.providerId };
  },

  async create(raw: Outputs) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, SUBSCRIBER_CREDENTIALS_INPUT_KEYS);
    const action = `set ${inputs.providerId} credentials of subscriber "${inputs.subscriberId}"`;
    let sub: Subscriber;
    try {
      sub = await clientFor().subscribers.get(inputs.subscriberId);
    } catch (err) {
      throw failure(action, err, isNotFound(err) ? missingSubscriberHint(inputs.subscriberId) : undefined);
    }
    if (await findChannel(sub, inputs.providerId, inputs.integrationIdentifier) && !inputs.adopt) {
      throw new Error(`Unable to ${action}: the subscriber already has ${inputs.providerId} credentials; set adopt: true to manage them with this stack`);
    }
    try {
      const entry = await put(inputs);
      return { id: credentialsId(inputs.subscriberId, inputs.providerId, inputs.integrationIdentifier), outs: outputsFor(inputs.subscriberId, entry, raw, keys) };
    } catch (err) {
      throw failure(action, err, credentialsHint(err, inputs));
    }
  },

  async read(id: string, props: Outputs) {
    const { subscriberId, providerId, integrationIdentifier } = parseCredentialsId(id);
    const keys = Array.isArray(props.declaredKeys) ? (props.declaredKeys as string[]) : ["subscriberId", "providerId", "credentials"];
    let sub: Subscriber;
    try {
      sub = await clientFor().subscribers.get(subscriberId);
    } catch (err) {
      if (isNotFound(err)) return { id: "", props: {} };
      throw failure(`read ${providerId} credentials of subscriber "${subscriberId}"`, err);
    }
    const entry = await findChannel(sub, providerId, integrationIdentifier);
    if (!entry) return { id: "", props: {} };
    const outs = outputsFor(subscriberId, entry, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys) };
  },

  async update(_id: string, _olds: Outputs, news: Outputs) {
    const inputs = news as Inputs;
    try {
      const entry = await put(inputs);
      return { outs: outputsFor(inputs.subscriberId, entry, news, declaredKeys(news, SUBSCRIBER_CREDENTIALS_INPUT_KEYS)) };
    } catch (err) {
      throw failure(`update ${inputs.providerId} credentials of subscriber "${inputs.subscriberId}"`, err, credentialsHint(err, inputs));
    }
  },

  async delete(id: string) {
    const { subscriberId, providerId } = parseCredentialsId(id);
    await deleteIfPresent(`delete ${providerId} credentials of subscriber "${subscriberId}"`,
      () => clientFor().subscribers.deleteCredentials(subscriberId, providerId));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);

/**
 * A subscriber's credentials for one chat or push provider: a Slack webhook URL, FCM device
 * tokens, and so on. The id is `subscriberId/providerId/integrationIdentifier`.
 *
 * The service needs an active integration of the provider in the environment: declare it in the
 * same stack and pass its `identifier` (the engine then creates it first). Production keeps only
 * `webhookUrl`, `deviceTokens` and `channel` of the credentials; the other fields are sent, not
 * stored, and never show as drift.
 *
 * @example
 * const slack = new notify.Integration("slack", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true });
 * new notify.SubscriberCredentials("alice-slack", {
 *   subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier,
 *   credentials: { webhookUrl: cfg.requireSecret("aliceSlackHook") },
 * });
 */
export class SubscriberCredentials extends NotifyResource {
  declare readonly subscriberId: pulumi.Output<string>;
  declare readonly providerId: pulumi.Output<string>;
  declare readonly integrationIdentifier: pulumi.Output<string | undefined>;
  /** The `_id` of the integration the credentials belong to. */
  declare readonly integrationId: pulumi.Output<string>;
  /** Secret. */
  declare readonly credentials: pulumi.Output<ChannelCredentials>;
  /** The input properties this program sets (used for exact diffs). */
  declare readonly declaredKeys: pulumi.Output<string[]>;

  constructor(name: string, args: SubscriberCredentialsArgs, opts?: pulumi.CustomResourceOptions) {
    super("SubscriberCredentials", "subscriberCredentials", name, {
      integrationId: undefined, declaredKeys: undefined, integrationIdentifier: undefined,
      ...withSecrets(args, SUBSCRIBER_CREDENTIALS_SECRET_KEYS),
    }, { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...SUBSCRIBER_CREDENTIALS_SECRET_KEYS] });
  }
}
