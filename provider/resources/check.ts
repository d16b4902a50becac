/** Check: inputs validated against a resource's zod schema, and failures that name the field and what is allowed. */
import type { z } from "zod";
import { UNKNOWN } from "./diff";

/** A failure reported by `check`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

type Obj = Record<string, unknown>;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown[] {
  const seen: unknown[] = [root];
  let cur = root;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") break;
    cur = (cur as Record<PropertyKey, unknown>)[p];
    seen.push(cur);
  }
  return seen;
}

/** The secret inputs of each resource's schema (defineResource registers them): a check message never shows their values. */
const SECRET_INPUTS = new WeakMap<z.ZodType, readonly string[]>();

/** Says that the values of `keys` under `schema` are secret, so that no check message shows them. */
export function registerSecretInputs(schema: z.ZodType, keys: readonly string[]): void {
  SECRET_INPUTS.set(schema, keys);
}

/**
 * Validates `inputs` with `schema` and turns zod issues into `{ property, reason }`. Issues on
 * values that are unknown during preview are left for the apply. Never throws.
 */
export function checkWith(schema: z.ZodType, inputs: Obj, hints: (issue: z.core.$ZodIssue, inputs: Obj) => string | undefined = () => undefined): CheckFailure[] {
  const r = schema.safeParse(inputs);
  if (r.success) return [];
  const secret = SECRET_INPUTS.get(schema) ?? [];
  const failures: CheckFailure[] = [];
  for (const issue of r.error.issues) {
    if (valueAt(inputs, issue.path).some((v) => v === UNKNOWN)) continue;
    const property = propertyPath(issue.path);
    const chain = valueAt(inputs, issue.path);
    const missing = chain.length === issue.path.length + 1 && (chain[chain.length - 1] === undefined || chain[chain.length - 1] === null);
    // The value given, to name in the message: not a secret's, and only where the path reaches it.
    const given = chain.length === issue.path.length + 1 && !secret.includes(String(issue.path[0])) ? { value: chain[chain.length - 1] } : undefined;
    const reason = hints(issue, inputs) ?? describeIssue(issue, missing, given);
    failures.push({ property: property || "(inputs)", reason: property ? `${property}: ${reason}` : reason });
  }
  return failures;
}

/**
 * The failures as the engine's CheckFailure should carry them. The engine prints a failure as
 * `property <p> value <v> has a problem: <reason>`, `v` being the top-level input named `p`
 * formatted by Go (pulumi/pulumi v3.276.0, pkg/resource/deploy/step_generator.go,
 * issueCheckFailures: `inputs[p]` through PropertyValue.RedactSecrets, which writes `{%v}` of the
 * Go value with each secret as `[secret]`; v3.259.0 wrote the same without the redaction). Only a string, a number or a boolean prints as given (`{fax}`): a nested path
 * (`steps[0].type`), the whole inputs or an input left out would print `{<nil>}`, an object a Go
 * map (`{map[channelID:{C0123456}]}`) and a list a Go slice (`{[{a} {b}]}`). Those go without a
 * property, which the engine prints as `resource '<name>' has a problem: <reason>`: the reason
 * names the path, and the key or the value given. Both front ends send these, so both say the same.
 */
export function engineFailures(failures: readonly CheckFailure[], inputs: Obj): CheckFailure[] {
  return failures.map((f) => (Object.hasOwn(inputs, f.property) && printsAsGiven(inputs[f.property]) ? f : { property: "", reason: f.reason }));
}

/** Whether the engine prints a top-level input's value as it was given: a string, a number or a boolean (not an object, a list or nothing). */
function printsAsGiven(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** A value given, as a message shows it: JSON, shortened past 60 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `a.b[0].c` from a zod path. */
export function propertyPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}

/** ` (given "emial": did you mean "email"?)`: the value given, and the closest allowed string when there is one. */
function givenNote(given: { value: unknown } | undefined, allowed: readonly unknown[] = []): string {
  if (!given) return "";
  const strings = allowed.filter((a): a is string => typeof a === "string");
  const close = typeof given.value === "string" ? suggest(given.value, strings) : undefined;
  return ` (given ${shown(given.value)}${close !== undefined ? `: did you mean ${JSON.stringify(close)}?` : ""})`;
}

function describeIssue(issue: z.core.$ZodIssue, missing: boolean, given: { value: unknown } | undefined): string {
  switch (issue.code) {
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}${givenNote(given, issue.values)}`;
    case "invalid_type":
      // A custom message (e.g. "an email step requires a subject") says more than the generic one.
      if (missing) return issue.message.startsWith("Invalid input") ? `is required (${issue.expected})` : issue.message;
      return `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}${givenNote(given)}`;
    case "unrecognized_keys":
      return `unknown ${issue.keys.length > 1 ? "properties" : "property"} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    default:
      return issue.message;
  }
}

/** The closest of `allowed` to `key` (case-insensitive match or edit distance ≤ `maxDistance`), if any. */
export function suggest(key: string, allowed: readonly string[], maxDistance = 2): string | undefined {
  const lower = key.toLowerCase();
  const exact = allowed.find((a) => a.toLowerCase() === lower);
  if (exact) return exact;
  let best: string | undefined;
  let bestD = maxDistance + 1;
  for (const a of allowed) {
    const d = editDistance(lower, a.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = a;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/**
 * `unknown property "k": did you mean "…"? Allowed: …`, for a key not among `allowed`; with `of`
 * (`type "slack_channel"`), `Allowed for <of>: …`, naming what allows them.
 */
export function unknownKeyMessage(key: string, allowed: readonly string[], of?: string): string {
  const s = suggest(key, allowed);
  return `unknown property ${JSON.stringify(key)}${s ? `: did you mean ${JSON.stringify(s)}?` : ""} Allowed${of ? ` for ${of}` : ""}: ${allowed.join(", ")}`;
}

/** Hint for unknown keys: names the closest allowed key. */
export function unknownKeyHint(allowed: readonly string[]) {
  return (issue: z.core.$ZodIssue): string | undefined => {
    if (issue.code !== "unrecognized_keys") return undefined;
    return issue.keys.map((k) => unknownKeyMessage(k, allowed)).join("; ");
  };
}

/**
 * The keys an object schema allows at `path` inside `schema` (through optional and array
 * wrappers), or undefined when the path does not lead to an object schema.
 */
export function allowedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let cur: unknown = schema;
  const unwrap = () => {
    for (;;) {
      const def = (cur as { def?: { type?: string; innerType?: unknown; element?: unknown } }).def;
      if (def?.type === "optional" || def?.type === "nullable" || def?.type === "default") cur = def.innerType;
      else return def;
    }
  };
  for (const p of path) {
    const def = unwrap();
    if (def?.type === "array" && typeof p === "number") cur = def.element;
    else if (def?.type === "object" && typeof p === "string") cur = (cur as { shape: Record<string, unknown> }).shape[p];
    else return undefined;
  }
  return unwrap()?.type === "object" ? Object.keys((cur as { shape: Record<string, unknown> }).shape) : undefined;
}


/** A hint for the top-level inputs only: nested issues keep their own description. */
export function topLevel(hint: (issue: z.core.$ZodIssue) => string | undefined) {
  return (issue: z.core.$ZodIssue): string | undefined => (issue.path.length ? undefined : hint(issue));
}
