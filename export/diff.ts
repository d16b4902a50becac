/**
 * `notify-export --diff`: two environments side by side (two keys, of one installation or of two),
 * kind by kind, object by object, field by field, as the exporter declares them: what is only in
 * one, and each declared field that differs. Each object is matched by its name (its identifier
 * on the service: a workflowId, a topic key), never by its id, which differs between
 * environments. Secrets are left out (the service shows them to neither, or masked), references
 * between objects are compared by the object they name, and an environment variable's value is
 * compared as each environment's own.
 */
import { isPlainObject } from "../provider/resources/diff";
import { RESOURCE_TABLES } from "../provider/resources/index";
import type { ExportModel, ExportedResource } from "./shapes";
import { ConfigFlag, Ref, SecretRef, type Value } from "./value";

/** One field that differs: its path in the declared inputs, and the value on each side (undefined: not declared). */
export interface FieldChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** The comparison of two environments, `from` and `to`. */
export interface EnvironmentDiff {
  from: string;
  to: string;
  onlyInFrom: { kind: string; name: string }[];
  onlyInTo: { kind: string; name: string }[];
  differ: { kind: string; name: string; fields: FieldChange[] }[];
  same: boolean;
}

/** What the environment's own id is compared as (an integration's environment, a variable's value's key). */
const THIS_ENVIRONMENT = "this environment";

/** A stand-in for a secret: its value is compared by neither side. */
const SECRET = "(secret)";

/** A declared value as compared: a reference as the object and output it names, a secret as a stand-in. */
function comparable(v: Value, envId: string, r: ExportedResource): unknown {
  // The environment's own id differs in each: a value naming it names "this environment".
  if (v === envId) return THIS_ENVIRONMENT;
  if (v instanceof Ref) return `→ ${v.target}.${v.output}`;
  if (v instanceof SecretRef) return SECRET;
  if (v instanceof ConfigFlag) return `(config ${v.key})`;
  if (Array.isArray(v)) return v.map((x) => comparable(x, envId, r));
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, comparable(x as Value, envId, r)]));
  return v;
}

/** The secret inputs of each kind: left out whole (a server shows them to one caller and not another, or not at all). */
const SECRET_KEYS = new Map(RESOURCE_TABLES.map((t) => [t.name, new Set<string>(t.secretKeys)]));

/** A resource's declared inputs as compared: an environment variable's values by "this environment", not by its id; secret inputs left out. */
function inputsOf(r: ExportedResource, envId: string): Record<string, unknown> {
  const out = comparable(r.inputs as Value, envId, r) as Record<string, unknown>;
  // A variable's values are secret in state but compared (its secret values are masked SecretRefs already).
  for (const k of SECRET_KEYS.get(r.kind) ?? []) if (!(r.kind === "EnvironmentVariable" && (k === "values" || k === "value"))) delete out[k];
  if (r.kind === "EnvironmentVariable" && isPlainObject(out.values)) {
    out.values = Object.fromEntries(Object.entries(out.values).map(([k, x]) => [k === envId ? THIS_ENVIRONMENT : k, x]));
  }
  return out;
}

/** Every leaf path of `v` (objects key by key, lists element by element) with its value. */
function leaves(v: unknown, at: string, out: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(v) && v.length) v.forEach((x, i) => leaves(x, `${at}[${i}]`, out));
  else if (isPlainObject(v) && Object.keys(v).length) for (const [k, x] of Object.entries(v)) leaves(x, /^[A-Za-z_$][\w$]*$/.test(k) ? (at ? `${at}.${k}` : k) : `${at}[${JSON.stringify(k)}]`, out);
  else out.set(at, v);
  return out;
}

/** The fields that differ between two declarations of one object. */
function fieldChanges(a: Record<string, unknown>, b: Record<string, unknown>): FieldChange[] {
  const la = leaves(a, "", new Map());
  const lb = leaves(b, "", new Map());
  const paths = [...new Set([...la.keys(), ...lb.keys()])];
  return paths
    .filter((p) => JSON.stringify(la.get(p)) !== JSON.stringify(lb.get(p)) && la.get(p) !== SECRET && lb.get(p) !== SECRET)
    .map((p) => ({ path: p, from: la.get(p), to: lb.get(p) }));
}

/** Compares the models of two environments (each read as the exporter reads one). */
export function diffModels(from: ExportModel, to: ExportModel, names: { from: string; to: string }): EnvironmentDiff {
  const byKey = (m: ExportModel) => new Map(m.resources.map((r) => [r.key, r]));
  const a = byKey(from);
  const b = byKey(to);
  const onlyInFrom = from.resources.filter((r) => !b.has(r.key)).map((r) => ({ kind: r.kind, name: r.name }));
  const onlyInTo = to.resources.filter((r) => !a.has(r.key)).map((r) => ({ kind: r.kind, name: r.name }));
  const differ: EnvironmentDiff["differ"] = [];
  for (const r of from.resources) {
    const other = b.get(r.key);
    if (!other) continue;
    const fields = fieldChanges(inputsOf(r, from.environment.id), inputsOf(other, to.environment.id));
    if (fields.length) differ.push({ kind: r.kind, name: r.name, fields });
  }
  return { ...names, onlyInFrom, onlyInTo, differ, same: !onlyInFrom.length && !onlyInTo.length && !differ.length };
}

const show = (v: unknown) => (v === undefined ? "(not set)" : JSON.stringify(v));

/** The comparison as text: a line per object only in one, and per field that differs. */
export function renderDiffText(d: EnvironmentDiff): string {
  if (d.same) return `${d.from} and ${d.to} hold the same setup: every object in both, with the same declared fields (secrets not compared).\n`;
  const lines: string[] = [`Comparing ${d.from} (from) with ${d.to} (to), secrets not compared:`];
  for (const kind of kindsOf(d)) {
    lines.push("", `${kind}:`);
    for (const o of d.onlyInFrom.filter((x) => x.kind === kind)) lines.push(`  - ${o.name}: only in ${d.from}`);
    for (const o of d.onlyInTo.filter((x) => x.kind === kind)) lines.push(`  + ${o.name}: only in ${d.to}`);
    for (const o of d.differ.filter((x) => x.kind === kind)) {
      lines.push(`  ~ ${o.name}:`);
      for (const f of o.fields) lines.push(`      ${f.path}: ${show(f.from)} => ${show(f.to)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The comparison as Markdown, for a pull request's comment. */
export function renderDiffMarkdown(d: EnvironmentDiff): string {
  if (d.same) return `**${d.from}** and **${d.to}** hold the same setup (secrets not compared).\n`;
  const cell = (v: unknown) => `\`${show(v).replace(/\|/g, "\\|").replace(/`/g, "'")}\``;
  const count = d.onlyInFrom.length + d.onlyInTo.length + d.differ.length;
  const lines: string[] = [`### ${count} difference${count === 1 ? "" : "s"} between ${d.from} and ${d.to}`, "", "Secrets are not compared."];
  for (const kind of kindsOf(d)) {
    lines.push("", `#### ${kind}`, "", `| Object | Field | ${d.from} | ${d.to} |`, "|---|---|---|---|");
    for (const o of d.onlyInFrom.filter((x) => x.kind === kind)) lines.push(`| \`${o.name}\` | (the object) | present | absent |`);
    for (const o of d.onlyInTo.filter((x) => x.kind === kind)) lines.push(`| \`${o.name}\` | (the object) | absent | present |`);
    for (const o of d.differ.filter((x) => x.kind === kind)) {
      for (const f of o.fields) lines.push(`| \`${o.name}\` | \`${f.path}\` | ${cell(f.from)} | ${cell(f.to)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The kinds the comparison names, in the order they first appear. */
function kindsOf(d: EnvironmentDiff): string[] {
  return [...new Set([...d.onlyInFrom, ...d.onlyInTo, ...d.differ].map((o) => o.kind))];
}
