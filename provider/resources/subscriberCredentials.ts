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
import {
  CHANNEL_CREDENTIAL_KEYS, ChannelCredentialsInput, HttpUrl, SafeString, SubscriberProviderId,
  type ChannelCredentials, type ChannelSettings, type Subscriber, type SubscriberProviderId as ProviderIdT,
} from "../schemas";
import { changedKeys, checkWith, controlInputs, readInputs, declaredKeys, deleteIfPresent, failure, project, stripUndefined, unknownKeyHint, withSecrets, type CheckFailure } from "./common";
import { dynamicProvider as makeDynamicProvider, NotifyResource } from "./dynamic";

/** Inputs of {@link SubscriberCredentials}. */
export interface SubscriberCredentialsArgs {
  /** The subscriber (it must exist). Changing it replaces the resource. */
  subscriberId: pulumi.Input<string>;
  /** One of the subscriber provider ids (`slack`, `discord`, `msteams`, `fcm`, `apns`, ...). Changing it replaces the resource. */
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

/** Schema of the inputs, used by check. */
export const SubscriberCredentialsInputs = z.strictObject({
  subscriberId: SafeString(200).min(1, { error: "must not be empty" }),
  providerId: SubscriberProviderId,
  integrationIdentifier: SafeString(200).min(1).optional(),
  credentials: ChannelCredentialsInput.extend({
    webhookUrl: HttpUrl.optional(),
    imageUrl: HttpUrl.optional(),
    externalUrl: HttpUrl.optional(),
    deviceTokens: z.array(SafeString(4096).min(1, { error: "must not be empty" })).max(1000).optional(),
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

/** The subscriber's channel entry for this provider (and integration, when named). */
export function findChannel(sub: Subscriber, providerId: string, integrationIdentifier?: string): ChannelSettings | undefined {
  return (sub.channels ?? []).find((c) => c.providerId === providerId && (!integrationIdentifier || c.integrationIdentifier === integrationIdentifier));
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
  const outs: Outputs = { ...svc, ...controlInputs(declared), declaredKeys: keys };
  for (const k of keys) outs[k] = project(svc[k], declared[k]);
  return stripUndefined(outs);
}

async function put(inputs: Inputs): Promise<ChannelSettings> {
  const sub = await clientFor().subscribers.updateCredentials(inputs.subscriberId, stripUndefined({
    providerId: inputs.providerId, integrationIdentifier: inputs.integrationIdentifier, credentials: inputs.credentials,
  }));
  const entry = findChannel(sub, inputs.providerId, inputs.integrationIdentifier);
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
      throw failure(action, err, isNotFound(err) ? `Subscriber "${inputs.subscriberId}" does not exist; create it first (subscribers are created by your application or by a trigger)` : undefined);
    }
    if (findChannel(sub, inputs.providerId, inputs.integrationIdentifier) && !inputs.adopt) {
      throw new Error(`Unable to ${action}: the subscriber already has ${inputs.providerId} credentials; set adopt: true to manage them with this stack`);
    }
    try {
      const entry = await put(inputs);
      return { id: credentialsId(inputs.subscriberId, inputs.providerId, inputs.integrationIdentifier), outs: outputsFor(inputs.subscriberId, entry, raw, keys) };
    } catch (err) {
      throw failure(action, err);
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
    const entry = findChannel(sub, providerId, integrationIdentifier);
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
      throw failure(`update ${inputs.providerId} credentials of subscriber "${inputs.subscriberId}"`, err);
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
 * @example
 * new notify.SubscriberCredentials("alice-slack", {
 *   subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main",
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
