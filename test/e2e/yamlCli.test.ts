/**
 * Pulumi YAML through the plain CLI: every command is a `pulumi` process of its own, started in a
 * project directory with the arguments a user types, its exit status and its text output checked,
 * and no Automation API anywhere (the rest of the suite drives the engine through it). The
 * language host is the `pulumi-language-yaml` that scripts/ensure-pulumi builds beside the CLI; the
 * provider is the plugin archive of `npm run plugin-binary`, installed with the README's
 * `pulumi plugin install ... --file` line. The PATH of `pulumi` holds the CLI's folder alone: a
 * YAML program needs no Node.js.
 *
 * - examples/quickstart-yaml, copied: the README's install line and the example's own header
 *   (stack init, config), then `pulumi up --yes`, `pulumi preview --refresh --expect-no-changes`,
 *   a hand edit through the emulator's API that `pulumi preview --refresh` names field by field,
 *   `pulumi up --refresh --yes` repairing it, and `pulumi destroy --yes`.
 * - Every Pulumi YAML program of the documentation (the README's, the hand-written pages', the
 *   example of each generated reference page) passes `pulumi preview` as a reader copies it: the
 *   language host checks it against the plugin's schema, the plugin's Check each resource against
 *   its rules, and each function call runs against the emulator.
 * - Every one of them in the README and the pages of docs/ (not the reference pages under
 *   docs/api-docs/, whose calls read objects the reader's service already holds) also passes
 *   `pulumi up` on a fresh emulator, an empty environment: no warning among the engine's events,
 *   and the service and the outputs end as the program's text says.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { cliPath, ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { archiveName, buildPluginArchives, packageVersion, type Target } from "../../scripts/plugin-binary";
import { installCommands } from "../../scripts/release";
import { DOCS_DIR } from "../../scripts/gen-docs";
import { editWorkflowByHand, LOCAL_PASSPHRASE, serviceApi } from "../../scripts/workspace";

const FILE = "test/e2e/yamlCli.test.ts";
const EXAMPLE = path.join(ROOT, "examples/quickstart-yaml");
const VERSION = packageVersion();
/** The host's target, the archive the engine on this machine runs. */
const HOST: Target = process.arch === "arm64" ? "linux-arm64" : "linux-amd64";
const SENDGRID_KEY = "SG.quickstart-yaml-secret";

/** One finished `pulumi` process. */
interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A command line split into its words, as a shell splits a line without quotes. */
const words = (line: string): string[] => line.trim().split(/\s+/);

/** Colour codes, should the CLI write any: the checks read the text. */
const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/**
 * Runs `pulumi args` in `cwd` and waits for it. Asynchronous on purpose: the emulator answers in
 * this process, so a synchronous child would wait on a server that cannot run.
 */
function pulumi(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cliPath(), args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout: plain(stdout), stderr: plain(stderr) }));
  });
}

/**
 * The engine's warning diagnostics of an operation run with `--event-log file` (one JSON engine
 * event a line), each its resource's URN ("" for none) and message. The CLI takes the flag only
 * with PULUMI_DEBUG_COMMANDS set ({@link eventLog}); the Automation API passes the same one.
 */
function warningsIn(file: string): { urn: string; message: string }[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { diagnosticEvent?: { urn?: string; message: string; severity: string } })
    .flatMap((e) => (e.diagnosticEvent?.severity === "warning" ? [{ urn: e.diagnosticEvent.urn ?? "", message: plain(e.diagnosticEvent.message).trim() }] : []));
}

/** The arguments and environment that make `pulumi` write its engine events to `file`, beside a user's `env`. */
const eventLog = (file: string, env: Record<string, string>) => ({ args: ["--event-log", file], env: { ...env, PULUMI_DEBUG_COMMANDS: "true" } });

/** Runs `pulumi args` and expects it to succeed, its output in the failure's message otherwise. */
async function ok(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  const run = await pulumi(args, cwd, env);
  expect(run.status, `pulumi ${args.join(" ")} exited ${run.status}:\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
}

/**
 * The lines of `output` that show resource `name` of type `token` (the CLI's progress lines of a
 * preview or an update), each trimmed and its runs of spaces made one.
 */
function resourceLines(output: string, token: string, name: string): string[] {
  return output.split("\n").map((l) => l.trim().replace(/\s+/g, " ")).filter((l) => new RegExp(`^(\\S+ )?${token} ${name}( |$)`).test(l));
}

let emu: TestEmulator;
let archive: string;
const dirs: string[] = [];
/** Where this file's `pulumi` processes keep their plugins and login (one for the file: the plugin is installed once). */
let home: string;

/** The environment of a user's shell: the CLI's folder on PATH, a passphrase for the local backend's secrets. */
const userEnv = (): Record<string, string> => ({
  PATH: path.dirname(cliPath()),
  HOME: home,
  PULUMI_HOME: path.join(home, ".pulumi"),
  PULUMI_CONFIG_PASSPHRASE: LOCAL_PASSPHRASE,
  PULUMI_SKIP_UPDATE_CHECK: "true",
  // The installed plugin, never one fetched from the network.
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
});

const started = Date.now();
beforeAll(async () => {
  archive = (await buildPluginArchives({ targets: [HOST], log: (l) => process.stderr.write(`${l}\n`) }))[0]!.archive;
  emu = await startTestEmulator();
  home = mkdtempSync(path.join(os.tmpdir(), "notify-yaml-home-"));
  dirs.push(home);
  // The README's line that installs the plugin from a checkout's built archive, as written there.
  const line = installCommands().checkout.find((c) => c.startsWith("pulumi plugin install "));
  expect(line, "README.md's checkout block has a `pulumi plugin install` line").toBeDefined();
  const args = words(line!).slice(1).map((w) => w.replaceAll("<version>", VERSION));
  const file = args.indexOf("--file") + 1;
  expect(path.basename(args[file]!)).toBe(archiveName(HOST));
  args[file] = archive;
  await ok(args, home, userEnv());
  // The local backend, a folder of the user's (the CLI refuses a folder that does not exist).
  mkdirSync(path.join(home, "state"));
  await ok(["login", `file://${path.join(home, "state")}`], home, userEnv());
});
afterAll(async () => {
  await emu?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  process.stderr.write(`${FILE}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});


describe("examples/quickstart-yaml, each step a `pulumi` process", () => {
  let dir: string;
  const env = userEnv;
  const api = () => serviceApi(emu.url, API_KEY);
  const project = parseYaml(readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8")) as { resources: Record<string, { type: string }> };
  const declared = Object.entries(project.resources);
  const workflow = declared.find(([, r]) => r.type === "notify:index:Workflow")!;
  const integration = declared.find(([, r]) => r.type === "notify:index:Integration")!;
  const live = async () => ({
    integrations: (await emu.state()).integrations.filter((i) => !i.deleted),
    workflows: (await emu.state()).workflows,
  });

  beforeAll(() => {
    // A copy of the example, as a user who cloned the repository has it.
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-yaml-quickstart-"));
    dirs.push(dir);
    cpSync(EXAMPLE, dir, { recursive: true });
  });

  it("the example's header sets the project up (stack init, the connection and the SendGrid key in config)", async () => {
    // The header's commands, as written, with the placeholders a reader fills in; `pulumi up` is the next test.
    const header = readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").split("\n").map((l) => /^#\s+(pulumi\s.*)$/.exec(l)?.[1]).filter((l): l is string => !!l);
    expect(header.at(-1)).toBe("pulumi up");
    const fill: Record<string, string> = { "https://api.example.com": emu.url, "<API key>": API_KEY, "<SendGrid API key>": SENDGRID_KEY };
    for (const line of header.slice(0, -1)) {
      const filled = Object.entries(fill).reduce((l, [k, v]) => l.replaceAll(k, v), line);
      expect(filled, `every placeholder of "${line}" is filled`).not.toMatch(/<[^>]+>|example\.com/);
      await ok(words(filled).slice(1), dir, env());
    }
    expect((await ok(["config", "get", "notify:apiUrl"], dir, env())).stdout.trim()).toBe(emu.url);
  });

  it("pulumi up --yes creates the integration and the workflow, with the outputs the service gives, and no warning", async () => {
    // Beside the project, not in it (the test copies the project as a reader has it).
    const events = path.join(home, "quickstart-up.events.jsonl");
    const log = eventLog(events, env());
    const up = await ok(["up", "--yes", ...log.args], dir, log.env);
    // Each declared resource and the stack itself.
    expect(up.stdout).toMatch(new RegExp(`^\\s*\\+ ${declared.length + 1} created$`, "m"));
    // A first up on an empty environment, as the header runs it, has nothing to warn about.
    expect(warningsIn(events), up.stdout).toEqual([]);
    const { integrations, workflows } = await live();
    expect(integrations.map((i) => [i.identifier, i.primary])).toEqual([["sendgrid", true]]);
    expect(workflows.map((w) => w.workflowId)).toEqual(["welcome"]);
    const outputs = JSON.parse((await ok(["stack", "output", "--json"], dir, env())).stdout) as Record<string, unknown>;
    expect((await api()("GET", "/v2/workflows/welcome")).status).toBe("ACTIVE");
    expect(outputs).toEqual({
      integrationId: integrations[0]._id,
      workflowId: "welcome",
      // Active, and no step with an issue: the welcome workflow sends.
      workflowStatus: "ACTIVE",
      steps: workflows[0].steps.map((s: { stepId: string; type: string }) => `${s.stepId} (${s.type})`),
    });
    // Secrets are encrypted at rest: neither key is in the state in clear.
    const state = readdirSync(path.join(home, "state/.pulumi/stacks"), { recursive: true }).map(String).filter((f) => f.endsWith(".json"));
    expect(state.length).toBeGreaterThan(0);
    for (const f of state) {
      const text = readFileSync(path.join(home, "state/.pulumi/stacks", f), "utf8");
      expect(text).not.toContain(SENDGRID_KEY);
      expect(text).not.toContain(API_KEY);
    }
  });

  it("pulumi preview --refresh --expect-no-changes passes on the service as declared", async () => {
    const preview = await ok(["preview", "--refresh", "--expect-no-changes"], dir, env());
    expect(preview.stdout).toMatch(new RegExp(`^\\s*${declared.length + 1} unchanged$`, "m"));
  });

  it("a hand edit through the API shows in pulumi preview --refresh as the field it changed, and fails --expect-no-changes", async () => {
    await editWorkflowByHand(api(), "welcome", (body) => ({ ...body, name: "Welcome (edited by hand)" }));
    const preview = await ok(["preview", "--refresh"], dir, env());
    expect(resourceLines(preview.stdout, "notify:index:Workflow", workflow[0]).some((l) => l.startsWith(`~ notify:index:Workflow ${workflow[0]} update [diff: ~name]`))).toBe(true);
    expect(resourceLines(preview.stdout, "notify:index:Integration", integration[0]).filter((l) => /update|replace/.test(l))).toEqual([]);
    expect(preview.stdout).toMatch(/^\s*~ 1 to update$/m);
    // With --diff, the values: the service's on the left, the program's on the right.
    const diff = await ok(["preview", "--refresh", "--diff"], dir, env());
    expect(diff.stdout).toMatch(/~ name\s*: "Welcome \(edited by hand\)" => "Welcome"/);
    const strict = await pulumi(["preview", "--refresh", "--expect-no-changes"], dir, env());
    expect(strict.status).not.toBe(0);
    expect(strict.stdout + strict.stderr).toContain("error: no changes were expected for preview but changes were proposed");
  });

  it("pulumi up --refresh --yes puts the declared name back, after which the preview is clean again", async () => {
    const up = await ok(["up", "--refresh", "--yes"], dir, env());
    expect(up.stdout).toMatch(/^\s*~ 1 updated$/m);
    expect((await api()("GET", "/v2/workflows/welcome")).name).toBe("Welcome");
    await ok(["preview", "--refresh", "--expect-no-changes"], dir, env());
  });

  it("pulumi destroy --yes deletes the workflow and the integration", async () => {
    const destroy = await ok(["destroy", "--yes"], dir, env());
    expect(destroy.stdout).toMatch(new RegExp(`^\\s*- ${declared.length + 1} deleted$`, "m"));
    expect(await live()).toEqual({ integrations: [], workflows: [] });
  });
});

describe("every Pulumi YAML program of the documentation", () => {
  /**
   * Each ```yaml block with `runtime: yaml` of the README, the hand-written pages and the generated
   * reference pages (each page's example), as a reader copies it, named by its file and block.
   */
  const programs = ["README.md", ...readdirSync(path.join(ROOT, DOCS_DIR)).filter((f) => f.endsWith(".md")).sort().map((f) => `${DOCS_DIR}/${f}`),
    ...readdirSync(path.join(ROOT, DOCS_DIR, "api-docs")).sort().map((f) => `${DOCS_DIR}/api-docs/${f}`)]
    .flatMap((file) => [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
      .map((m, i) => ({ page: `${file} #${i + 1}`, yaml: m[1]! }))
      .filter((p) => (parseYaml(p.yaml) as { runtime?: unknown } | null)?.runtime === "yaml"));
  const configOf = (yaml: string) => (parseYaml(yaml) as { config?: Record<string, { secret?: boolean }> }).config ?? {};
  let dir: string;

  it("holds the README's example and one of each reference page", () => {
    const pages = ["_index.md", ...readdirSync(path.join(ROOT, DOCS_DIR, "api-docs")).map((f) => `api-docs/${f}`)];
    for (const page of ["README.md", ...pages.map((p) => `${DOCS_DIR}/${p}`)]) expect(programs.filter((p) => p.page.startsWith(`${page} #`)), page).toHaveLength(1);
  });

  /** The projects that have their stack (a stack belongs to its project). */
  const stacks = new Set<string>();

  /**
   * What a call's argument names, made on the emulator (the reader's service holds it): by the
   * argument's name, the seed of `/__emulator/seed` that makes the object of that id.
   */
  const SEEDS: Record<string, (id: string) => Record<string, unknown[]>> = {
    subscriberId: (id) => ({ subscribers: [{ subscriberId: id, email: `${id}@example.com` }] }),
    notificationId: (id) => ({ events: [{ _id: id }] }),
  };
  /** The same for objects the seed does not make: made through the API, as the reader's dashboard did. */
  const MADE: Record<string, (id: string) => Promise<{ status: number }>> = {
    topicKey: (id) => emu.api("POST", "/v2/topics", { key: id, name: id }),
  };

  beforeAll(async () => {
    const named = programs.flatMap((p) => Object.values((parseYaml(p.yaml) as { variables?: Record<string, { "fn::invoke"?: { arguments?: Record<string, unknown> } }> }).variables ?? {}))
      .flatMap((v) => Object.entries(v["fn::invoke"]?.arguments ?? {}));
    const seeds = [...new Map(named.filter(([k]) => k in SEEDS).map(([k, id]) => [`${k}=${String(id)}`, SEEDS[k]!(String(id))])).values()];
    for (const seed of seeds) expect((await emu.api("POST", "/__emulator/seed", seed)).status).toBe(200);
    for (const [k, id] of new Map(named.filter(([k]) => k in MADE).map(([k, id]) => [`${k}=${String(id)}`, [k, String(id)] as const])).values()) {
      expect((await MADE[k]!(id)).status, `${k} ${id}`).toBeLessThan(300);
    }
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-yaml-docs-"));
    dirs.push(dir);
  });

  /**
   * Creates the stack `docs` of `program`'s project unless it exists: a preview leaves no state,
   * so one stack serves every program of a project. Its config holds the connection and a value
   * for each key any program declares, secret where it says so; the values are URLs, which every
   * field an example reads from config accepts (a webhook's is checked as one).
   */
  const ensureStack = async (yaml: string) => {
    const project = (parseYaml(yaml) as { name: string }).name;
    if (stacks.has(project)) return;
    stacks.add(project);
    await ok(["stack", "init", "docs"], dir, userEnv());
    const config = Object.assign({}, ...programs.map((p) => configOf(p.yaml))) as Record<string, { secret?: boolean }>;
    await ok(["config", "set-all", "--stack", "docs", "--plaintext", `notify:apiUrl=${emu.url}`, "--secret", `notify:apiKey=${API_KEY}`,
      ...Object.entries(config).flatMap(([k, c]) => [c.secret ? "--secret" : "--plaintext", `${k}=https://hooks.example.com/${k}`])], dir, userEnv());
  };

  it.each(programs)("$page: pulumi preview accepts it", async ({ page, yaml }) => {
    writeFileSync(path.join(dir, "Pulumi.yaml"), yaml);
    await ensureStack(yaml);
    const preview = await ok(["preview", "--stack", "docs"], dir, userEnv());
    // Each resource of the program, checked by the plugin, is planned.
    const resources = (parseYaml(yaml) as { resources?: Record<string, { type: string }> }).resources ?? {};
    for (const [name, r] of Object.entries(resources)) expect(resourceLines(preview.stdout, r.type, name), `${page}:\n${preview.stdout}`).toContain(`+ ${r.type} ${name} create`);
  });

  describe("the README's and docs/'s programs, run with pulumi up on an empty environment", () => {
    /**
     * The programs a reader runs as they are: the README's and those of the pages of docs/. The
     * reference pages under docs/api-docs/ are excerpts, each about one resource or function, whose
     * calls read objects the reader's service already holds: the previews above are theirs.
     */
    const runnable = programs.filter((p) => !p.page.startsWith(`${DOCS_DIR}/api-docs/`));
    /** What an up left: the stack's outputs, and the emulator it ran against. */
    interface End {
      outputs: Record<string, unknown>;
      emu: TestEmulator;
    }
    const workflow = async (e: TestEmulator, id: string) => (await e.api("GET", `/v2/workflows/${id}`)).body as { status: string; steps: { type: string; issues?: unknown }[] };
    const integration = async (e: TestEmulator, identifier: string) => (await e.state()).integrations.find((i) => i.identifier === identifier && !i.deleted);
    /**
     * How each program ends, as its text says: its outputs and what the service holds. Every
     * runnable program has its entry (the first test says which is missing).
     */
    const ENDS: Record<string, (end: End) => Promise<void>> = {
      // An email integration, and the subscriber alice, whose email the stack exports.
      "README.md #1": async ({ outputs, emu: e }) => {
        expect(outputs).toEqual({ alice: "alice@example.com" });
        expect(await integration(e, "sendgrid-main")).toMatchObject({ channel: "email", active: true });
        expect((await e.api("GET", "/v2/subscribers/alice")).body).toMatchObject({ subscriberId: "alice", email: "alice@example.com" });
      },
      // "A SendGrid integration ... and a welcome workflow that sends an email, waits a day, then sends a follow-up email."
      "docs/_index.md #1": async ({ outputs, emu: e }) => {
        expect(outputs).toEqual({});
        expect(await integration(e, "sendgrid-main")).toMatchObject({ channel: "email", active: true, primary: true });
        const welcome = await workflow(e, "welcome");
        expect(welcome.status).toBe("ACTIVE");
        expect(welcome.steps.map((s) => s.type)).toEqual(["email", "delay", "email"]);
      },
      // "... its workflowStatus output is ACTIVE": the welcome email sends.
      "docs/yaml.md #1": async ({ outputs, emu: e }) => {
        expect(outputs).toEqual({ workflowStatus: "ACTIVE" });
        expect(await integration(e, "sendgrid")).toMatchObject({ channel: "email", active: true, primary: true });
        expect((await workflow(e, "welcome")).steps.map((s) => s.type)).toEqual(["email"]);
      },
    };

    it("says how each of them ends", () => {
      expect(runnable.map((p) => p.page).sort()).toEqual(Object.keys(ENDS).sort());
    });

    it.each(runnable)("$page: pulumi up creates every resource with no warning, and it ends as its text says", async ({ page, yaml }) => {
      const e = await startTestEmulator();
      const project = mkdtempSync(path.join(os.tmpdir(), "notify-yaml-up-"));
      dirs.push(project);
      try {
        writeFileSync(path.join(project, "Pulumi.yaml"), yaml);
        // A stack of its own: programs of one project (the README's, the front page's) share the backend.
        const name = `up-${runnable.findIndex((p) => p.page === page) + 1}`;
        const stack = ["--stack", name];
        await ok(["stack", "init", name], project, userEnv());
        await ok(["config", "set-all", ...stack, "--plaintext", `notify:apiUrl=${e.url}`, "--secret", `notify:apiKey=${API_KEY}`,
          ...Object.entries(configOf(yaml)).flatMap(([k, c]) => [c.secret ? "--secret" : "--plaintext", `${k}=https://hooks.example.com/${k}`])], project, userEnv());
        const events = path.join(project, "up.events.jsonl");
        const log = eventLog(events, userEnv());
        const up = await ok(["up", "--yes", ...stack, ...log.args], project, log.env);
        const resources = Object.keys((parseYaml(yaml) as { resources?: Record<string, unknown> }).resources ?? {});
        expect(up.stdout, page).toMatch(new RegExp(`^\\s*\\+ ${resources.length + 1} created$`, "m"));
        expect(warningsIn(events), `${page}:\n${up.stdout}`).toEqual([]);
        // Every workflow it declares sends: active, and no step with an issue.
        for (const w of (await e.state()).workflows) {
          const live = await workflow(e, w.workflowId);
          expect({ workflow: w.workflowId, status: live.status, issues: live.steps.filter((s) => s.issues) }, page).toEqual({ workflow: w.workflowId, status: "ACTIVE", issues: [] });
        }
        const outputs = JSON.parse((await ok(["stack", "output", "--json", "--show-secrets", ...stack], project, userEnv())).stdout) as Record<string, unknown>;
        await ENDS[page]!({ outputs, emu: e });
      } finally {
        await e.close();
      }
    });
  });
});
