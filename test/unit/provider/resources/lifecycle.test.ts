/**
 * The create-or-adopt sequence every resource shares (provider/resources/lifecycle.ts), driven
 * through a kind's hooks as plain functions: which look a refused create makes (`conflicting`),
 * and whether what a retried create finds is its own (`ours`).
 */
import { describe, expect, it } from "vitest";
import { NotifyConflictError } from "../../../../provider/client/errors";
import { createOrAdopt, type CreateOrAdopt } from "../../../../provider/resources/lifecycle";

interface Thing { id: string; kind: string }

/** A 409 after `attempts` attempts: more than one means an earlier attempt may have made the object. */
const conflict = (attempts: number) => new NotifyConflictError({ status: 409, method: "POST", path: "/things", serviceMessage: "exists", attempts });

/** The hooks of a kind whose create meets a 409 after `attempts` attempts; `calls` records which hook ran. */
function hooks(attempts: number, over: Partial<CreateOrAdopt<Thing, Thing>> = {}) {
  const calls: string[] = [];
  const k: CreateOrAdopt<Thing, Thing> = {
    what: 'thing "a"', adopt: false, refuse: "set adopt: true",
    find: async () => { calls.push("find"); return { id: "found", kind: "mine" }; },
    create: async () => { calls.push("create"); throw conflict(attempts); },
    created: (made) => ({ id: made.id, outs: {} }),
    takeOver: async (existing) => { calls.push(`takeOver ${existing.id}`); return { id: existing.id, outs: {} }; },
    ...over,
  };
  return { k, calls };
}

describe("createOrAdopt", () => {
  it("refuses a first attempt's conflict without adopt, looking nowhere", async () => {
    const { k, calls } = hooks(1);
    await expect(createOrAdopt(k)).rejects.toThrow(/Unable to create thing "a": 409 Conflict: exists\. set adopt: true/);
    expect(calls).toEqual(["create"]);
  });

  it("looks for the object a refused create names with `conflicting` where the kind gives one, else with `find`", async () => {
    const own = hooks(2);
    expect(await createOrAdopt(own.k)).toEqual({ id: "found", outs: {} });
    expect(own.calls).toEqual(["create", "find", "takeOver found"]);
    const other = hooks(2, { conflicting: async () => ({ id: "elsewhere", kind: "mine" }) });
    expect(await createOrAdopt(other.k)).toEqual({ id: "elsewhere", outs: {} });
    expect(other.calls).toEqual(["create", "takeOver elsewhere"]);
  });

  it("takes over what a retried create finds only when `ours` says that create made it; with adopt, whatever it finds", async () => {
    const ours = (t: Thing) => t.kind === "mine";
    // Found only after the create: an adopt's first look finds nothing, so it creates too.
    let made = false;
    const theirs = async () => (made ? { id: "found", kind: "theirs" } : undefined);
    const create = async () => { made = true; throw conflict(2); };
    const refused = hooks(2, { ours, find: theirs, create });
    await expect(createOrAdopt(refused.k)).rejects.toThrow(/409 Conflict: exists\. set adopt: true/);
    expect(refused.calls).toEqual([]);
    made = false;
    const adopted = hooks(2, { ours, find: theirs, create, adopt: true });
    expect(await createOrAdopt(adopted.k)).toEqual({ id: "found", outs: {} });
    expect(adopted.calls).toEqual(["takeOver found"]);
  });
});
