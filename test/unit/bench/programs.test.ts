/** The benchmark's resource mix (bench/programs.ts) holds every resource of RESOURCE_TABLES. */
import { describe, expect, it } from "vitest";
import { RESOURCE_TABLES } from "../../../provider/resources/index";
import { loadPackage } from "../../helpers/pulumi";

const { mixCounts } = loadPackage<typeof import("../../../bench/programs")>("/dist/bench/programs");

describe("bench mix", () => {
  it.each([20, 200, 500])("N = %i: one count per resource kind, summing to N", (n) => {
    const counts = mixCounts(n);
    expect(Object.keys(counts).sort()).toEqual(RESOURCE_TABLES.map((t) => t.name).sort());
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(n);
  });
});
