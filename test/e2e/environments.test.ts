/**
 * Environment and EnvironmentVariable under the real engine, in production and spec emulator
 * modes: up, an empty preview, drift shown field by field by `preview --refresh`, repair, adopt,
 * destroy (dynamic resources); and import of both through the native plugin (the import option,
 * an id-only read).
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { exportedState, loadPackage, nativeRequire, previewDiffs } from "../helpers/pulumi";
import { declare } from "../helpers/native";
import { EMULATOR_MODES, useStack } from "../helpers/stack";

const SECRET_VALUE = "https://secret.example/value-never-in-state";
const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

interface Spec { color: string; name: string; value: string; adoptDev: boolean }

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const staging = new notify.Environment("staging", { name: spec.name, color: spec.color, parentId: "env_env0" });
    const dev = new notify.Environment("dev", { name: "Development", color: "#ff8547", adopt: spec.adoptDev });
    const token = new notify.EnvironmentVariable("token", { key: "TOKEN", isSecret: true, values: { env_env0: spec.value } });
    const base = new notify.EnvironmentVariable("base", { key: "BASE_URL", values: { env_env0: "https://dev.example.com" } });
    return { stagingId: staging.id, stagingKeys: staging.apiKeys, devId: dev.id, tokenId: token.id, baseId: base.id };
  };
}

describe.each(EMULATOR_MODES)("environments and variables against the emulator in %s mode", (mode) => {
  const spec: Spec = { color: "#3498db", name: "Staging", value: SECRET_VALUE, adoptDev: true };
  const { emu, ts, stack } = useStack({ emulator: { mode }, program: program(spec) });

  it("creates an environment, adopts Development, creates two variables; keys and secret values stay secret; the next preview is empty", async () => {
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(5);
    expect(up.outputs.stagingKeys!.secret).toBe(true);
    const key = (up.outputs.stagingKeys!.value as string[])[0]!;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    // The key reaches the new environment.
    const res = await fetch(`${emu.url}/v2/workflows`, { headers: { authorization: `ApiKey ${key}` } });
    expect(res.status).toBe(200);
    expect(up.outputs.devId!.value).toBe("env_env0");
    expect(up.outputs.tokenId!.value).toBe("TOKEN");
    const at = await exportedState(ts.stack);
    expect(at.text).not.toContain(key);
    expect(at.text).not.toContain(SECRET_VALUE);
    await ts.stack.preview({ expectNoChanges: true });
  });

  it("shows drift made through the API field by field in preview --refresh, and up repairs it", async () => {
    const id = (await ts.stack.outputs()).stagingId!.value as string;
    await emu.api("PUT", `/v1/environments/${id}`, { color: "#000000" });
    await emu.api("PATCH", "/v1/environment-variables/BASE_URL", { values: [{ _environmentId: "env_env0", value: "https://changed.example.com" }] });
    // A secret value changed by hand cannot be seen (the service masks it): no drift for TOKEN.
    await emu.api("PATCH", "/v1/environment-variables/TOKEN", { values: [{ _environmentId: "env_env0", value: "changed-by-hand" }] });
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs.staging).toEqual({ op: "update", keys: ["color"] });
    // A secret input's change shows as the operation alone (events mask both sides).
    expect(diffs.base?.op).toBe("update");
    expect(diffs.token).toBeUndefined();
    expect(diffs.dev).toBeUndefined();
    await ts.stack.up({ refresh: true });
    const listed = (await emu.api("GET", "/v1/environments")).body.find((e: { _id: string }) => e._id === id);
    expect(listed.color).toBe("#3498db");
    expect((await emu.api("GET", "/v1/environment-variables/BASE_URL")).body.values[0].value).toBe("https://dev.example.com");
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("renames the environment in place", async () => {
    spec.name = "Stage";
    const { diffs } = await previewDiffs(ts.stack);
    expect(diffs.staging).toEqual({ op: "update", keys: ["name"] });
    await ts.stack.up();
    expect((await emu.api("GET", "/v1/environments")).body.map((e: { name: string }) => e.name)).toContain("Stage");
  });

  it("destroys what it made, and only forgets Development", async () => {
    const destroy = await ts.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const names = (await emu.api("GET", "/v1/environments")).body.map((e: { name: string }) => e.name).sort();
    expect(names).toEqual(["Development", "Production"]);
    expect((await emu.api("GET", "/v1/environment-variables")).body).toEqual([]);
  });

  it("fails on an existing name without adopt, naming adopt: true, and takes it over with it", async () => {
    await emu.api("POST", "/v1/environments", { name: "Existing", color: "#111111" });
    await emu.api("POST", "/v1/environment-variables", { key: "EXISTING" });
    let adopt = false;
    const t = await stack({
      program: async () => {
        const notify = loadPackage();
        new notify.Environment("existing", { name: "Existing", color: "#222222", adopt });
        new notify.EnvironmentVariable("existing-var", { key: "EXISTING", values: { env_env0: "v" }, adopt });
      },
    });
    const err = await t.stack.up().then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/An environment named "Existing" already exists; set adopt: true/);
    expect(err?.message).toMatch(/A variable with key "EXISTING" already exists; set adopt: true/);
    adopt = true;
    await t.stack.up();
    expect((await emu.api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Existing").color).toBe("#222222");
    await t.stack.preview({ expectNoChanges: true });
    await t.stack.destroy();
  });

  it("explains a 402 from the plan gate", async () => {
    await emu.api("POST", "/__emulator/behaviour", { plan: "free" });
    const t = await stack({
      program: async () => {
        new (loadPackage().Environment)("gated", { name: "Gated", color: "#123456" });
      },
    });
    try {
      const err = await t.stack.up().then(() => undefined, (e: Error) => e);
      expect(err?.message).toMatch(/402 Payment Required/);
      expect(err?.message).toMatch(/Create the environment in the dashboard and manage it here with adopt: true, or import it/);
    } finally {
      await emu.api("POST", "/__emulator/behaviour", { plan: "business" });
    }
  });
});

describe("import through the native plugin", () => {
  const { emu, stack } = useStack();

  it("imports an environment and a variable made through the API with the import option; the next preview is empty", async () => {
    const made = await emu.api("POST", "/v1/environments", { name: "Imported", color: "#abcdef" });
    await emu.api("POST", "/v1/environment-variables", { key: "IMPORTED", values: [{ _environmentId: "env_env0", value: "v" }] });
    const ts = await stack({
      program: async () => {
        declare("Environment", "imported-env", { name: "Imported", color: "#abcdef" }, { import: made.body._id });
        declare("EnvironmentVariable", "imported-var", {
          key: "IMPORTED", type: "string", isSecret: false, values: pulumi.secret({ env_env0: "v" }),
        }, { import: "IMPORTED" });
      },
      frontEnd: "native",
    });
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(2);
    await ts.stack.preview({ expectNoChanges: true });
    const state = await exportedState(ts.stack);
    const key = (await emu.api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Imported").apiKeys[0].key;
    expect(state.text).not.toContain(key);
    expect(state.resources.find((r) => String(r.urn).endsWith("::imported-env"))?.id).toBe(made.body._id);
  });
});
