/**
 * The live acceptance suite (`npm run test:live`, test/live) proven on loopback: run as a user runs
 * it (dist/scripts/live.js, its own vitest), against the emulator started as a separate process at
 * an address, as if it were a remote service, in each mode and through each front end, and against
 * an emulator that answers as an older server. The environment holds objects of its own before
 * each run (a default layout, a subscriber, a topic, a workflow, an integration), which must come
 * out untouched, and none of the run's may be left. Here the test reads the emulator's store (its
 * controls), which the live suite itself never touches.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetch } from "undici";
import { ROUTES_SINCE } from "../../provider/client/http";
import { KINDS } from "../kinds/index";
import type { LiveReport } from "../live/report";
import { carriesPrefix } from "../live/namespace";
import { runProcess } from "../helpers/process";
import { ROOT } from "../helpers/pulumi";

const NODE = path.join(ROOT, "node_modules/node/bin/node");
const KEY = "live-test-key-0123456789";
const PRODUCTION_KEY = "live-test-prod-key-0123456789";

interface EmulatorProcess {
  url: string;
  api(method: string, p: string, body?: unknown, key?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The emulator's CLI as a process of its own, on a free loopback port. */
async function emulatorProcess(args: string[]): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(NODE, [path.join(ROOT, "dist/emulator/cli.js"), "--port", "0", "--api-key", KEY, "--api-key", `${PRODUCTION_KEY}=Production`, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it listened: ${out}`)));
  });
  const api = async (method: string, p: string, body?: unknown, key = KEY) => {
    const res = await fetch(url + p, { method, headers: { authorization: `ApiKey ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: any = text;
    try { parsed = JSON.parse(text); } catch { /* text */ }
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed) && Object.keys(parsed).length === 1 && "data" in parsed) parsed = parsed.data;
    return { status: res.status, body: parsed };
  };
  return { url, api, close: () => new Promise((resolve) => { child.once("exit", () => resolve()); child.kill("SIGTERM"); }) };
}

/** What the environment holds before a run: objects of the user's own, one of several kinds. */
async function seedForeign(emu: EmulatorProcess): Promise<void> {
  const ok = async (method: string, p: string, body: unknown) => {
    const r = await emu.api(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  await ok("POST", "/v2/layouts", { layoutId: "house", name: "House" });
  await ok("POST", "/v2/subscribers", { subscriberId: "real-user", email: "real@example.com" });
  await ok("POST", "/v2/topics", { key: "real-news", name: "Real news" });
  await ok("POST", "/v2/workflows", { workflowId: "real-flow", name: "Real flow", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] });
  await ok("POST", "/v1/integrations", { identifier: "real-sendgrid", providerId: "sendgrid", channel: "email", active: true, check: false });
}

/**
 * The store's objects a user could see or remove (those not deleted), list by list: what a run
 * must leave as it found it. Events and messages are history (a trigger adds to it, and nobody
 * deletes it), and the preference records of a deleted subscriber go with it.
 */
async function objects(emu: EmulatorProcess): Promise<Record<string, unknown[]>> {
  const state = (await emu.api("GET", "/__emulator/state")).body as Record<string, any[]>;
  const deletedSubscribers = new Set(state.subscribers!.filter((s) => s.deleted).map((s) => s._id));
  const out: Record<string, unknown[]> = {};
  for (const [list, records] of Object.entries(state)) {
    if (!Array.isArray(records) || list === "events" || list === "messages") continue;
    out[list] = records.filter((r) => !r.deleted && !deletedSubscribers.has(r._subscriberId));
  }
  return out;
}

/** Every identifier-like string of the store that carries `prefix`. */
function carrying(state: Record<string, unknown[]>, prefix: string): string[] {
  const found: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") { if (carriesPrefix(prefix, v)) found.push(v); return; }
    if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(state);
  return found;
}

/** `npm run test:live` as a user runs it, against `url`; `extra` its flags. */
async function liveRun(url: string, env: Record<string, string>, extra: string[] = []) {
  return runProcess(NODE, [path.join(ROOT, "dist/scripts/live.js"), ...extra], {
    cwd: ROOT, env: { ...process.env, NOTIFY_LIVE_API_URL: url, NOTIFY_LIVE_API_KEY: KEY, ...env },
  });
}

describe.each([["production", "dynamic"], ["spec", "native"]] as const)("the live suite against the emulator as a separate process in %s mode, through the %s front end", (mode, frontEnd) => {
  let emu: EmulatorProcess;
  let dir: string;
  beforeAll(async () => {
    emu = await emulatorProcess(["--mode", mode]);
    await seedForeign(emu);
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-live-report-"));
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("passes, reports every kind, and leaves the environment as it found it", async () => {
    const before = await objects(emu);
    const prefix = `lvt${mode === "spec" ? "s" : "p"}${Date.now().toString(36).slice(-5)}`;
    const r = await liveRun(emu.url, { NOTIFY_LIVE_PREFIX: prefix, NOTIFY_LIVE_REPORT_DIR: dir, NOTIFY_LIVE_API_KEY_2: PRODUCTION_KEY }, ["--front-end", frontEnd]);
    expect(r.code, r.stdout.slice(-6000) + r.stderr.slice(-3000)).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")) as LiveReport;
    expect(report).toMatchObject({ address: emu.url, version: expect.any(String), mode, prefix, frontEnd });
    expect(report.results.filter((x) => x.verdict === "failed")).toEqual([]);
    const kinds = report.results.filter((x) => x.area === "kind");
    expect(kinds.map((k) => k.name).sort()).toEqual(KINDS.map((k) => k.kind).sort());
    // Only what needs the emulator's controls is skipped, and each such skip says so.
    for (const k of kinds) expect(["passed", "emulator-only"], `${k.name}: ${k.detail}`).toContain(k.verdict);
    expect(kinds.filter((k) => k.verdict === "passed").length).toBeGreaterThan(kinds.length / 2);
    const skips = report.results.filter((x) => x.verdict === "emulator-only").length;
    expect(r.stdout).toMatch(new RegExp(`0 failed, 0 unsupported, \\d+ emulator-only skips \\(${skips} whole, \\d+ steps\\)`));
    expect(r.stdout).toMatch(/requests sent: [1-9]\d* by the suite, [1-9]\d* by the provider/);
    expect(readFileSync(path.join(dir, "report.md"), "utf8")).toMatch(new RegExp(`^# Live acceptance run against ${emu.url.replace(/[.]/g, "\\.")}\\n\\n- Server version: `));
    expect(report.differential.length).toBeGreaterThan(0);
    expect(report.results.find((x) => x.name === "second environment's key")?.verdict).toBe("passed");
    const after = await objects(emu);
    expect(carrying(after, prefix)).toEqual([]);
    expect(after).toEqual(before);
  });
});

describe("the live suite against a server that claims an older version", () => {
  let emu: EmulatorProcess;
  let dir: string;
  // What a 2.0 server is (production-notes.md, seventh pass): without the routes that came later,
  // its v2 workflow routes taking no API key, and translations an enterprise module it lacks.
  const lacked = ROUTES_SINCE.filter((r) => r.lacks === "2.0.0").map((r) => r.prefix);
  beforeAll(async () => {
    emu = await emulatorProcess(["--mode", "production"]);
    await seedForeign(emu);
    const gates = [...lacked.map((prefix) => ({ prefix, as: "absent" })), { prefix: "/v2/workflows", as: "session-only" }, { prefix: "/v2/translations", as: "feature-off" }];
    const set = await emu.api("POST", "/__emulator/behaviour", { version: "2.0.0", routeGates: gates });
    expect(set.status).toBe(200);
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-live-report-"));
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports the newer kinds unsupported with the version each needs, those refusing API keys as such, fails nothing and exits 0", async () => {
    const before = await objects(emu);
    const r = await liveRun(emu.url, { NOTIFY_LIVE_REPORT_DIR: dir });
    expect(r.code, r.stdout.slice(-6000) + r.stderr.slice(-3000)).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")) as LiveReport;
    expect(report.version).toBe("2.0.0");
    expect(report.results.filter((x) => x.verdict === "failed")).toEqual([]);
    const verdict = Object.fromEntries(report.results.filter((x) => x.area === "kind").map((k) => [k.name, k]));
    for (const k of KINDS) {
      const route = k.deletePath(k.scenario.declared, "id");
      if (lacked.some((p) => route.startsWith(`${p}/`))) expect(verdict[k.kind], k.kind).toMatchObject({ verdict: "unsupported", detail: expect.stringMatching(/needs a server newer than 2\.0\.0 \(3\.15\.0 has it\); this one says it is 2\.0\.0/) });
    }
    expect(verdict.Workflow).toMatchObject({ verdict: "unsupported", detail: expect.stringMatching(/takes no API key/) });
    expect(verdict.Translation!.verdict).toBe("unsupported");
    expect(report.results.some((x) => x.area === "kind" && x.verdict === "passed")).toBe(true);
    expect(await objects(emu)).toEqual(before);
  });
});

describe("a live run's safety: cleanup, collisions, production environments", () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await emulatorProcess(["--mode", "production"]);
    await seedForeign(emu);
  });
  afterAll(async () => { await emu?.close(); });

  /** What a killed run of `prefix` left: one object of several kinds. */
  const leftBy = async (prefix: string) => {
    for (const [p, body] of [
      ["/v2/subscribers", { subscriberId: `${prefix}-alice` }],
      ["/v2/topics", { key: `${prefix}-news` }],
      ["/v2/workflows", { workflowId: `${prefix}-flow`, name: "Flow", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] }],
      ["/v1/integrations", { identifier: `${prefix}-slack`, providerId: "slack", channel: "chat", active: true, check: false }],
      ["/v1/environment-variables", { key: `${prefix.toUpperCase()}_URL`, values: [] }],
    ] as const) {
      const r = await emu.api("POST", p, body);
      expect(r.status, `${p}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    }
  };

  it("refuses to start when the environment holds objects carrying its prefix, naming them and the cleanup, and writes nothing", async () => {
    await leftBy("lvdead02");
    await emu.api("DELETE", "/__emulator/requests");
    const r = await liveRun(emu.url, { NOTIFY_LIVE_PREFIX: "lvdead02" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to start: the environment holds 5 object\(s\) carrying the run prefix lvdead02 \(.*subscriber lvdead02-alice.*\).*npm run test:live -- --cleanup lvdead02/);
    const log = (await emu.api("GET", "/__emulator/requests")).body.requests as { method: string }[];
    expect(log.filter((x) => x.method !== "GET")).toEqual([]);
  });

  it("--cleanup PREFIX removes what a killed run left, and nothing else", async () => {
    await leftBy("lvdead01");
    const before = await objects(emu);
    const r = await liveRun(emu.url, {}, ["--cleanup", "lvdead01"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^removed 5 object\(s\) carrying lvdead01/);
    const after = await objects(emu);
    expect(carrying(after, "lvdead01")).toEqual([]);
    // Everything else as it was: the user's objects and the other run's.
    expect(carrying(after, "lvdead02").length).toBeGreaterThan(0);
    const others = (s: Record<string, unknown[]>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.filter((x) => carrying({ x: [x] }, "lvdead01").length === 0)]));
    expect(after).toEqual(others(before));
  });

  it("refuses a production-type environment unless told --allow-production", async () => {
    const refused = await liveRun(emu.url, { NOTIFY_LIVE_API_KEY: PRODUCTION_KEY });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to run in environment "Production": the service counts it as a production environment \(type "prod"\).*--allow-production/);
    const allowed = await liveRun(emu.url, { NOTIFY_LIVE_API_KEY: PRODUCTION_KEY }, ["--allow-production", "--preflight"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/environment Production; run prefix lv[a-z0-9]{6}/);
  });
});
