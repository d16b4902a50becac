/**
 * provider/resources/dynamic.ts: the engine's dynamic-provider plugin hands an operation no URN,
 * so each operation runs on the `__urn` its resource carries, and the states it answers keep it;
 * a warning is then on its resource, as the native plugin's are.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dynamicProvider, engineDiff, type ResourceOperations } from "../../../../provider/resources/dynamic";
import { ResourceInitFailure, setWarningSink, warn, type WarningSink } from "../../../../provider/resources/lifecycle";

const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/notify:Layout::frame";
const OTHER = "urn:pulumi:dev::p::my:index:Component$pulumi-nodejs:dynamic/notify:Layout::other";

/** Operations that each warn with their own name after a turn of the event loop, and answer what a module answers. */
const ops: ResourceOperations = {
  check: async (_olds, news) => { await tick(); await warn("check"); return { inputs: { name: news.name }, failures: [] }; },
  diff: async () => { await tick(); await warn("diff"); return { changes: false }; },
  create: async (inputs) => { await tick(); await warn("create"); return { id: "l-1", outs: { name: inputs.name } }; },
  read: async (id, props) => { await tick(); await warn("read"); return id === "gone" ? { id: "", props: {} } : { id, props: { name: props.name }, inputs: { name: props.name } }; },
  update: async (_id, _olds, news) => { await tick(); await warn("update"); return { outs: { name: news.name } }; },
  delete: async () => { await tick(); await warn("delete"); },
};
const tick = () => new Promise((r) => setTimeout(r, 1));

describe("dynamicProvider", () => {
  const told: [string, string][] = [];
  let before: WarningSink;
  beforeEach(() => {
    told.length = 0;
    before = setWarningSink(async (message, urn) => { told.push([message, urn]); });
  });
  afterEach(() => { setWarningSink(before); });
  const p = dynamicProvider(ops);

  it("runs each operation on the resource its __urn names: the inputs' for check, diff, create and update, the state's for read and delete", async () => {
    const inputs = { name: "Frame", __urn: URN };
    await p.check!({}, inputs);
    await p.diff!("l-1", { name: "Frame", __urn: OTHER }, inputs);
    await p.create!(inputs);
    await p.read!("l-1", inputs);
    await p.update!("l-1", { name: "Old", __urn: OTHER }, inputs);
    await p.delete!("l-1", inputs);
    expect(told).toEqual(["check", "diff", "create", "read", "update", "delete"].map((op) => [op, URN]));
  });

  it("keeps operations that run at once apart: each warning is on its own resource", async () => {
    await Promise.all([p.read!("l-1", { name: "A", __urn: URN }), p.read!("l-2", { name: "B", __urn: OTHER }), p.delete!("l-3", { name: "C" })]);
    expect(told.sort()).toEqual([["delete", ""], ["read", OTHER], ["read", URN]].sort());
  });

  it("a state written before resources carried __urn warns on the stack (an empty URN) and gains none", async () => {
    const read = await p.read!("l-1", { name: "Frame" });
    expect(told).toEqual([["read", ""]]);
    expect(read.props).toEqual({ name: "Frame" });
  });

  it("keeps __urn in what check, create, read and update answer, so a later read or delete has it", async () => {
    const inputs = { name: "Frame", __urn: URN };
    expect((await p.check!({}, inputs)).inputs).toEqual(inputs);
    expect((await p.create!(inputs)).outs).toEqual(inputs);
    expect(await p.read!("l-1", inputs)).toEqual({ id: "l-1", props: inputs, inputs });
    expect((await p.update!("l-1", inputs, inputs)).outs).toEqual(inputs);
    // Gone: the engine drops the state, nothing to keep.
    expect(await p.read!("gone", inputs)).toEqual({ id: "", props: {} });
  });

  it("a write that failed after the object was made keeps __provider and __urn in the state the engine records", async () => {
    const failing = dynamicProvider({ ...ops, create: async () => { throw new ResourceInitFailure("step issues", "w-1", { name: "Frame" }, ["issue"]); } });
    const err = await failing.create!({ name: "Frame", __provider: "exports.handler = () => 0;", __urn: URN }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourceInitFailure);
    expect((err as ResourceInitFailure).properties).toEqual({ name: "Frame", __provider: "exports.handler = () => 0;", __urn: URN });
  });
});

describe("engineDiff", () => {
  // The plugin sends `changes` true as DIFF_SOME, false as DIFF_NONE, anything else as DIFF_UNKNOWN,
  // on which the engine compares the old and new inputs itself and names what differs.
  it("answers a diff that changes a secret as unknown, keeping its replacement", () => {
    const d = { changes: true, changed: ["auth", "workspace"], replaces: [], secrets: ["auth"], deleteBeforeReplace: true };
    expect(engineDiff(d)).toEqual({ ...d, changes: undefined });
  });
  it("sends every other diff as it is", () => {
    for (const d of [{ changes: true, changed: ["workspace"], replaces: [] }, { changes: false, changed: [], replaces: [] }, { changes: true, changed: ["a"], replaces: [], secrets: [] }]) {
      expect(engineDiff(d)).toBe(d);
    }
  });
  it("is what the dynamic provider's diff answers", async () => {
    const secretChange = dynamicProvider({ ...ops, diff: async () => ({ changes: true, replaces: [], secrets: ["auth"] }) as never });
    expect((await secretChange.diff!("c-1", {}, { __urn: URN })).changes).toBeUndefined();
  });
});
