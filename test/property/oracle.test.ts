/**
 * The engine-layer oracle of exact diffs: K random stacks (ORACLE_RUNS; `npm test` runs 3,
 * `npm run test:oracle` 500), each a random mix of every registered kind (test/kinds) built from
 * the kinds' generators, through the real CLI against a fresh emulator in production or spec mode,
 * and through one front end, the dynamic resources or the native plugin, in turn (ORACLE_FRONT_END
 * picks one): `up`; a preview that must be empty; a `preview --refresh` that must be empty; one
 * random hand edit through the API (a declared field of a resource, or a deletion); a
 * `preview --refresh --diff` that must show exactly that resource, and that field (a secret one
 * too), and inside it only values the edit changed (test/helpers/shownDiff.ts reads what the CLI
 * shows, detailed diffs included), and give each stack output of a field the service adds to (a
 * workflow's steps) unknown or as the update will; `up --refresh` restores it; the next previews
 * are empty; `destroy` leaves nothing of the stack in the service. Every change shown that the
 * edit did not make, and every output shown as the update will not give it, is a spurious diff;
 * the edit not shown (or shown on another field) is a missed drift.
 * ORACLE_SEED replays a run (default: random, always printed); a failing stack is replayed by
 * fast-check from its seed and path and shrunk to the smallest failing case.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportedState, previewDiffs } from "../helpers/pulumi";
import { declareKind, FRONT_ENDS, type FrontEnd } from "../helpers/frontEnds";
import { stackFixture } from "../helpers/stack";
import { formatPath, previewShown, refreshChanged, unknownOrSame } from "../helpers/shownDiff";
import { KINDS, descriptorOf } from "../kinds/index";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { deletion, fieldEdits, type Declared, type Edit } from "./handEdits";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const RUNS = Number(process.env.ORACLE_RUNS ?? 3);
/** Stacks run at once (default 1); the stacks and the verdict do not depend on it. */
const CONCURRENCY = Math.max(1, Number(process.env.ORACLE_CONCURRENCY ?? 1));
const SEED = process.env.ORACLE_SEED !== undefined ? Number(process.env.ORACLE_SEED) : Math.floor(Math.random() * 2 ** 31);
/**
 * Each kind's fields the service adds to (the table's `output` fact: a workflow's steps gain their
 * ids): the program exports their outputs, and a value the preview after the hand edit gives one
 * must be the value the restoring `up --refresh` gives it, or unknown.
 */
const SERVICE_ADDED = new Map<string, string[]>(RESOURCE_TABLES.map((t) => [t.name, Object.entries(t.inputs).filter(([, f]) => f.output !== undefined).map(([k]) => k)]));
/** Each kind's secret fields: engine events hold them as `[secret]` on both sides, so a refresh cannot tell whether one changed. */
const SECRET_KEYS = new Map<string, readonly string[]>(RESOURCE_TABLES.map((t) => [t.name, t.secretKeys]));
/** The one suffix of every stack's identifiers (each stack has an emulator of its own). */
const ORACLE_SUFFIX = "o";
/** The front ends (test/helpers/frontEnds.ts) are taken in turn by the stacks of a run (stack n: FRONT_ENDS[n % 2]), unless ORACLE_FRONT_END names one. */
const FORCED_FRONT_END = process.env.ORACLE_FRONT_END as FrontEnd | undefined;
if (FORCED_FRONT_END !== undefined && !FRONT_ENDS.includes(FORCED_FRONT_END)) throw new Error(`ORACLE_FRONT_END must be one of ${FRONT_ENDS.join(", ")}`);
const frontEndOf = (index: number): FrontEnd => FORCED_FRONT_END ?? FRONT_ENDS[index % FRONT_ENDS.length]!;

interface StackSpec {
  mode: "production" | "spec";
  resources: Declared[];
  /** Which resource the hand edit touches, which of its edits, and whether it deletes instead. */
  pick: { resource: number; edit: number; remove: boolean };
}

const stackSpec: fc.Arbitrary<StackSpec> = fc.constant(null).chain(() => {
  // Each stack has an emulator of its own, so one suffix serves them all (and replays stay equal).
  const s = ORACLE_SUFFIX;
  // Each registered kind's share (test/kinds), in the registration's order.
  const shares = Object.fromEntries(KINDS.map((k) => {
    const { max, unique, keep = (l: Obj[]) => l } = k.stack;
    const list = unique ? fc.uniqueArray(k.inputs(s), { maxLength: max, selector: unique }) : fc.array(k.inputs(s), { maxLength: max });
    return [k.kind, list.map(keep)];
  }));
  return fc.record({
    mode: fc.constantFrom("production" as const, "spec" as const),
    kinds: fc.record(shares),
    pick: fc.record({ resource: fc.nat(), edit: fc.nat(), remove: fc.boolean() }),
  }).map(({ mode, pick, kinds }) => ({
    mode,
    pick,
    resources: KINDS.flatMap((k) => kinds[k.kind]!.map((inputs, n) => ({ name: `${k.kind}-${n}`, kind: k.kind, inputs }))),
  }));
}).filter((s) => s.resources.some((r) => descriptorOf(r.kind).undeletable === null || fieldEdits(r, s.mode).length > 0));

/**
 * The edit a stack's pick names: a field edit when the resource has one, else a deletion; a
 * resource with neither (no declared field a hand edit changes, and a deletion the service does not
 * do) passes the pick to the next resource of the stack.
 */
function editOf(spec: StackSpec): Edit {
  for (let i = 0; i < spec.resources.length; i++) {
    const r = spec.resources[(spec.pick.resource + i) % spec.resources.length]!;
    const edits = fieldEdits(r, spec.mode);
    const removable = descriptorOf(r.kind).undeletable === null;
    if (removable && (spec.pick.remove || edits.length === 0)) return deletion(r);
    if (edits.length) return edits[spec.pick.edit % edits.length]!;
  }
  // The stacks are drawn with at least one such resource.
  throw new Error(`no resource of the stack has a hand edit or a deletion: ${spec.resources.map((r) => r.kind).join(" ")}`);
}

interface Outcome { spurious: string[]; missed: string[]; edit?: string }

/** One stack through the whole scenario, through `frontEnd`; what differed from the expected plans. */
async function runStack(spec: StackSpec, frontEnd: FrontEnd): Promise<Outcome> {
  const out: Outcome = { spurious: [], missed: [] };
  const empty = (phase: string, diffs: Record<string, { op: string; keys: string[] }>) => {
    for (const [name, d] of Object.entries(diffs)) out.spurious.push(`${phase}: ${name} ${d.op} [${d.keys.join(", ")}]`);
  };
  const { fixture: { emu, ts }, setUp, tearDown } = stackFixture({
    emulator: { mode: spec.mode },
    seed: async (emu) => {
      for (const k of KINDS) await k.setup?.(emu);
      for (const r of spec.resources) await descriptorOf(r.kind).prepare?.(emu, r.inputs);
    },
    program: async () => {
      const ids: Record<string, unknown> = {};
      const added: Record<string, unknown> = {};
      for (const r of spec.resources) {
        const d = declareKind(frontEnd, r.kind, r.name, r.inputs);
        ids[r.name] = d.id;
        for (const k of SERVICE_ADDED.get(r.kind) ?? []) added[`${r.name}.${k}`] = d[k];
      }
      return { ids, added };
    },
    frontEnd,
  });
  try {
    await setUp();
    const up = await ts.stack.up();
    const ids = up.outputs.ids!.value as Record<string, string>;
    empty("preview after up", (await previewDiffs(ts.stack)).diffs);
    empty("preview --refresh after up", (await previewDiffs(ts.stack, { refresh: true })).diffs);

    const edit = editOf(spec);
    out.edit = edit.description;
    await edit.apply(emu, ids[edit.resource]!);
    const { shown: diffs, refreshed, outputs } = await previewShown(ts.stack, { refresh: true, diff: true });
    const shown = diffs[edit.resource];
    empty(`preview --refresh after ${edit.description}`, Object.fromEntries(Object.entries(diffs).filter(([name]) => name !== edit.resource)));
    if (!shown) out.missed.push(`${edit.description}: not shown`);
    else if (edit.field === undefined) {
      if (shown.op !== "create") out.missed.push(`${edit.description}: shown as ${shown.op}, not create`);
    } else {
      // A secret field is named too (`[diff: ~auth]`), through both front ends.
      const extra = shown.keys.filter((k) => k !== edit.field);
      if (shown.op !== "update") out.missed.push(`${edit.description}: shown as ${shown.op}, not update`);
      if (!shown.keys.includes(edit.field)) out.missed.push(`${edit.description}: shown as [${shown.keys.join(", ")}]`);
      if (extra.length) out.spurious.push(`${edit.description}: also [${extra.join(", ")}]`);
      // Inside the field, each value shown changing must be one the refresh found changed: a
      // value the service holds as before (a step id the read's inputs lack) is not drift. A
      // secret's values are `[secret]` in the refresh's events too: whether it changed is not seen there.
      const read = refreshed[edit.resource];
      const secret = SECRET_KEYS.get(spec.resources.find((r) => r.name === edit.resource)!.kind) ?? [];
      const unchanged = read && !secret.includes(edit.field) ? shown.paths.filter((p) => p[0] === edit.field && !refreshChanged(read, p)) : [];
      if (unchanged.length) out.spurious.push(`${edit.description}: also shows ${unchanged.map(formatPath).join(", ")}, which the service holds as before`);
    }

    const restored = (await ts.stack.up({ refresh: true })).outputs.added?.value as Obj | undefined;
    // The stack's outputs the preview shows: a value known there is the one the update gives (a
    // workflow's steps showed without the ids the service keeps, `"inbox (in_app)" => "undefined (in_app)"`).
    const previewed = isObject(outputs.added) ? outputs.added : {};
    for (const [k, v] of Object.entries(previewed)) {
      if (!unknownOrSame(v, restored?.[k])) out.spurious.push(`${edit.description}: the preview gives the output ${k} as ${JSON.stringify(v)}, the update ${JSON.stringify(restored?.[k])}`);
    }
    empty("preview after the restoring up", (await previewDiffs(ts.stack)).diffs);
    empty("preview --refresh after the restoring up", (await previewDiffs(ts.stack, { refresh: true })).diffs);
    await ts.stack.destroy();
    const { resources } = await exportedState(ts.stack);
    const kept = resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !String(r.type).startsWith("pulumi:providers:"));
    if (kept.length) out.spurious.push(`destroy left ${kept.length} resources in state`);
    const state = await emu.state() as Record<string, any[]>;
    const left = KINDS.flatMap((k) => k.remains(state, spec.resources.filter((r) => r.kind === k.kind).map((r) => r.inputs)));
    if (left.length) out.spurious.push(`destroy left ${left.length} objects in the service`);
    return out;
  } finally {
    await tearDown();
  }
}

describe("the oracle of exact diffs over random stacks, through the engine", () => {
  it(`finds no spurious diff and no missed drift over ${RUNS} random stacks (seed ${SEED})`, async (ctx) => {
    console.log(`oracle: seed ${SEED} (replay with ORACLE_SEED=${SEED} ORACLE_RUNS=${RUNS})`);
    const specs = fc.sample(stackSpec, { numRuns: RUNS, seed: SEED });
    if (FORCED_FRONT_END) console.log(`oracle: every stack through the ${FORCED_FRONT_END} front end (ORACLE_FRONT_END)`);
    let spurious = 0, missed = 0;
    const failures: { index: number; outcome: Outcome }[] = [];
    // ORACLE_CONCURRENCY stacks at a time, each with its own emulator, project and backend.
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < specs.length; index = next++) {
        const spec = specs[index]!;
        const outcome = await runStack(spec, frontEndOf(index));
        console.log(`oracle: stack ${index}: ${frontEndOf(index)} front end, ${spec.mode} mode, ${spec.resources.map((r) => r.kind).join(" ")}; ${outcome.edit}`);
        spurious += outcome.spurious.length;
        missed += outcome.missed.length;
        if (outcome.spurious.length || outcome.missed.length) {
          failures.push({ index, outcome });
          console.log(`oracle: stack ${index} (seed ${SEED}, path ${index}) ${JSON.stringify(outcome)}\n  ${JSON.stringify(spec)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    failures.sort((a, b) => a.index - b.index);
    if (failures.length) {
      // Replay the first failing stack from its seed and path, through its front end, and let fast-check shrink it.
      const first = failures[0]!;
      const shrunk = await fc.check(fc.asyncProperty(stackSpec, async (spec) => {
        const o = await runStack(spec, frontEndOf(first.index));
        return o.spurious.length === 0 && o.missed.length === 0;
      }), { seed: SEED, path: String(first.index), numRuns: RUNS, interruptAfterTimeLimit: 600_000 });
      console.log(`oracle: smallest failing stack: ${JSON.stringify(shrunk.counterexample)}`);
    }
    const line = `oracle: ${RUNS} stacks, ${spurious} spurious diffs, ${missed} missed drifts`;
    ctx.task.meta.oracle = line;
    console.log(line);
    expect({ spurious, missed, failures }).toEqual({ spurious: 0, missed: 0, failures: [] });
  }, 24 * 3600_000);
});

declare module "vitest" {
  interface TaskMeta { oracle?: string }
}
