/**
 * What a provider process loads. Every preview starts a plugin process that only checks and
 * diffs; it should not pay for the HTTP stack, which loads with the first client instead.
 * Compiled (`dist/`, so this layer builds first), in fresh Node processes: what a process loads
 * is a fact of the built package, and under vitest the source's lazy requires are eager (see
 * vitest.config.mts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/pulumi";
import { linkProjectDir } from "../../../scripts/workspace";

/** Runs `body` in a fresh Node process with the compiled resources loaded; returns what it printed. */
function inFreshProcess(body: string, cwd = ROOT): { undiciAfterLoad: boolean; undiciAfterBody: boolean; result: unknown } {
  const dist = path.join(ROOT, "dist/provider");
  const script = `
    const undici = () => Object.keys(require.cache).some((k) => k.includes("${path.sep}undici${path.sep}"));
    const impl = Object.fromEntries(["integration", "workflow", "subscriberCredentials"].map((m) => [m, require(${JSON.stringify(dist)} + "/resources/" + m).provider]));
    const config = require(${JSON.stringify(dist)} + "/config");
    const undiciAfterLoad = undici();
    (async () => {
      const result = await (async () => { ${body} })();
      console.log(JSON.stringify({ undiciAfterLoad, undiciAfterBody: undici(), result }));
    })();
  `;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", cwd });
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!);
}

describe("loading", () => {
  it("checks and diffs run without loading undici", () => {
    const out = inFreshProcess(`
      const inputs = { identifier: "mail", providerId: "sendgrid", channel: "email", name: "Mail" };
      const checked = await impl.integration.check({}, inputs);
      const diff = await impl.integration.diff("id", { ...checked.inputs, declaredKeys: Object.keys(inputs) }, { ...checked.inputs, name: "Other" });
      return { failures: checked.failures, changes: diff.changes };
    `);
    expect(out.result).toEqual({ failures: [], changes: true });
    expect(out.undiciAfterLoad).toBe(false);
    expect(out.undiciAfterBody).toBe(false);
  });

  it("each resource's __provider is one line that the plugin turns into the provider, configure included", () => {
    // The engine's dynamic-provider plugin evaluates __provider with require-from-string and calls
    // handler(); module paths start at its working directory, the program's, where the package is
    // installed by name.
    const project = mkdtempSync(path.join(os.tmpdir(), "notify-loading-"));
    linkProjectDir(project);
    const out = inFreshProcess(`
      const { providerModule } = require(${JSON.stringify(path.join(ROOT, "dist/provider/resources/dynamic"))});
      const fromString = require(${JSON.stringify(path.join(ROOT, "node_modules/require-from-string"))});
      const kinds = {};
      for (const m of ["integration", "workflow", "subscriberCredentials"]) {
        const text = providerModule("pulumi-notify/dist/provider/resources/" + m);
        const p = fromString(text).handler();
        // The module's own provider, loaded once: the operations run on the resource's __urn, check's
        // failures are put as the engine prints them, and create and update add the __provider to a
        // failed write's state (dynamic.ts).
        kinds[m] = { lines: text.trim().split("\\n").length, bytes: text.length, ops: Object.keys(p).sort(), same: p === require(${JSON.stringify(path.join(ROOT, "dist/provider/resources"))} + "/" + m).dynamicProvider };
      }
      const p = fromString(providerModule("pulumi-notify/dist/provider/resources/workflow")).handler();
      await p.configure({ config: { get: (k) => ({ "notify:apiUrl": "http://127.0.0.1:9", "notify:apiKey": "k-1" })[k] } });
      kinds.configured = config.resolveConnection().apiKey === "k-1";
      return kinds;
    `, project);
    rmSync(project, { recursive: true, force: true });
    const r = out.result as Record<string, { lines: number; bytes: number; ops: string[]; same: boolean }> & { configured: boolean };
    for (const m of ["integration", "workflow", "subscriberCredentials"]) {
      expect(r[m]).toMatchObject({ lines: 1, ops: ["check", "configure", "create", "delete", "diff", "read", "update"], same: true });
      expect(r[m]!.bytes).toBeLessThan(160);
    }
    expect(r.configured).toBe(true);
    expect(out.undiciAfterBody).toBe(false);
  });

  it("the native plugin's server and the implementation modules load without @pulumi/pulumi's SDK", () => {
    // The resource classes (which extend pulumi.CustomResource) live in resources/classes: the
    // plugin, started several times per command, loads only the gRPC stubs of @pulumi/pulumi.
    const sdk = `${path.sep}@pulumi${path.sep}pulumi${path.sep}`, stubs = `${sdk}proto${path.sep}`;
    const out = inFreshProcess(`
      require(${JSON.stringify(path.join(ROOT, "dist/provider/native/server"))}).resourceOf("notify:index:Workflow");
      return Object.keys(require.cache).filter((k) => k.includes(${JSON.stringify(sdk)}) && !k.includes(${JSON.stringify(stubs)}));
    `);
    expect(out.result).toEqual([]);
    expect(out.undiciAfterBody).toBe(false);
  });

  it("the first client loads it", () => {
    const out = inFreshProcess(`config.clientFor({ apiUrl: "http://127.0.0.1:9", apiKey: "k" }); return null;`);
    expect(out.undiciAfterLoad).toBe(false);
    expect(out.undiciAfterBody).toBe(true);
  });
});
