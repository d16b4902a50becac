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

/** `unknown property "k": did you mean "…"? Allowed: …`, for a key not among `allowed`. */
export function unknownKeyMessage(key: string, allowed: readonly string[]): string {
  const s = suggest(key, allowed);
  return `unknown property ${JSON.stringify(key)}${s ? `: did you mean ${JSON.stringify(s)}?` : ""} Allowed: ${allowed.join(", ")}`;
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
