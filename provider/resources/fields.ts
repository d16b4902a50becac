/**
 * The field table of a resource: the one place that says, for each input field, its zod type,
 * whether a change replaces the object, whether it is secret, whether it only steers the
 * provider, and its description; and for each output-only field its type and description.
 *
 * Everything else is derived from the table: the schema `check` validates with, the Args and
 * State types, the key lists diff and the constructor use, every create and update body
 * (`requestBody`) and the service's object read back as inputs (`serviceFields`), and the
 * resource's entry in schema.json (scripts/schema.ts reads descriptions from the zod types, which
 * carry them).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { registerSecretInputs } from "./check";
import { changedKeys, changedPaths, type DiffResult } from "./diff";

/** What a resource says about one input field, beyond its type and description. */
export interface FieldFacts {
  /** A change replaces the object: the service cannot change it in place. */
  replaces?: boolean;
  /** Secret in state, in the engine's events and in schema.json. */
  secret?: boolean;
  /** Steers the provider (`adopt`, `check`) rather than describing the object: never compared by diff. */
  control?: boolean;
  /** The service stores it as given, with no defaults filled in: compared whole, so a removed key shows. */
  exact?: boolean;
  /** The outputs always hold a value, the service's default when the program leaves it out (implied by `serviceDefault`). */
  filled?: boolean;
  /**
   * Its type in the outputs, when that differs from the input's (a workflow's steps gain their
   * ids): a preview of a write cannot give it from the inputs, so it is unknown there (the native
   * plugin's `previewOutputs`; the dynamic classes' `serviceOutputs`, classes.ts, which the class
   * of a table with such a field calls).
   */
  output?: z.ZodType;
  /** The service's name of the field in request and response bodies, when not its own (`_environmentId`). */
  api?: string;
  /** The service's name of the field in responses, when it differs from the request's (an environment's `parentId` reads back as `_parentId`). */
  readAs?: string;
  /** Sent on create only: the service's update does not take it (it is in the update's path, or fixed), so a change replaces. */
  createOnly?: boolean;
  /** Sent on update only: the service's create ignores or refuses it, so the provider sends it with an update right after the create (a layout's control values). */
  updateOnly?: boolean;
  /** Part of the object's address: in the request's path, never in a body (a subscriber's credentials are written under the subscriber's id). */
  path?: boolean;
  /** Never in a create or update body: the provider applies it with a call of its own (an integration's `primary`, a topic's subscribers). */
  local?: boolean;
  /**
   * The service's update resets the field when the body leaves it out (a full replace): an update
   * the program leaves it out of sends the value the service holds (a workflow's `tags`).
   */
  keep?: boolean;
  /**
   * The service holds this map as a list of entries, `{ [key]: name, [value]: value }` each (an
   * environment variable's values per environment): bodies send the list, responses are read back into the map.
   */
  entries?: { key: string; value: string };
  /** What the service means when a response leaves the field out (its documented default); read as that value. */
  serviceDefault?: unknown;
}

/** One input field: its type (`.optional()` when a program may leave it out), description and facts. */
export interface Field<T extends z.ZodType = z.ZodType> extends FieldFacts {
  type: T;
  doc: string;
}

/** An input field of a table. The description travels with the zod type, into schema.json. */
export function field<T extends z.ZodType>(type: T, doc: string): Field<T>;
export function field<T extends z.ZodType, const F extends FieldFacts>(type: T, doc: string, facts: F): Field<T> & F;
export function field(type: z.ZodType, doc: string, facts: FieldFacts = {}): Field {
  return { ...facts, type: type.describe(doc), doc };
}

/** An output-only field of a table: what the service adds (ids, status, timestamps). */
export function output<T extends z.ZodType>(type: T, doc: string): T {
  return type.describe(doc);
}

type Fields = Record<string, Field>;
type OutputFields = Record<string, z.ZodType>;

/** The description of `declaredKeys`, an output of every resource. */
const DECLARED_KEYS_DOC = "The input properties this program sets (used for exact diffs).";

/** What {@link defineResource} is given. */
export interface ResourceSpec<I extends Fields, O extends OutputFields> {
  /** The type's name: `notify:index:<name>` in schema.json, `pulumi-nodejs:dynamic/notify:<name>` for the engine. */
  name: string;
  /** The implementation module, a file of provider/resources exporting `dynamicProvider`. */
  module: string;
  /** The resource's description. */
  doc: string;
  inputs: I;
  /** Output-only fields; `declaredKeys` is added when not given. */
  outputs: O;
  /** Output-only fields kept secret in state and previews (an environment's API keys). */
  secretOutputs?: readonly (keyof O & string)[];
}

/** The keys of the fields with fact F (any key, for a table of unknown fields). */
type KeysWhere<I extends Fields, F extends keyof FieldFacts> = string extends keyof I ? string
  : { [K in keyof I]: I[K] extends Record<F, true> ? K : never }[keyof I] & string;
type Compared<I extends Fields> = string extends keyof I ? string : Exclude<keyof I & string, KeysWhere<I, "control">>;
type OutputType<F extends Field> = F extends { output: infer O extends z.ZodType } ? O : F["type"];

/**
 * The inputs a dynamic resource carries for its front end, not for the service: `__provider`, the
 * module the engine's dynamic-provider plugin evaluates (dynamic.ts), and `__urn`, the resource's
 * URN, on which its warnings are shown (classes.ts computes it, dynamic.ts reads it). Allowed by
 * every schema, never compared, never sent.
 */
export const FRONT_END_KEYS = ["__provider", "__urn"] as const;
type FrontEndKey = (typeof FRONT_END_KEYS)[number];

/** A resource's field table with everything derived from it. */
export interface ResourceTable<I extends Fields = Fields, O extends OutputFields = OutputFields> extends ResourceSpec<I, O> {
  outputs: O & { declaredKeys: z.ZodType<string[]> };
  /** The schema `check` validates inputs with: the fields, strictly (plus the dynamic front end's {@link FRONT_END_KEYS}). */
  schema: z.ZodObject<{ [K in keyof I]: I[K]["type"] } & { [K in FrontEndKey]: z.ZodOptional<z.ZodString> }, z.core.$strict>;
  /** The input keys diff compares, in table order. */
  inputKeys: readonly Compared<I>[];
  /** The input keys whose change replaces the object. */
  replaceOnChange: readonly KeysWhere<I, "replaces">[];
  /** The input (and output) keys kept secret: the secret inputs, then the table's `secretOutputs`. */
  secretKeys: readonly (KeysWhere<I, "secret"> | (keyof O & string))[];
  /** The input keys compared whole. */
  exactKeys: readonly KeysWhere<I, "exact">[];
  /** The inputs that steer the provider; kept in outputs so a refresh returns them. */
  controlKeys: readonly KeysWhere<I, "control">[];
  /** Every output key: the compared inputs, then the output-only fields. */
  outputKeys: readonly string[];
  /** Whether each output is always present (schema.json's `required`). */
  requiredOutputs: readonly string[];
}

/** Derives a resource's schema, key lists and outputs from its field table. */
export function defineResource<I extends Fields, O extends OutputFields>(spec: ResourceSpec<I, O>): ResourceTable<I, O> {
  const entries = Object.entries(spec.inputs);
  const where = (p: (f: Field) => boolean | undefined) => entries.filter(([, f]) => p(f)).map(([k]) => k) as never[];
  const outputs = { ...spec.outputs, declaredKeys: spec.outputs.declaredKeys ?? output(z.array(z.string()), DECLARED_KEYS_DOC) } as ResourceTable<I, O>["outputs"];
  const inputKeys = where((f) => !f.control);
  const present = (t: z.ZodType) => !t.safeParse(undefined).success;
  const schema = z.strictObject({ ...Object.fromEntries(entries.map(([k, f]) => [k, f.type])), ...Object.fromEntries(FRONT_END_KEYS.map((k) => [k, z.string().optional()])) });
  registerSecretInputs(schema, where((f) => f.secret));
  return {
    ...spec,
    outputs,
    schema: schema as never,
    inputKeys,
    replaceOnChange: where((f) => f.replaces || f.createOnly),
    secretKeys: [...where((f) => f.secret), ...(spec.secretOutputs ?? [])],
    exactKeys: where((f) => f.exact),
    controlKeys: where((f) => f.control),
    outputKeys: [...inputKeys, ...Object.keys(outputs)],
    requiredOutputs: [
      ...(inputKeys as string[]).filter((k) => spec.inputs[k]!.filled || spec.inputs[k]!.serviceDefault !== undefined || present(spec.inputs[k]!.type)),
      ...Object.entries(outputs).filter(([, t]) => present(t)).map(([k]) => k),
    ],
  };
}

type Props = Record<string, unknown>;

/**
 * A resource's diff as its table says: the changed input keys (exact fields compared whole), where
 * inside them the values differ (a secret field named whole), the keys whose change replaces
 * the object, and the changed keys that are secret. A resource adds `deleteBeforeReplace` when it needs one.
 */
export function diffOf(table: ResourceTable, olds: Props, news: Props): DiffResult {
  const changed = changedKeys(olds, news, table.inputKeys, [], table.exactKeys);
  const replaces: readonly string[] = table.replaceOnChange;
  const secret: readonly string[] = table.secretKeys;
  const secrets = changed.filter((k) => secret.includes(k));
  return {
    changes: changed.length > 0, changed, replaces: changed.filter((k) => replaces.includes(k)),
    paths: changedPaths(olds, news, changed, table.exactKeys, table.secretKeys),
    ...(secrets.length ? { secrets } : {}),
  };
}

/**
 * The body of a create or an update request, from the table: each field the program set, under
 * the service's name and in the service's shape (`entries`); control, local and path fields left
 * out, create-only fields on create only, update-only fields on update only. On update, a `keep`
 * field the program left out is sent as `held` (the service's current object, as inputs) has it.
 *
 * A resource prepares values the table cannot know (a workflow's steps matched to the live ones)
 * by passing them in `inputs`. The body takes its type from where it goes: the client method's
 * parameter, the operation's body in the contract (`RequestBody<"operationId">`). The compiler
 * refuses a table that would send a name that body lacks (a misspelt `api`, a field the update does
 * not take that is not `createOnly`); test/conformance/requests.test.ts validates every body sent
 * against spec/openapi.json, values included.
 */
export function requestBody<T extends ResourceTable, O extends BodyOp, B extends object = Props>(
  table: T & BodyChecked<T, O, B>, inputs: Props, op: O, held?: Props,
): B {
  const body: Props = {};
  for (const [k, f] of Object.entries(table.inputs)) {
    if (f.control || f.local || f.path || (f.createOnly && op === "update") || (f.updateOnly && op === "create")) continue;
    const v = inputs[k] === undefined && f.keep && op === "update" ? held?.[k] : inputs[k];
    if (v === undefined) continue;
    body[f.api ?? k] = f.entries ? toEntries(v as Props, f.entries) : v;
  }
  return body as B;
}

/** The operations whose bodies a table gives. */
type BodyOp = "create" | "update";
/** Whether a field with facts F stays out of the body of `O`. */
type Unsent<F, O extends BodyOp> = F extends { control: true } | { local: true } | { path: true } ? true
  : O extends "update" ? (F extends { createOnly: true } ? true : false) : (F extends { updateOnly: true } ? true : false);
/** The service's name of field K with facts F. */
type WireName<K extends string, F> = F extends { api: infer A extends string } ? A : K;
/** Every name a table's body of `O` may carry. */
export type BodyKeys<T, O extends BodyOp> = T extends ResourceTable<infer I>
  ? { [K in keyof I & string]: Unsent<I[K], O> extends true ? never : WireName<K, I[K]> }[keyof I & string] : never;
/** Nothing when the body type B has every name the table may send in `O`; else a property naming those it lacks, which no table has. */
type BodyChecked<T, O extends BodyOp, B> = [Exclude<BodyKeys<T, O>, keyof B>] extends [never] ? unknown
  : { "names the contract's body lacks": Exclude<BodyKeys<T, O>, keyof B> };

/** The input fields of the table as the service's object holds them, each read from the service's name. */
export function serviceFields(table: ResourceTable, obj: object): Props {
  const from = obj as Props;
  const out: Props = {};
  for (const [k, f] of Object.entries(table.inputs)) {
    if (f.control) continue;
    const held = from[f.readAs ?? f.api ?? k];
    const v = (f.entries && Array.isArray(held) ? fromEntries(held as Props[], f.entries) : held) ?? f.serviceDefault;
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A map as the list of entries the service holds it as. */
function toEntries(map: Props, e: { key: string; value: string }): Props[] {
  return Object.entries(map).map(([name, value]) => ({ [e.key]: name, [e.value]: value }));
}

/** The service's list of entries as a map. */
function fromEntries(list: readonly Props[], e: { key: string; value: string }): Props {
  return Object.fromEntries(list.map((x) => [x[e.key], x[e.value]]));
}

/** A value a program may give as a `pulumi.Input`, at every level. */
export type InputOf<T> = pulumi.Input<
  T extends readonly (infer E)[] ? InputOf<E>[]
    : T extends Record<string, unknown> ? { [K in keyof T]: InputOf<T[K]> }
      : T
>;

type OptionalKeys<I extends Fields> = { [K in keyof I]: undefined extends z.input<I[K]["type"]> ? K : never }[keyof I];

/** The Args of a resource: each field as a `pulumi.Input`, optional where its type is. */
export type ArgsOf<T extends ResourceTable> = T extends ResourceTable<infer I> ?
  { [K in Exclude<keyof I, OptionalKeys<I>>]: InputOf<z.input<I[K]["type"]>> } &
  { [K in OptionalKeys<I>]?: InputOf<Exclude<z.input<I[K]["type"]>, undefined>> }
  : never;

/** The state (outputs) of a resource: each compared input as read back, and the output-only fields. */
export type StateOf<T extends ResourceTable> = T extends ResourceTable<infer I, infer O> ?
  { [K in Compared<I>]: I[K] extends { filled: true } ? Exclude<z.output<OutputType<I[K]>>, undefined> : z.output<OutputType<I[K]>> } &
  { [K in keyof O]: z.output<O[K]> } & { declaredKeys: string[] }
  : never;

/** A resource class's output properties for a state type. */
export type OutputsOf<S> = { readonly [K in keyof S]-?: pulumi.Output<S[K]> };
