/**
 * Exact diffs, as properties over random inputs (fast-check), without the engine: the resource
 * implementation modules the engine's plugins call (from source), against an emulator in this
 * process, in production and spec mode. For each resource:
 * - `check` accepts every generated valid input and makes no request;
 * - after `create`, `diff(outputs, same inputs)` reports no change (the service has filled in
 *   defaults, generated ids and reordered keys by then), and `read` gives back the declared inputs;
 * - changing any one input reports a change of exactly that input, and a replace exactly when it
 *   is immutable; after the `update` of a mutable one, the next diff is empty and a read gives back
 *   the new inputs. "Changing" is as diffs compare: an input removed, or a new value that differs
 *   from what the service holds seen through the declared shape (nested keys the program no
 *   longer declares are not compared, except in exact inputs such as `payloadSchema`).
 * A failure prints fast-check's seed and the smallest failing case; `FC_SEED` replays a run and
 * `FC_RUNS` sets the number of runs (default 40 per property).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedKeys, deepEqual, project } from "../../../../provider/resources/diff";
import { startTestEmulator, type TestEmulator } from "../../../helpers/emulator";
import { RESOURCE_TABLES } from "../../../../provider/resources/index";
import { KINDS as DESCRIPTORS } from "../../../kinds/index";
import { impl, type Obj } from "../../../helpers/implementation";

const RUNS = Number(process.env.FC_RUNS ?? 40);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const params = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

// What replaces and what is compared whole are facts about the service, written in each kind's
// descriptor (test/kinds/) rather than read from the provider's lists, so that a wrong list fails
// the test instead of steering it.
const KINDS = DESCRIPTORS.map((d) => {
  const table = RESOURCE_TABLES.find((t) => t.name === d.kind)!;
  return {
    ...d, name: d.kind, table, provider: () => impl(table.module), keys: table.inputKeys as readonly string[],
    /** The provider's own list of the inputs compared whole, which `changedKeys` is given, as `diff` does. */
    providerExact: table.exactKeys as readonly string[],
  };
});

let run = 0;
const suffix = () => `r${process.pid}x${++run}`;

describe("the arbitraries", () => {
  // A field added to a table without a way to generate it would go untested here and in the oracle.
  it.each(KINDS.map((k) => [k.name, k.table, k.inputs] as const))("generate every input field of %s but adopt (which needs an object made outside the stack)", (_name, table, inputs) => {
    const seen = new Set(fc.sample(inputs("cover"), { numRuns: 300, seed: 1 }).flatMap((i) => Object.keys(i)));
    expect([...seen].sort()).toEqual(Object.keys(table.inputs).filter((k) => k !== "adopt").sort());
  });
});

describe.each(["production", "spec"] as const)("exact diffs over random inputs (%s mode)", (mode) => {
  let emu: TestEmulator;
  let disconnect = () => {};

  beforeAll(async () => {
    // Many runs against one emulator: the organisation limits (10 environments and 10 variables by default) would stop them, not the properties.
    emu = await startTestEmulator({ mode, environmentLimit: 100_000, environmentVariableLimit: 100_000 });
    disconnect = emu.connectEnvironment();
    for (const k of KINDS) await k.setup?.(emu);
  });
  afterAll(async () => {
    disconnect();
    await emu?.close();
  });

  // Found by the property test below (FC_RUNS 40, a random seed): a step given the stepId that the
  // service generates for an earlier step's name. Production takes a given stepId as given, so the
  // two steps share it; the diff must stay empty and an update must keep each step's identity.
  it("regression: a given stepId equal to the id generated for an earlier step", async () => {
    const provider = impl("workflow");
    const inputs = {
      workflowId: `dup-${suffix()}`, name: " ",
      steps: [{ name: "Ẹ ", type: "chat", controlValues: {} }, { name: " ", type: "sms", stepId: "e", controlValues: {} }, { name: " ", type: "in_app", controlValues: { body: " " } }],
    };
    const { inputs: checked, failures } = await provider.check({}, inputs);
    expect(failures).toEqual([]);
    const { id, outs } = await provider.create(checked);
    try {
      expect((outs.steps as Obj[]).map((s) => s.stepId)).toEqual(["e", "e", expect.any(String)]);
      expect(await provider.diff(id, outs, checked)).toMatchObject({ changes: false, replaces: [] });
      const { outs: after } = await provider.update(id, outs, checked);
      const ids = (o: Obj) => (o.steps as Obj[]).map((s) => `${String(s.type)}:${String(s.databaseId)}`);
      expect(ids(after)).toEqual(ids(outs));
      expect((await provider.diff(id, after, checked)).changes).toBe(false);
    } finally {
      await provider.delete(id, outs);
    }
  });

  describe.each(KINDS)("$name", (kind) => {
    it("check accepts every valid input and sends nothing; after create, diff with the same inputs is empty and read gives them back", async () => {
      const provider = kind.provider();
      await fc.assert(fc.asyncProperty(fc.constant(null).chain(() => kind.inputs(suffix())), async (inputs) => {
        await kind.prepare?.(emu, inputs);
        await emu.clearRequests();
        const { inputs: checked, failures } = await provider.check({}, inputs);
        expect(failures).toEqual([]);
        expect(await emu.requests()).toEqual([]);
        const { id, outs } = await provider.create(checked);
        try {
          expect(await provider.diff(id, outs, checked)).toMatchObject({ changes: false, replaces: [] });
          const read = await provider.read(id, outs);
          expect(read.id).toBe(id);
          expect(read.inputs ?? {}).toEqual(checked);
          expect((await provider.diff(id, read.props, checked)).changes).toBe(false);
        } finally {
          await provider.delete(id, outs);
        }
      }), params);
    });

    it("a change of any one input shows as exactly that input, replacing exactly when it is immutable; after update the next diff is empty", async () => {
      const provider = kind.provider();
      const pair = fc.constant(null).chain(() => {
        const s = suffix();
        return fc.tuple(kind.inputs(s), kind.inputs(s));
      });
      // Every input is changed alone in every run (from a to b's value), so each one is tried in
      // every run rather than in the runs that happen to pick it.
      let tried = 0;
      await fc.assert(fc.asyncProperty(pair, async ([a, b]) => {
        await kind.prepare?.(emu, a);
        const { id, outs } = await provider.create((await provider.check({}, a)).inputs);
        try {
          for (const key of kind.keys) {
            const changed: Obj = { ...a };
            if (b[key] === undefined) delete changed[key];
            else changed[key] = b[key];
            // Same value, or an input removed that was never declared: no change to look for.
            if (deepEqual(a[key], changed[key])) continue;
            const { inputs: next, failures } = await provider.check(outs, changed);
            if (failures.length) continue; // e.g. primary from one input beside active: false from the other
            // What the service holds, seen as the program now declares the input (objects through
            // their declared keys, exact inputs whole): when it already equals the new value (a value
            // the service already held, or nested keys no longer declared), there is no change.
            const held = kind.exact.includes(key) ? outs[key] : project(outs[key], next[key]);
            if (next[key] !== undefined && deepEqual(held, next[key])) continue;
            tried++;
            expect(changedKeys(outs, next, kind.keys, [], kind.providerExact), key).toEqual([key]);
            const diff = await provider.diff(id, outs, next);
            expect(diff.changes, key).toBe(true);
            expect(diff.replaces, key).toEqual(kind.replaceOnChange.includes(key) ? [key] : []);
            // The native plugin's detailed diff names places inside that input only.
            expect(diff.paths?.length, key).toBeGreaterThan(0);
            expect([...new Set(diff.paths!.map((p) => p.key))], key).toEqual([key]);
            if (kind.replaceOnChange.includes(key)) continue;
            // Each update starts from a, so the next key's change is again the only one.
            const { outs: after } = await provider.update(id, outs, next);
            try {
              expect((await provider.diff(id, after, next)).changes, key).toBe(false);
              const read = await provider.read(id, after);
              expect(read.inputs ?? {}, key).toEqual(next);
              expect((await provider.diff(id, read.props, next)).changes, key).toBe(false);
            } finally {
              await provider.update(id, after, (await provider.check(after, a)).inputs);
            }
          }
        } finally {
          await provider.delete(id, outs);
        }
      }), params);
      expect(tried).toBeGreaterThan(0);
    });
  });
});
