/** The real Pulumi CLI binds schema.json (`pulumi package get-schema`), and refuses a broken copy. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { cliEnv, cliPath, nativeRequire, ROOT } from "../helpers/pulumi";
import type { ResourceTable } from "../../provider/resources/fields";
import type { FunctionDefinition } from "../../provider/functions/index";

const { RESOURCE_TABLES } = nativeRequire("pulumi-notify/dist/provider/resources/index") as { RESOURCE_TABLES: readonly ResourceTable[] };
const { FUNCTIONS } = nativeRequire("pulumi-notify/dist/provider/functions/index") as { FUNCTIONS: readonly FunctionDefinition[] };

it("pulumi package get-schema binds schema.json and rejects a schema whose enumeration values do not fit its type", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "notify-schema-"));
  try {
    const getSchema = (file: string) => spawnSync(cliPath(), ["package", "get-schema", file], { encoding: "utf8", env: cliEnv(dir), timeout: 60_000 });
    const ok = getSchema(path.join(ROOT, "schema.json"));
    expect(ok.status, ok.stderr).toBe(0);
    const bound = JSON.parse(ok.stdout) as { name: string; resources: Record<string, unknown>; functions: Record<string, unknown> };
    expect(bound.name).toBe("notify");
    // Everything the committed schema declares is bound.
    const committed = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8")) as typeof bound;
    expect(Object.keys(bound.resources).sort()).toEqual(Object.keys(committed.resources).sort());
    expect(Object.keys(bound.resources).sort()).toEqual(RESOURCE_TABLES.map((t) => `notify:index:${t.name}`).sort());
    expect(Object.keys(bound.functions).sort()).toEqual(Object.keys(committed.functions).sort());
    expect(Object.keys(bound.functions).sort()).toEqual(FUNCTIONS.map((f) => `notify:index:${f.name}`).sort());

    const broken = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8"));
    broken.types["notify:index:Severity"].type = "integer";
    const file = path.join(dir, "broken.json");
    writeFileSync(file, JSON.stringify(broken));
    const bad = getSchema(file);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/failed to bind schema.*notify:index:Severity\/enum\/0\/value: invalid constant of type string for integer enum/s);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
