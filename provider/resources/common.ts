/** Helpers every resource shares: check failures, canonical comparison, projection, errors. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { NotifyApiError, NotifyError, isNotFound } from "../client/errors";

/** The engine's placeholder for a value not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A failure reported by `check`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

type Obj = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True when `v` or anything inside it is unknown. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (isPlainObject(v)) return Object.values(v).some(containsUnknown);
  return false;
}

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

/** Removes `undefined` and `null`-free-of-meaning keys, recursively, so key sets compare cleanly. */
export function stripUndefined<T>(v: T): T {
  if (Array.isArray(v)) return v.map(stripUndefined) as T;
  if (isPlainObject(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = stripUndefined(x);
    return out as T;
  }
  return v;
}

/**
 * Validates `inputs` with `schema` and turns zod issues into `{ property, reason }`. Issues on
 * values that are unknown during preview are left for the apply. Never throws.
 */
export function checkWith(schema: z.ZodType, inputs: Obj, hints: (issue: z.core.$ZodIssue, inputs: Obj) => string | undefined = () => undefined): CheckFailure[] {
  const r = schema.safeParse(inputs);
  if (r.success) return [];
  const failures: CheckFailure[] = [];
  for (const issue of r.error.issues) {
    if (valueAt(inputs, issue.path).some((v) => v === UNKNOWN)) continue;
    const property = propertyPath(issue.path);
    const chain = valueAt(inputs, issue.path);
    const missing = chain.length === issue.path.length + 1 && (chain[chain.length - 1] === undefined || chain[chain.length - 1] === null);
    const reason = hints(issue, inputs) ?? describeIssue(issue, missing);
    failures.push({ property: property || "(inputs)", reason: property ? `${property}: ${reason}` : reason });
  }
  return failures;
}

/** `a.b[0].c` from a zod path. */
export function propertyPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}

function describeIssue(issue: z.core.$ZodIssue, missing: boolean): string {
  switch (issue.code) {
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_type":
      // A custom message (e.g. "an email step requires a subject") says more than the generic one.
      if (missing) return issue.message.startsWith("Invalid input") ? `is required (${issue.expected})` : issue.message;
      return `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
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

/** Hint for unknown keys: names the closest allowed key. */
export function unknownKeyHint(allowed: readonly string[]) {
  return (issue: z.core.$ZodIssue): string | undefined => {
    if (issue.code !== "unrecognized_keys") return undefined;
    return issue.keys.map((k) => {
      const s = suggest(k, allowed);
      return `unknown property ${JSON.stringify(k)}${s ? `: did you mean ${JSON.stringify(s)}?` : ""} Allowed: ${allowed.join(", ")}`;
    }).join("; ");
  };
}

/** Deep equality with key order ignored. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * `actual` seen through the shape of `declared`: object keys the program did not declare are
 * dropped (they are the service's defaults, not drift); everything declared is kept, so a changed
 * or missing value still shows.
 */
export function project(actual: unknown, declared: unknown): unknown {
  if (isPlainObject(declared) && isPlainObject(actual)) {
    const out: Obj = {};
    for (const k of Object.keys(declared)) if (actual[k] !== undefined) out[k] = project(actual[k], declared[k]);
    return out;
  }
  if (Array.isArray(declared) && Array.isArray(actual)) {
    return actual.map((x, i) => (i < declared.length ? project(x, declared[i]) : x));
  }
  return actual;
}

/**
 * The input keys whose value differs between the old outputs and the new inputs, considering
 * the keys declared now and the keys declared before.
 */
export function changedKeys(olds: Obj, news: Obj, keys: readonly string[], ignore: readonly string[] = [], exact: readonly string[] = []): string[] {
  const before = new Set(Array.isArray(olds.declaredKeys) ? (olds.declaredKeys as string[]) : []);
  const out: string[] = [];
  for (const k of keys) {
    if (ignore.includes(k)) continue;
    const declared = news[k] !== undefined;
    if (!declared) {
      if (before.has(k)) out.push(k);
      continue;
    }
    // Free-form values the user owns entirely are compared whole; the rest only where declared,
    // so defaults the service fills in never show as changes.
    const old = exact.includes(k) ? olds[k] : project(olds[k], news[k]);
    if (containsUnknown(news[k]) || !deepEqual(old, news[k])) out.push(k);
  }
  return out;
}

/** The declared input keys among `keys`, in order. */
export function declaredKeys(inputs: Obj, keys: readonly string[]): string[] {
  return keys.filter((k) => inputs[k] !== undefined);
}

/** `Unable to <action>: <cause>` with the cause's own message, for errors the engine shows. */
export function failure(action: string, err: unknown, hint?: string): Error {
  const cause = err instanceof NotifyError || err instanceof Error ? err.message : String(err);
  const e = new Error(`Unable to ${action}: ${cause}${hint ? `. ${hint}` : ""}`);
  if (err instanceof NotifyApiError) (e as Error & { status?: number }).status = err.status;
  return e;
}

/**
 * Runs a delete; an object the service no longer has counts as deleted, so a delete repeated
 * after a lost answer, or of something removed by hand, succeeds.
 */
export async function deleteIfPresent(action: string, remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (isNotFound(err)) return;
    throw failure(action, err);
  }
}

/** `args` with each of `keys` that is set marked secret, for a resource's constructor. */
export function withSecrets<T extends object>(args: T, keys: readonly (keyof T & string)[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const k of keys) if (args[k] !== undefined) out[k] = pulumi.secret(args[k]);
  return out;
}

/** Inputs that steer the provider rather than describe the object; kept in outputs so a refresh returns them. */
export const CONTROL_INPUT_KEYS = ["adopt", "check"] as const;

/** The control inputs present in `from`. */
export function controlInputs(from: Obj): Obj {
  const out: Obj = {};
  for (const k of CONTROL_INPUT_KEYS) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

/** The inputs a read returns: the control inputs of the old outputs, and each declared key as now read. */
export function readInputs(props: Obj, outs: Obj, keys: readonly string[]): Obj {
  const inputs = controlInputs(props);
  for (const k of keys) inputs[k] = outs[k];
  return inputs;
}
