/**
 * A resource operation's failure (provider/resources/lifecycle.ts): a refused API key (401) is the
 * one failure whose fix lies outside the program, so its message says where the key comes from
 * (`notify:apiKey`, `NOTIFY_API_KEY`) and how a rotated key reaches refresh and destroy
 * (`--run-program`, or an `up`). test/component/provider/functions/unauthorized.test.ts checks a
 * function's 401 against the emulator. And the create-or-adopt sequence every resource shares,
 * driven through a kind's hooks as plain functions: which look a refused create makes
 * (`conflicting`), and whether what a retried create finds is its own (`ours`).
 */
import { describe, expect, it } from "vitest";
import { NotifyApiError, NotifyConflictError } from "../../../../provider/client";
import { UNAUTHORIZED_HINT } from "../../../../provider/config";
import { createOrAdopt, failure, type CreateOrAdopt } from "../../../../provider/resources/lifecycle";

const apiError = (status: number) => new NotifyApiError({ status, method: "GET", path: "/v1/integrations", serviceMessage: "refused", attempts: 1 });
const HINT = [/notify:apiKey/, /NOTIFY_API_KEY/, /--run-program/, /pulumi destroy/];

describe("a 401 names the key's config and the rotation steps", () => {
  it("a resource operation's 401 carries the hint", () => {
    const message = failure("read integration", apiError(401)).message;
    expect(message).toMatch(/^Unable to read integration: 401 Unauthorized: refused\. /);
    for (const re of HINT) expect(message).toMatch(re);
    // The hint the functions' 401 carries too (test/component/provider/functions/unauthorized.test.ts).
    expect(message).toContain(UNAUTHORIZED_HINT);
    for (const re of HINT) expect(UNAUTHORIZED_HINT).toMatch(re);
  });

  it("other failures do not", () => {
    expect(failure("read integration", apiError(403)).message).not.toMatch(/notify:apiKey/);
    expect(failure("read integration", apiError(404)).message).not.toMatch(/notify:apiKey/);
  });
});

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

describe("a failure's hint", () => {
  // The service's messages often end with a full stop ('A domain with name "x" already exists.').
  it("follows the cause as a sentence of its own, with one full stop between them", () => {
    const taken = new NotifyApiError({ status: 409, method: "POST", path: "/v1/domains", serviceMessage: 'A domain with name "x" already exists.', attempts: 1 });
    expect(failure("create domain", taken, "set adopt: true").message).toBe('Unable to create domain: 409 Conflict: A domain with name "x" already exists. set adopt: true');
    expect(failure("create topic", apiError(409), "set adopt: true").message).toBe("Unable to create topic: 409 Conflict: refused. set adopt: true");
  });
});
