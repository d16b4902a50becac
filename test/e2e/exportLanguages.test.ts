/**
 * `notify-export` in Python and Go, through the native plugin, against the "dashboard-made"
 * environment of test/helpers/dashboard.ts with Alice's credentials and preferences (`--subscriber
 * alice`: her preferences for a workflow depend on her global ones): each program checked by its own toolchain
 * (`python -m py_compile`, `go vet`), then run as it is written, as the inline program of a stack
 * (the exported __main__.py through test/e2e/python/run_export.py; the exported main.go's Program
 * through test/e2e/go-export/driver.go): up with no write to the service but the masked secret
 * variable's value (exactly one PATCH; nothing for the translations, the context and the domain),
 * an empty preview, hand edits (a workflow's name, a translation's content) shown by
 * `preview --refresh` and put back by `up --refresh`. Skipped, saying so, without python3 or go.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ExportModule from "../../export";
import { cliEnv, cliPath, nativeRequire, ROOT } from "../helpers/pulumi";
import { API_KEY, type TestEmulator } from "../helpers/emulator";
import { DASHBOARD_TRANSLATIONS, SECRET_VARIABLE_VALUE, startDashboardEmulator } from "../helpers/dashboard";
import { hasPython, pythonProjectDir, runPython, venvPython } from "../helpers/python";
import { runJsonDriver } from "../helpers/driver";
import { buildExportedGo } from "../helpers/go";
import { editWorkflowByHand, serviceApi } from "../../scripts/workspace";

const { exportEnvironment } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;

const ENV = "langs";
const PROJECT = `notify-${ENV}`;
const hasGo = spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
if (!hasGo) process.stderr.write("test/e2e/exportLanguages.test.ts: the Go part is skipped, go is not on PATH\n");

/** The writes in the emulator's request log, as `METHOD route`. */
const writesOf = (log: { method: string; path: string; route?: string }[]) =>
  log.filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);

describe("notify-export in Python and Go, through the native plugin", () => {
  let emu: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-export-langs-"));

  beforeAll(async () => {
    emu = await startDashboardEmulator(ENV);
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** The stack config: the connection, and each secret (the masked one supplied by the user). */
  const config = (model: ExportModule.ExportResult["model"]) => ({
    ...emu.stackConfig(),
    ...Object.fromEntries(model.secrets.map((s) => [`${PROJECT}:${s.key}`, { value: s.value ?? SECRET_VARIABLE_VALUE, secret: true }])),
  });

  /** Alice's preferences for a workflow, declared with dependsOn on her global ones (docs/subscribers.md), which the engine then runs first. */
  function expectPreferencesOrdered(model: ExportModule.ExportResult["model"]) {
    expect(model.resources.find((r) => r.key === "SubscriberPreferences/alice-order-shipped-preferences")?.dependsOn).toEqual(["SubscriberPreferences/alice-preferences"]);
  }

  /** What every language's run must show: one write, no changes, a hand edit seen and put back. */
  async function adoptionScenario(model: ExportModule.ExportResult["model"], run: (op: "up" | "up-refresh" | "preview" | "preview-refresh") => Promise<any>) {
    await emu.clearRequests();
    const up = await run("up");
    // Every object the exporter declared is imported, and nothing else.
    expect(up.changes.import).toBe(model.resources.length);
    expect(writesOf(await emu.requests())).toEqual(["PATCH /v1/environment-variables/{variableKey}"]);
    expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);

    const api = serviceApi(emu.url, API_KEY);
    await editWorkflowByHand(api, "welcome", (b) => ({ ...b, name: "Renamed in the dashboard" }));
    // A translation's content changed in the dashboard's translation editor.
    await api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "order-shipped", locale: "de_DE", content: { subject: "Von Hand geändert" } });
    const drift = await run("preview-refresh");
    expect(Object.keys(drift.diffs).sort()).toEqual(["welcome", "workflow-order-shipped-de_DE"]);
    await run("up-refresh");
    expect((await api("GET", "/v2/workflows/welcome")).name).toBe("Welcome");
    expect((await api("GET", "/v2/translations/workflow/order-shipped/de_DE")).content).toEqual(DASHBOARD_TRANSLATIONS.de_DE);
    expect((await run("preview-refresh")).diffs).toEqual({});
    // Back as it was for the next language.
    await editWorkflowByHand(api, "welcome", (b) => b);
  }

  describe.skipIf(!hasPython("test/e2e/exportLanguages.test.ts"))("Python", () => {
    it("compiles, and its first up imports everything writing only the masked secret; previews are empty; a hand edit is shown and put back", async () => {
      const out = path.join(tmp, "py");
      const result = await exportEnvironment({ language: "python", out, project: PROJECT, connection: { apiUrl: emu.url, apiKey: API_KEY }, subscribers: ["alice"] });
      expectPreferencesOrdered(result.model);
      const python = venvPython();
      execFileSync(python, ["-m", "py_compile", path.join(out, "__main__.py"), path.join(out, "notify_generated.py")], { stdio: "pipe" });
      expect(readFileSync(path.join(out, "requirements.txt"), "utf8")).toMatch(/^pulumi>=.*\npulumi-notify==/);
      const dir = pythonProjectDir(PROJECT);
      try {
        await adoptionScenario(result.model, (op) => runPython(python, path.join(ROOT, "test/e2e/python/run_export.py"), op, dir, {
          projectName: PROJECT, program: path.join(out, "__main__.py"), config: config(result.model),
        }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe.skipIf(!hasGo)("Go", () => {
    it("passes go vet, and its first up imports everything writing only the masked secret; previews are empty; a hand edit is shown and put back", async () => {
      const out = path.join(tmp, "go");
      const result = await exportEnvironment({ language: "go", out, project: PROJECT, connection: { apiUrl: emu.url, apiKey: API_KEY }, subscribers: ["alice"] });
      expectPreferencesOrdered(result.model);
      expect(readFileSync(path.join(out, "go.mod"), "utf8")).toMatch(/require \(\n\tgithub.com\/pulumi-notify\/pulumi-notify\/sdk\/go v/);
      const bin = buildExportedGo(out, path.join(tmp, "go-driver"), PROJECT);

      const dir = pythonProjectDir(PROJECT);
      writeFileSync(path.join(dir, "Pulumi.yaml"), readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace("runtime: python", "runtime: go"));
      const settings = { workDir: dir, pulumiRoot: path.dirname(path.dirname(cliPath())), projectName: PROJECT, config: config(result.model) };
      const run = async (op: string) => (await runJsonDriver<any>(`go program ${op}`, bin, [op], { ...process.env, ...cliEnv(dir) }, settings)).result;
      try {
        await adoptionScenario(result.model, run);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
