/**
 * Environment: an environment of the organisation (a tenant with its own API keys and objects).
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v1/environments (+ PUT /v1/environments/{id} for parentId, which the create
 *           ignores), then GET /v1/environments (the create answers no colour and its keys
 *           encrypted); with adopt (and for Development and Production): GET /v1/environments
 *           first, then nothing when it is as declared, else one PUT of what differs and GET
 *   read    GET /v1/environments (the service has no read-one route: one listing serves every read)
 *   update  PUT /v1/environments/{id} (partial: only the fields that differ from the state), and
 *           GET /v1/environments after a rename (the slug follows the name)
 *   delete  DELETE /v1/environments/{id} (a 404 counts as done; Development and Production are only forgotten)
 */
import { z } from "zod";
import { NotifyApiError, isNotFound } from "../client/errors";
import { clientFor } from "../config";
import { SafeString, type CreateEnvironmentBody, type Environment as ApiEnvironment, type UpdateEnvironmentBody } from "../schemas";
import { checkWith, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, project, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, failure, readInputs, without } from "./lifecycle";

/** The two environments every organisation has; the service refuses to create, rename or delete them. */
export const SYSTEM_ENVIRONMENTS = ["Development", "Production"] as const;
const isSystem = (name: unknown) => (SYSTEM_ENVIRONMENTS as readonly unknown[]).includes(name);

/** class-validator's IsHexColor, which the service checks `color` with. */
const HEX_COLOR = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

const EnvironmentName = SafeString(200).min(1, { error: "must not be empty" })
  .refine((n) => n.trim() === n, { error: "must not start or end with whitespace (the service trims it, which would show as drift)" })
  .refine((n) => isSystem(n) || !["development", "production"].includes(n.toLowerCase()), {
    error: "the service reserves Development and Production (in any letter case); pick another name, or write Development or Production exactly with adopt: true to manage that environment",
  });

/** The field table of an {@link Environment}. */
export const ENVIRONMENT = defineResource({
  name: "Environment",
  module: "environment",
  doc: "An environment of the organisation: a tenant with its own API keys, integrations, workflows and subscribers. " +
    "The id is the environment's `_id`. Creating and deleting environments through the API needs a plan with environment " +
    "management (Business or above; the service answers 402 Payment Required otherwise). Development and Production always " +
    "exist: declare them with `adopt: true` to manage their colour; they are never renamed or deleted.",
  inputs: {
    name: field(EnvironmentName, "The environment's name, unique in the organisation; the natural key for `adopt`. `Development` and `Production` need `adopt: true` and cannot be renamed."),
    color: field(z.string().regex(HEX_COLOR, { error: "must be a hex colour such as #3498db" }).optional(),
      "Hex colour shown in the dashboard. Required to create an environment; when left out of an adopted one, the service's stays.", { filled: true }),
    parentId: field(SafeString(100).min(1, { error: "must not be empty" }).optional(),
      "The parent environment's id. The service validates but ignores it on create, so the provider sets it with an update right after; " +
      "a service that does not return it (`_parentId`) never shows it as drift.", { updateOnly: true, readAs: "_parentId" }),
    adopt: field(z.boolean().optional(), "Take over an existing environment with the same name instead of failing (needed for Development and Production).", { control: true }),
  },
  outputs: {
    environmentId: output(z.string(), "The service's `_id`; also the resource id, and the `_environmentId` other objects name."),
    organizationId: output(z.string(), "The organisation the environment belongs to."),
    identifier: output(z.string(), "The identifier the service generated."),
    slug: output(z.string().optional(), "The environment's URL slug."),
    type: output(z.string().optional(), "`dev` for Development, `prod` for Production and every other environment."),
    apiKeys: output(z.array(z.string()), "The environment's API keys, secret, as the list gives them (never the encrypted keys of the create answer). Empty where the service does not show them to the caller."),
  },
  secretOutputs: ["apiKeys"],
});

/** Inputs of an {@link Environment}. */
export type EnvironmentArgs = ArgsOf<typeof ENVIRONMENT>;
/** The state of an {@link Environment}. */
export type EnvironmentState = StateOf<typeof ENVIRONMENT>;

type Inputs = z.infer<typeof ENVIRONMENT.schema>;
type Props = Record<string, unknown>;

/** Maps the service's environment to outputs: its fields as the table names them; the usable keys only. */
export function toEnvironmentOutputs(e: ApiEnvironment): Props {
  return stripUndefined({
    ...serviceFields(ENVIRONMENT, e),
    environmentId: e._id,
    organizationId: e._organizationId,
    identifier: e.identifier,
    slug: e.slug,
    type: e.type ?? undefined,
    // The create answer's keys are encrypted (`nvsk.`); only clear keys are usable.
    apiKeys: (e.apiKeys ?? []).map((k) => k.key).filter((k) => !k.startsWith("nvsk.")),
  });
}

/** Props after an apply or a read: the service's view, each declared input seen through its declared shape. */
function outputsFor(e: ApiEnvironment, declared: Props, keys: string[], carried?: Props): EnvironmentState {
  const svc = toEnvironmentOutputs(e);
  // Fields a service may not return are carried, so they never show as drift.
  for (const k of ["parentId", "color"]) if (svc[k] === undefined) svc[k] = carried?.[k] ?? declared[k];
  const out: Props = { ...svc, ...controlInputs(declared, ENVIRONMENT.controlKeys), declaredKeys: keys };
  for (const k of keys) out[k] = project(svc[k], declared[k]);
  return stripUndefined(out) as EnvironmentState;
}

/** The state after an update that wrote the declared fields: the prior state, each declared input as now held. */
function written(olds: Props, news: Props, keys: string[]): EnvironmentState {
  const out: Props = { ...without(olds, [...ENVIRONMENT.controlKeys, "declaredKeys"]), ...controlInputs(news, ENVIRONMENT.controlKeys), declaredKeys: keys };
  for (const k of keys) out[k] = news[k];
  return stripUndefined(out) as EnvironmentState;
}

/** The update body: the declared fields, never the name of Development or Production (the service refuses any). */
function updateBody(inputs: Inputs, currentName: string): UpdateEnvironmentBody {
  return requestBody(ENVIRONMENT, { ...inputs, name: isSystem(currentName) || inputs.name === currentName ? undefined : inputs.name }, "update");
}

const PLAN_HINT = "The organisation's plan does not include managing environments through the API (the service answers 402 Payment Required on the Free and Pro plans). " +
  "Create the environment in the dashboard and manage it here with adopt: true, or import it (its id is the environment's _id), or upgrade to a plan with environment management";
const planHint = (err: unknown) => (err instanceof NotifyApiError && err.status === 402 ? PLAN_HINT : undefined);
/** The service refuses a duplicate name with 400 "Environment name must be unique", not 409 (production-notes.md, Third pass §1). */
const nameTaken = (err: unknown): err is NotifyApiError => err instanceof NotifyApiError && err.status === 400 && /must be unique/i.test(err.serviceMessage);

/**
 * The environment as the service now lists it, from a listing of its own: a read-back after a
 * write, so neither what it shows nor how many requests it costs depends on other writes in flight.
 */
async function current(id: string): Promise<ApiEnvironment> {
  const e = (await clientFor().environments.list()).find((x) => x._id === id);
  if (!e) throw new Error(`environment ${id} is not in the organisation's list`);
  return e;
}

/** What is written to bring an environment holding `held` (name, colour, parent) to the declared inputs: the fields that differ. */
function changes(inputs: Inputs, held: { name: string; color?: unknown; parentId?: unknown }): UpdateEnvironmentBody {
  const body = updateBody(inputs, held.name);
  if (body.color === held.color) delete body.color;
  if (body.parentId !== undefined && body.parentId === held.parentId) delete body.parentId;
  return body;
}

/** Writes the declared fields that differ from `existing` (one partial PUT, none when nothing does), and answers it as it then is. */
async function write(existing: ApiEnvironment, inputs: Inputs): Promise<ApiEnvironment> {
  const body = changes(inputs, { name: existing.name, color: existing.color, parentId: existing._parentId });
  if (!Object.keys(body).length) return existing;
  await clientFor().environments.update(existing._id, body);
  return current(existing._id);
}

/**
 * Takes over `existing` (listed already): no request when it is as declared, else one PUT of what
 * differs. A parent or colour the service does not return cannot be compared: declared, it is written.
 */
async function adopt(existing: ApiEnvironment, raw: Props, keys: string[]) {
  return adoptExisting(`environment "${String(raw.name)}"`, {
    id: existing._id,
    compared: outputsFor(existing, without(raw, ["parentId", "color"]), keys),
    adopted: () => outputsFor(existing, raw, keys),
    inputs: raw,
    diff: provider.diff,
    update: async () => outputsFor(await write(existing, raw as Inputs), raw, keys),
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const failures = checkWith(ENVIRONMENT.schema, news, unknownKeyHint(Object.keys(ENVIRONMENT.inputs)));
    if (isSystem(news.name) && news.adopt !== true) {
      failures.push({ property: "name", reason: `name: the ${String(news.name)} environment always exists and cannot be created; set adopt: true to manage it (its colour), or pick another name` });
    } else if (news.color === undefined && news.adopt !== true) {
      failures.push({ property: "color", reason: "color: is required to create an environment (a hex colour such as #3498db); it may be left out only with adopt: true" });
    }
    return { inputs: stripUndefined(news), failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(ENVIRONMENT, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, ENVIRONMENT.inputKeys);
    const api = clientFor().environments;
    const what = `environment "${inputs.name}"`;
    return createOrAdopt({
      what,
      // Development and Production always exist: declaring one takes it over (check asks for adopt: true).
      adopt: inputs.adopt || isSystem(inputs.name),
      refuse: `An environment named "${inputs.name}" already exists; set adopt: true to manage it with this stack`,
      exists: nameTaken, hint: planHint,
      find: async () => {
        const existing = (await api.list()).find((e) => e.name === inputs.name);
        if (!existing && isSystem(inputs.name)) throw new Error(`the organisation has no ${inputs.name} environment`);
        return existing;
      },
      takeOver: (existing) => adopt(existing, raw, keys),
      create: () => api.create(requestBody(ENVIRONMENT, inputs, "create")),
      created: async (made) => {
        try {
          // parentId is ignored by create; an update stores it.
          if (inputs.parentId !== undefined) await api.update(made._id, { parentId: inputs.parentId });
          return { id: made._id, outs: outputsFor(await current(made._id), raw, keys) };
        } catch (err) {
          throw failure(`create ${what}`, err, planHint(err));
        }
      },
      // The parent is what the later update would have stored.
      partial: (made) => ({ id: made._id, outs: outputsFor(made, { ...raw, parentId: undefined }, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    let env: ApiEnvironment | undefined;
    try {
      env = await clientFor().environments.get(id);
    } catch (err) {
      throw failure(`read environment ${id}`, err);
    }
    if (!env) return { id: "", props: {} };
    const outs = outputsFor(env, props, keys, props);
    return { id, props: outs, inputs: readInputs(props, outs, keys, ENVIRONMENT.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, ENVIRONMENT.inputKeys);
    const action = `update environment "${inputs.name}"`;
    if (isSystem(olds.name) && inputs.name !== olds.name) {
      throw new Error(`Unable to ${action}: the ${String(olds.name)} environment cannot be renamed; declare another Environment for "${inputs.name}"`);
    }
    try {
      // The state holds the service's values as last read (a refresh brings hand edits in first):
      // only what differs from them is written. The service's answer is not the environment, so
      // the state follows what was written, but for a rename, after which the service derives
      // another slug: that is read back.
      const body = changes(inputs, { name: String(olds.name), color: olds.color, parentId: olds.parentId });
      if (Object.keys(body).length) await clientFor().environments.update(id, body);
      if (body.name !== undefined) return { outs: outputsFor(await current(id), news, keys, olds) };
      return { outs: written(olds, news, keys) };
    } catch (err) {
      throw failure(action, err);
    }
  },

  async delete(id: string, props: Props) {
    // The service refuses to delete Development and Production: removing one from the stack forgets it.
    if (isSystem(props.name)) return;
    try {
      await clientFor().environments.delete(id);
    } catch (err) {
      if (isNotFound(err)) return;
      const hint = err instanceof NotifyApiError && err.status === 402
        ? "The plan does not allow deleting environments through the API: delete it in the dashboard, or keep it and remove it from the stack with `pulumi state delete`"
        : undefined;
      throw failure(`delete environment "${String(props.name)}"`, err, hint);
    }
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
