/**
 * A setup moved to another installation (#54): each of EXPORT_K random environments (`npm test`
 * runs 2, `npm run test:export` as many as the export soak) is made on one emulator through the
 * provider's own create (the kinds' soak generators of test/kinds, as test/property/export.test.ts
 * makes them), with its subscribers; `notify-export --portable` writes its TypeScript program
 * (every subscriber exported with it, as the application's users the setup names), which a stack
 * runs through the real engine against a second, empty emulator, with the first's config values
 * but its own connection (and its organisation's features as the source's: they are the
 * installation's, not the program's). Then the two environments compare equal (`notify-export --diff`), a
 * preview of the second stack is empty, and a portable export of the second is the first's, byte
 * for byte, but for what names the environment (its address in the steps, its id in the settings
 * line). The source is in api.md's mode or production's, the target in production's; the bytes
 * are compared when both are in production's (api.md's shows integrations' credentials, which
 * production hides from an export).
 * EXPORT_SEED replays a run.
 */
import fc from "fast-check";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type * as ExportModule from "../../export";
import { createTestStack, nativeRequire } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { KINDS } from "../kinds/index";
import type { KindDescriptor } from "../kinds/descriptor";
import { RESOURCE_MODULES } from "../../provider/resources/dynamic";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { KIND_ORDER } from "../../export/model";
import { linkProjectDir } from "../../scripts/workspace";

type Obj = Record<string, unknown>;
const K = Math.max(1, Math.ceil(Number(process.env.EXPORT_K ?? 4) / 2));
const SEED = process.env.EXPORT_SEED !== undefined ? Number(process.env.EXPORT_SEED) : Math.floor(Math.random() * 2 ** 31);
const { exportEnvironment, diffEnvironments } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;
const ts = nativeRequire("typescript") as typeof import("typescript");

/** The kinds with a part in the export soak, in the order the exported program declares them. */
const SOAKED = KIND_ORDER.map((k) => KINDS.find((d) => d.kind === k)!)
  .flatMap((d) => ("without" in d.exportSoak ? [] : [{ ...d, soak: d.exportSoak as Exclude<KindDescriptor["exportSoak"], { without: string }> }]));

/** A random environment, and the mode of its emulator. */
const environment = fc.record({
  mode: fc.constantFrom("spec" as const, "production" as const),
  kinds: fc.record(Object.fromEntries(SOAKED.map((d) => {
    const { max, unique, keep = (l: Obj[]) => l } = d.soak;
    return [d.kind, (unique ? fc.uniqueArray(d.inputs("x"), { maxLength: max, selector: unique }) : fc.array(d.inputs("x"), { maxLength: max })).map(keep)];
  }))).filter((e) => Object.values(e).some((l) => l.length > 0)),
});
type Environment = typeof environment extends fc.Arbitrary<infer T> ? T : never;

/** Every subscriber of an environment (the application's users a setup names). */
async function subscribersOf(emu: TestEmulator): Promise<string[]> {
  const state = await emu.state();
  return state.subscribers.filter((s) => !s.deleted).map((s) => String(s.subscriberId)).sort();
}

/** A portable TypeScript export of the emulator's environment into `dir`, with `subscribers`. */
async function portableExport(emu: TestEmulator, dir: string, subscribers: string[]): Promise<ExportModule.ExportResult> {
  return exportEnvironment({ language: "typescript", out: dir, portable: true, project: "notify-moved", subscribers, connection: { apiUrl: emu.url, apiKey: API_KEY } });
}

/** The project's files but its README (which names the address it was read from). */
const filesOf = (dir: string) => Object.fromEntries(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && e.name !== "README.md" && !e.name.endsWith(".js")).map((e) => e.name).sort()
  .map((f) => [f, readFileSync(path.join(dir, f), "utf8").replace(/"environment":"[^"]+"/, '"environment":"<id>"')]));

/** What went wrong moving `env`: each failure, empty when the move held. */
async function move(env: Environment): Promise<string[]> {
  const source = await startTestEmulator({ mode: env.mode, environmentVariableLimit: 50 });
  const target = await startTestEmulator({ mode: "production", environmentVariableLimit: 50 });
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-migration-"));
  let stack: Awaited<ReturnType<typeof createTestStack>> | undefined;
  const restore = source.connectEnvironment();
  const failures: string[] = [];
  try {
    for (const d of SOAKED) await d.setup?.(source);
    for (const d of SOAKED) {
      const { provider } = nativeRequire(RESOURCE_MODULES + RESOURCE_TABLES.find((t) => t.name === d.kind)!.module) as { provider: { create(p: Obj): Promise<{ outs: Obj }> } };
      for (const inputs of env.kinds[d.kind] ?? []) {
        await d.prepare?.(source, inputs);
        const { outs } = await provider.create(inputs);
        await d.soak.made?.(source, inputs, outs);
      }
    }
    restore();
    // The organisation's features are the installation's, not the program's: the target's are the source's
    // (a topic subscription's contextKeys need context preferences on).
    const { contextPreferences } = (await source.api("POST", "/__emulator/behaviour", {})).body as { contextPreferences?: boolean };
    await target.api("POST", "/__emulator/behaviour", { contextPreferences });
    const dir = path.join(tmp, "program");
    const subscribers = await subscribersOf(source);
    const exported = await portableExport(source, dir, subscribers);
    // A subscriber the provider cannot declare (an id outside the service's rule) is the application's
    // to make in each environment, as it made it in the source's.
    for (const s of exported.model.skipped.filter((x) => x.kind === "Subscriber")) await target.api("POST", "/v2/subscribers", { subscriberId: s.name });
    const program = path.join(dir, "index.js");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const js = ts.transpileModule(readFileSync(path.join(dir, file), "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
      writeFileSync(path.join(dir, file.replace(/\.ts$/, ".js")), js);
    }
    linkProjectDir(dir);
    // The second stack: the first's config values (masked ones the user's: the generator's), its own connection.
    const masked = (key: string) => {
      const v = (env.kinds.EnvironmentVariable ?? []).find((x) => key === `environment-variable-${String(x.key).replace(/[^A-Za-z0-9]+/g, "-")}-value`);
      return String(v?.value ?? (v?.values as Obj | undefined)?.env_env0);
    };
    stack = await createTestStack({
      projectName: "notify-moved",
      program: async () => { for (const m of Object.keys(require.cache)) if (m.startsWith(dir + path.sep)) delete require.cache[m]; require(program); },
      config: {
        ...target.stackConfig(),
        ...Object.fromEntries(exported.model.secrets.map((s) => [`notify-moved:${s.key}`, { value: s.value ?? masked(s.key), secret: !s.plain }])),
      },
    });
    const up = await stack.stack.up().catch((e: Error) => e);
    if (up instanceof Error) return [`up on the second installation failed: ${up.message.slice(-3000)}`];
    const preview = await stack.stack.preview();
    for (const [op, n] of Object.entries(preview.changeSummary)) if (op !== "same" && n) failures.push(`a preview after the up shows ${op} ${n}`);
    const d = await diffEnvironments({ from: { apiUrl: source.url, apiKey: API_KEY }, to: { apiUrl: target.url, apiKey: API_KEY }, subscribers });
    // A production server makes the first active integration of a channel primary by itself, and
    // an api.md one does not: the one difference between the two a portable program leaves to the service.
    const madePrimary = (f: { path: string; from: unknown; to: unknown }) => env.mode !== "production" && f.path === "primary" && f.from === false && f.to === true;
    const differ = d.differ.map((o) => ({ ...o, fields: o.kind === "Integration" ? o.fields.filter((f) => !madePrimary(f)) : o.fields })).filter((o) => o.fields.length);
    if (d.onlyInFrom.length || d.onlyInTo.length || differ.length) failures.push(`the environments differ: ${JSON.stringify({ onlyInFrom: d.onlyInFrom, onlyInTo: d.onlyInTo, differ }).slice(0, 3000)}`);
    // Byte for byte where both servers show the same: a server in api.md's mode shows integrations'
    // credentials, which production hides (the second export then has none of them to declare).
    if (env.mode !== "production") return failures;
    const again = path.join(tmp, "again");
    await portableExport(target, again, subscribers);
    const [first, second] = [filesOf(dir), filesOf(again)];
    for (const f of new Set([...Object.keys(first), ...Object.keys(second)])) {
      if (first[f] === second[f]) continue;
      const [a, b] = [(first[f] ?? "").split("\n"), (second[f] ?? "").split("\n")];
      const at = a.findIndex((line, i) => line !== b[i]);
      failures.push(`the second installation's portable export differs in ${f} at line ${at + 1}: ${JSON.stringify(a.slice(at, at + 3))} then ${JSON.stringify(b.slice(at, at + 3))}`);
    }
    return failures;
  } finally {
    restore();
    await stack?.cleanup();
    await source.close();
    await target.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

describe("a setup moved to another installation by a portable export", () => {
  it(`moves ${K} random environments whole: the two compare equal and export alike (seed ${SEED})`, async () => {
    console.log(`migration property: seed ${SEED} (replay with EXPORT_SEED=${SEED} EXPORT_K=${K * 2})`);
    let n = 0;
    await fc.assert(fc.asyncProperty(environment, async (env) => {
      const failures = await move(env);
      console.log(`migration property: environment ${n++} (${env.mode} to production): ${Object.entries(env.kinds).map(([k, l]) => `${l.length} ${k}`).join(", ")}: ${failures.length ? failures.join("; ").slice(0, 2000) : "moved"}`);
      expect(failures).toEqual([]);
      // No shrinking: each environment takes a migration through the engine (the seed and the
      // environment printed above replay it).
    }), { numRuns: K, seed: SEED, endOnFailure: true, interruptAfterTimeLimit: 24 * 3600_000 });
  }, 24 * 3600_000);
});
