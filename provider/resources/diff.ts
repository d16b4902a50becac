/** Diff and projection: canonical comparison of what a program declares with what the service holds. */

/** The engine's placeholder for a value not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

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
 * What a resource's `diff` returns: the dynamic provider's `DiffResult`, and `changed`, the
 * changed input keys, which the native plugin sends as the engine's detailed diff.
 */
export interface DiffResult {
  changes: boolean;
  /** The input keys whose value differs ({@link changedKeys}), in table order. */
  changed: string[];
  /** The changed keys whose change replaces the object. */
  replaces: string[];
  deleteBeforeReplace?: boolean;
}

/**
 * The input keys whose value differs between the old outputs and the new inputs, considering
 * the keys declared now and the keys declared before.
 */
export function changedKeys(olds: Obj, news: Obj, keys: readonly string[], ignore: readonly string[] = [], exact: readonly string[] = []): string[] {
  const before = new Set(declaredKeysOf(olds) ?? []);
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


/**
 * The `declaredKeys` a resource's state records (the input keys its program set when it was last
 * applied), or undefined for state written without them.
 */
export function declaredKeysOf(state: Obj): string[] | undefined {
  return Array.isArray(state.declaredKeys) ? state.declaredKeys.filter((k): k is string => typeof k === "string") : undefined;
}
