/**
 * Context: a tenant, app or workspace the service knows by type and id, with custom data that
 * triggers carry as context keys (`type:id`).
 *
 *   check   no request
 *   diff    no request
 *   create  with adopt, GET /v2/contexts/{type}/{id} first: an existing context is compared and
 *           PATCHed only when its data differs; else POST /v2/contexts (the service answers 409
 *           for a type and id it holds: no upsert; after our own retried create, that one is adopted)
 *   read    GET /v2/contexts/{type}/{id}
 *   update  PATCH /v2/contexts/{type}/{id} with the declared data (the service replaces it whole)
 *   delete  DELETE /v2/contexts/{type}/{id} (a 404 counts as done)
 */
import { z } from "zod";
import { clientFor } from "../config";
import { JsonObject, type Context as ApiContext } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs } from "./lifecycle";

/** The rule of a context's type and id (CreateContextRequestDto of spec/openapi.json): 1 to 100 of letters, digits, `_`, `-`. */
export const CONTEXT_PART = /^[a-zA-Z0-9_-]+$/;
/** The most a context's data may weigh as JSON (the service's validators/data-size.validator.ts: 64 KiB). */
export const CONTEXT_DATA_MAX_BYTES = 64 * 1024;

const part = (what: string) => z.string().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" })
  .refine((v) => v === UNKNOWN || CONTEXT_PART.test(v), { error: `must contain only letters, digits, _ and - (the ${what} of the \`type:id\` context key)` });

/** The field table of a {@link Context}. */
export const CONTEXT = defineResource({
  name: "Context",
  module: "context",
  doc: "A context of the environment: a tenant, an app, a workspace, known to the service by its type and id, with custom data. " +
    "Triggers name it by its key `type:id`. The id, and the import id, is that key (`tenant:acme`).",
  inputs: {
    type: field(part("type"), "The context type (`tenant`, `app`, `workspace`, ...): 1 to 100 letters, digits, `_` or `-`. Changing it replaces the context.", { createOnly: true }),
    contextId: field(part("id"), "The context's id within its type (the service's `id`): 1 to 100 letters, digits, `_` or `-`. Changing it replaces the context.",
      { createOnly: true, api: "id" }),
    data: field(JsonObject.refine((d) => Buffer.byteLength(JSON.stringify(d), "utf8") <= CONTEXT_DATA_MAX_BYTES, { error: "must be at most 64 KiB as JSON (the service's limit)" }).optional(),
      "Custom data of the context, a JSON object, compared whole (the service replaces it on every update). Left out, the data is not managed " +
      "(and not compared); the service then holds `{}` for a context this stack creates.", { exact: true }),
    adopt: field(z.boolean().optional(), "Take over an existing context of the same type and id instead of failing.", { control: true }),
  },
  outputs: {
    key: output(z.string(), "The context key `type:id`, as triggers and messages carry it."),
    createdAt: output(z.string().optional(), "When the context was created (ISO 8601)."),
  },
});

/** Inputs of a {@link Context}. */
export type ContextArgs = ArgsOf<typeof CONTEXT>;
/** The state of a {@link Context}: the service's view, each declared input as declared. */
export type ContextState = StateOf<typeof CONTEXT>;

type Inputs = z.infer<typeof CONTEXT.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** The resource id of a context: its key `type:id` (a type holds no `:`, so the first one splits). */
export const contextKey = (type: string, id: string) => `${type}:${id}`;

/** Splits a resource or import id `type:id`; undefined when it is not of that form. */
export function parseContextKey(key: string): { type: string; id: string } | undefined {
  const i = key.indexOf(":");
  if (i <= 0 || i === key.length - 1) return undefined;
  return { type: key.slice(0, i), id: key.slice(i + 1) };
}

/** Maps the service's context to outputs. */
export function toContextOutputs(c: ApiContext): Props {
  return stripUndefined({ ...serviceFields(CONTEXT, c), data: c.data ?? {}, key: contextKey(c.type, c.id), createdAt: c.createdAt });
}

function outputsFor(c: ApiContext, declared: Props, keys: string[]): ContextState {
  return stripUndefined({ ...toContextOutputs(c), ...controlInputs(declared, CONTEXT.controlKeys), declaredKeys: keys }) as ContextState;
}

/** Takes an existing context over: written only when its data differs from the declared data. */
function adopt(existing: ApiContext, raw: Props, keys: string[]) {
  const key = contextKey(String(raw.type), String(raw.contextId));
  return adoptExisting(`context "${key}"`, {
    id: key, compared: outputsFor(existing, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(key, olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt context "${key}"`, e);
      }
    },
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(CONTEXT.schema, news, topLevel(unknownKeyHint(Object.keys(CONTEXT.inputs)))) };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(CONTEXT, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, CONTEXT.inputKeys);
    const api = clientFor().contexts;
    const key = contextKey(inputs.type, inputs.contextId);
    return createOrAdopt({
      what: `context "${key}"`, adopt: inputs.adopt,
      refuse: `A context "${key}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(inputs.type, inputs.contextId)),
      takeOver: (existing) => adopt(existing, raw, keys),
      create: () => api.create(requestBody(CONTEXT, inputs, "create")),
      created: (live) => ({ id: key, outs: outputsFor(live, raw, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const parts = parseContextKey(id);
    if (!parts) throw new Error(`Unable to read context "${id}": the id must be the context key \`type:id\` (e.g. \`tenant:acme\`)`);
    const live = await readIfPresent(`read context "${id}"`, () => clientFor().contexts.read(parts.type, parts.id));
    if (!live) return gone();
    const outs = outputsFor(live, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, CONTEXT.controlKeys) };
  },

  async update(id: string, _olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, CONTEXT.inputKeys);
    const api = clientFor().contexts;
    try {
      // Only the data can change in place (type and id replace); undeclared data is left as it is.
      const body: RequestBody<"ContextsController_updateContext"> = requestBody(CONTEXT, inputs, "update");
      const live = Object.keys(body).length ? await api.update(inputs.type, inputs.contextId, body) : await api.get(inputs.type, inputs.contextId);
      return { outs: outputsFor(live, news, keys) };
    } catch (err) {
      throw failure(`update context "${id}"`, err);
    }
  },

  async delete(id: string, props: Props) {
    const type = String(props.type), contextId = String(props.contextId);
    await deleteIfPresent(`delete context "${id}"`, () => clientFor().contexts.delete(type, contextId));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
