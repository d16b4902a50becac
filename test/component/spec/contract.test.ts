/**
 * `spec/contract.ts` holds the request and response types of the service, generated from
 * `spec/openapi.json` by openapi-typescript (`npm run contract`). It is committed so that the
 * provider's client and the emulator's routes import the same types without importing each other;
 * this test keeps the committed file equal to what the generator makes of the document now.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/workspace";

/** Runs `npm run contract` with extra arguments; the generator's `--check` compares instead of writing. */
function runContract(...extra: string[]) {
  return spawnSync("npm", ["run", "--silent", "contract", "--", ...extra], { cwd: REPO_ROOT, encoding: "utf8" });
}

describe("spec/contract.ts", () => {
  it("is what `npm run contract` generates from spec/openapi.json (run it after changing the document)", () => {
    const run = runContract("--check");
    expect(run.stderr + run.stdout, "spec/contract.ts is stale: run `npm run contract`").not.toMatch(/not up-to-date/);
    expect(run.status).toBe(0);
  });

  it("the check fails when the document says something the committed file does not", () => {
    const doc = JSON.parse(readFileSync(join(REPO_ROOT, "spec/openapi.json"), "utf8")) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    doc.components.schemas["CreateIntegrationRequestDto"]!.properties!["addedByTheTest"] = { type: "boolean" };
    const dir = mkdtempSync(join(tmpdir(), "contract-"));
    const changed = join(dir, "openapi.json");
    writeFileSync(changed, JSON.stringify(doc));
    // The script's own command and flags, with the changed document in place of spec/openapi.json.
    const script = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: { contract: string } }).scripts.contract;
    const [command, ...args] = script.split(" ").map((a) => (a === "spec/openapi.json" ? changed : a));
    expect(args).toContain(changed);
    const run = spawnSync(join(REPO_ROOT, "node_modules/.bin", command!), [...args, "--check"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr + run.stdout).toMatch(/not up-to-date/);
  });
});
