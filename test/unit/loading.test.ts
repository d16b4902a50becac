/**
 * What a provider process loads. Every preview starts a plugin process that only checks and
 * diffs; it should not pay for the HTTP stack, which loads with the first client instead.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/pulumi";

/** Runs `body` in a fresh Node process with the compiled resources loaded; returns what it printed. */
function inFreshProcess(body: string): { undiciAfterLoad: boolean; undiciAfterBody: boolean; result: unknown } {
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
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: ROOT });
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

  it("the first client loads it", () => {
    const out = inFreshProcess(`config.clientFor({ apiUrl: "http://127.0.0.1:9", apiKey: "k" }); return null;`);
    expect(out.undiciAfterLoad).toBe(false);
    expect(out.undiciAfterBody).toBe(true);
  });
});
