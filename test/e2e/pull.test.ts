/**
 * `notify-export --update` as a user runs it (the bin, a child process), against the emulator
 * seeded as the dashboard makes an environment (test/helpers/dashboard.ts), in every language:
 * export, commit, change one field on the service as a person in the dashboard would (the
 * subject of an email step), `--update`: `git diff` shows exactly that field's line, in the
 * declarations file and nowhere else; the updated program still compiles (TypeScript with tsc,
 * Python with py_compile, Go with gofmt's parser, YAML with the yaml package); a second `--update`
 * with nothing changed leaves every byte (and the file's modification time) as it was. Then what
 * `--update` refuses. Then, when Pulumi's YAML language host is there (beside the CLI, where
 * scripts/ensure-pulumi builds it, or on PATH), the YAML project through the plain CLI: `pulumi
 * up` imports everything writing only the masked secret; after a hand edit `preview --refresh`
 * shows drift until `--update` pulls it, then none, and `up` writes nothing.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type * as ExportModule from "../../export";
import type * as ProjectModule from "../../export/project";
import { LANGUAGES, type Language } from "../../export/render/common";
import { cliPath, nativeRequire, ROOT } from "../helpers/pulumi";
import { runProcess as run } from "../helpers/process";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { DASHBOARD_STEPS, SECRET_VARIABLE_VALUE, seedDashboardEnvironment } from "../helpers/dashboard";
import { cliEnv, editWorkflowByHand, linkProjectDir, serviceApi } from "../../scripts/workspace";

const { exportEnvironment } = nativeRequire("pulumi-notify/dist/export/index") as typeof ExportModule;
const { RENDERERS } = nativeRequire("pulumi-notify/dist/export/project") as typeof ProjectModule;
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
const BIN = path.join(ROOT, pkg.bin["notify-export"]!);
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

const ENV = "pull";
/** A key of another environment of the same organisation. */
const OTHER_KEY = "other-environment-key-0123";
const WORKFLOW = "order-shipped";

/** The Pulumi YAML language host the CLI would run: beside it, else on PATH. */
function yamlHost(): string | undefined {
  const beside = path.join(path.dirname(cliPath()), "pulumi-language-yaml");
  if (existsSync(beside)) return beside;
  const onPath = spawnSync("sh", ["-c", "command -v pulumi-language-yaml"], { encoding: "utf8" });
  return onPath.status === 0 ? onPath.stdout.trim() : undefined;
}
const YAML_HOST = yamlHost();
if (!YAML_HOST) {
  process.stderr.write("test/e2e/pull.test.ts: the YAML project's run through the CLI is skipped: no pulumi-language-yaml beside the CLI nor on PATH (scripts/ensure-pulumi builds it)\n");
}

describe("notify-export --update", () => {
  let emu: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-pull-"));
  const env = (key = API_KEY) => ({ ...process.env, NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: key });
  const cli = (args: string[], key?: string) => run(process.execPath, [BIN, ...args], { env: env(key) });
  const git = async (dir: string, ...args: string[]) => {
    const r = await run("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { cwd: dir });
    expect(r, `git ${args.join(" ")}`).toMatchObject({ code: 0 });
    return r.stdout;
  };
  /**
   * Sets the subject of the workflow's email step, as a person in the dashboard would: the whole
   * workflow sent back (a PUT), its translation switch included as it was (the emulator's PUT,
   * emulator/routes/workflows.ts, turns it off when the body leaves it out, which --update would
   * rightly show as a second change).
   */
  const setSubject = async (subject: string) => {
    const api = serviceApi(emu.url, API_KEY);
    const { isTranslationEnabled } = await api("GET", `/v2/workflows/${WORKFLOW}`);
    await editWorkflowByHand(api, WORKFLOW, (b) => ({
      ...b, isTranslationEnabled,
      steps: b.steps.map((s: { type: string; controlValues: Record<string, unknown> }) => (s.type === "email" ? { ...s, controlValues: { ...s.controlValues, subject } } : s)),
    }));
  };

  beforeAll(async () => {
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=${ENV}`, `${OTHER_KEY}=other`], environmentVariableLimit: 50, plan: "business" });
    await seedDashboardEnvironment(emu.api, `env_${ENV}`, 3);
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Checks that the program in `dir` still parses or compiles with its language's tools. */
  const compiles: Record<Language, (dir: string) => Promise<void>> = {
    typescript: async (dir) => {
      linkProjectDir(dir);
      expect(await run(process.execPath, [TSC, "-p", dir, "--noEmit"], { cwd: dir })).toMatchObject({ code: 0, stdout: "" });
    },
    python: async (dir) => {
      const files = ["__main__.py", RENDERERS.python.ownedFile].map((f) => path.join(dir, f));
      expect(await run("python3", ["-c", "import sys\nfor f in sys.argv[1:]: compile(open(f).read(), f, 'exec')", ...files])).toMatchObject({ code: 0 });
    },
    go: async (dir) => {
      // gofmt's parser: the file is Go (go vet needs the SDK's module; test/e2e/exportLanguages.test.ts runs it).
      if (spawnSync("gofmt", ["-h"]).error) return;
      expect(await run("gofmt", ["-e", path.join(dir, "main.go"), path.join(dir, RENDERERS.go.ownedFile)])).toMatchObject({ code: 0 });
    },
    yaml: async (dir) => {
      expect(Object.keys(parse(readFileSync(path.join(dir, RENDERERS.yaml.ownedFile), "utf8")))).toContain("resources");
    },
  };

  let subject = DASHBOARD_STEPS.email.subject as string;
  for (const language of LANGUAGES) {
    it(`${language}: a field changed on the service is one changed line of the declarations file, and nothing else; unchanged, no change at all`, async () => {
      const dir = path.join(tmp, language);
      const owned = RENDERERS[language].ownedFile;
      expect(await cli(["--language", language, "--out", dir])).toMatchObject({ code: 0 });
      // What compiling adds (links, outputs, state) is not the project's.
      writeFileSync(path.join(dir, ".gitignore"), "node_modules/\nbin/\nstate/\nhome/\n");
      await git(dir, "init", "-q");
      await git(dir, "add", "-A");
      await git(dir, "commit", "-q", "-m", "export");

      const before = subject;
      subject = `Your receipt, edited in the dashboard for ${language}`;
      await setSubject(subject);
      const update = await cli(["--update", dir]);
      expect(update.code, update.stderr).toBe(0);
      expect(update.stderr).toContain(`notify-export: updated ${path.join(dir, owned)}: `);
      expect(update.stdout).toBe("");

      // Only the declarations file changed, and in it only the subject's line.
      expect(await git(dir, "status", "--porcelain")).toBe(` M ${owned}\n`);
      const diff = (await git(dir, "diff", "--unified=0", "--no-color")).split("\n").filter((l) => /^[-+](?![-+]{2} )/.test(l));
      expect(diff, diff.join("\n")).toHaveLength(2);
      expect(diff[0]).toMatch(/^-/);
      expect(diff[0]).toContain(JSON.stringify(before));
      expect(diff[1]).toBe(`+${diff[0]!.slice(1).replace(JSON.stringify(before), JSON.stringify(subject))}`);
      await compiles[language](dir);
      await git(dir, "commit", "-q", "-am", "pull");

      // Nothing changed since: the same bytes, the file not even written.
      const mtime = statSync(path.join(dir, owned)).mtimeMs;
      const again = await cli(["--update", dir]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`notify-export: unchanged: ${path.join(dir, owned)}: `);
      expect(await git(dir, "status", "--porcelain")).toBe("");
      expect(statSync(path.join(dir, owned)).mtimeMs).toBe(mtime);
    });
  }

  it("refuses a directory that is not an export, the export's own options, and a key of another environment, naming why", async () => {
    const plain = path.join(tmp, "plain");
    mkdirSync(plain);
    writeFileSync(path.join(plain, "index.ts"), "export {};\n");
    const notExport = await cli(["--update", plain]);
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toContain(`notify-export: --update ${plain}: not a project notify-export wrote: it holds none of the files an export owns (${LANGUAGES.map((l) => RENDERERS[l].ownedFile).join(", ")})`);

    const dir = path.join(tmp, "refused");
    expect(await cli(["--language", "python", "--out", dir])).toMatchObject({ code: 0 });
    const options = await cli(["--update", dir, "--language", "go"]);
    expect(options.code).toBe(2);
    expect(options.stderr).toContain("--update takes the options the project was exported with from its declarations file; drop --language");

    const text = readFileSync(path.join(dir, RENDERERS.python.ownedFile), "utf8");
    const other = await cli(["--update", dir], OTHER_KEY);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`the project declares environment env_${ENV}, and the API key is of environment env_other`);
    expect(readFileSync(path.join(dir, RENDERERS.python.ownedFile), "utf8")).toBe(text);
  });

  describe.skipIf(!YAML_HOST)("the YAML project through the plain CLI and Pulumi's YAML language host", () => {
    it("imports everything on the first up writing only the masked secret; a hand edit is drift until --update pulls it; then up writes nothing", async () => {
      const dir = path.join(tmp, "yaml-run");
      // With Alice's credentials and preferences: her preferences for a workflow depend on her global ones (options: dependsOn), which the host reads.
      const result = await exportEnvironment({ language: "yaml", out: dir, connection: { apiUrl: emu.url, apiKey: API_KEY }, subscribers: ["alice"] });
      expect(readFileSync(path.join(dir, "Main.yaml"), "utf8")).toMatch(/^ {6}dependsOn: \["\$\{alicePreferences\}"\]$/m);
      // The plugin of this checkout, from a folder of the test's own: the CLI caches the schema of
      // a plugin given by path beside that folder (schema-notify.json), here in the temp directory.
      const plugin = path.join(tmp, "plugin");
      mkdirSync(plugin);
      symlinkSync(path.join(ROOT, "bin/pulumi-resource-notify"), path.join(plugin, "pulumi-resource-notify"));
      appendFileSync(path.join(dir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: notify\n      path: ${JSON.stringify(plugin)}\n`);
      mkdirSync(path.join(dir, "state"));
      mkdirSync(path.join(dir, "home"));
      const pulumi = async (...args: string[]) => run(cliPath(), [...args, "--non-interactive"], { cwd: dir, env: { ...process.env, ...cliEnv(dir) } });
      const ok = async (...args: string[]) => {
        const r = await pulumi(...args);
        expect(r.code, `pulumi ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
        return r;
      };
      const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);

      await ok("stack", "init", "test");
      await ok("config", "set", "notify:apiUrl", emu.url);
      await ok("config", "set", "--secret", "notify:apiKey", API_KEY);
      for (const s of result.model.secrets) await ok("config", "set", "--secret", s.key, s.value ?? SECRET_VARIABLE_VALUE);

      const preview = await ok("preview");
      expect(preview.stdout).toContain(`= ${result.model.resources.length} to import`);
      await emu.clearRequests();
      await ok("up", "--yes", "--skip-preview");
      // The masked variable's value can only be written: one PATCH, nothing else.
      expect(await writes()).toEqual(["PATCH /v1/environment-variables/{variableKey}"]);
      await ok("preview", "--expect-no-changes", "--refresh");

      await setSubject("Pulled into Main.yaml");
      const drift = await pulumi("preview", "--expect-no-changes", "--refresh");
      expect(drift.code, drift.stdout).not.toBe(0);
      expect(drift.stdout).toMatch(new RegExp(`~ +notify:index:Workflow +${WORKFLOW} +update`));
      expect(await cli(["--update", dir])).toMatchObject({ code: 0 });
      expect(readFileSync(path.join(dir, "Main.yaml"), "utf8")).toContain("subject: \"Pulled into Main.yaml\"");
      await ok("preview", "--expect-no-changes", "--refresh");
      await emu.clearRequests();
      await ok("up", "--yes", "--skip-preview", "--refresh");
      expect(await writes()).toEqual([]);
    });
  });
});
