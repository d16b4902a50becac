/**
 * `npm run test:live`: the acceptance suite against a live service at NOTIFY_LIVE_API_URL with the
 * key NOTIFY_LIVE_API_KEY (test/live/config.ts names every variable; docs/testing.md says how to
 * run it). Three parts, each reported per kind, function or probe (test/live/report.ts):
 *
 * 1. Probes: every operation's conformance case (test/kinds/openapi.ts, the cases the emulator's
 *    answers are held to) sent to the service and to an emulator in production mode; the live
 *    answer validated against spec/openapi.json, and set beside the emulator's field by field.
 * 2. Kinds: every kind's scenario through the real engine, as test/e2e/kinds.test.ts runs it on the
 *    emulator: up; a `preview --refresh` showing nothing; its hand edit made through the API,
 *    shown by `preview --refresh` on its field and repaired by `up --refresh`; destroy, each object
 *    then read gone by the provider; its adopt object refused without `adopt` and taken over with
 *    it; destroy again.
 * 3. Functions: each of the provider's functions, on the scenario's objects.
 *
 * Safe on a real environment: every name carries the run prefix (test/live/namespace.ts), a write
 * to anything else is refused before it is sent (test/live/service.ts), an emulator control is
 * never sent (what needs one is emulator-only), the run refuses a production-type environment and
 * a prefix already in use (test/live/config.ts), and it removes every object carrying its prefix
 * at the end, whatever happened (test/live/owned.ts). The server's version decides what runs: a
 * kind or probe of routes the server lacks, or refuses an API key on, is unsupported, not failed.
 */
import { deepStrictEqual, strictEqual } from "node:assert";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { NotifyClient, routeSince } from "../../provider/client/index";
import { FUNCTIONS } from "../../provider/functions/index";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { ROUTES } from "../../emulator/server";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { impl } from "../helpers/implementation";
import { declareKind } from "../helpers/frontEnds";
import { createTestStack, exportedState, type TestStack } from "../helpers/pulumi";
import { usePlugin } from "../helpers/native";
import { previewShown } from "../helpers/shownDiff";
import { DESCRIPTORS, KINDS } from "../kinds/index";
import type { KindDescriptor, Obj, OpenapiContext } from "../kinds/descriptor";
import { ALL_CASES, makeMade, PRODUCTION_RELAXED, validatorFor } from "../kinds/openapi";
import { fieldEdits } from "../property/handEdits";
import { liveConfig, preflight, type Preflight } from "./config";
import { Namespace } from "./namespace";
import { suiteNames } from "./names";
import { cleanUp } from "./owned";
import { startRelay, type Relay } from "./relay";
import { compareAnswers, writeReport, type LiveReport, type Result, type Verdict } from "./report";
import { EmulatorOnly, liveService, type LiveService } from "./service";

const cfg = liveConfig();
let pre: Preflight;
let ns: Namespace;
let svc: LiveService;
let relay: Relay;
let client: NotifyClient;
const report: LiveReport = {
  address: cfg.url, version: null, mode: "", environment: "", prefix: cfg.prefix, frontEnd: cfg.frontEnd,
  started: new Date().toISOString(), requests: { suite: 0, engine: 0 }, results: [], differential: [],
};

/**
 * What the service keeps of an object after the provider's delete, by its rules (the emulator-side
 * test reads the same off the store: each descriptor's `remains`): the environment's default
 * layout, which it refuses to delete, and a subscriber's preferences, which it never deletes (the
 * destroy gives the declared channels back, so each is on again). A reason when `props` (the
 * provider's read after the destroy) shows the object kept so; undefined when it should be gone.
 */
const KEPT_AFTER_DESTROY: Partial<Record<string, (props: Obj) => string | undefined>> = {
  Layout: (p) => (p.isDefault === true ? "the environment's default layout, which the service keeps" : undefined),
  SubscriberPreferences: (p) => (Object.values((p.channels ?? {}) as Obj).every((v) => v === true) ? "preferences, given back (every channel on)" : undefined),
};

/** Parts of a verdict that skipped a step: emulator-only steps of a kind that otherwise ran. */
const skippedSteps: string[] = [];

/** `a <= b` for versions `x.y.z` (a suffix ignored). */
function versionAtMost(a: string, b: string): boolean {
  const n = (v: string) => v.split(/[.-]/).slice(0, 3).map((x) => Number.parseInt(x, 10) || 0);
  const [x, y] = [n(a), n(b)];
  for (let i = 0; i < 3; i++) if (x[i]! !== y[i]!) return x[i]! < y[i]!;
  return true;
}

/** Why the server cannot have routes under `route` (by its version), or undefined. */
function lackedByVersion(route: string): string | undefined {
  const since = routeSince(route);
  if (!since?.lacks || !pre.version || !versionAtMost(pre.version, since.lacks)) return undefined;
  return `needs a server newer than ${since.lacks} (${since.has} has it); this one says it is ${pre.version}`;
}

/** What the service answers when it lacks a route, keeps a feature off, takes no API key there, or the plan refuses it. */
const ROUTE_REFUSAL = /has no route|is not a route of the service's API|keeps the feature off|takes no API key|API endpoint not (accessible|available)|Cannot (GET|POST|PUT|PATCH|DELETE) \/|Feature not enabled|Payment Required|\b402\b/;

/** A failure's verdict: emulator-only, unsupported (said why) or failed. */
function classify(e: unknown): { verdict: Verdict; detail: string } {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof EmulatorOnly) return { verdict: "emulator-only", detail: message };
  if (ROUTE_REFUSAL.test(message)) {
    const why = /takes no API key|API endpoint not (accessible|available)/.test(message) ? "the server takes no API key on its routes" : "the server lacks its routes or keeps them off";
    return { verdict: "unsupported", detail: `${why}: ${message.split("\n")[0]}` };
  }
  return { verdict: "failed", detail: message };
}

/** Records a verdict; a failure or refusal already said is kept. */
function record(area: Result["area"], name: string, verdict: Verdict, detail?: string): void {
  const i = report.results.findIndex((r) => r.area === area && r.name === name);
  if (i >= 0 && report.results[i]!.verdict !== "passed") return;
  const r: Result = { area, name, verdict, ...(detail ? { detail } : {}) };
  if (verdict === "failed") r.exchanges = [...svc.exchanges.slice(-6)];
  if (verdict === "failed" && relay) r.detail = `${detail ?? ""}\nthe provider's last requests: ${relay.recent().slice(-6).join("; ")}`;
  if (i >= 0) report.results[i] = r;
  else report.results.push(r);
}

beforeAll(async () => {
  client = new NotifyClient({ apiUrl: cfg.url, apiKey: cfg.key });
  pre = await preflight(cfg, client);
  Object.assign(report, { version: pre.version, mode: pre.mode, environment: `${pre.environment.name} (${pre.environment._id})` });
  const { names, environmentId } = await suiteNames();
  ns = new Namespace(cfg.prefix);
  for (const n of names) ns.add(n);
  ns.pair(environmentId, pre.environment._id);
  svc = liveService({ url: cfg.url, key: cfg.key, ns, live: true, otherKeys: cfg.key2 ? [cfg.key2] : [] });
  relay = await startRelay(cfg.url);
});

afterAll(async () => {
  // Whatever happened: every object carrying the prefix is removed, and the report written.
  if (client && pre) {
    const { removed, failed } = await cleanUp(client, cfg.prefix);
    report.cleanup = { removed: removed.length, failed };
  }
  report.requests = { suite: svc?.sent() ?? 0, engine: relay?.count() ?? 0 };
  report.finished = new Date().toISOString();
  const { md, json } = writeReport(cfg.reportDir, report);
  const count = (v: Verdict) => report.results.filter((r) => r.verdict === v).length;
  process.stdout.write(
    `\nnotify live run ${cfg.prefix} against ${cfg.url} (version ${report.version ?? "unknown"}, ${report.mode} mode):\n` +
    `  ${count("passed")} passed, ${count("failed")} failed, ${count("unsupported")} unsupported, ` +
    `${count("emulator-only") + skippedSteps.length} emulator-only skips (${count("emulator-only")} whole, ${skippedSteps.length} steps)\n` +
    `  requests sent: ${report.requests.suite} by the suite, ${report.requests.engine} by the provider\n` +
    `  cleanup: ${report.cleanup?.removed ?? 0} removed${report.cleanup?.failed.length ? `, NOT removed: ${report.cleanup.failed.join("; ")}` : ""}\n` +
    `  report: ${md} and ${json}\n`,
  );
  await relay?.close();
  await client?.close();
  if (report.cleanup?.failed.length) throw new Error(`the cleanup left objects carrying ${cfg.prefix}: ${report.cleanup.failed.join("; ")}`);
});

describe("probes: every operation's conformance case, live and on the emulator", () => {
  let reference: TestEmulator;
  let ref: LiveService;
  const made: { live?: OpenapiContext["made"]; ref?: OpenapiContext["made"]; why?: unknown } = {};

  beforeAll(async () => {
    reference = await startTestEmulator({ mode: "production" });
    await reference.api("POST", "/__emulator/behaviour", { plan: null });
    ref = liveService({ url: reference.url, key: reference.key, ns, live: false });
    made.ref = await makeMade(ref.api);
    made.live = await makeMade(svc.api).catch((e: unknown) => { made.why = e; return undefined; });
  });
  afterAll(async () => {
    await reference?.close();
    // The kinds start from an environment without the probes' objects.
    await cleanUp(client, cfg.prefix);
  });

  it.each(ROUTES.map((r) => `${r.method} ${r.path}`))("%s", async (op) => {
    const [method, route] = op.split(" ") as [string, string];
    const run = ALL_CASES.get(op)?.run;
    if (!run) return record("probe", op, "failed", `no case for ${op} (test/kinds/openapi.ts)`);
    const lacked = lackedByVersion(route);
    if (lacked) return record("probe", op, "unsupported", lacked);
    if (!made.live) return record("probe", op, classify(made.why).verdict, `the probes' objects could not be made: ${classify(made.why).detail}`);
    const check = validatorFor(pre.mode === "production" ? PRODUCTION_RELAXED : {});
    const strict = { toBe: (a: unknown) => (b: unknown) => strictEqual(a, b), toEqual: (a: unknown) => (b: unknown) => deepStrictEqual(a, b) };
    const context = (s: LiveService, m: OpenapiContext["made"], answers: { status: number; body: unknown }[], validate: boolean): OpenapiContext => ({
      mode: s === svc ? pre.mode : "production", api: s.api, made: m,
      expect: (actual) => ({ toBe: strict.toBe(actual), toEqual: strict.toEqual(actual) }),
      call: async (status, p, body) => {
        const r = await s.api(method, p, body);
        answers.push(r);
        if (r.status !== status) throw new Error(`${method} ${p}: expected ${status}, answered ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        // The answer as the service sent it (before its names were renamed back).
        const errors = validate ? check(method, route, status, s.exchanges[s.exchanges.length - 1]!.answer) : [];
        if (errors.length) throw new Error(`${method} ${p}: the answer does not validate against spec/openapi.json: ${errors.slice(0, 5).join("; ")}`);
        return r.body;
      },
    });
    const refAnswers: { status: number; body: unknown }[] = [];
    await run(context(ref, made.ref!, refAnswers, false)).catch(() => undefined);
    const liveAnswers: { status: number; body: unknown }[] = [];
    try {
      await run(context(svc, made.live, liveAnswers, true));
      record("probe", op, "passed");
    } catch (e) {
      const c = classify(e);
      record("probe", op, c.verdict, c.detail);
    }
    const last = (a: typeof liveAnswers) => a[a.length - 1];
    if (last(liveAnswers) && last(refAnswers)) report.differential.push({ probe: op, differences: compareAnswers(last(liveAnswers)!, last(refAnswers)!) });
  });
});

it("a second environment's key (NOTIFY_LIVE_API_KEY_2) reads its own environment, not the first's", async (ctx) => {
  if (!cfg.key2) {
    record("probe", "second environment's key", "unsupported", "NOTIFY_LIVE_API_KEY_2 is not set");
    return ctx.skip();
  }
  const other = await svc.apiAs(cfg.key2, "GET", "/v1/environments/me");
  try {
    expect(other.status).toBe(200);
    expect(other.body._id).not.toBe(pre.environment._id);
    record("probe", "second environment's key", "passed");
  } catch (e) {
    record("probe", "second environment's key", "failed", e instanceof Error ? e.message : String(e));
  }
});

describe("kinds: every kind's scenario through the real engine", () => {
  /** The kinds still running, by kind. */
  const running = new Map<string, KindDescriptor>();
  let ts: TestStack;
  const run = { phase: "scenario" as "scenario" | "without adopt" | "with adopt" };
  const inputsOf = (k: KindDescriptor): Obj => ns.toLive(run.phase === "scenario" ? k.scenario.declared : run.phase === "with adopt" ? { ...k.adopt.equal, adopt: true } : k.adopt.equal);
  const program: automation.PulumiFn = async () => {
    const ids: Record<string, unknown> = {};
    for (const k of running.values()) ids[k.kind] = declareKind(cfg.frontEnd, k.kind, k.kind, inputsOf(k)).id;
    return run.phase === "without adopt" ? {} : { ids };
  };
  const fail = (k: KindDescriptor, e: unknown, step: string) => {
    const c = classify(e);
    record("kind", k.kind, c.verdict, `${step}: ${c.detail}`);
    running.delete(k.kind);
  };
  /** Runs `step` for each running kind; a kind whose step throws stops with its verdict. */
  const each = async (step: string, f: (k: KindDescriptor) => Promise<void>) => {
    for (const k of [...running.values()]) await f(k).catch((e: unknown) => fail(k, e, step));
  };
  /** Errors of an engine operation per resource (its name is its kind). */
  const engineErrors = async (op: () => Promise<unknown>, events: automation.EngineEvent[]): Promise<Record<string, string>> => {
    const errors: Record<string, string> = {};
    await op().catch((e: unknown) => { errors[""] = e instanceof Error ? e.message : String(e); });
    for (const e of events) {
      const d = e.diagnosticEvent;
      if (d?.severity !== "error" || !d.urn) continue;
      const name = d.urn.split("::").pop()!;
      errors[name] = (errors[name] ?? "") + d.message;
    }
    return errors;
  };
  const refreshShows = async () => {
    const { shown } = await previewShown(ts.stack, { refresh: true });
    return Object.fromEntries(Object.entries(shown).map(([name, s]) => [name, { op: s.op, keys: s.keys }]));
  };
  /** Each running kind's object, read by the provider after a destroy: it must be gone. */
  const readGone = async (state: Record<string, { id: string; outputs: Obj }>, step: string) => {
    const disconnect = svc.connectEnvironment();
    try {
      await each(step, async (k) => {
        const r = state[k.kind];
        if (!r) return;
        const p = impl(RESOURCE_TABLES.find((t) => t.name === k.kind)!.module);
        const read = await p.read(r.id, r.outputs);
        const kept = read.id ? KEPT_AFTER_DESTROY[k.kind]?.(read.props) : undefined;
        if (kept) return;
        if (read.id) throw new Error(`the service still has ${k.kind} ${r.id} after the destroy: ${JSON.stringify(read.props).slice(0, 300)}`);
      });
    } finally {
      disconnect();
    }
  };
  const stateOf = async () => Object.fromEntries((await exportedState(ts.stack)).resources
    .filter((r) => r.type !== "pulumi:pulumi:Stack" && !String(r.type).startsWith("pulumi:providers:"))
    .map((r) => [String(r.urn).split("::").pop()!, { id: String(r.id), outputs: (r.outputs ?? {}) as Obj }]));

  beforeAll(async () => {
    for (const k of KINDS) {
      const lacked = lackedByVersion(k.deletePath(k.scenario.declared, "id"));
      if (lacked) record("kind", k.kind, "unsupported", lacked);
      else running.set(k.kind, k);
    }
    ts = await createTestStack({ program, projectName: "notify-live", stackName: cfg.prefix, config: { "notify:apiUrl": { value: relay.url }, "notify:apiKey": { value: cfg.key, secret: true } } });
    if (cfg.frontEnd === "native") await usePlugin(ts);
  });
  afterAll(async () => {
    // What the engine still holds goes first; the cleanup of the whole run removes the rest.
    await ts?.stack.destroy().catch(() => undefined);
    await ts?.cleanup();
  });

  it("makes what each kind needs (its setup and its object's prerequisites)", async () => {
    await each("setup", async (k) => { await k.setup?.(svc); });
    await each("prepare", async (k) => { await k.prepare?.(svc, k.scenario.declared); });
  });

  it("up creates one object of every kind", async () => {
    const events: automation.EngineEvent[] = [];
    const errors = await engineErrors(() => ts.stack.up({ continueOnError: true, onEvent: (e) => events.push(e) }), events);
    await each("up", async (k) => { if (errors[k.kind]) throw new Error(errors[k.kind]); });
    expect(Object.keys(errors).filter((n) => n !== "" && !KINDS.some((k) => k.kind === n)), JSON.stringify(errors)).toEqual([]);
  });

  it("preview --refresh then shows no change", async () => {
    const shown = await refreshShows();
    await each("a refresh right after up", async (k) => { if (shown[k.kind]) throw new Error(`shows ${JSON.stringify(shown[k.kind])}`); });
  });

  it("the provider's functions answer on the scenario's objects", async () => {
    const d = DESCRIPTORS;
    // The functions that read one object, on the scenario's: each needs the kinds that made it.
    const args: Record<string, { needs: (keyof typeof DESCRIPTORS)[]; args: () => Promise<Obj> }> = {
      getSubscriber: { needs: ["Subscriber"], args: async () => ({ subscriberId: d.Subscriber.scenario.declared.subscriberId }) },
      getSubscriberPreferences: { needs: ["SubscriberPreferences"], args: async () => ({ subscriberId: d.SubscriberPreferences.scenario.declared.subscriberId }) },
      getTopicSubscriptions: { needs: ["Topic"], args: async () => ({ topicKey: d.Topic.scenario.declared.key }) },
      getTranslations: { needs: ["Translation"], args: async () => ({ resourceType: d.Translation.scenario.declared.resourceType, resourceId: d.Translation.scenario.declared.resourceId }) },
      getEvent: {
        needs: ["Workflow", "Subscriber"],
        args: async () => {
          // An event of the run's own: the scenario's workflow triggered to its subscriber.
          const t = await svc.api("POST", "/v1/events/trigger", { name: d.Workflow.scenario.declared.workflowId, to: d.Subscriber.scenario.declared.subscriberId, payload: {} });
          if (t.status >= 300) throw new Error(`POST /v1/events/trigger: ${t.status} ${JSON.stringify(t.body).slice(0, 300)}`);
          const events = await (FUNCTIONS.find((f) => f.name === "getEvents")!.fn as (a: Obj) => Promise<{ events: { _id?: string }[] }>)({ limit: 1, maxResults: 1 });
          if (!events.events[0]?._id) throw new Error("getEvents answered no event after a trigger");
          return { notificationId: events.events[0]._id };
        },
      },
    };
    /** The verdict of a kind that stopped (it is no longer running), or undefined. */
    const stopped = (kind: string) => report.results.find((r) => r.area === "kind" && r.name === kind && !running.has(kind));
    const disconnect = svc.connectEnvironment();
    process.env.NOTIFY_API_URL = relay.url;
    try {
      for (const f of FUNCTIONS) {
        const blocked = (args[f.name]?.needs ?? []).map(stopped).find((r) => r !== undefined);
        if (blocked) {
          record("function", f.name, blocked.verdict, `needs a ${blocked.name}, which is ${blocked.verdict} here: ${blocked.detail ?? ""}`);
          continue;
        }
        try {
          const a = ns.toLive(await (args[f.name]?.args ?? (async () => ({})))());
          await (f.fn as (a: Obj) => Promise<unknown>)(a);
          record("function", f.name, "passed");
        } catch (e) {
          const c = classify(e);
          record("function", f.name, c.verdict, c.detail);
        }
      }
    } finally {
      disconnect();
    }
  });

  it("a hand edit of every kind is shown by preview --refresh on its field, and up --refresh repairs it", async () => {
    const ids = Object.fromEntries(Object.entries(await stateOf()).map(([n, r]) => [n, r.id]));
    // The engine's creates are the run's own: the guard lets the hand edits address them by id.
    for (const id of Object.values(ids)) svc.ownIds.add(id);
    const expected: Record<string, { op: string; keys: string[] }> = {};
    await each("hand edit", async (k) => {
      const edit = fieldEdits({ name: k.kind, kind: k.kind, inputs: k.scenario.declared }, "production")[0];
      if (!edit) throw new Error(`its scenario declaration has no hand edit (test/kinds/${k.kind})`);
      try {
        await edit.apply(svc, ns.fromLive(ids[k.kind]!));
      } catch (e) {
        if (!(e instanceof EmulatorOnly)) throw e;
        skippedSteps.push(`${k.kind}: hand edit (${e.message})`);
        return;
      }
      // A secret field is named too (`[diff: ~credentials]`), though its values show as `[secret]`.
      expected[k.kind] = { op: "update", keys: [edit.field!] };
    });
    const shown = await refreshShows();
    await each("the hand edit's preview --refresh", async (k) => {
      if (JSON.stringify(shown[k.kind]) !== JSON.stringify(expected[k.kind])) throw new Error(`shows ${JSON.stringify(shown[k.kind])}, expected ${JSON.stringify(expected[k.kind])}`);
    });
    const events: automation.EngineEvent[] = [];
    const errors = await engineErrors(() => ts.stack.up({ refresh: true, continueOnError: true, onEvent: (e) => events.push(e) }), events);
    await each("the repair (up --refresh)", async (k) => { if (errors[k.kind]) throw new Error(errors[k.kind]); });
    const after = await refreshShows();
    await each("a refresh after the repair", async (k) => { if (after[k.kind]) throw new Error(`shows ${JSON.stringify(after[k.kind])}`); });
  });

  it("destroy leaves nothing of any kind: the provider reads each object gone", async () => {
    const state = await stateOf();
    const events: automation.EngineEvent[] = [];
    const errors = await engineErrors(() => ts.stack.destroy({ continueOnError: true, onEvent: (e) => events.push(e) } as automation.DestroyOptions), events);
    await each("destroy", async (k) => { if (errors[k.kind]) throw new Error(errors[k.kind]); });
    await readGone(state, "read after destroy");
  });

  it("each kind's existing object is refused without adopt, taken over with adopt: true, then destroyed", async () => {
    const adopting = new Set<string>();
    await each("adopt seed", async (k) => {
      try {
        await k.adopt.seed(svc);
        adopting.add(k.kind);
      } catch (e) {
        if (!(e instanceof EmulatorOnly)) throw e;
        skippedSteps.push(`${k.kind}: adopt (${e.message})`);
      }
    });
    const others = [...running.values()].filter((k) => !adopting.has(k.kind));
    for (const k of others) running.delete(k.kind);
    run.phase = "without adopt";
    const events: automation.EngineEvent[] = [];
    const errors = await engineErrors(() => ts.stack.up({ continueOnError: true, onEvent: (e) => events.push(e) }), events);
    await each("up without adopt", async (k) => { if (!/adopt: true/i.test(errors[k.kind] ?? "")) throw new Error(`expected a refusal naming adopt: true, got ${errors[k.kind] ?? "no error"}`); });
    run.phase = "with adopt";
    const up = await engineErrors(() => ts.stack.up({ continueOnError: true, onEvent: (e) => events.push(e) }), (events.length = 0, events));
    await each("up with adopt", async (k) => { if (up[k.kind]) throw new Error(up[k.kind]); });
    const shown = await refreshShows();
    await each("a refresh after the adoption", async (k) => { if (shown[k.kind]) throw new Error(`shows ${JSON.stringify(shown[k.kind])}`); });
    const state = await stateOf();
    await ts.stack.destroy({ continueOnError: true } as automation.DestroyOptions).catch(() => undefined);
    await readGone(state, "read after the adopted objects' destroy");
    for (const k of running.values()) record("kind", k.kind, "passed");
    // Kinds whose adopt step needed the emulator ran every other step.
    for (const k of others) record("kind", k.kind, "passed", "its adopt step needs the emulator (skipped)");
    run.phase = "scenario";
  });
});

it("nothing the run could run failed", () => {
  const failed = report.results.filter((r) => r.verdict === "failed").map((r) => `${r.area} ${r.name}: ${r.detail}`);
  expect(failed).toEqual([]);
});
