/**
 * Integration: a delivery provider connected to an environment for one channel.
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v1/integrations (+ POST /v1/integrations/{id}/set-primary when primary);
 *           with adopt: GET /v1/environments (the key's environment, unless environmentId is declared)
 *           and GET /v1/integrations first, then nothing when it is as declared, else the
 *           update's requests (credentials, which the service hides, count as differing)
 *   read    GET /v1/integrations (one listing shared by concurrent reads)
 *   update  PUT /v1/integrations/{id} (+ set-primary); a change of primary alone: GET /v1/integrations + set-primary
 *   delete  DELETE /v1/integrations/{id} (soft delete; a 404 counts as done)
 */
import { z } from "zod";
import { isConflict, isNotFound } from "../client/errors";
import { clientFor, resolveConnection } from "../config";
import {
  CREDENTIAL_KEYS, Channel, ConfigurationsInput, CredentialsInput, SafeString, StepFilter,
  type CreateIntegrationBody, type Integration as ApiIntegration, type UpdateIntegrationBody,
} from "../schemas";
import { checkWith, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, isPlainObject, project, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, failure, readInputs, without } from "./lifecycle";

/** The field table of an {@link Integration}. */
export const INTEGRATION = defineResource({
  name: "Integration",
  module: "integration",
  doc: "An integration of the notification service: a delivery provider (SendGrid, Twilio, Slack, FCM, ...) connected to an environment for one channel, with its credentials.",
  inputs: {
    identifier: field(SafeString(200).min(1, { error: "must not be empty" }), "Unique identifier within the environment; the natural key for `adopt`."),
    name: field(SafeString(200).optional(), "Display name. Defaults to what the service picks (the provider id).", { filled: true }),
    providerId: field(SafeString(100).min(1, { error: "must not be empty" }), "The delivery provider, e.g. `sendgrid`, `twilio`, `slack`, `fcm`. Changing it replaces the integration.", { createOnly: true }),
    channel: field(Channel, "One of `in_app`, `email`, `sms`, `chat`, `push`. Changing it replaces the integration.", { createOnly: true }),
    kind: field(z.enum(["delivery", "agent"]).optional(), "`delivery` (the default) or `agent` (an agent-runtime integration, which needs no channel). Set on create only: changing it replaces the integration.", { createOnly: true, serviceDefault: "delivery" }),
    credentials: field(CredentialsInput.optional(), "Provider credentials; stored as a secret. The service does not return them, so drift in them cannot be seen.", { secret: true }),
    active: field(z.boolean().optional(), "Whether the integration processes events and messages.", { filled: true }),
    primary: field(z.boolean().optional(), "Make this the default integration of its channel (through set-primary).", { filled: true, local: true }),
    conditions: field(z.array(StepFilter).optional(), "Conditions under which this integration is used.", { filled: true }),
    configurations: field(ConfigurationsInput.optional(), "Inbound webhook settings; stored as a secret.", { secret: true }),
    // The service cannot move an integration to another environment.
    environmentId: field(SafeString(100).optional(), "Environment to create the integration in; defaults to the API key's environment. Changing it replaces the integration.", { replaces: true, filled: true, api: "_environmentId" }),
    check: field(z.boolean().optional(), "Let the service test the credentials on create and update (default false).", { control: true }),
    adopt: field(z.boolean().optional(), "Take over an existing integration with the same identifier instead of failing.", { control: true }),
  },
  outputs: {
    integrationId: output(z.string(), "The service's `_id`; also the resource id."),
    organizationId: output(z.string(), "The organisation the integration belongs to."),
    deleted: output(z.boolean(), "Whether the service has (soft-)deleted it; a refresh of a deleted integration drops it from the stack."),
    deletedAt: output(z.string().optional(), "When it was deleted (ISO 8601), if it was."),
    deletedBy: output(z.string().optional(), "Who deleted it, if it was."),
  },
});

/** Inputs of an {@link Integration}. */
export type IntegrationArgs = ArgsOf<typeof INTEGRATION>;
/** The state of an {@link Integration}: the service's view, each declared input as declared. */
export type IntegrationState = StateOf<typeof INTEGRATION>;

type Inputs = z.infer<typeof INTEGRATION.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Maps the service's integration to outputs: its fields as the table names them, `_id` as `integrationId`. */
export function toIntegrationOutputs(i: ApiIntegration): Props {
  return stripUndefined({
    ...serviceFields(INTEGRATION, i),
    conditions: i.conditions ?? [],
    integrationId: i._id,
    organizationId: i._organizationId,
    deleted: i.deleted,
    deletedAt: i.deletedAt ?? undefined,
    deletedBy: i.deletedBy ?? undefined,
  });
}

/**
 * Props after an apply or a read: the service's view, with each declared input seen through
 * its declared shape, and credentials carried from `carried` where the service hides them.
 */
/** A value the service encrypted (its `nvsk.` prefix, then hex): never the declared one. */
const ENCRYPTED = /^nvsk\./;

/**
 * The credentials to keep: the answered ones where they are plain. An answer that hides them (none,
 * or `{}`: the current service to an API key) takes the `known` ones (the prior state's, else the
 * declared), and a field it answers encrypted (older servers' write answers, a new ciphertext
 * each time) the known value of that field: an encrypted or masked value never stands for a
 * declared one, so it can neither show as a change nor be written back.
 */
export function plainCredentials(answered: unknown, known: unknown): Props | undefined {
  const knownProps = isPlainObject(known) ? known : undefined;
  if (!isPlainObject(answered) || Object.keys(answered).length === 0) return knownProps;
  const out: Props = {};
  for (const [k, v] of Object.entries(answered)) {
    const value = typeof v === "string" && ENCRYPTED.test(v) ? knownProps?.[k] : v;
    if (value !== undefined) out[k] = value;
  }
  return out;
}

function outputsFor(i: ApiIntegration, declared: Props, keys: string[], carried?: Props): IntegrationState {
  const svc = toIntegrationOutputs(i);
  svc.credentials = plainCredentials(svc.credentials, carried?.credentials ?? declared.credentials);
  const out: Props = { ...svc, ...controlInputs(declared, INTEGRATION.controlKeys), declaredKeys: keys };
  for (const k of keys) out[k] = project(svc[k], declared[k]);
  // The service's view in the shape the table gives the state (read leniently: values as returned).
  return stripUndefined(out) as IntegrationState;
}

/** The body of a create or an update: the table's fields, and `check` (default false). */
function body(inputs: Inputs, op: "create"): CreateIntegrationBody;
function body(inputs: Inputs, op: "update"): UpdateIntegrationBody;
function body(inputs: Inputs, op: "create" | "update"): CreateIntegrationBody | UpdateIntegrationBody {
  const check = inputs.check ?? false;
  if (op === "create") {
    const fields: Omit<CreateIntegrationBody, "check"> = requestBody(INTEGRATION, inputs, op);
    return { ...fields, check };
  }
  const fields: Omit<UpdateIntegrationBody, "check"> = requestBody(INTEGRATION, inputs, op);
  return { ...fields, check };
}

async function applyPrimary(id: string, inputs: Inputs, current: ApiIntegration): Promise<ApiIntegration> {
  if (inputs.primary === true && !current.primary) return clientFor().integrations.setPrimary(id);
  if (inputs.primary === false && current.primary) {
    throw new Error(
      `integration "${inputs.identifier}" is primary and the service has no way to unset that; ` +
      "make another integration of the channel primary, or remove primary: false",
    );
  }
  return current;
}

/**
 * The environment of the connection's API key: the one whose keys, as the environments list shows
 * them, include it; undefined where the list does not show keys (role-based access control).
 */
async function keyEnvironment(): Promise<string | undefined> {
  const { apiKey } = resolveConnection();
  const environments = await clientFor().environments.list();
  return environments.find((e) => (e.apiKeys ?? []).some((k) => k.key === apiKey))?._id;
}

/**
 * Takes over `existing` (read already): no request when it is as declared, else the update's
 * requests for what differs. Credentials the service does not return cannot be compared: declared,
 * they are written (one PUT); the configurations it returns are compared.
 */
async function adopt(existing: ApiIntegration, raw: Props, keys: string[], action: string) {
  const inputs = raw as Inputs;
  if (existing.providerId !== inputs.providerId || existing.channel !== inputs.channel) {
    throw new Error(`Unable to ${action}: the existing integration is ${existing.providerId}/${existing.channel}, not ${inputs.providerId}/${inputs.channel}, so it cannot be adopted`);
  }
  return adoptExisting(`integration "${inputs.identifier}"`, {
    id: existing._id,
    compared: outputsFor(existing, without(raw, ["credentials"]), keys),
    adopted: () => outputsFor(existing, raw, keys),
    inputs: raw,
    diff: provider.diff,
    update: async (olds) => (await provider.update(existing._id, olds, raw)).outs,
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const failures = checkWith(INTEGRATION.schema, news, unknownKeyHint([...CREDENTIAL_KEYS, ...Object.keys(INTEGRATION.inputs)]));
    // The service activates an integration when it becomes primary.
    if (news.primary === true && news.active === false) {
      failures.push({ property: "primary", reason: "primary: a primary integration is always active; remove active: false or primary: true" });
    }
    return { inputs: stripUndefined(news), failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    const diff = diffOf(INTEGRATION, olds, news);
    // The identifier is unique per environment: the old one must go first unless either changes.
    return { ...diff, deleteBeforeReplace: diff.replaces.length > 0 && !diff.changed.includes("identifier") && !diff.changed.includes("environmentId") };
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, INTEGRATION.inputKeys);
    const api = clientFor().integrations;
    const what = `integration "${inputs.identifier}"`;
    const refuse = `An integration with identifier "${inputs.identifier}" already exists; set adopt: true to manage it with this stack`;
    // The listing spans the organisation, so looking first needs the environment: the declared
    // one, else the API key's. Where that cannot be told, the create goes first (one the service
    // refuses as a duplicate changes nothing), and its refusal is about the identifier in any environment.
    let environmentId = inputs.environmentId;
    return createOrAdopt({
      what, adopt: inputs.adopt, refuse,
      hint: (err) => (isConflict(err) ? refuse : undefined),
      find: async () => {
        environmentId ??= await keyEnvironment();
        return environmentId ? api.findByIdentifier(inputs.identifier, environmentId) : undefined;
      },
      conflicting: () => api.findByIdentifier(inputs.identifier, environmentId),
      ours: (existing) => existing.providerId === inputs.providerId && existing.channel === inputs.channel,
      takeOver: (existing) => adopt(existing, raw, keys, `create ${what}`),
      create: () => api.create(body(inputs, "create")),
      created: async (made) => {
        try {
          made = await applyPrimary(made._id, inputs, made);
        } catch (e) {
          throw failure(`make ${what} primary`, e);
        }
        return { id: made._id, outs: outputsFor(made, raw, keys) };
      },
      partial: (made) => ({ id: made._id, outs: outputsFor(made, raw, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    let current: ApiIntegration | undefined;
    try {
      current = await clientFor().integrations.get(id);
    } catch (err) {
      throw failure(`read integration ${id}`, err);
    }
    if (!current) return { id: "", props: {} };
    const outs = outputsFor(current, props, keys, props);
    return { id, props: outs, inputs: readInputs(props, outs, keys, INTEGRATION.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, INTEGRATION.inputKeys);
    const api = clientFor().integrations;
    try {
      // A change of `primary` alone is the set-primary call alone.
      const local = Object.entries(INTEGRATION.inputs).filter(([, f]) => f.local).map(([k]) => k);
      const changed = diffOf(INTEGRATION, olds, news).changed;
      const current = changed.length && changed.every((k) => local.includes(k)) ? await api.get(id) : undefined;
      let updated = current ?? await api.update(id, body(inputs, "update"));
      updated = await applyPrimary(id, inputs, updated);
      // What was just sent is what the service now holds (it may not echo credentials back).
      return { outs: outputsFor(updated, news, keys) };
    } catch (err) {
      throw failure(`update integration "${inputs.identifier}"`, err);
    }
  },

  async delete(id: string, props: Props) {
    const api = clientFor().integrations;
    const action = `delete integration "${String(props.identifier)}"`;
    try {
      await api.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw failure(action, err);
      // Gone already counts as deleted. But the service deletes only within the API key's own
      // environment (its remove-integration use case filters on it) while the listing spans the
      // organisation: an integration of another environment answers 404 and stays.
      const still = await api.get(id).catch(() => undefined);
      if (still) {
        throw failure(action, err, `The integration is in environment ${still._environmentId}, which this API key cannot change; ` +
          "delete it with that environment's API key (a provider configured with it) or in the dashboard, then run this again");
      }
    }
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
