/**
 * One setup through every environment and installation (#54, docs/promotion.md):
 * - `notify-export --portable --stack dev` run as a user runs it, with the CLI on PATH: the stack it
 *   makes holds the environment's config (its address, its key as a secret, the values of its
 *   own, adopt), and its first up (the program as an inline program of that stack) takes
 *   everything over writing nothing; a stack without those values refuses to start, naming each.
 * - examples/promotion: its pipeline passes actionlint and shellcheck and does what its comment
 *   says (every stack previewed on a pull request with the environments' differences, then dev,
 *   staging and prod up in turn behind their environments); its program, a portable export, made
 *   up on three emulators (three environments, of three installations) as its stacks' config
 *   says, leaves them differing in the values each stack gives alone (`notify-export --diff`), and
 *   is what `notify-export --portable` writes of the environment it made.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type * as ExportModule from "../../export";
import { cliEnv, createTestStack, nativeRequire, ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { ensureActionlint, lintWorkflow, NO_SHELLCHECK, runLinter, shellcheck } from "../helpers/actionlint";
import { runProcess } from "../helpers/process";
import { linkProjectDir, projectStack } from "../../scripts/workspace";

const { exportEnvironment, diffEnvironments } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;
const ts = nativeRequire("typescript") as typeof import("typescript");
const EXAMPLE = path.join(ROOT, "examples/promotion");
const NODE = path.join(ROOT, "node_modules/node/bin/node");

/** The example's stacks, from its `Pulumi.<stack>.yaml` files, in promotion order (as the pipeline's jobs run them). */
const STACKS = ["dev", "staging", "prod"];

/** A stack's config file of the example, as values by key (the project's namespace dropped). */
const stackConfig = (stack: string) => Object.fromEntries(Object.entries((parseYaml(readFileSync(path.join(EXAMPLE, `Pulumi.${stack}.yaml`), "utf8")) as { config: Record<string, unknown> }).config)
  .map(([k, v]) => [k.replace(/^notify-promotion:/, ""), String(v)]));

describe("examples/promotion", () => {
  type Job = { if?: string; needs?: string | string[]; environment?: string; strategy?: { matrix: { stack: string[] } }; env?: Record<string, string>; steps: { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }[] };
  const workflow = () => parseYaml(readFileSync(path.join(EXAMPLE, ".github/workflows/promotion.yml"), "utf8")) as { on: Record<string, unknown>; jobs: Record<string, Job> };

  it("has a stack per environment, in the pipeline's order", () => {
    expect(readdirSync(EXAMPLE).filter((f) => /^Pulumi\.[a-z]+\.yaml$/.test(f)).map((f) => f.split(".")[1]).sort()).toEqual([...STACKS].sort());
  });

  it("previews every stack on a pull request, with the environments' differences; on main, ups dev, then staging, then prod behind their environments", () => {
    const wf = workflow();
    expect(Object.keys(wf.on).sort()).toEqual(["pull_request", "push"]);
    const preview = wf.jobs.preview!;
    expect(preview.if).toBe("github.event_name == 'pull_request'");
    expect(preview.strategy!.matrix.stack).toEqual(STACKS);
    expect(preview.steps.find((s) => s.uses?.startsWith("pulumi/actions@"))!.with).toMatchObject({ command: "preview", "stack-name": "${{ matrix.stack }}", "comment-on-pr": true });
    const diff = wf.jobs.environments!.steps.find((s) => s.run?.startsWith("scripts/diff-comment.sh "))!;
    expect(diff.run!.split(" ").slice(1)).toEqual(STACKS.slice(1));
    const ups = STACKS.map((s) => wf.jobs[s]!);
    ups.forEach((job, i) => {
      expect(job.steps.find((s) => s.uses?.startsWith("pulumi/actions@"))!.with).toMatchObject({ command: "up", "stack-name": STACKS[i] });
      expect(job.needs ?? null).toEqual(i === 0 ? null : STACKS[i - 1]);
      expect(job.env!.NOTIFY_API_KEY).toBe(`\${{ secrets.NOTIFY_API_KEY_${STACKS[i]!.toUpperCase()} }}`);
    });
    expect(ups[0]!.if).toContain("refs/heads/main");
    // Behind the repository's environments, whose required reviewers gate staging and prod.
    expect(ups.map((j) => j.environment)).toEqual(["dev", "staging", "production"]);
  });

  describe("linters", () => {
    let actionlint: string;
    beforeAll(() => {
      actionlint = ensureActionlint();
      if (!shellcheck) console.warn(`examples/promotion: ${NO_SHELLCHECK}`);
    });
    it("the workflow passes actionlint (and shellcheck on its run: blocks)", () => {
      expect(lintWorkflow(actionlint, path.join(EXAMPLE, ".github/workflows/promotion.yml"))).toEqual({ status: 0, output: "" });
    });
    it.skipIf(!shellcheck)("its scripts pass shellcheck", () => {
      for (const f of readdirSync(path.join(EXAMPLE, "scripts"))) expect(runLinter(shellcheck!, [path.join(EXAMPLE, "scripts", f)]), f).toEqual({ status: 0, output: "" });
    });
  });

  describe("its program on three installations", () => {
    const emus: Record<string, TestEmulator> = {};
    const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-promotion-"));
    const dir = path.join(tmp, "program");
    beforeAll(async () => {
      for (const s of STACKS) emus[s] = await startTestEmulator({ mode: "production" });
      cpSync(EXAMPLE, dir, { recursive: true });
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
        const js = ts.transpileModule(readFileSync(path.join(dir, file), "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
        writeFileSync(path.join(dir, file.replace(/\.ts$/, ".js")), js);
      }
      linkProjectDir(dir);
    });
    afterAll(async () => {
      for (const e of Object.values(emus)) await e.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    it("is made up in each environment as its stack says, the environments then differing in the values each stack gives alone", async () => {
      for (const s of STACKS) {
        const stack = await createTestStack({
          projectName: "notify-promotion", stackName: s,
          program: async () => { for (const m of Object.keys(require.cache)) if (m.startsWith(dir + path.sep)) delete require.cache[m]; require(path.join(dir, "index.js")); },
          config: { ...emus[s]!.stackConfig(), ...Object.fromEntries(Object.entries(stackConfig(s)).map(([k, v]) => [`notify-promotion:${k}`, { value: v }])) },
        });
        try {
          await stack.stack.up();
          expect((await stack.stack.preview()).changeSummary).toEqual({ same: expect.any(Number) });
        } finally {
          await stack.cleanup();
        }
      }
      const value = "environment-variable-APP-URL-value";
      for (const s of STACKS.slice(1)) {
        const d = await diffEnvironments({ from: { apiUrl: emus.dev!.url, apiKey: API_KEY }, to: { apiUrl: emus[s]!.url, apiKey: API_KEY } });
        expect({ onlyInFrom: d.onlyInFrom, onlyInTo: d.onlyInTo, differ: d.differ }, s).toEqual({
          onlyInFrom: [], onlyInTo: [],
          differ: [{ kind: "EnvironmentVariable", name: "APP_URL", fields: [{ path: 'values["this environment"]', from: stackConfig("dev")[value], to: stackConfig(s)[value] }] }],
        });
      }
    });

    it("is what notify-export --portable writes of the environment it made", async () => {
      const out = path.join(tmp, "again");
      await exportEnvironment({ language: "typescript", out, portable: true, project: "notify-promotion", connection: { apiUrl: emus.dev!.url, apiKey: API_KEY } });
      const settings = (t: string) => t.replace(/"environment":"[^"]+"/, '"environment":"<id>"');
      expect(settings(readFileSync(path.join(out, "notify.generated.ts"), "utf8"))).toBe(settings(readFileSync(path.join(EXAMPLE, "notify.generated.ts"), "utf8")));
    });
  });
});

describe("notify-export --portable --stack", () => {
  let emu: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-export-stack-"));
  const dir = path.join(tmp, "dev-project");
  /** The user's environment: the pinned CLI on PATH, a backend and a passphrase (cliEnv's, under the test's folder). */
  const env = () => ({ ...process.env, ...cliEnv(tmp), NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: API_KEY }) as Record<string, string>;
  /** The exported program, compiled, as an inline program (the Node.js language host is not built here). */
  const program = async () => { for (const m of Object.keys(require.cache)) if (m.startsWith(dir + path.sep)) delete require.cache[m]; require(path.join(dir, "index.js")); };
  beforeAll(async () => {
    for (const d of ["state", "home"]) mkdirSync(path.join(tmp, d), { recursive: true });
    emu = await startTestEmulator({ mode: "production" });
    const ok = async (method: string, p: string, body: unknown) => {
      const r = await emu.api(method, p, body);
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    };
    await ok("POST", "/v2/topics", { key: "news", name: "News" });
    await ok("POST", "/v1/environment-variables", { key: "APP_URL", values: [{ _environmentId: "env_env0", value: "https://dev.example.com" }] });
    await ok("POST", "/v1/agents", { identifier: "bot", name: "Bot" });
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("makes the stack with the user's pulumi, holding the environment's config, and its first up takes everything over writing nothing", async () => {
    const r = await runProcess(NODE, [path.join(ROOT, "dist/export/cli.js"), "--language", "typescript", "--portable", "--stack", "dev", "--out", dir], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("made stack dev with this environment's config");
    const shown = JSON.parse(execFileSync("pulumi", ["config", "--stack", "dev", "--show-secrets", "--json"], { cwd: dir, env: env(), encoding: "utf8" })) as Record<string, { value: string; secret: boolean }>;
    expect(shown).toEqual({
      "dev-project:adopt": { value: "true", secret: false },
      "dev-project:environment-variable-APP-URL-value": { value: "https://dev.example.com", secret: false },
      "notify:apiKey": { value: API_KEY, secret: true },
      "notify:apiUrl": { value: emu.url, secret: false },
    });
    // The key is in the stack's file encrypted, never in clear.
    expect(readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8")).not.toContain(API_KEY);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      writeFileSync(path.join(dir, file.replace(/\.ts$/, ".js")), ts.transpileModule(readFileSync(path.join(dir, file), "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText);
    }
    linkProjectDir(dir);
    const stack = await projectStack({ dir, stackName: "dev", program, envVars: cliEnv(tmp) });
    await emu.clearRequests();
    await stack.up();
    expect((await emu.operationRequests()).filter((x) => x.method !== "GET").map((x) => `${x.method} ${x.path}`)).toEqual([]);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: expect.any(Number) });
  });

  it("refuses to start while a value of the environment's own is unset, naming each", async () => {
    execFileSync("pulumi", ["stack", "init", "bare"], { cwd: dir, env: env() });
    const stack = await projectStack({ dir, stackName: "bare", program, envVars: cliEnv(tmp) });
    await stack.setAllConfig({ "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: API_KEY, secret: true } });
    const err = await stack.up().then(() => undefined, (e: Error) => e);
    expect(err?.message).toContain("set this stack's config before `pulumi up` (`pulumi config set [--secret] <key> <value>`; notify-export printed the lines); missing: environment-variable-APP-URL-value");
  });
});
