/**
 * SubscriberCredentials: one subscriber's credentials for one chat or push provider.
 *
 *   check   no request
 *   diff    no request
 *   create  GET /v2/subscribers/{subscriberId}, then PUT /v1/subscribers/{subscriberId}/credentials (with
 *           adopt, of existing credentials only when they differ from the declared ones)
 *   read    GET /v2/subscribers/{subscriberId}
 *   update  PUT /v1/subscribers/{subscriberId}/credentials (only credentials change in place)
 *   delete  DELETE /v1/subscribers/{subscriberId}/credentials/{providerId} (gone already counts as done)
 */
import { z } from "zod";
import { isNotFound } from "../client/errors";
import { clientFor } from "../config";
import { NotifyApiError } from "../client/errors";
import {
  CHANNEL_CREDENTIAL_KEYS, CHAT_PROVIDERS, ChannelCredentialsInput, PUSH_PROVIDERS, SafeString, SUBSCRIBER_PROVIDERS,
  type ChannelCredentials, type ChannelSettings, type Subscriber, type SubscriberProviderId as ProviderIdT, type UpdateSubscriberCredentialsBody,
} from "../schemas";
import { checkWith, suggest, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, isPlainObject, project, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, deleteIfPresent, failure, gone, readIfPresent, readInputs } from "./lifecycle";

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

/** The field table of {@link SubscriberCredentials}. */
export const SUBSCRIBER_CREDENTIALS = defineResource({
  name: "SubscriberCredentials",
  module: "subscriberCredentials",
  doc: "A subscriber's credentials for one chat or push provider: a Slack webhook URL, FCM device tokens, and so on. " +
    "The id is `subscriberId/providerId/integrationIdentifier`. The service needs an active integration of the provider in the " +
    "environment: declare it in the same stack and pass its `identifier`. Production keeps only `webhookUrl`, `deviceTokens` and " +
    "`channel` of the credentials; the other fields are sent, not stored, and never show as drift.",
  inputs: {
    subscriberId: field(SafeString(200).min(1, { error: "must not be empty" }), "The subscriber (it must exist). Changing it replaces the resource.", { replaces: true, path: true }),
    providerId: field(SubscriberProviderIdInput,
      `The chat or push provider: a chat provider (${CHAT_PROVIDERS.map((p) => `\`${p}\``).join(", ")}), a push provider ` +
      `(${PUSH_PROVIDERS.map((p) => `\`${p}\``).join(", ")}), or an id of the same shape the service added since (production spells ` +
      "the `platform-` ids with the service's own name). An id one edit away from a known one is refused as a typo. The environment " +
      "needs an active integration of it. Changing it replaces the resource.", { replaces: true }),
    integrationIdentifier: field(SafeString(200).min(1).optional(), "Which integration of that provider, when there are several. Changing it replaces the resource.", { replaces: true }),
    credentials: field(ChannelCredentialsInput, "Webhook URL, device tokens, ...; stored as a secret.", { secret: true }),
    adopt: field(z.boolean().optional(), "Take over credentials already set for this subscriber and provider instead of failing.", { control: true }),
  },
  outputs: {
    integrationId: output(z.string(), "The `_id` of the integration the credentials belong to."),
  },
});

/** Inputs of {@link SubscriberCredentials}. */
export type SubscriberCredentialsArgs = ArgsOf<typeof SUBSCRIBER_CREDENTIALS>;
/** The state of {@link SubscriberCredentials}: the entry as read, each declared input as declared. */
export type SubscriberCredentialsState = StateOf<typeof SUBSCRIBER_CREDENTIALS>;

type Inputs = z.infer<typeof SUBSCRIBER_CREDENTIALS.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

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

/** Maps a channel entry of the subscriber to outputs. */
export function toSubscriberCredentialsOutputs(subscriberId: string, entry: ChannelSettings): Props {
  return stripUndefined({ ...serviceFields(SUBSCRIBER_CREDENTIALS, { ...entry, subscriberId }), integrationId: entry._integrationId });
}

function outputsFor(subscriberId: string, entry: ChannelSettings, declared: Props, keys: string[]): SubscriberCredentialsState {
  const svc = toSubscriberCredentialsOutputs(subscriberId, entry);
  // Fields the service did not return (production drops all but STORED_CREDENTIAL_KEYS) keep the
  // declared value; a stored field missing from the answer is drift and shows.
  if (isPlainObject(declared.credentials)) {
    const read: Props = { ...(isPlainObject(svc.credentials) ? svc.credentials : {}) };
    for (const [k, v] of Object.entries(declared.credentials)) {
      if (read[k] === undefined && !(STORED_CREDENTIAL_KEYS as readonly string[]).includes(k)) read[k] = v;
    }
    svc.credentials = read;
  }
  const outs: Props = { ...svc, ...controlInputs(declared, SUBSCRIBER_CREDENTIALS.controlKeys), declaredKeys: keys };
  for (const k of keys) outs[k] = project(svc[k], declared[k]);
  // The entry in the shape the table gives the state (read leniently: values as returned).
  return stripUndefined(outs) as SubscriberCredentialsState;
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

/**
 * Writes the credentials and answers the subscriber's entry of them from the PUT's answer (the
 * subscriber). The PUT writes the entry of the integration it names, so when the subscriber has
 * one entry of the provider, or one it did not have before (`before`: its entries then, on create),
 * that is it; else {@link findChannel} tells the entries apart, with the integrations listing
 * where the entries do not carry the identifier (production).
 */
async function put(inputs: Inputs, before?: readonly ChannelSettings[]): Promise<ChannelSettings> {
  const sub = await clientFor().subscribers.updateCredentials(inputs.subscriberId, requestBody(SUBSCRIBER_CREDENTIALS, inputs, "create"));
  const ofProvider = (sub.channels ?? []).filter((c) => c.providerId === inputs.providerId);
  const had = new Set((before ?? []).map((c) => c._integrationId));
  const added = before ? ofProvider.filter((c) => !had.has(c._integrationId)) : [];
  const written = ofProvider.length === 1 ? ofProvider[0] : added.length === 1 ? added[0] : undefined;
  const entry = written ? { ...written, integrationIdentifier: inputs.integrationIdentifier ?? written.integrationIdentifier }
    : await findChannel(sub, inputs.providerId, inputs.integrationIdentifier);
  if (!entry) throw new Error(`the service accepted the credentials but the subscriber has no ${inputs.providerId} entry afterwards`);
  return entry;
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(SUBSCRIBER_CREDENTIALS.schema, news, unknownKeyHint(CHANNEL_CREDENTIAL_KEYS)) };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    const diff = diffOf(SUBSCRIBER_CREDENTIALS, olds, news);
    return { ...diff, deleteBeforeReplace: diff.replaces.length > 0 && olds.subscriberId === news.subscriberId && olds.providerId === news.providerId };
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, SUBSCRIBER_CREDENTIALS.inputKeys);
    const action = `set ${inputs.providerId} credentials of subscriber "${inputs.subscriberId}"`;
    let sub: Subscriber;
    try {
      sub = await clientFor().subscribers.get(inputs.subscriberId);
    } catch (err) {
      throw failure(action, err, isNotFound(err) ? missingSubscriberHint(inputs.subscriberId) : undefined);
    }
    const existing = await findChannel(sub, inputs.providerId, inputs.integrationIdentifier);
    if (existing && !inputs.adopt) {
      throw new Error(`Unable to ${action}: the subscriber already has ${inputs.providerId} credentials; set adopt: true to manage them with this stack`);
    }
    if (existing) {
      // Compared as a read compares them: the fields the service stores from the service, the
      // others (which it drops) as declared; written only when they differ.
      return adoptExisting(`${inputs.providerId} credentials of subscriber "${inputs.subscriberId}"`, {
        id: credentialsId(inputs.subscriberId, inputs.providerId, inputs.integrationIdentifier),
        compared: outputsFor(inputs.subscriberId, existing, raw, keys), inputs: raw, diff: provider.diff,
        update: async (olds) => (await provider.update("", olds, raw)).outs,
      });
    }
    try {
      const entry = await put(inputs, sub.channels ?? []);
      return { id: credentialsId(inputs.subscriberId, inputs.providerId, inputs.integrationIdentifier), outs: outputsFor(inputs.subscriberId, entry, raw, keys) };
    } catch (err) {
      throw failure(action, err, credentialsHint(err, inputs));
    }
  },

  async read(id: string, props: Props) {
    const { subscriberId, providerId, integrationIdentifier } = parseCredentialsId(id);
    const keys = declaredKeysOf(props) ?? ["subscriberId", "providerId", "credentials"];
    const sub = await readIfPresent(`read ${providerId} credentials of subscriber "${subscriberId}"`, () => clientFor().subscribers.get(subscriberId));
    const entry = sub && await findChannel(sub, providerId, integrationIdentifier);
    if (!entry) return gone();
    const outs = outputsFor(subscriberId, entry, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, SUBSCRIBER_CREDENTIALS.controlKeys) };
  },

  async update(_id: string, _olds: Props, news: Props) {
    const inputs = news as Inputs;
    try {
      const entry = await put(inputs);
      return { outs: outputsFor(inputs.subscriberId, entry, news, declaredKeys(news, SUBSCRIBER_CREDENTIALS.inputKeys)) };
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
