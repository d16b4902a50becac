/**
 * Integration: a delivery provider connected to an environment for one channel.
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v1/integrations (+ POST /v1/integrations/{id}/set-primary when primary);
 *           with adopt: GET /v1/integrations, then PUT /v1/integrations/{id}
 *   read    GET /v1/integrations (one listing shared by concurrent reads)
 *   update  PUT /v1/integrations/{id} (+ set-primary)
 *   delete  DELETE /v1/integrations/{id} (soft delete; a 404 counts as done)
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isConflict, isNotFound } from "../client/errors";
import { clientFor } from "../config";
import {
  CREDENTIAL_KEYS, Channel, ConfigurationsInput, CredentialsInput, SafeString, StepFilter,
  type Configurations, type Credentials, type Integration as ApiIntegration, type StepFilter as StepFilterT, type UpdateIntegrationBody,
} from "../schemas";
import { changedKeys, checkWith, controlInputs, readInputs, declaredKeys, failure, project, stripUndefined, unknownKeyHint, withSecrets, type CheckFailure } from "./common";
import { dynamicProvider as makeDynamicProvider, NotifyResource } from "./dynamic";

/** Inputs of an {@link Integration}. */
export interface IntegrationArgs {
  /** Unique identifier within the environment; the natural key for `adopt`. */
  identifier: pulumi.Input<string>;
  /** Display name. Defaults to what the service picks (the provider id). */
  name?: pulumi.Input<string>;
  /** The delivery provider, e.g. `sendgrid`, `twilio`, `slack`, `fcm`. Changing it replaces the integration. */
  providerId: pulumi.Input<string>;
  /** One of `in_app`, `email`, `sms`, `chat`, `push`. Changing it replaces the integration. */
  channel: pulumi.Input<"in_app" | "email" | "sms" | "chat" | "push">;
  /** Provider credentials; stored as a secret. The service does not return them, so drift in them cannot be seen. */
  credentials?: pulumi.Input<{ [K in keyof Credentials]?: pulumi.Input<Credentials[K]> }>;
  /** Whether the integration processes events and messages. */
  active?: pulumi.Input<boolean>;
  /** Make this the default integration of its channel (through set-primary). */
  primary?: pulumi.Input<boolean>;
  /** Conditions under which this integration is used. */
  conditions?: pulumi.Input<pulumi.Input<StepFilterT>[]>;
  /** Inbound webhook settings; stored as a secret. */
  configurations?: pulumi.Input<Configurations>;
  /** Environment to create the integration in; defaults to the API key's environment. */
  environmentId?: pulumi.Input<string>;
  /** Let the service test the credentials on create and update (default false). */
  check?: pulumi.Input<boolean>;
  /** Take over an existing integration with the same identifier instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/** The input keys compared by diff, in display order. */
export const INTEGRATION_INPUT_KEYS = [
  "identifier", "name", "providerId", "channel", "credentials", "active", "primary", "conditions", "configurations", "environmentId",
] as const;
/**
 * Changing any of these replaces the integration: the service cannot change an integration's
 * provider or channel, nor move it to another environment.
 */
export const INTEGRATION_REPLACE_ON_CHANGE = ["providerId", "channel", "environmentId"] as const;
/** Inputs (and outputs) kept secret in state and in the engine's events. */
export const INTEGRATION_SECRET_KEYS = ["credentials", "configurations"] as const;

/** Schema of the inputs, used by check. */
export const IntegrationInputs = z.strictObject({
  identifier: SafeString(200).min(1, { error: "must not be empty" }),
  name: SafeString(200).optional(),
  providerId: SafeString(100).min(1, { error: "must not be empty" }),
  channel: Channel,
  credentials: CredentialsInput.optional(),
  active: z.boolean().optional(),
  primary: z.boolean().optional(),
  conditions: z.array(StepFilter).optional(),
  configurations: ConfigurationsInput.optional(),
  environmentId: SafeString(100).optional(),
  check: z.boolean().optional(),
  adopt: z.boolean().optional(),
  __provider: z.string().optional(),
});

type Inputs = z.infer<typeof IntegrationInputs>;
type Outputs = Record<string, unknown>;

/** Maps the service's integration to outputs: api.md's fields, `_id` as `integrationId`. */
export function toIntegrationOutputs(i: ApiIntegration): Outputs {
  return stripUndefined({
    integrationId: i._id,
    environmentId: i._environmentId,
    organizationId: i._organizationId,
    name: i.name,
    identifier: i.identifier,
    providerId: i.providerId,
    channel: i.channel,
    credentials: i.credentials,
    configurations: i.configurations,
    active: i.active,
    primary: i.primary,
    conditions: i.conditions ?? [],
    deleted: i.deleted,
    deletedAt: i.deletedAt ?? undefined,
    deletedBy: i.deletedBy ?? undefined,
  });
}

/**
 * Outputs after an apply or a read: the service's view, with each declared input seen through
 * its declared shape, and credentials carried from `carried` where the service hides them.
 */
function outputsFor(i: ApiIntegration, declared: Record<string, unknown>, keys: string[], carried?: Outputs): Outputs {
  const svc = toIntegrationOutputs(i);
  if (svc.credentials === undefined) svc.credentials = carried?.credentials ?? declared.credentials;
  const out: Outputs = { ...svc, ...controlInputs(declared), declaredKeys: keys };
  for (const k of keys) out[k] = project(svc[k], declared[k]);
  return stripUndefined(out);
}

function updateBody(inputs: Inputs): UpdateIntegrationBody {
  return stripUndefined({
    name: inputs.name, identifier: inputs.identifier, active: inputs.active, credentials: inputs.credentials,
    conditions: inputs.conditions, configurations: inputs.configurations, _environmentId: inputs.environmentId,
    check: inputs.check ?? false,
  });
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

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Outputs, news: Outputs): Promise<{ inputs: Outputs; failures: CheckFailure[] }> {
    const failures = checkWith(IntegrationInputs, news, unknownKeyHint([...CREDENTIAL_KEYS, ...Object.keys(IntegrationInputs.shape)]));
    // The service activates an integration when it becomes primary.
    if (news.primary === true && news.active === false) {
      failures.push({ property: "primary", reason: "primary: a primary integration is always active; remove active: false or primary: true" });
    }
    return { inputs: stripUndefined(news), failures };
  },

  async diff(_id: string, olds: Outputs, news: Outputs) {
    const changed = changedKeys(olds, news, INTEGRATION_INPUT_KEYS);
    return {
      changes: changed.length > 0,
      replaces: changed.filter((k) => (INTEGRATION_REPLACE_ON_CHANGE as readonly string[]).includes(k)),
      // The identifier is unique per environment: the old one must go first unless either changes.
      deleteBeforeReplace: changed.some((k) => (INTEGRATION_REPLACE_ON_CHANGE as readonly string[]).includes(k)) &&
        !changed.includes("identifier") && !changed.includes("environmentId"),
    };
  },

  async create(raw: Outputs) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, INTEGRATION_INPUT_KEYS);
    const api = clientFor().integrations;
    const action = `create integration "${inputs.identifier}"`;
    let created: ApiIntegration;
    try {
      created = await api.create(stripUndefined({
        name: inputs.name, identifier: inputs.identifier, providerId: inputs.providerId, channel: inputs.channel,
        credentials: inputs.credentials, active: inputs.active, conditions: inputs.conditions,
        configurations: inputs.configurations, _environmentId: inputs.environmentId, check: inputs.check ?? false,
      }));
    } catch (err) {
      if (!isConflict(err)) throw failure(action, err);
      // Our own earlier attempt may have gone through before a retry: take that one over.
      const existing = await api.findByIdentifier(inputs.identifier, inputs.environmentId);
      const ours = err.attempts > 1 && existing && existing.providerId === inputs.providerId && existing.channel === inputs.channel;
      if (!existing || (!inputs.adopt && !ours)) {
        throw failure(action, err, `An integration with identifier "${inputs.identifier}" already exists; set adopt: true to manage it with this stack`);
      }
      if (existing.providerId !== inputs.providerId || existing.channel !== inputs.channel) {
        throw failure(action, err, `The existing integration is ${existing.providerId}/${existing.channel}, not ${inputs.providerId}/${inputs.channel}, so it cannot be adopted`);
      }
      try {
        created = await api.update(existing._id, updateBody(inputs));
      } catch (e) {
        throw failure(`adopt integration "${inputs.identifier}"`, e);
      }
    }
    try {
      created = await applyPrimary(created._id, inputs, created);
    } catch (e) {
      throw failure(`make integration "${inputs.identifier}" primary`, e);
    }
    return { id: created._id, outs: outputsFor(created, raw, keys) };
  },

  async read(id: string, props: Outputs) {
    const keys = Array.isArray(props.declaredKeys) ? (props.declaredKeys as string[]) : [];
    let current: ApiIntegration | undefined;
    try {
      current = await clientFor().integrations.get(id);
    } catch (err) {
      throw failure(`read integration ${id}`, err);
    }
    if (!current) return { id: "", props: {} };
    const outs = outputsFor(current, props, keys, props);
    return { id, props: outs, inputs: readInputs(props, outs, keys) };
  },

  async update(id: string, _olds: Outputs, news: Outputs) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, INTEGRATION_INPUT_KEYS);
    const api = clientFor().integrations;
    try {
      let updated = await api.update(id, updateBody(inputs));
      updated = await applyPrimary(id, inputs, updated);
      // What was just sent is what the service now holds (it may not echo credentials back).
      return { outs: outputsFor(updated, news, keys) };
    } catch (err) {
      throw failure(`update integration "${inputs.identifier}"`, err);
    }
  },

  async delete(id: string, props: Outputs) {
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

/**
 * An integration of the notification service: a delivery provider (SendGrid, Twilio, Slack, FCM,
 * ...) connected to an environment for one channel, with its credentials.
 *
 * @example
 * const email = new notify.Integration("sendgrid", {
 *   identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email",
 *   credentials: { apiKey: cfg.requireSecret("sendgridKey"), from: "no-reply@example.com" },
 *   active: true,
 * });
 */
export class Integration extends NotifyResource {
  /** The service's `_id`; also the resource id. */
  declare readonly integrationId: pulumi.Output<string>;
  declare readonly environmentId: pulumi.Output<string>;
  /** The organisation the integration belongs to. */
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly identifier: pulumi.Output<string>;
  declare readonly providerId: pulumi.Output<string>;
  declare readonly channel: pulumi.Output<string>;
  /** Secret. The last applied credentials (the service does not return them in production). */
  declare readonly credentials: pulumi.Output<Credentials | undefined>;
  declare readonly configurations: pulumi.Output<Configurations | undefined>;
  declare readonly active: pulumi.Output<boolean>;
  declare readonly primary: pulumi.Output<boolean>;
  declare readonly conditions: pulumi.Output<StepFilterT[]>;
  /** Whether the service has (soft-)deleted it; a refresh of a deleted integration drops it from the stack. */
  declare readonly deleted: pulumi.Output<boolean>;
  /** When it was deleted (ISO 8601), if it was. */
  declare readonly deletedAt: pulumi.Output<string | undefined>;
  /** Who deleted it, if it was. */
  declare readonly deletedBy: pulumi.Output<string | undefined>;
  /** The input properties this program sets (used for exact diffs). */
  declare readonly declaredKeys: pulumi.Output<string[]>;

  constructor(name: string, args: IntegrationArgs, opts?: pulumi.CustomResourceOptions) {
    const secretArgs = withSecrets(args, INTEGRATION_SECRET_KEYS);
    const outputs = Object.fromEntries([
      "integrationId", "organizationId", "deleted", "deletedAt", "deletedBy", "declaredKeys",
      ...INTEGRATION_INPUT_KEYS.filter((k) => !(k in secretArgs)),
    ].map((k) => [k, undefined]));
    super("Integration", "integration", name, { ...outputs, ...secretArgs }, {
      ...opts,
      additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...INTEGRATION_SECRET_KEYS],
    });
  }
}

