/**
 * The exporter's property: any environment, exported and taken over, changes nothing. Each of
 * EXPORT_K random environments (`npm test` runs 3, `npm run test:export` 200) is made of the
 * kinds' generators (test/kinds: each kind's part of the soak, or why it has none; translations
 * of a workflow with translation on, verified domains with their routes) created on a fresh
 * emulator in production mode through the provider's own create; `notify-export` writes its TypeScript program (dynamic front end), which a stack runs
 * through the real engine: `up` must write nothing but the secret variables' values the service
 * masks (one PATCH each, counted exactly), and the next preview and `preview --refresh` must be
 * empty. EXPORT_SEED replays a run (default random, always printed); fast-check shrinks a failing
 * environment and prints its seed and path.
 */
import fc from "fast-check";
import { readdirSync, rmSync, readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type * as ExportModule from "../../export";
import { createTestStack, nativeRequire } from "../helpers/pulumi";
import { API_KEY, startTestEmulator } from "../helpers/emulator";
import { KINDS } from "../kinds/index";
import type { KindDescriptor } from "../kinds/descriptor";
import { RESOURCE_MODULES } from "../../provider/resources/dynamic";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { KIND_ORDER } from "../../export/model";
import { linkProjectDir } from "../../scripts/workspace";

type Obj = Record<string, unknown>;
const K = Number(process.env.EXPORT_K ?? 3);
const SEED = process.env.EXPORT_SEED !== undefined ? Number(process.env.EXPORT_SEED) : Math.floor(Math.random() * 2 ** 31);
const { exportEnvironment } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;
const ts = nativeRequire("typescript") as typeof import("typescript");

/** The kinds with a part in the soak (test/kinds: each other kind says why it has none), in the order the exported program declares them. */
const SOAKED = KIND_ORDER.map((k) => KINDS.find((d) => d.kind === k)!)
  .flatMap((d) => ("without" in d.exportSoak ? [] : [{ ...d, soak: d.exportSoak as Exclude<KindDescriptor["exportSoak"], { without: string }> }]));

/** A random environment: objects of each soaked kind, unique by their natural keys. */
const environment = fc.record(Object.fromEntries(SOAKED.map((d) => {
  const { max, unique, keep = (l: Obj[]) => l } = d.soak;
  return [d.kind, (unique ? fc.uniqueArray(d.inputs("x"), { maxLength: max, selector: unique }) : fc.array(d.inputs("x"), { maxLength: max })).map(keep)];
}))).filter((e) => Object.values(e).some((l) => l.length > 0));
type Environment = typeof environment extends fc.Arbitrary<infer T> ? T : never;

/** What a run found wrong: the writes beyond the masked secrets, the changes previews showed. */
async function adoptExport(env: Environment): Promise<{ unexpectedWrites: string[]; changes: string[] }> {
  const emu = await startTestEmulator({ environmentVariableLimit: 50 });
  const restore = emu.connectEnvironment();
  const out = mkdtempSync(path.join(os.tmpdir(), "notify-export-prop-"));
  let stack: Awaited<ReturnType<typeof createTestStack>> | undefined;
  try {
    for (const d of SOAKED) await d.setup?.(emu);
    // Created through the provider's own create, as a stack would, in the order the exported program declares them.
    for (const d of SOAKED) {
      const { provider } = nativeRequire(RESOURCE_MODULES + RESOURCE_TABLES.find((t) => t.name === d.kind)!.module) as { provider: { create(p: Obj): Promise<{ outs: Obj }> } };
      for (const inputs of env[d.kind] ?? []) {
        await d.prepare?.(emu, inputs);
        const { outs } = await provider.create(inputs);
        await d.soak.made?.(emu, inputs, outs);
      }
    }
    const dir = path.join(out, "program");
    const result = await exportEnvironment({ language: "typescript", out: dir, connection: { apiUrl: emu.url, apiKey: API_KEY } });
    // Compiled without a type check (the e2e tests type-check; this runs many times): the entry point and the declarations it imports.
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const js = ts.transpileModule(readFileSync(path.join(dir, file), "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
      writeFileSync(path.join(dir, file.replace(/\.ts$/, ".js")), js);
    }
    linkProjectDir(dir);
    const program = path.join(dir, "index.js");
    const project = "notify-env0";
    const masked = result.model.secrets.filter((s) => s.value === undefined);
    stack = await createTestStack({
      projectName: project,
      // Loaded afresh each run, the declarations module it imports included, as a new process would.
      program: async () => { for (const m of Object.keys(require.cache)) if (m.startsWith(dir + path.sep)) delete require.cache[m]; require(program); },
      config: {
        ...emu.stackConfig(),
        // A masked value is the user's to supply: here the one the generator chose.
        ...Object.fromEntries(result.model.secrets.map((s) => [`${project}:${s.key}`, {
          value: s.value ?? String(((env.EnvironmentVariable ?? []).find((v) => s.key === `environment-variable-${String(v.key).replace(/[^A-Za-z0-9]+/g, "-")}-value`)?.values as Obj)?.env_env0),
          secret: true,
        }])),
      },
    });
    await emu.clearRequests();
    await stack.stack.up();
    const writes = (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route}`);
    const expected = masked.map(() => "PATCH /v1/environment-variables/{variableKey}");
    const unexpectedWrites = writes.filter((w) => { const i = expected.indexOf(w); if (i >= 0) { expected.splice(i, 1); return false; } return true; });
    const changes: string[] = [];
    for (const refresh of [false, true]) {
      const p = await stack.stack.preview({ refresh });
      for (const [op, n] of Object.entries(p.changeSummary)) if (op !== "same" && n) changes.push(`${refresh ? "preview --refresh" : "preview"}: ${op} ${n}`);
    }
    return { unexpectedWrites: [...unexpectedWrites, ...expected.map((w) => `missing ${w}`)], changes };
  } finally {
    restore();
    await stack?.cleanup();
    await emu.close();
    rmSync(out, { recursive: true, force: true });
  }
}

describe("notify-export over random environments", () => {
  it(`exports and adopts ${K} random environments with no write but the masked secrets and no diff (seed ${SEED})`, async () => {
    console.log(`export property: seed ${SEED} (replay with EXPORT_SEED=${SEED} EXPORT_K=${K})`);
    let n = 0;
    await fc.assert(fc.asyncProperty(environment, async (env) => {
      const r = await adoptExport(env);
      console.log(`export property: environment ${n++}: ${Object.entries(env).map(([k, l]) => `${l.length} ${k}`).join(", ")}: ${JSON.stringify(r)}`);
      expect(r).toEqual({ unexpectedWrites: [], changes: [] });
    }), { numRuns: K, seed: SEED, interruptAfterTimeLimit: 24 * 3600_000 });
  }, 24 * 3600_000);
});
