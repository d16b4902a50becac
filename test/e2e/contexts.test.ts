/**
 * Context under the real engine, against the emulator in production and spec mode: up, an empty
 * preview, data changed through the API as drift on `preview --refresh` and its repair, a context
 * deleted through the API, adopt, getContexts and its Output twin in a program, import through the
 * native plugin (by the key `type:id`), and destroy.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { exportedState, loadPackage, nativeRequire, previewDiffs } from "../helpers/pulumi";
import { declare } from "../helpers/native";
import { EMULATOR_MODES, useStack } from "../helpers/stack";

interface Spec {
  acmeData: Record<string, unknown>;
  adopt: boolean;
}

const initial = (): Spec => ({ acmeData: { name: "Acme", plan: "pro", limits: { seats: 10 } }, adopt: false });

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const acme = new notify.Context("acme", { type: "tenant", contextId: "acme", data: spec.acmeData, adopt: spec.adopt });
    // Data left out: the service holds {} and the stack does not compare it.
    const app = new notify.Context("app", { type: "app", contextId: "mobile", adopt: spec.adopt });
    return { acmeId: acme.id, acmeKey: acme.key, appData: app.data };
  };
}

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

describe.each(EMULATOR_MODES)("contexts against the emulator in %s mode", (mode) => {
  const spec = initial();
  const { emu, ts, stack } = useStack({ emulator: { mode }, program: program(spec) });
  const live = async () => ((await emu.state()) as { contexts: { key: string; data: Record<string, unknown> }[] }).contexts;
  const dataOf = async (key: string) => (await live()).find((c) => c.key === key)?.data;

  it("creates contexts with and without data, their id and key are type:id, and the next preview is empty", async () => {
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(3);
    expect(up.outputs.acmeId!.value).toBe("tenant:acme");
    expect(up.outputs.acmeKey!.value).toBe("tenant:acme");
    expect(up.outputs.appData!.value).toEqual({});
    expect(await dataOf("tenant:acme")).toEqual(spec.acmeData);
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    expect(await emu.operationRequests()).toHaveLength(0);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("changes the data in place with one PATCH of the whole object", async () => {
    spec.acmeData = { name: "Acme", plan: "enterprise" };
    expect((await previewDiffs(ts.stack)).diffs).toEqual({ acme: { op: "update", keys: ["data"] } });
    await emu.clearRequests();
    await ts.stack.up();
    const writes = (await emu.requests()).filter((r) => r.method !== "GET").map((r) => ({ method: r.method, route: r.route, body: r.body }));
    expect(writes).toEqual([{ method: "PATCH", route: "/v2/contexts/{type}/{id}", body: { data: { name: "Acme", plan: "enterprise" } } }]);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("shows data changed through the API as drift on preview --refresh (a removed key too), and up --refresh repairs it", async () => {
    await emu.api("PATCH", "/v2/contexts/tenant/acme", { data: { name: "Acme" } });
    // Undeclared data is not compared.
    await emu.api("PATCH", "/v2/contexts/app/mobile", { data: { build: 42 } });
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs).toEqual({ acme: { op: "update", keys: ["data"] } });
    await ts.stack.up({ refresh: true });
    expect(await dataOf("tenant:acme")).toEqual({ name: "Acme", plan: "enterprise" });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("shows a context deleted through the API as one to create, and up makes it again", async () => {
    expect((await emu.api("DELETE", "/v2/contexts/tenant/acme")).status).toBe(204);
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs.acme?.op).toBe("create");
    await ts.stack.up({ refresh: true });
    expect(await dataOf("tenant:acme")).toEqual({ name: "Acme", plan: "enterprise" });
  });

  it("destroys what it made", async () => {
    await ts.stack.destroy();
    expect(await live()).toEqual([]);
  });

  it("refuses an existing context without adopt, naming adopt, and takes it over with it", async () => {
    await emu.api("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { name: "Made by hand" } });
    await expect(ts.stack.up()).rejects.toThrow(/context "tenant:acme" already exists; set adopt: true/);
    spec.adopt = true;
    await ts.stack.up();
    expect(await dataOf("tenant:acme")).toEqual({ name: "Acme", plan: "enterprise" });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    await ts.stack.destroy();
    spec.adopt = false;
  });

  it("lists contexts with getContexts and getContextsOutput in a program", async () => {
    for (const [type, id] of [["tenant", "one"], ["tenant", "two"], ["app", "one"]]) await emu.api("POST", "/v2/contexts", { type, id, data: { n: id } });
    const fts = await stack({
      program: async () => {
        const notify = loadPackage();
        const all = await notify.getContexts({ orderDirection: "ASC" });
        const tenants = notify.getContextsOutput({ search: pulumi.output("tenant:"), maxResults: 1 });
        return { keys: all.contexts.map((c) => `${c.type}:${c.id}`), data: all.contexts.map((c) => c.data), firstTenant: tenants.contexts.apply((c) => c.map((x) => x.id)) };
      },
    });
    const up = await fts.stack.up();
    expect(up.outputs.keys!.value).toEqual(["tenant:one", "tenant:two", "app:one"]);
    expect(up.outputs.data!.value).toEqual([{ n: "one" }, { n: "two" }, { n: "one" }]);
    expect(up.outputs.firstTenant!.value).toHaveLength(1);
  });

  it("imports a context by its key type:id through the native plugin, and the next preview is empty", async () => {
    await emu.api("POST", "/v2/contexts", { type: "workspace", id: "imported", data: { region: "eu", tier: 2 } });
    const its = await stack({
      program: async () => {
        // Every field the service holds, as `pulumi import` would write them.
        declare("Context", "imported", { type: "workspace", contextId: "imported", data: { region: "eu", tier: 2 } }, { import: "workspace:imported" });
      },
      frontEnd: "native",
    });
    const up = await its.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(1);
    const state = await exportedState(its.stack);
    expect(state.resources.filter((r) => String(r.type).startsWith("notify:")).map((r) => r.id)).toEqual(["workspace:imported"]);
    await its.stack.preview({ expectNoChanges: true, refresh: true });
  });
});
