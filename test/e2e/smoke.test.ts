import { afterEach, describe, expect, it } from "vitest";
import { createTestStack, exportedState, nativeRequire, type TestStack } from "../helpers/pulumi";

type BaselineModule = typeof import("../../bench/baseline");

describe("the real Pulumi engine runs a dynamic resource from the compiled package", () => {
  let ts: TestStack | undefined;
  afterEach(async () => {
    await ts?.cleanup();
    ts = undefined;
  });

  it("goes through up, an empty preview, refresh and destroy, with the state right after each", async () => {
    let value = "one";
    ts = await createTestStack({
      program: async () => {
        const { BaselineResource } = nativeRequire("pulumi-notify/dist/bench/baseline") as BaselineModule;
        const r = new BaselineResource("baseline", { value });
        return { value: r.value, length: r.length };
      },
    });
    const up = await ts.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create).toBe(2);
    expect(up.outputs.value?.value).toBe("one");
    expect(up.outputs.length?.value).toBe(3);
    const afterUp = await exportedState(ts.stack);
    const baseline = afterUp.resources.find((r) => String(r.urn).endsWith("::baseline"))!;
    expect(baseline.id).toBe("baseline-one");
    // The serialized provider is small: it only requires the implementation by package path.
    const serialized = String((baseline.inputs as Record<string, unknown>).__provider);
    expect(serialized.length).toBeLessThan(4096);
    expect(serialized).toContain("pulumi-notify/dist/bench/baseline");

    const preview = await ts.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(2);

    const refresh = await ts.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect((await exportedState(ts.stack)).resources.some((r) => r.id === "baseline-one")).toBe(true);

    value = "three";
    const up2 = await ts.stack.up();
    expect(up2.summary.resourceChanges?.update).toBe(1);
    expect(up2.outputs.length?.value).toBe(5);

    const destroy = await ts.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect((await exportedState(ts.stack)).resources).toHaveLength(0);
  });

  it("fails the update when the dynamic resource's create throws", async () => {
    ts = await createTestStack({
      program: async () => {
        const { BaselineResource } = nativeRequire("pulumi-notify/dist/bench/baseline") as BaselineModule;
        new BaselineResource("baseline", { value: "x" });
      },
      env: { NOTIFY_BASELINE_FAIL: "1" },
    });
    await expect(ts.stack.up()).rejects.toThrow(/baseline create failed on purpose/);
  });
});
