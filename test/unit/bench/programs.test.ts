/** The benchmark's resource mix (bench/programs.ts) holds every resource of RESOURCE_TABLES but those it names as left out, with why. */
import { describe, expect, it } from "vitest";
import { RESOURCE_TABLES } from "../../../provider/resources/index";
import { loadPackage } from "../../helpers/pulumi";

const { mixCounts, LEFT_OUT_OF_MIX } = loadPackage<typeof import("../../../bench/programs")>("/dist/bench/programs");

describe("bench mix", () => {
  it.each([20, 200, 500])("N = %i: one count per resource kind (but those named as left out), summing to N", (n) => {
    const counts = mixCounts(n);
    expect([...Object.keys(counts), ...Object.keys(LEFT_OUT_OF_MIX)].sort()).toEqual(RESOURCE_TABLES.map((t) => t.name).sort());
    expect(Object.keys(counts).filter((k) => k in LEFT_OUT_OF_MIX)).toEqual([]);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(n);
  });
});
