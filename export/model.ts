/**
 * One model of an environment, built from what the service returns, that the three renderers
 * (TypeScript, Python, Go) write out. Building it is pure: {@link buildModel} takes the objects as
 * read and decides, per object, the resource's declared inputs (the provider's own mappers and
 * field tables say which fields those are), which values are secrets (they become stack config
 * keys), which values are references to another exported resource, and which objects the
 * provider cannot express (skipped, with the reason its input check gives).
 */
import { RESOURCE_TABLES, type ResourceKind } from "../provider/resources/index";
import type { ResourceTable } from "../provider/resources/fields";
import { isPlainObject } from "../provider/resources/diff";
import { configKey, configKeyBase, configKeySuffix, uniqueName } from "./naming";
import { declareKinds, KIND_ORDER, type RawEnvironment } from "./kinds";
import { ConfigFlag, isMasked, Ref, SecretRef, type Value } from "./value";

export { Ref, SecretRef, type Value } from "./value";
export type { ConfigSecret, ExportedResource, ExportModel, Kind, ModelBuilder, Skipped } from "./shapes";
import type { ConfigSecret, ExportedResource, ExportModel, Kind, ModelBuilder, Skipped } from "./shapes";
export { KIND_ORDER, type RawEnvironment } from "./kinds";

const tableOf = (kind: Kind): ResourceTable => RESOURCE_TABLES.find((t) => t.name === kind)!;

/** The declared inputs of a table from its mapper's outputs: the compared input fields, in table order. */
function pickInputs(table: ResourceTable, outs: Record<string, unknown>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const k of table.inputKeys) if (outs[k] !== undefined) inputs[k] = outs[k];
  return inputs;
}

/** What an earlier export of the project named, which an update keeps. */
export interface PreviousNames {
  /** The stack config keys each resource (by model key) read its secrets from. */
  secretKeys: ReadonlyMap<string, readonly string[]>;
}

/**
 * Builds the model. Pure: the same objects give the same model, whatever order the service listed
 * them in (every list is sorted by its service key here). With `previous` (an update), a secret
 * keeps the config key its resource read it from before (the stack's config holds its value under
 * that key), and no other secret takes a key found there.
 */
export function buildModel(raw: RawEnvironment, previous?: PreviousNames): ExportModel {
  const envId = raw.environment._id;
  const resources: ExportedResource[] = [];
  const skipped: Skipped[] = [...(raw.unread ?? [])];
  const secrets: ConfigSecret[] = [];
  const earlier = new Map([...(previous?.secretKeys ?? [])].map(([owner, keys]) => [owner, [...keys]]));
  const usedKeys = new Set<string>([...earlier.values()].flat());
  /** Each secret key's value where the service returned it: the input check sees the real value. */
  const known = new Map<string, string>();
  const byKey = new Map<string, ExportedResource>();
  const sortBy = <T>(list: readonly T[], key: (t: T) => string) => [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

  /** Makes every string under `value` a secret of the resource (booleans and numbers stay: they reveal nothing). */
  const secretLeaves = (kind: Kind, name: string, path: string[], value: unknown, what: string): Value => {
    if (typeof value === "string") {
      // Keys are made from the resource and the field path, unique over the model: the lists are
      // walked in a stable order, so the same environment gives the same keys; a key the resource
      // had before is its own again.
      const base = configKey(kind, name, path);
      const own = earlier.get(`${kind}/${name}`);
      const was = own?.findIndex((k) => configKeyBase(k) === base) ?? -1;
      const key = was >= 0 ? own!.splice(was, 1)[0]! : uniqueName(base, usedKeys, undefined, configKeySuffix);
      secrets.push({ key, value: isMasked(value) ? undefined : value, what, owner: `${kind}/${name}` });
      if (!isMasked(value)) known.set(key, value);
      return new SecretRef(key);
    }
    if (Array.isArray(value)) return value.map((v, i) => secretLeaves(kind, name, [...path, String(i)], v, what));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secretLeaves(kind, name, [...path, k], v, what)]));
    return value as Value;
  };

  /** Adds a resource when its inputs pass the provider's own input check; else records why not. */
  const add = (kind: Kind, name: string, id: string, inputs: Record<string, unknown>, dependsOn?: string[]) => {
    const table = tableOf(kind);
    const key = `${kind}/${name}`;
    if (byKey.has(key)) {
      skipped.push({ kind, name, reason: `a second ${kind} with the same name (the service listed it twice)` });
      return;
    }
    const check = table.schema.safeParse(placeholders(inputs, known));
    if (!check.success) {
      const issue = check.error.issues[0]!;
      skipped.push({ kind, name, reason: `the provider cannot declare it: ${issue.path.join(".") || "(object)"}: ${issue.message}` });
      return;
    }
    // The inputs in the table's order, and every object inside them in one key order whatever order
    // the service answered it in (servers answer stored JSON, control values and maps in the order
    // they were written, or sorted): the same setup in two installations exports the same bytes.
    for (const k of Object.keys(inputs)) inputs[k] = sortedKeys(inputs[k]);
    const r: ExportedResource = { key, kind, name, id, inputs: inputs as Record<string, Value> };
    // Only on resources the model holds (one the input check refused is not declared).
    const after = dependsOn?.filter((k) => byKey.has(k));
    if (after?.length) r.dependsOn = after;
    resources.push(r);
    byKey.set(key, r);
  };
  const secretInputs = (kind: Kind, name: string, inputs: Record<string, unknown>, what: (field: string) => string) => {
    for (const k of tableOf(kind).secretKeys) {
      if (inputs[k] !== undefined) inputs[k] = secretLeaves(kind, name, [k], inputs[k], what(k));
    }
  };

  const builder: ModelBuilder = {
    envId, add, secretLeaves, secretInputs, sortBy, has: (key) => byKey.has(key), skip: (x) => void skipped.push(x),
    pick: (kind, outs) => pickInputs(tableOf(kind), outs),
  };
  declareKinds(raw, builder);

  resources.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    environment: { id: envId, name: raw.environment.name },
    resources: dependenciesFirst(resources, byKey),
    secrets: secrets.filter((x) => byKey.has(x.owner)),
    skipped,
  };
}

/**
 * The resources in their order, except that each comes after those it depends on (its
 * `dependsOn`, of its own kind: `alice-order-shipped-preferences` sorts before `alice-preferences`),
 * which moves up to just before the first that needs it: each language declares a variable
 * before it is used.
 */
function dependenciesFirst(sorted: readonly ExportedResource[], byKey: ReadonlyMap<string, ExportedResource>): ExportedResource[] {
  const out: ExportedResource[] = [];
  const placed = new Set<string>();
  const place = (r: ExportedResource) => {
    if (placed.has(r.key)) return;
    placed.add(r.key);
    for (const k of r.dependsOn ?? []) place(byKey.get(k)!);
    out.push(r);
  };
  sorted.forEach(place);
  return out;
}

/** `v` with every plain object's keys in sorted order (lists keep theirs; references and secrets stay). */
function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (isPlainObject(v) && Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedKeys(v[k])]));
  return v;
}

/**
 * The inputs with references and secrets as strings, for the provider's input check: a secret's
 * value where it is known, else a string any string field takes (a URL, since some fields are).
 */
function placeholders(v: unknown, known: ReadonlyMap<string, string>): unknown {
  if (v instanceof SecretRef) return known.get(v.key) ?? "https://placeholder.example.com/value";
  if (v instanceof ConfigFlag) return false;
  if (v instanceof Ref) return "placeholder";
  if (Array.isArray(v)) return v.map((x) => placeholders(x, known));
  if (isPlainObject(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeholders(x, known)]));
  }
  return v;
}
