/**
 * `notify-export --portable` in Pulumi YAML, Python and Go (TypeScript's are
 * test/property/migration.test.ts and test/e2e/promotion.test.ts): the "dashboard-made" environment
 * of test/helpers/dashboard.ts (every step kind, layouts, integrations, a topic with 250
 * subscribers, variables plain and secret, translations, a context, a domain with its routes, a
 * Slack workspace and an endpoint) written as a portable program, which a second installation (an
 * empty emulator but for the application's users, the topic's subscribers) gets by `pulumi up`;
 * the two environments then compare equal (`notify-export --diff`).
 *
 * YAML runs the flow of docs/promotion.md through the plain CLI, as a user types it: the export
 * makes stack `source` of the dashboard's environment (`--stack`), whose first up takes everything
 * over writing only the value the service masks; then `pulumi stack init`, `pulumi config cp`, the
 * second installation's connection, `pulumi config rm adopt` and `up` make it there. Python and Go
 * run their programs as written, with their toolchains (skipped, saying so, without them).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ExportModule from "../../export";
import { cliEnv, cliPath, nativeRequire, ROOT } from "../helpers/pulumi";
import { runProcess } from "../helpers/process";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { SECRET_VARIABLE_VALUE, startDashboardEmulator } from "../helpers/dashboard";
import { hasPython, pythonProjectDir, runPython, venvPython } from "../helpers/python";
import { runJsonDriver } from "../helpers/driver";
import { buildExportedGo } from "../helpers/go";

const { exportEnvironment, diffEnvironments } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;
const BIN = path.join(ROOT, "dist/export/cli.js");
const PROJECT = "notify-portable";
const hasGo = spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
const yamlHost = existsSync(path.join(path.dirname(cliPath()), "pulumi-language-yaml")) || spawnSync("sh", ["-c", "command -v pulumi-language-yaml"]).status === 0;

describe("portable programs in YAML, Python and Go, made on a second installation", () => {
  let source: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-portable-"));

  beforeAll(async () => {
    source = await startDashboardEmulator("portable");
  });
  afterAll(async () => {
    await source?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A second installation: empty but for the application's users (the source's subscribers). */
  async function secondInstallation(): Promise<TestEmulator> {
    const target = await startTestEmulator({ environmentVariableLimit: 50, plan: "business" });
    const state = await source.state();
    for (const s of state.subscribers.filter((x) => !x.deleted)) await target.api("POST", "/v2/subscribers", { subscriberId: s.subscriberId });
    return target;
  }

  /** The two environments compare equal. */
  async function expectSame(target: TestEmulator): Promise<void> {
    const d = await diffEnvironments({ from: { apiUrl: source.url, apiKey: API_KEY }, to: { apiUrl: target.url, apiKey: API_KEY } });
    expect({ onlyInFrom: d.onlyInFrom, onlyInTo: d.onlyInTo, differ: d.differ }).toEqual({ onlyInFrom: [], onlyInTo: [], differ: [] });
  }

  /** The second stack's config: the first's values (the masked one the user's), the second installation's connection. */
  const configFor = (model: ExportModule.ExportResult["model"], target: TestEmulator) => ({
    ...target.stackConfig(),
    ...Object.fromEntries(model.secrets.map((s) => [`${PROJECT}:${s.key}`, { value: s.value ?? SECRET_VARIABLE_VALUE, secret: !s.plain }])),
  });

  describe.skipIf(!yamlHost)("YAML, through the plain CLI as docs/promotion.md says", () => {
    it("--stack takes the source over writing only the masked value; a second stack made by config cp makes the setup on the second installation", async () => {
      const target = await secondInstallation();
      try {
        const home = path.join(tmp, "yaml-user");
        for (const d of ["state", "home"]) mkdirSync(path.join(home, d), { recursive: true });
        const env = { ...process.env, ...cliEnv(home), NOTIFY_API_URL: source.url, NOTIFY_API_KEY: API_KEY } as Record<string, string>;
        const dir = path.join(tmp, "yaml");
        // The plugin of this checkout (before a release the engine could not download it).
        const plugin = path.join(tmp, "plugin");
        mkdirSync(plugin);
        symlinkSync(path.join(ROOT, "bin/pulumi-resource-notify"), path.join(plugin, "pulumi-resource-notify"));
        const exported = await runProcess(process.execPath, [BIN, "--language", "yaml", "--portable", "--project", PROJECT, "--stack", "source", "--out", dir], { env });
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stderr).toContain("set what the service showed masked: environment-variable-API-TOKEN-value");
        appendFileSync(path.join(dir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: notify\n      path: ${JSON.stringify(plugin)}\n`);
        const pulumi = (...args: string[]) => runProcess(cliPath(), [...args, "--non-interactive"], { cwd: dir, env });
        const ok = async (...args: string[]) => {
          const r = await pulumi(...args);
          expect(r.code, `pulumi ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
          return r;
        };
        await ok("config", "set", "--stack", "source", "--secret", "environment-variable-API-TOKEN-value", SECRET_VARIABLE_VALUE);
        await source.clearRequests();
        await ok("up", "--stack", "source", "--yes", "--skip-preview");
        const writes = (await source.operationRequests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route ?? r.path}`);
        expect(writes).toEqual(["PATCH /v1/environment-variables/{variableKey}"]);
        await ok("preview", "--stack", "source", "--expect-no-changes", "--refresh");

        await ok("stack", "init", "second");
        await ok("config", "cp", "--stack", "source", "--dest", "second");
        await ok("config", "set", "--stack", "second", "notify:apiUrl", target.url);
        await ok("config", "set", "--stack", "second", "--secret", "notify:apiKey", API_KEY);
        await ok("config", "rm", "--stack", "second", "adopt");
        await ok("up", "--stack", "second", "--yes", "--skip-preview");
        await ok("preview", "--stack", "second", "--expect-no-changes", "--refresh");
        await expectSame(target);
      } finally {
        await target.close();
      }
    });
  });

  describe.skipIf(!hasPython("test/e2e/exportPortable.test.ts"))("Python", () => {
    it("compiles, and makes the setup on the second installation", async () => {
      const target = await secondInstallation();
      const out = path.join(tmp, "py");
      const result = await exportEnvironment({ language: "python", out, project: PROJECT, portable: true, connection: { apiUrl: source.url, apiKey: API_KEY } });
      const python = venvPython();
      execFileSync(python, ["-m", "py_compile", path.join(out, "__main__.py"), path.join(out, "notify_generated.py")], { stdio: "pipe" });
      const dir = pythonProjectDir(PROJECT);
      try {
        const run = (op: "up" | "preview-refresh") => runPython(python, path.join(ROOT, "test/e2e/python/run_export.py"), op, dir, {
          projectName: PROJECT, program: path.join(out, "__main__.py"), config: configFor(result.model, target),
        });
        const up = await run("up");
        // Every object the program declares, and the stack.
        expect(up.changes.create).toBe(result.model.resources.length + 1);
        expect((await run("preview-refresh")).diffs).toEqual({});
        await expectSame(target);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await target.close();
      }
    });
  });

  describe.skipIf(!hasGo)("Go", () => {
    it("passes go vet, and makes the setup on the second installation", async () => {
      const target = await secondInstallation();
      const out = path.join(tmp, "go");
      const result = await exportEnvironment({ language: "go", out, project: PROJECT, portable: true, connection: { apiUrl: source.url, apiKey: API_KEY } });
      const bin = buildExportedGo(out, path.join(tmp, "go-driver"), PROJECT);
      const dir = pythonProjectDir(PROJECT);
      writeFileSync(path.join(dir, "Pulumi.yaml"), readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace("runtime: python", "runtime: go"));
      const settings = { workDir: dir, pulumiRoot: path.dirname(path.dirname(cliPath())), projectName: PROJECT, config: configFor(result.model, target) };
      const run = async (op: string) => (await runJsonDriver<any>(`go program ${op}`, bin, [op], { ...process.env, ...cliEnv(dir) }, settings)).result;
      try {
        const up = await run("up");
        // Every object the program declares, and the stack.
        expect(up.changes.create).toBe(result.model.resources.length + 1);
        expect((await run("preview-refresh")).diffs).toEqual({});
        await expectSame(target);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await target.close();
      }
    });
  });
});
