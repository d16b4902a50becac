/**
 * What `pulumi preview --diff` shows, read off the engine's events as the CLI reads them
 * (pulumi/pulumi v3.276.0, as in v3.259.0, pkg/engine/detailedDiff.go, TranslateDetailedDiff): for a step with a
 * detailed diff (the native plugin's, or the one the engine computes when a dynamic resource's
 * diff answers its changes as unknown), each of its paths, an update shown as every difference
 * between the path's old value (the old inputs, for an input diff) and new input, or as the path
 * itself where none shows; for one without, every difference between its old and new inputs. A
 * difference is shown down to the value that differs: objects key by key, lists element by
 * element. Engine events hold every secret as `[secret]`, so a secret's change shows only where a
 * detailed diff names it (addDiff records the path it is given, whatever its two values).
 */
import type * as automation from "@pulumi/pulumi/automation";

/** One step of a property path: a key or an index. */
export type Segment = string | number;

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The steps of one of the engine's property paths (`steps[1].controlValues.subject`, `routes["*"]`). */
export function parsePath(p: string): Segment[] {
  const out: Segment[] = [];
  const re = /\["((?:\\"|[^"])*)"\]|\[(\d+)\]|\.?([^.[]+)/g;
  for (const m of p.matchAll(re)) out.push(m[1] !== undefined ? m[1].replace(/\\"/g, '"') : m[2] !== undefined ? Number(m[2]) : m[3]!);
  return out;
}

/** A path as the engine writes it. */
export function formatPath(path: readonly Segment[]): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : /^[A-Za-z0-9_]+$/.test(s) ? (i ? `.${s}` : s) : `["${s.replace(/"/g, '\\"')}"]`)).join("");
}

/** The value at `path` in `v`, undefined where the path leads nowhere. */
export function valueAt(v: unknown, path: readonly Segment[]): unknown {
  let cur = v;
  for (const s of path) {
    if (typeof s === "number" ? !Array.isArray(cur) : !isObject(cur)) return undefined;
    cur = (cur as Record<Segment, unknown>)[s];
  }
  return cur;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined && a[k] !== null);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined && b[k] !== null);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return (a ?? null) === (b ?? null);
}

/** The paths where `a` and `b` differ, down to the values that differ (a key or element on one side only: that key or element). */
function differences(a: unknown, b: unknown, prefix: Segment[], out: Segment[][]): void {
  if (sameJson(a, b)) return;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], [...prefix, k], out);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) differences(a[i], b[i], [...prefix, i], out);
  } else out.push(prefix);
}

/** What the CLI shows changing for one resource of a preview. */
export interface ShownChange {
  op: string;
  /** The top-level input keys shown changing. */
  keys: string[];
  /** Each value shown changing, as a path. */
  paths: Segment[][];
}

/** A refresh's view of one resource: its outputs before and after the read. */
export interface Refreshed {
  old: Obj;
  new: Obj;
}

/** Whether the refresh found the outputs of a resource changed at `path`. */
export function refreshChanged(r: Refreshed, path: readonly Segment[]): boolean {
  return !sameJson(valueAt(r.old, path), valueAt(r.new, path));
}

/** The engine's placeholder, in events, for a value not known until the update. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether an output the preview gives is unknown, or the same as `after` (an output after an `up`, `.value` of the Automation API's). */
export function unknownOrSame(preview: unknown, after: unknown): boolean {
  return preview === UNKNOWN || sameJson(preview, after);
}

/**
 * A preview, with, per resource the engine plans to change, what the CLI shows changing
 * (providers and the stack left out), per resource a refresh read, its outputs before and
 * after, and the stack's outputs as the preview gives them (what its `Outputs:` section compares
 * with the last update's; a value known only after the update is {@link UNKNOWN}). A replacement
 * shows as several steps; the one that names the kind of change (`replace`) is kept.
 */
export async function previewShown(stack: automation.Stack, opts: automation.PreviewOptions = {}) {
  const shown: Record<string, ShownChange> = {};
  const refreshed: Record<string, Refreshed> = {};
  let outputs: Obj = {};
  const res = await stack.preview({
    ...opts,
    onEvent: (e) => {
      // A refresh is known once done: its outputs event holds what the read returned.
      const done = e.resOutputsEvent?.metadata;
      if (done?.op === "refresh") {
        refreshed[done.urn.split("::").pop()!] = { old: (done.old?.outputs ?? {}) as Obj, new: (done.new?.outputs ?? {}) as Obj };
        return;
      }
      // The stack's outputs event comes when the program registers them (an empty one may come first).
      if (done?.type === "pulumi:pulumi:Stack") {
        outputs = (done.new?.outputs ?? {}) as Obj;
        return;
      }
      const m = e.resourcePreEvent?.metadata;
      if (!m || m.op === "refresh" || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) return;
      const name = m.urn.split("::").pop()!;
      if (m.op === "same" || (shown[name] && m.op !== "replace")) return;
      const oldInputs = { ...(m.old?.inputs ?? {}) } as Obj;
      const newInputs = { ...(m.new?.inputs ?? {}) } as Obj;
      delete oldInputs.__provider;
      delete newInputs.__provider;
      const paths: Segment[][] = [];
      if (m.detailedDiff) {
        for (const [p, d] of Object.entries(m.detailedDiff)) {
          const path = parsePath(p);
          const olds = d.inputDiff ? oldInputs : ((m.old?.outputs ?? {}) as Obj);
          const before = paths.length;
          if (d.diffKind.startsWith("update")) differences(valueAt(olds, path), valueAt(newInputs, path), path, paths);
          // A path the detailed diff names is shown even where its two sides look the same (a
          // secret: `[secret]` on both), as `~ auth: [secret] => [secret]`.
          if (paths.length === before) paths.push(path);
        }
      } else differences(oldInputs, newInputs, [], paths);
      shown[name] = { op: m.op, keys: [...new Set(paths.map((p) => String(p[0])))].sort(), paths };
    },
  });
  return { res, shown, refreshed, outputs };
}
