/** provider/resources/fields.ts: everything a field table derives (schema, key lists, bodies, outputs). */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { defineResource, diffOf, field, output, requestBody, serviceFields } from "../../../../provider/resources/fields";

const TABLE = defineResource({
  name: "Thing",
  module: "thing",
  doc: "A thing.",
  inputs: {
    key: field(z.string(), "The key.", { replaces: true }),
    name: field(z.string().optional(), "The name."),
    token: field(z.string().optional(), "A secret token.", { secret: true }),
    schema: field(z.record(z.string(), z.unknown()).optional(), "Compared whole.", { exact: true }),
    kind: field(z.string().optional(), "Sent on create only.", { createOnly: true }),
    primary: field(z.boolean().optional(), "Applied by a call of its own.", { local: true }),
    environmentId: field(z.string().optional(), "Named otherwise by the service.", { api: "_environmentId" }),
    active: field(z.boolean().optional(), "The service's default when left out.", { serviceDefault: true }),
    adopt: field(z.boolean().optional(), "Steers the provider.", { control: true }),
  },
  outputs: { _id: output(z.string(), "The id."), createdAt: output(z.string().optional(), "When.") },
  secretOutputs: ["_id"],
});

describe("defineResource", () => {
  it("derives the key lists from the facts of each field", () => {
    expect(TABLE.inputKeys).toEqual(["key", "name", "token", "schema", "kind", "primary", "environmentId", "active"]);
    expect(TABLE.replaceOnChange).toEqual(["key", "kind"]);
    expect(TABLE.secretKeys).toEqual(["token", "_id"]);
    expect(TABLE.exactKeys).toEqual(["schema"]);
    expect(TABLE.controlKeys).toEqual(["adopt"]);
    expect(TABLE.outputKeys).toEqual([...TABLE.inputKeys, "_id", "createdAt", "declaredKeys"]);
    // Required in outputs: a required input, one with a service default, and outputs that are always there.
    expect(TABLE.requiredOutputs).toEqual(["key", "active", "_id", "declaredKeys"]);
  });

  it("checks inputs strictly (the engine's __provider aside), and carries each field's description", () => {
    expect(TABLE.schema.safeParse({ key: "k", __provider: "exports.handler = ..." }).success).toBe(true);
    expect(TABLE.schema.safeParse({ key: "k", nmae: "x" }).success).toBe(false);
    expect(TABLE.schema.safeParse({}).success).toBe(false);
    expect(TABLE.inputs.name.type.description).toBe("The name.");
    expect(TABLE.inputs.key.doc).toBe("The key.");
    expect(TABLE.outputs.declaredKeys.safeParse(["a"]).success).toBe(true);
  });
});

describe("diffOf", () => {
  it("reports the changed compared keys and which of them replace", () => {
    const olds = { key: "a", name: "x", adopt: false, declaredKeys: ["key", "name"] };
    expect(diffOf(TABLE, olds, { key: "a", name: "x", adopt: true })).toEqual({ changes: false, changed: [], replaces: [], paths: [] });
    expect(diffOf(TABLE, olds, { key: "b", name: "y" })).toEqual({
      changes: true, changed: ["key", "name"], replaces: ["key"],
      paths: [{ path: "key", key: "key", kind: "update" }, { path: "name", key: "name", kind: "update" }],
    });
  });

  it("names where inside a field the values differ, but a secret field whole", () => {
    const olds = { key: "a", schema: { a: { b: 1, c: 2 } }, token: "t1", declaredKeys: ["key", "schema", "token"] };
    expect(diffOf(TABLE, olds, { key: "a", schema: { a: { b: 1, c: 3 }, d: true }, token: "t2" }).paths).toEqual([
      { path: "token", key: "token", kind: "update" },
      { path: "schema.a.c", key: "schema", kind: "update" },
      { path: "schema.d", key: "schema", kind: "add" },
    ]);
  });

  it("says which changed keys are secret, and says nothing of secrets when none changed", () => {
    const olds = { key: "a", name: "x", token: "t1", declaredKeys: ["key", "name", "token"] };
    expect(diffOf(TABLE, olds, { key: "a", name: "y", token: "t2" }).secrets).toEqual(["token"]);
    expect(diffOf(TABLE, olds, { key: "a", name: "y", token: "t1" })).not.toHaveProperty("secrets");
  });
});

describe("requestBody", () => {
  const inputs = { key: "k", name: undefined, kind: "big", primary: true, environmentId: "env1", adopt: true, token: "t" };
  it("sends each set field under the service's name, never control or local fields", () => {
    expect(requestBody(TABLE, inputs, "create")).toEqual({ key: "k", kind: "big", _environmentId: "env1", token: "t" });
  });
  it("leaves create-only fields out of an update", () => {
    expect(requestBody(TABLE, inputs, "update")).toEqual({ key: "k", _environmentId: "env1", token: "t" });
  });
});

describe("the facts of a field's place in the bodies", () => {
  const WIRE = defineResource({
    name: "Wire",
    module: "wire",
    doc: "A table of every body fact.",
    inputs: {
      owner: field(z.string(), "In the request's path.", { path: true }),
      key: field(z.string(), "Create only.", { createOnly: true }),
      parentId: field(z.string().optional(), "Update only, read back under another name.", { updateOnly: true, readAs: "_parentId" }),
      tags: field(z.array(z.string()).optional(), "Reset by an update that leaves it out.", { keep: true }),
      values: field(z.record(z.string(), z.string()).optional(), "A map the service holds as entries.", { entries: { key: "_environmentId", value: "value" } }),
    },
    outputs: {},
  });
  const inputs = { owner: "o", key: "k", parentId: "p", values: { env1: "a", env2: "b" } };

  it("leaves path fields out of every body, update-only fields out of a create, and sends a map as its entries", () => {
    expect(requestBody(WIRE, inputs, "create")).toEqual({ key: "k", values: [{ _environmentId: "env1", value: "a" }, { _environmentId: "env2", value: "b" }] });
    expect(Object.keys(requestBody(WIRE, inputs, "update"))).toEqual(["parentId", "values"]);
  });
  it("sends a kept field the program leaves out as held, on update only, and never over a declared value", () => {
    const held = { tags: ["held"], key: "other" };
    expect(requestBody(WIRE, inputs, "update", held).tags).toEqual(["held"]);
    expect(requestBody(WIRE, inputs, "create", held).tags).toBeUndefined();
    expect(requestBody(WIRE, { ...inputs, tags: [] }, "update", held).tags).toEqual([]);
    expect(requestBody(WIRE, inputs, "update", held).key).toBeUndefined();
  });
  it("reads a field under its response name and a list of entries back into the map", () => {
    expect(serviceFields(WIRE, { owner: "o", parentId: "ignored", _parentId: "p", values: [{ _environmentId: "env1", value: "a" }] }))
      .toEqual({ owner: "o", parentId: "p", values: { env1: "a" } });
  });
});

describe("serviceFields", () => {
  it("reads each input from the service's name, its documented default when absent, and no control field", () => {
    expect(serviceFields(TABLE, { key: "k", _environmentId: "env1", environmentId: "ignored", adopt: true, extra: 1 }))
      .toEqual({ key: "k", environmentId: "env1", active: true });
    expect(serviceFields(TABLE, { key: "k", active: false })).toEqual({ key: "k", active: false });
  });
});
