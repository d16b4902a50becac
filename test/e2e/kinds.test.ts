/**
 * Every registered kind (test/kinds/index.ts) through one scenario under the real engine, in each
 * emulator mode, every kind in one stack per step: up; a `preview --refresh` showing no change; a
 * hand edit of each kind (its descriptor's first for the declaration) shown by `preview --refresh`
 * on that resource and field, and repaired by `up --refresh`; destroy, leaving nothing of any kind
 * on the service; then each kind's adopt object made on the service, refused without `adopt` (an
 * error naming adopt: true on each resource, the service unchanged), taken over with
 * `adopt: true` writing nothing, and destroyed. The modes take the front ends in turn (the dynamic
 * resources in the first, the native plugin in the second). What each kind declares is its
 * descriptor's `scenario` part; every count comes from the program.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { exportedState } from "../helpers/pulumi";
import { EMULATOR_MODES, useStack } from "../helpers/stack";
import { declareKind, FRONT_ENDS, type FrontEnd } from "../helpers/frontEnds";
import { previewShown } from "../helpers/shownDiff";
import { KINDS } from "../kinds/index";
import type { KindDescriptor, Obj } from "../kinds/descriptor";
import { fieldEdits } from "../property/handEdits";

/** What the program declares of each kind: the scenario's declaration, or the adopt case's object with or without adopt. */
type Phase = "scenario" | "without adopt" | "with adopt";
const inputsOf = (k: KindDescriptor, phase: Phase): Obj =>
  phase === "scenario" ? k.scenario.declared : phase === "with adopt" ? { ...k.adopt.equal, adopt: true } : k.adopt.equal;

/** What the engine's summary counts beside the program's resources: the stack (it leaves providers out). */
const STACK = 1;

/** Each kind's resource is named by its kind (one of each per stack). */
const nameOf = (k: KindDescriptor) => k.kind;

/** Resources of the stack other than the stack itself and providers. */
const declaredIn = async (stack: automation.Stack) =>
  (await exportedState(stack)).resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !String(r.type).startsWith("pulumi:providers:"));

describe.each(EMULATOR_MODES.map((mode, i) => [mode, FRONT_ENDS[i % FRONT_ENDS.length]!] as const))("every kind in %s mode, through the %s front end", (mode, frontEnd: FrontEnd) => {
  const run = { phase: "scenario" as Phase, declared: [] as string[] };
  const program: automation.PulumiFn = async () => {
    run.declared = [];
    const ids: Record<string, unknown> = {};
    for (const k of KINDS) {
      ids[nameOf(k)] = declareKind(frontEnd, k.kind, nameOf(k), inputsOf(k, run.phase)).id;
      run.declared.push(nameOf(k));
    }
    // Refused resources get no id to return.
    return run.phase === "without adopt" ? {} : { ids };
  };
  const { emu, ts } = useStack({
    emulator: { mode }, program, frontEnd,
    seed: async (e) => {
      for (const k of KINDS) await k.setup?.(e);
      for (const k of KINDS) await k.prepare?.(e, k.scenario.declared);
    },
  });
  const live = async () => (await emu.state()) as unknown as Record<string, any[]>;
  const remainsOf = async (phase: Phase) => {
    const state = await live();
    return Object.fromEntries(KINDS.map((k) => [k.kind, k.remains(state, [inputsOf(k, phase)])]));
  };
  const nothingOfEach = Object.fromEntries(KINDS.map((k) => [k.kind, []]));
  /** What a `preview --refresh` shows changing, per resource: the operation and the input keys. */
  const refreshShows = async () => {
    const { shown } = await previewShown(ts.stack, { refresh: true });
    return Object.fromEntries(Object.entries(shown).map(([name, s]) => [name, { op: s.op, keys: s.keys }]));
  };
  const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);
  let ids: Record<string, string> = {};

  it("up creates one object of every kind", async () => {
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: STACK + run.declared.length });
    ids = up.outputs.ids!.value as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual(KINDS.map(nameOf).sort());
    expect(Object.entries(ids).filter(([, id]) => typeof id !== "string" || id === "")).toEqual([]);
  });

  it("preview --refresh then shows no change", async () => {
    expect(await refreshShows()).toEqual({});
  });

  it("a hand edit of every kind is shown by preview --refresh on its field, and up --refresh repairs it", async () => {
    const expected: Record<string, { op: string; keys: string[] }> = {};
    for (const k of KINDS) {
      const edit = fieldEdits({ name: nameOf(k), kind: k.kind, inputs: k.scenario.declared }, mode)[0];
      expect(edit, `${k.kind}: its scenario declaration has no hand edit in ${mode} mode`).toBeDefined();
      await edit!.apply(emu, ids[nameOf(k)]!);
      // A secret field is named too (`[diff: ~credentials]`), though its values show as `[secret]`.
      expected[nameOf(k)] = { op: "update", keys: [edit!.field!] };
    }
    expect(await refreshShows()).toEqual(expected);
    const up = await ts.stack.up({ refresh: true });
    expect(up.summary.resourceChanges).toEqual({ same: STACK, update: Object.keys(expected).length });
    expect(await refreshShows()).toEqual({});
  });

  it("destroy leaves nothing of any kind on the service", async () => {
    await ts.stack.destroy();
    expect(await declaredIn(ts.stack)).toEqual([]);
    expect(await remainsOf("scenario")).toEqual(nothingOfEach);
  });

  it("an object of every kind that exists is refused without adopt, each resource's error naming adopt: true, and nothing changes", async () => {
    for (const k of KINDS) await k.adopt.seed(emu);
    const before = await live();
    run.phase = "without adopt";
    const events: automation.EngineEvent[] = [];
    // Every create attempted, so that each kind shows its refusal.
    const err = await ts.stack.up({ continueOnError: true, onEvent: (e) => events.push(e) }).then(() => undefined, (e: Error) => e);
    expect(err, "up without adopt should fail").toBeInstanceOf(Error);
    const errors: Record<string, string> = {};
    for (const e of events) {
      const d = e.diagnosticEvent;
      if (d?.severity !== "error" || !d.urn) continue;
      const name = d.urn.split("::").pop()!;
      errors[name] = (errors[name] ?? "") + d.message;
    }
    const refusesNamingAdopt = Object.fromEntries(KINDS.map((k) => [nameOf(k), /adopt: true/i.test(errors[nameOf(k)] ?? "")]));
    expect(refusesNamingAdopt, JSON.stringify(errors, null, 1)).toEqual(Object.fromEntries(KINDS.map((k) => [nameOf(k), true])));
    expect(await live()).toEqual(before);
    expect(await declaredIn(ts.stack)).toEqual([]);
  });

  it("with adopt: true every kind's object is taken over writing nothing, and preview --refresh then shows no change", async () => {
    run.phase = "with adopt";
    await emu.clearRequests();
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(run.declared.length);
    expect(await writes()).toEqual([]);
    expect(await refreshShows()).toEqual({});
  });

  it("destroy leaves nothing of the adopted objects", async () => {
    await ts.stack.destroy();
    expect(await declaredIn(ts.stack)).toEqual([]);
    expect(await remainsOf("with adopt")).toEqual(nothingOfEach);
  });
});
