/**
 * The state never lies, through the real engine and both front ends (the component layer runs
 * each case on every kind: test/component/provider/resources/stateNeverLies.test.ts):
 *
 * - a server that stops between an integration's create and its set-primary: `up` fails, the
 *   integration is in the stack (created but not initialised), and the next `up` finishes it:
 *   no 409, no second integration, nothing outside the state;
 * - a server that answers every route with NestJS's "Cannot <METHOD> <path>" (a wrong base path, an
 *   older server): `refresh` and `destroy` fail and keep every resource in the stack;
 * - a key typed wrong: `up` fails before anything registers (with changes or without), and so
 *   does `preview --refresh`; nothing stores the refused key, so fixing it is all a user does;
 * - a create whose answer is lost on a server that ignores idempotency keys: looked up, not sent again;
 * - a server that keeps a taken workflowId as a suffixed second workflow (3.15.0): `up` removes the
 *   duplicate and refuses naming adopt: true; with it, the existing workflow is taken over.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cliPath, exportedState } from "../helpers/pulumi";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { runProcess } from "../helpers/process";
import { cliEnv, stateDir } from "../../scripts/workspace";
import { declareKind, FRONT_ENDS } from "../helpers/frontEnds";
import { useStack } from "../helpers/stack";

type Obj = Record<string, unknown>;

/** Runs the built `notify-export` with `args`. */
const notifyExport = (args: string[]) => runProcess(process.execPath, [path.join(ROOT, "dist/export/cli.js"), ...args]);

/** The checkout, whose built `notify-export` the check runs. */
const ROOT = path.resolve(__dirname, "../..");

describe.each(FRONT_ENDS)("the state never lies, through the %s front end", (frontEnd) => {
  describe("a server stopped between an integration's create and its set-primary", () => {
    const { emu, ts } = useStack({
      frontEnd,
      // The environment's first active email integration is made primary by its create; this one needs set-primary.
      seed: async (emu) => { await emu.api("POST", "/v1/integrations", { identifier: "postmark", providerId: "postmark", channel: "email", active: true, check: false }); },
      program: async () => {
        declareKind(frontEnd, "Integration", "sendgrid-main", {
          identifier: "sendgrid-main", providerId: "sendgrid", channel: "email", active: true, primary: true, credentials: { apiKey: "SG.secret-value" },
        });
      },
    });
    const live = async () => ((await emu.api("GET", "/v1/integrations")).body as Obj[]).filter((i) => i.identifier === "sendgrid-main" && !i.deleted);

    it("fails the up, keeps the integration in the stack, and the next up finishes it with no duplicate", async () => {
      await emu.api("POST", "/__emulator/faults", { stopAfter: { method: "POST", route: "/v1/integrations" } });
      await expect(ts.stack.up()).rejects.toThrow(/integration "sendgrid-main" was created and is kept in the stack; the next pulumi up finishes it/i);
      await emu.api("POST", "/__emulator/faults", {});
      const made = await live();
      expect(made.map((i) => i.primary)).toEqual([false]);
      const recorded = (await exportedState(ts.stack)).resources.filter((r) => String(r.urn).endsWith("::sendgrid-main"));
      expect(recorded.map((r) => r.id)).toEqual([made[0]!._id]);
      // The engine retries the resource: it is finished, not met as a stranger (no 409, no adopt needed).
      const up = await ts.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect((await live()).map((i) => [i._id, i.primary])).toEqual([[made[0]!._id, true]]);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
    });
  });

  describe("a server without the routes asked", () => {
    const { emu, ts } = useStack({
      frontEnd,
      seed: async (emu) => { await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" }); },
      program: async () => {
        declareKind(frontEnd, "Subscriber", "bob", { subscriberId: "bob", firstName: "Bob" });
        declareKind(frontEnd, "Topic", "news", { key: "news", name: "News" });
        declareKind(frontEnd, "Workflow", "welcome", { workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] });
      },
    });
    const recorded = async () => (await exportedState(ts.stack)).resources.filter((r) => String(r.type).includes("notify") && !String(r.type).startsWith("pulumi:providers:")).map((r) => String(r.urn).replace(/^.*::/, "")).sort();

    it("refresh and destroy fail, naming what is wrong, and every resource stays in the stack", async () => {
      await ts.stack.up();
      const before = await recorded();
      expect(before).toEqual(["bob", "news", "welcome"]);
      // Every route answers NestJS's 404, as a server at a wrong base path or of an older version does.
      await emu.api("POST", "/__emulator/behaviour", { routeGates: [{ prefix: "/", as: "absent" }] });
      try {
        await expect(ts.stack.refresh()).rejects.toThrow(/404 Not Found: Cannot GET \/v2\/\S+\. The server at \S+ \(version [\d.]+\) has no route GET/);
        expect(await recorded()).toEqual(before);
        await expect(ts.stack.destroy()).rejects.toThrow(/Cannot DELETE/);
        expect(await recorded()).toEqual(before);
      } finally {
        await emu.api("POST", "/__emulator/behaviour", { routeGates: [] });
      }
      expect((await emu.api("GET", "/v2/subscribers/bob")).status).toBe(200);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
    });
  });

  // The 2.0 server answered each secret credential field of a write encrypted (`nvsk.` and hex, new
  // every time) and its lists in clear: once taken for the declared key, every preview showed a change.
  describe("a server that answers credentials encrypted in its write answers", () => {
    const { emu, ts } = useStack({
      frontEnd,
      emulator: { hideCredentials: false, encryptCredentialAnswers: true },
      program: async () => {
        declareKind(frontEnd, "Integration", "sendgrid", { identifier: "sendgrid", providerId: "sendgrid", channel: "email", active: true, credentials: { apiKey: "SG.declared" } });
      },
    });

    it("shows no change after up, sends nothing on the next, and shows a key changed by hand", async () => {
      await ts.stack.up();
      await ts.stack.preview({ expectNoChanges: true });
      await emu.clearRequests();
      expect((await ts.stack.up()).summary.resourceChanges).toEqual({ same: 2 });
      expect((await emu.operationRequests()).filter((r) => r.method !== "GET")).toEqual([]);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
      const [made] = (await emu.api("GET", "/v1/integrations")).body as Obj[];
      await emu.api("PUT", `/v1/integrations/${String(made!._id)}`, { credentials: { apiKey: "SG.by-hand" }, check: false });
      const drift = await ts.stack.preview({ refresh: true, diff: true });
      expect(drift.changeSummary.update).toBe(1);
      expect(drift.stdout).not.toContain("SG.by-hand");
    });
  });

  describe("notify-export --check after the service and the state parted", () => {
    const { emu, ts } = useStack({
      frontEnd,
      program: async () => {
        declareKind(frontEnd, "Topic", "news", { key: "news", name: "News" });
        declareKind(frontEnd, "Topic", "alerts", { key: "alerts", name: "Alerts" });
        declareKind(frontEnd, "Workflow", "welcome", { workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] });
      },
    });

    it("lists what is only in the state, only in the service, and what differs, field by field; exits 1", async () => {
      await ts.stack.up();
      await emu.api("DELETE", "/v2/topics/alerts");
      await emu.api("POST", "/v2/topics", { key: "orphan", name: "Made by a lost create" });
      await emu.api("PATCH", "/v2/topics/news", { name: "News (renamed by hand)" });
      const state = await ts.stack.exportStack();
      const dir = mkdtempSync(path.join(tmpdir(), "notify-check-"));
      const file = path.join(dir, "state.json");
      writeFileSync(file, JSON.stringify(state));
      const run = await notifyExport(["--check", file, "--api-url", emu.url, "--api-key", emu.key]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain('Only in the state (1)');
      expect(run.stdout).toContain('  Topic "alerts" (id alerts)');
      expect(run.stdout).toContain('  Topic "orphan" (id orphan)');
      expect(run.stdout).toContain('  Topic "news" (id news): name');
      expect(run.stdout).not.toContain('"welcome"');
      await emu.api("PATCH", "/v2/topics/news", { name: "News" });
      await emu.api("DELETE", "/v2/topics/orphan");
      await emu.api("POST", "/v2/topics", { key: "alerts", name: "Alerts" });
      const again = await notifyExport(["--check", file, "--api-url", emu.url, "--api-key", emu.key]);
      expect(again.stdout).toMatch(/^The state and the service agree/);
      expect(again.code).toBe(0);
    });
  });

  // A self-hosted server with IS_API_IDEMPOTENCY_ENABLED=false ignores Idempotency-Key: the real
  // 3.15.0 server then took 8 identical workflow POSTs as 8 workflows (production-notes.md, sixth pass).
  describe("a create whose answer is lost on a server that ignores idempotency keys", () => {
    const { emu, ts } = useStack({
      frontEnd,
      emulator: { idempotency: false, suffixDuplicateWorkflows: true },
      program: async () => {
        declareKind(frontEnd, "Workflow", "welcome", { workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] });
      },
    });

    it("looks the workflow up instead of sending the create again: one workflow, in the stack, and no change after", async () => {
      await emu.api("POST", "/__emulator/faults", { loseAnswer: { method: "POST", route: "/v2/workflows" } });
      await ts.stack.up();
      await emu.api("POST", "/__emulator/faults", {});
      const workflows = ((await emu.api("GET", "/v2/workflows?limit=100")).body.workflows as Obj[]);
      expect(workflows.map((w) => w.workflowId)).toEqual(["welcome"]);
      const recorded = (await exportedState(ts.stack)).resources.filter((r) => String(r.urn).endsWith("::welcome"));
      expect(recorded.map((r) => r.id)).toEqual([workflows[0]!._id]);
      expect((await emu.requests()).filter((r) => r.method === "POST" && r.route === "/v2/workflows").map((r) => r.status)).toEqual([502]);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
    });
  });

  describe("a server that keeps a taken workflowId as a suffixed duplicate", () => {
    let adopt = false;
    const { emu, ts } = useStack({
      frontEnd,
      emulator: { suffixDuplicateWorkflows: true },
      seed: async (emu) => { await emu.api("POST", "/v2/workflows", { workflowId: "welcome", name: "By hand", steps: [] }); },
      program: async () => {
        declareKind(frontEnd, "Workflow", "welcome", { workflowId: "welcome", name: "From the stack", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }], ...(adopt ? { adopt: true } : {}) });
      },
    });
    const workflows = async () => ((await emu.api("GET", "/v2/workflows?limit=100")).body.workflows as Obj[]).map((w) => [w.workflowId, w.name]);

    it("refuses the up naming adopt: true and leaves no duplicate; with adopt: true takes the workflow over", async () => {
      await expect(ts.stack.up()).rejects.toThrow(/stored this one as "welcome-wf-\w+", which was deleted again[\s\S]*set adopt: true/);
      expect(await workflows()).toEqual([["welcome", "By hand"]]);
      adopt = true;
      await ts.stack.up();
      expect(await workflows()).toEqual([["welcome", "From the stack"]]);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
    });
  });
});

/** The refusal of a key typed wrong: the connection check's message (provider/connectionCheck.ts). */
const REFUSED = /pulumi-notify cannot use the service at \S+: 401 Unauthorized: API Key not found\. The service refused the API key \(401\)[\s\S]*Nothing was registered or stored/;

// A key typed wrong: `up` fails before anything registers (with changes or without), and so does
// `preview --refresh`; nothing stores the refused key, so fixing it is all a user does. The dynamic
// resources run as an inline program; the plugin as a YAML program, a process of its own, as a
// Python, Go or YAML user runs it (an inline program shares the test's process, where the SDK
// rejects the stack's last registration once the engine has stopped at the plugin's CheckConfig).
describe("a key that failed, through the dynamic front end", () => {
  const { emu, ts } = useStack({ program: async () => { declareKind("dynamic", "Topic", "news", { key: "news", name: "News" }); } });
  const setKey = (value: string) => ts.stack.setConfig("notify:apiKey", { value, secret: true });

  it("stops the run before anything is stored: a typo fails up (with or without changes) and preview --refresh, and fixing it is all it takes", async () => {
    await ts.stack.up();
    await setKey("a-typo-of-the-key");
    // Nothing to change: no operation would send a request, and the run still fails.
    await expect(ts.stack.up()).rejects.toThrow(REFUSED);
    await expect(ts.stack.preview({ refresh: true })).rejects.toThrow(REFUSED);
    await setKey(emu.key);
    // Nothing stored the typo: destroy (which uses the configuration stored with the provider) works.
    await ts.stack.destroy();
    expect((await emu.api("GET", "/v2/topics/news")).status).toBe(404);
  });
});

describe("a key that failed, through the plugin (a YAML program run by pulumi)", () => {
  let emu: TestEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    dir = mkdtempSync(path.join(tmpdir(), "notify-key-yaml-"));
    // The plugin of this checkout, from a folder of the test's own (the CLI caches its schema beside it).
    const plugin = path.join(dir, "plugin");
    mkdirSync(plugin);
    symlinkSync(path.join(ROOT, "bin/pulumi-resource-notify"), path.join(plugin, "pulumi-resource-notify"));
    const project = path.join(dir, "project");
    mkdirSync(project);
    writeFileSync(path.join(project, "Pulumi.yaml"), stringify({
      name: "notify-key", runtime: "yaml", plugins: { providers: [{ name: "notify", path: plugin }] },
      resources: { news: { type: "notify:index:Topic", properties: { key: "news", name: "News" } } },
    }));
    mkdirSync(stateDir(project), { recursive: true });
    mkdirSync(path.join(project, "home"));
  });
  afterAll(async () => { await emu.close(); });
  const pulumi = (...args: string[]) => runProcess(cliPath(), [...args, "--non-interactive"], { cwd: path.join(dir, "project"), env: { ...process.env, ...cliEnv(path.join(dir, "project")) } });
  const ok = async (...args: string[]) => {
    const r = await pulumi(...args);
    expect(r.code, `pulumi ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
  };
  const refused = async (...args: string[]) => {
    const r = await pulumi(...args);
    expect(r.code, `pulumi ${args.join(" ")} should fail`).not.toBe(0);
    expect(`${r.stdout}\n${r.stderr}`).toMatch(REFUSED);
  };

  it("stops the run before anything is stored: a typo fails up (with or without changes) and preview --refresh, and fixing it is all it takes", async () => {
    await ok("stack", "init", "test");
    await ok("config", "set", "notify:apiUrl", emu.url);
    await ok("config", "set", "--secret", "notify:apiKey", emu.key);
    await ok("up", "--yes");
    await ok("config", "set", "--secret", "notify:apiKey", "a-typo-of-the-key");
    await refused("up", "--yes");
    await refused("preview", "--refresh");
    await ok("config", "set", "--secret", "notify:apiKey", emu.key);
    await ok("destroy", "--yes");
    expect((await emu.api("GET", "/v2/topics/news")).status).toBe(404);
  });
});
