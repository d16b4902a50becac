/**
 * EnvironmentVariable: a variable of the organisation (`{{env.KEY}}` in workflows), with one value
 * per environment.
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v1/environment-variables; with adopt: GET /v1/environment-variables/{key} first, then
 *           nothing when it is as declared, else PATCH /v1/environment-variables/{key} of what differs
 *   read    GET /v1/environment-variables/{key}
 *   (`value`, the key's own environment's value, needs that environment's id: one
 *   GET /v1/environments/me per provider process, the first time an operation needs it)
 *   update  PATCH /v1/environment-variables/{key} with the values that changed (the service merges by environment)
 *   delete  GET, then DELETE /v1/environment-variables/{key} (a 404 counts as done; a variable holding
 *           values of environments this resource does not declare is left to whoever manages them)
 */
import { z } from "zod";
import { NotifyApiError, isNotFound } from "../client/errors";
import { clientFor } from "../config";
import {
  SECRET_MASK, SafeString, type CreateEnvironmentVariableBody, type EnvironmentVariable as ApiVariable, type UpdateEnvironmentVariableBody,
} from "../schemas";
import { checkWith, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, isPlainObject, project, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, failure, findIfPresent, gone, readIfPresent, readInputs, without } from "./lifecycle";

const VariableKey = z.string().max(256, { error: "must be at most 256 characters" })
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, { error: "must start with a letter followed by letters, digits or underscores (e.g. BASE_URL)" });

const VariableValue = SafeString(256).refine((v) => v !== SECRET_MASK, { error: "must not be the mask the service shows for secret values (eight •); give the real value" });

/** The field table of an {@link EnvironmentVariable}. */
export const ENVIRONMENT_VARIABLE = defineResource({
  name: "EnvironmentVariable",
  module: "environmentVariable",
  doc: "A variable of the organisation, referenced in workflows as `{{env.KEY}}`, with one value per environment. The id is the key. " +
    "With an API key the service lets the provider write only the value of the key's own environment (403 otherwise): declare that " +
    "environment's value here, and the others from stacks configured with their environments' keys (each with `adopt: true`) or in the dashboard.",
  inputs: {
    key: field(VariableKey, "The variable's key, unique in the organisation (letters, digits and underscores, starting with a letter; at most 256). Changing it replaces the variable.", { createOnly: true }),
    type: field(z.enum(["string"]).optional(), "The variable's type; `string`, the only one.", { serviceDefault: "string" }),
    isSecret: field(z.boolean().optional(), "Whether the service hides the values (it shows `••••••••` for each). Default false.", { serviceDefault: false }),
    values: field(z.record(SafeString(100).min(1, { error: "must not be empty" }), VariableValue).optional(),
      "Value per environment id (at most 256 characters each); secret in state whether or not `isSecret` is. Environments not listed keep " +
      "the value they have; one removed from the map keeps its value too (the service cannot remove one). Secret values read back masked " +
      "are carried from state, so drift in them cannot be seen.", { secret: true, entries: { key: "_environmentId", value: "value" } }),
    value: field(VariableValue.optional(),
      "The value in the environment of the provider's API key (`notify:apiKey`), without naming that environment's id: the same program " +
      "then declares each environment's value from the stack of that environment (a portable program, `notify-export --portable`). " +
      "Secret in state; `values` must not give that environment's value too.", { secret: true, local: true }),
    adopt: field(z.boolean().optional(), "Take over an existing variable with the same key instead of failing (its values for other environments stay).", { control: true }),
  },
  outputs: {
    variableId: output(z.string(), "The service's `_id`."),
    organizationId: output(z.string(), "The organisation the variable belongs to."),
  },
});

/** Inputs of an {@link EnvironmentVariable}. */
export type EnvironmentVariableArgs = ArgsOf<typeof ENVIRONMENT_VARIABLE>;
/** The state of an {@link EnvironmentVariable}. */
export type EnvironmentVariableState = StateOf<typeof ENVIRONMENT_VARIABLE>;

type Inputs = z.infer<typeof ENVIRONMENT_VARIABLE.schema>;
type Props = Record<string, unknown>;
type ValueMap = Record<string, string>;

const valuesOf = (p: Props): ValueMap => (isPlainObject(p.values) ? p.values as ValueMap : {});

/** The API key's environment id, when `props` declares `value` (the only input that needs it). */
const ownIf = async (props: Props): Promise<string | undefined> => (props.value === undefined ? undefined : clientFor().ownEnvironmentId());

/**
 * `values` with `value` under the key's own environment `own`: every value the resource writes
 * (`check` refuses a program that declares both).
 */
function allValues(p: Props, own: string | undefined): ValueMap {
  const values = { ...valuesOf(p) };
  if (own !== undefined && p.value !== undefined) values[own] = p.value as string;
  return values;
}

/** Maps the service's variable to outputs (secret values as the service shows them: masked). */
export function toEnvironmentVariableOutputs(v: ApiVariable): Props {
  return stripUndefined({ ...serviceFields(ENVIRONMENT_VARIABLE, v), variableId: v._id, organizationId: v._organizationId });
}

/**
 * Props after an apply or a read: masked values carried from `carried` (the prior state), else
 * the declared ones; a masked value with nothing to carry is left out. Values are seen through the
 * declared map: environments the program does not declare are not compared.
 */
function outputsFor(v: ApiVariable, declared: Props, keys: string[], carried?: Props, own?: string): EnvironmentVariableState {
  const svc = toEnvironmentVariableOutputs(v);
  const known = { ...(carried ? allValues(carried, own) : {}), ...allValues(declared, own) };
  const values: ValueMap = {};
  for (const [env, value] of Object.entries(svc.values as ValueMap)) {
    if (value !== SECRET_MASK) values[env] = value;
    else if (known[env] !== undefined) values[env] = known[env];
  }
  svc.values = values;
  // The key's own environment's value, as `value` declares it; the other values stay in `values`.
  // (Both declared only by an id-only read, which asks for every input: `values` then holds it, as before `value` was.)
  if (own !== undefined && keys.includes("value") && !keys.includes("values")) {
    svc.value = values[own];
    svc.values = Object.fromEntries(Object.entries(values).filter(([env]) => env !== own));
  }
  const out: Props = { ...svc, ...controlInputs(declared, ENVIRONMENT_VARIABLE.controlKeys), declaredKeys: keys };
  for (const k of keys) out[k] = project(svc[k], declared[k]);
  return stripUndefined(out) as EnvironmentVariableState;
}

/** A 403 on values: what an API key may write. */
function scopeHint(err: unknown): string | undefined {
  if (!(err instanceof NotifyApiError) || err.status !== 403) return undefined;
  return "With an API key the service lets the provider write only the value of the key's own environment. Declare in values only the " +
    "environment of the provider's API key (notify:apiKey); set the other environments' values from stacks configured with their " +
    "environments' keys (an EnvironmentVariable with adopt: true each) or in the dashboard";
}

/** The PATCH body of a change from `olds` to `inputs`: only the declared fields and values that differ (the service merges them). */
function patchBody(inputs: Inputs, olds: Props, own: string | undefined): UpdateEnvironmentVariableBody {
  const before = { ...valuesOf(olds), ...(own !== undefined && olds.value !== undefined ? { [own]: olds.value as string } : {}) };
  const changed = Object.entries(allValues(inputs, own)).filter(([env, value]) => before[env] !== value);
  const differing: Props = {};
  for (const [k, v] of Object.entries(inputs)) if (v !== olds[k]) differing[k] = v;
  return requestBody(ENVIRONMENT_VARIABLE, { ...differing, values: changed.length ? Object.fromEntries(changed) : undefined }, "update");
}

/**
 * Takes over `existing` (read already): no request when it is as declared, else one PATCH of the
 * fields and the values that differ. A secret value reads back masked and cannot be compared:
 * declared, it is written.
 */
async function adopt(existing: ApiVariable, raw: Props, keys: string[], own: string | undefined) {
  return adoptExisting(`environment variable "${String(raw.key)}"`, {
    id: existing.key,
    compared: outputsFor(existing, without(raw, ["values", "value"]), keys, undefined, own),
    adopted: () => outputsFor(existing, raw, keys, undefined, own),
    inputs: raw,
    diff: provider.diff,
    update: async (olds) => (await provider.update(existing.key, olds, raw)).outs,
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const failures = checkWith(ENVIRONMENT_VARIABLE.schema, news, unknownKeyHint(Object.keys(ENVIRONMENT_VARIABLE.inputs)));
    // An API key writes only its own environment's value: that one value is given once, as `value` or under its id in `values`.
    if (news.value !== undefined && news.values !== undefined) {
      failures.push({ property: "value", reason: "value: give the API key's environment's value either as value or under its id in values, not both (an API key writes no other environment's value)" });
    }
    return { inputs: stripUndefined(news), failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(ENVIRONMENT_VARIABLE, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, ENVIRONMENT_VARIABLE.inputKeys);
    const api = clientFor().environmentVariables;
    const own = await ownIf(raw);
    const values = allValues(raw, own);
    return createOrAdopt({
      what: `environment variable "${inputs.key}"`, adopt: inputs.adopt, hint: scopeHint,
      refuse: `A variable with key "${inputs.key}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(inputs.key)),
      takeOver: (existing) => adopt(existing, raw, keys, own),
      create: () => api.create(requestBody(ENVIRONMENT_VARIABLE, { ...inputs, values: Object.keys(values).length ? values : undefined }, "create")),
      created: (v) => ({ id: v.key, outs: outputsFor(v, raw, keys, undefined, own) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const own = keys.includes("value") ? await clientFor().ownEnvironmentId() : undefined;
    const v = await readIfPresent(`read environment variable "${id}"`, () => clientFor().environmentVariables.read(id));
    if (!v) return gone();
    const outs = outputsFor(v, props, keys, props, own);
    return { id, props: outs, inputs: readInputs(props, outs, keys, ENVIRONMENT_VARIABLE.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, ENVIRONMENT_VARIABLE.inputKeys);
    const api = clientFor().environmentVariables;
    try {
      const own = news.value !== undefined || olds.value !== undefined ? await clientFor().ownEnvironmentId() : undefined;
      const body = patchBody(inputs, olds, own);
      const v = Object.keys(body).length ? await api.update(id, body) : await api.get(id);
      return { outs: outputsFor(v, news, keys, olds, own) };
    } catch (err) {
      throw failure(`update environment variable "${id}"`, err, scopeHint(err));
    }
  },

  async delete(id: string, props: Props) {
    const api = clientFor().environmentVariables;
    const action = `delete environment variable "${id}"`;
    try {
      const v = await api.get(id);
      // A variable is the organisation's: values of environments this resource does not declare
      // belong to another stack (or the dashboard), so the variable stays for them.
      const keys = declaredKeysOf(props) ?? [];
      const mine = new Set(keys.includes("values") || !keys.includes("value") ? Object.keys(valuesOf(props)) : []);
      if (keys.includes("value")) mine.add(await clientFor().ownEnvironmentId());
      if (v.values.some((x) => !mine.has(x._environmentId))) return;
      await api.delete(id);
    } catch (err) {
      if (isNotFound(err)) return;
      throw failure(action, err);
    }
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
