/**
 * A published figure's provenance names the Node.js the project's runs use (the installed `node`
 * package), whichever `node` publishes it: the migration verdict of 2026-12-07 was published by
 * hand with another `node` and said v20.20.2 for a run made on the project's v24.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInfo } from "../../../scripts/runInfo";
import { REPO_ROOT } from "../../../scripts/workspace";

describe("runInfo", () => {
  const real = process.version;
  afterEach(() => { Object.defineProperty(process, "version", { value: real }); });

  it("names the project's Node.js, not the publishing process's", () => {
    const installed = (JSON.parse(readFileSync(path.join(REPO_ROOT, "node_modules", "node", "package.json"), "utf8")) as { version: string }).version;
    Object.defineProperty(process, "version", { value: "v20.0.0" });
    expect(runInfo().versions.node).toBe(`v${installed}`);
  });
});
