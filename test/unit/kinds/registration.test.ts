/**
 * The registration of the kinds (test/kinds/index.ts) against the provider's resources: one
 * descriptor per resource of RESOURCE_TABLES and no other, each whole. The compiler refuses most
 * of this already (the record is keyed by the provider's kinds, every part is required); this
 * fails the same way when the build is skipped, and names the kind and the part.
 */
import { describe, expect, it } from "vitest";
import { RESOURCE_TABLES, RESOURCES } from "../../../provider/resources/index";
import { PARTS } from "../../kinds/descriptor";
import { DESCRIPTORS, KINDS, descriptorOf } from "../../kinds/index";

describe("the kinds' registration", () => {
  it("names each table by its own name", () => {
    expect(Object.entries(RESOURCES).filter(([k, t]) => k !== t.name).map(([k]) => k)).toEqual([]);
  });

  it("has one descriptor for every resource of RESOURCE_TABLES and no other, in their order", () => {
    expect(Object.keys(DESCRIPTORS).sort()).toEqual(RESOURCE_TABLES.map((t) => t.name).sort());
    expect(KINDS.map((d) => d.kind)).toEqual(RESOURCE_TABLES.map((t) => t.name));
  });

  it.each(Object.entries(DESCRIPTORS))("%s: its descriptor has every part, and its own kind", (kind, d) => {
    expect(d.kind).toBe(kind);
    expect(Object.keys(PARTS).filter((p) => (d as unknown as Record<string, unknown>)[p] === undefined)).toEqual([]);
  });

  // The compiler requires both parts but not that they hold anything: an empty table of cases
  // would leave the kind's operations to the conformance test's "no case for" alone, which names
  // the operation but not the kind.
  it.each(Object.entries(DESCRIPTORS))("%s: its OpenAPI cases are operations, one at least", (kind, d) => {
    const operations = Object.keys(d.openapiCases);
    expect(operations.length, `${kind} gives no case of test/conformance/openapi.test.ts (openapiCases)`).toBeGreaterThan(0);
    expect(operations.filter((o) => !/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/.test(o)), `${kind}'s openapiCases keys, each "METHOD /path"`).toEqual([]);
  });

  it("refuses a kind it does not know", () => {
    expect(() => descriptorOf("Unknown")).toThrow(/no descriptor for resource kind Unknown/);
  });
});
