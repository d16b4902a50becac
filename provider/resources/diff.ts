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

/** A set of ids in the one order state keeps them in (unique, sorted), so declaring them in another order is never a diff. */
export const asSet = (ids: readonly string[]): string[] => [...new Set(ids)].sort();

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
 * What a resource's `diff` returns: the dynamic provider's `DiffResult`, `changed`, the changed
 * input keys, and `paths`, where inside them the values differ, which the native plugin sends as
 * the engine's detailed diff.
 */
export interface DiffResult {
  changes: boolean;
  /** The input keys whose value differs ({@link changedKeys}), in table order. */
  changed: string[];
  /** The changed keys whose change replaces the object. */
  replaces: string[];
  deleteBeforeReplace?: boolean;
  /** Where the changed keys' values differ ({@link changedPaths}); without it, each changed key is named whole. */
  paths?: ChangedPath[];
  /**
   * The changed keys that are secret (the table's secret fields): the dynamic front end lets the
   * engine compare the inputs when one is (dynamic.ts `engineDiff`), so that the CLI names it.
   */
  secrets?: string[];
}

/** One place where a new input differs from the old value: its property path, and whether the program adds, removes or changes it. */
export interface ChangedPath {
  /** The engine's property path (`steps[1].controlValues.subject`, `routes["*"]`). */
  path: string;
  /** The top-level input key the path is in. */
  key: string;
  kind: "add" | "delete" | "update";
}

/**
 * A key as a step of the engine's property path: bare when it is letters, digits and `_` (as the
 * engine writes one, sdk/go/common/resource/properties_path.go, PropertyPath.String), else quoted
 * with `"` escaped; undefined for a key the engine's parser cannot read back (empty, or with a `\`).
 */
function pathStep(key: string, first: boolean): string | undefined {
  if (key === "" || key.includes("\\")) return undefined;
  if (/^[A-Za-z0-9_]+$/.test(key)) return first ? key : `.${key}`;
  return `["${key.replace(/"/g, '\\"')}"]`;
}

/**
 * The paths where `news` differs from `old` (undefined: absent), down to the values that differ:
 * a key or an element only one side has is added or removed whole; a list of plain values (tags,
 * subscribers, which a resource may compare as a set) and a value under a key the engine's path
 * syntax cannot name are named whole.
 */
function differing(old: unknown, news: unknown, path: string, key: string, out: ChangedPath[]): void {
  if (deepEqual(old, news)) return;
  if (old === undefined || old === null) return void out.push({ path, key, kind: "add" });
  if (news === undefined || news === null) return void out.push({ path, key, kind: "delete" });
  if (isPlainObject(old) && isPlainObject(news)) {
    const steps = [...new Set([...Object.keys(old), ...Object.keys(news)])].map((k) => [k, pathStep(k, false)] as const);
    if (steps.every(([, step]) => step !== undefined)) {
      for (const [k, step] of steps) differing(old[k], news[k], path + step, key, out);
      return;
    }
  } else if (Array.isArray(old) && Array.isArray(news) && [...old, ...news].some((x) => typeof x === "object" && x !== null)) {
    for (let i = 0; i < Math.max(old.length, news.length); i++) differing(old[i], news[i], `${path}[${i}]`, key, out);
    return;
  }
  out.push({ path, key, kind: "update" });
}

/**
 * Where each changed key's new value differs from the old outputs, compared as
 * {@link changedKeys} compares it (through the declared shape, or whole for `exact` keys): the
 * detailed diff that names what changed and nothing else. The engine shows each path's old and
 * new values, and only those; named whole, a key shows every difference between its old and new
 * inputs, and the inputs a read returns need not have the program's shape (after an import, a
 * workflow's steps lack the step ids a program declares). Keys of `whole` (secrets) are named
 * whole, as are keys the program no longer declares.
 */
export function changedPaths(olds: Obj, news: Obj, changed: readonly string[], exact: readonly string[] = [], whole: readonly string[] = []): ChangedPath[] {
  const out: ChangedPath[] = [];
  for (const k of changed) {
    const root = pathStep(k, true) ?? k;
    if (news[k] === undefined) out.push({ path: root, key: k, kind: "delete" });
    else if (whole.includes(k)) out.push({ path: root, key: k, kind: "update" });
    else {
      const before = out.length;
      differing(exact.includes(k) ? olds[k] : project(olds[k], news[k]), news[k], root, k, out);
      // A key changedKeys finds changed always differs somewhere; should the walk find no place, it is named whole.
      if (out.length === before) out.push({ path: root, key: k, kind: "update" });
    }
  }
  return out;
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
