/**
 * The state never lies, at the level of the resources' implementation modules against the
 * emulator (the e2e layer runs the same cases through the engine, test/e2e/stateNeverLies.test.ts):
 *
 * - a 404 that is not the service's own not-found of the object (a route the server lacks, a
 *   wrong base path, a page that is not the service's) never reads as "gone" and never deletes;
 * - a create whose first write made the object and whose later step failed (the server stopped
 *   between them) reports the object as created but not initialised, with its id and its state as
 *   the service holds it, and an update from that state finishes it: no orphan, no duplicate;
 * - a server that keeps a taken workflowId as a suffixed second workflow (the real 3.15.0 server,
 *   production-notes.md seventh pass) has that duplicate removed again and the create refused.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY } from "../../../../provider/client/retry";
import { FAST_RETRY } from "../../../helpers/client";
import { checked, emulatorPerBlock, impl, type Obj } from "../../../helpers/implementation";
import { FIRST_WRITES, type MultiRequestModule } from "../../../helpers/stops";

// A stopped server loses every connection; the default policy would retry each for seconds.
beforeAll(() => { Object.assign(DEFAULT_RETRY_POLICY, FAST_RETRY, { maxAttempts: 2 }); });

/** Runs `fn` with the connection's address set to `url` (the modules read NOTIFY_API_URL). */
async function at<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.NOTIFY_API_URL;
  process.env.NOTIFY_API_URL = url;
  try {
    return await fn();
  } finally {
    process.env.NOTIFY_API_URL = before;
  }
}

describe("a 404 that is not the object's not-found is not gone", () => {
  const emu = emulatorPerBlock({});
  const subscriber = impl("subscriber");
  const workflow = impl("workflow");
  let made: { id: string; outs: Obj };
  let dashboard: Server;
  let dashboardUrl: string;

  beforeAll(async () => {
    // A dashboard (or a gateway's catch-all) answers every path with its HTML page and 200.
    dashboard = createServer((_req, res) => { res.writeHead(200, { "content-type": "text/html" }); res.end("<!doctype html><html><body><div id=root></div></body></html>"); });
    await new Promise<void>((r) => dashboard.listen(0, "127.0.0.1", r));
    dashboardUrl = `http://127.0.0.1:${(dashboard.address() as AddressInfo).port}`;
  });
  afterAll(async () => { await new Promise((r) => dashboard.close(r)); });

  const make = async () => { made = await subscriber.create(await checked(subscriber, { subscriberId: "bob", firstName: "Bob" })); };

  // The service's own not-found of a subscriber (get-subscriber.usecase.ts: `Subscriber: <id> was not found`) is gone.
  it("reads a subscriber the service says it does not have as gone, and deletes it as done", async () => {
    await make();
    await emu().api("DELETE", "/v2/subscribers/bob");
    expect((await subscriber.read(made.id, made.outs)).id).toBe("");
    await subscriber.delete(made.id, made.outs);
  });

  // An apiUrl that misses the gateway's path prefix: NestJS answers `Cannot GET /api/v2/subscribers/bob`.
  it("fails a read and a delete at an address without the API's routes, naming the address, the server's version and what apiUrl should be", async () => {
    await make();
    for (const op of [() => subscriber.read(made.id, made.outs), () => subscriber.delete(made.id, made.outs)]) {
      await expect(at(`${emu().url}/api`, op)).rejects.toThrow(
        new RegExp(`404 Not Found: Cannot (GET|DELETE) /api/v2/subscribers/bob\\. (GET|DELETE) ${emu().url.replace(/[.]/g, "\\.")}/api/v2/subscribers/bob is not a route of the service's API.*notify:apiUrl`),
      );
    }
    expect((await emu().api("GET", "/v2/subscribers/bob")).status).toBe(200);
  });

  // An older server (2.0.0 answered `Cannot POST /v2/subscribers` for every v2 subscriber route).
  it("fails on a server without the kind's routes, naming its version, rather than reading the object as gone", async () => {
    await make();
    await emu().api("POST", "/__emulator/behaviour", { version: "2.0.0", routeGates: [{ prefix: "/v2/subscribers", as: "absent" }] });
    try {
      await expect(subscriber.read(made.id, made.outs)).rejects.toThrow(/Cannot GET \/v2\/subscribers\/bob\. The server at \S+ \(version 2\.0\.0\) has no route GET \/v2\/subscribers\/\{subscriberId\}: these routes came after version 2\.0\.0 of the service \(2\.0\.0 lacks them, 3\.15\.0 has them\)/);
      await expect(subscriber.delete(made.id, made.outs)).rejects.toThrow(/version 2\.0\.0\) has no route DELETE/);
    } finally {
      await emu().api("POST", "/__emulator/behaviour", { version: "3.15.0", routeGates: [] });
    }
  });

  it("fails at a dashboard's address, which answers an HTML page for every path, naming what apiUrl should be", async () => {
    await make();
    await expect(at(dashboardUrl, () => workflow.read("welcome", { workflowId: "welcome" }))).rejects.toThrow(/not JSON \(text\/html\).*GET http:\/\/127\.0\.0\.1:\d+\/v2\/workflows\/welcome is not the service's API: notify:apiUrl/);
    await expect(at(dashboardUrl, () => subscriber.read(made.id, made.outs))).rejects.toThrow(/is not the service's API/);
  });

  // A feature flag's 404 (channel-connections.controller.ts: NotFoundException("Feature not enabled")).
  it("tells a feature the server keeps off from an object that is gone", async () => {
    await emu().api("POST", "/__emulator/behaviour", { routeGates: [{ prefix: "/v1/channel-connections", as: "feature-off" }] });
    try {
      const connection = impl("channelConnection");
      await expect(connection.read("acme-slack", { identifier: "acme-slack" })).rejects.toThrow(/404 Not Found: Feature not enabled\. The server has GET \/v1\/channel-connections\/\{identifier\} but keeps the feature off/);
    } finally {
      await emu().api("POST", "/__emulator/behaviour", { routeGates: [] });
    }
  });

  // community.user.auth.guard.ts: UnauthorizedException("API endpoint not available") to an API key;
  // the real 3.15.0 server answered its agents routes "API endpoint not accessible". (The version is
  // read once per connection: the one an earlier test of this block claimed.)
  it("tells a route that takes no API key from a refused key, naming the server's version", async () => {
    await emu().api("POST", "/__emulator/behaviour", { routeGates: [{ prefix: "/v1/agents", as: "session-only" }] });
    try {
      const agent = impl("agent");
      const err = await agent.create(await checked(agent, { identifier: "bot", name: "Bot" })).catch((e: Error) => e);
      expect(String(err)).toMatch(/401 Unauthorized: API endpoint not accessible\. The server \(version [\d.]+\) takes no API key on POST \/v1\/agents, only a dashboard session: the key is not the problem/);
      expect(String(err)).not.toMatch(/check that it is the key of this environment/);
    } finally {
      await emu().api("POST", "/__emulator/behaviour", { routeGates: [] });
    }
  });
});

/** What each multi-request create sends after its first write, and the inputs that make it send it. */
interface StopCase {
  /** The module, whose first write (FIRST_WRITES) the server stops after. */
  module: MultiRequestModule;
  inputs: Obj;
  seed?: (emu: ReturnType<ReturnType<typeof emulatorPerBlock>>) => Promise<void>;
  /** The objects of the kind the service holds, for the "exactly one, as declared" check. */
  held: (emu: ReturnType<ReturnType<typeof emulatorPerBlock>>) => Promise<Obj[]>;
  /** What the finished object must hold. */
  finished: Obj;
}

const STOP_CASES: StopCase[] = [
  {
    module: "integration",
    // The environment's first active email integration is made primary by its create; a second one needs set-primary.
    seed: async (emu) => { await emu.api("POST", "/v1/integrations", { identifier: "postmark", providerId: "postmark", channel: "email", active: true, check: false }); },
    inputs: { identifier: "sendgrid-main", providerId: "sendgrid", channel: "email", credentials: { apiKey: "SG.secret-value" }, active: true, primary: true },
    held: async (emu) => ((await emu.api("GET", "/v1/integrations")).body as Obj[]).filter((i) => i.identifier === "sendgrid-main" && !i.deleted),
    finished: { identifier: "sendgrid-main", primary: true },
  },
  {
    module: "layout",
    inputs: { layoutId: "brand", name: "Brand", controlValues: { email: { editorType: "html", body: "<html><head></head><body><p>Acme</p>{{ content }}</body></html>" } } },
    held: async (emu) => ((await emu.api("GET", "/v2/layouts?limit=100")).body.layouts as Obj[]).filter((l) => l.layoutId === "brand"),
    finished: { layoutId: "brand" },
  },
  {
    module: "topic",
    seed: async (emu) => { await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" }); },
    inputs: { key: "news", name: "News", subscribers: ["alice"] },
    held: async (emu) => ((await emu.api("GET", "/v2/topics?limit=100")).body.data as Obj[]).filter((t) => t.key === "news"),
    finished: { key: "news" },
  },
  {
    module: "agent",
    seed: async (emu) => { await emu.api("POST", "/v1/integrations", { identifier: "slack-support", providerId: "slack", channel: "chat", active: true, check: false }); },
    inputs: { identifier: "bot", name: "Bot", integrations: ["slack-support"] },
    held: async (emu) => ((await emu.api("GET", "/v1/agents?limit=100")).body.data as Obj[]).filter((a) => String(a.identifier).startsWith("bot")),
    finished: { identifier: "bot" },
  },
  {
    module: "environment",
    inputs: { name: "Staging", color: "#3498db", parentId: "env_env0" },
    held: async (emu) => ((await emu.api("GET", "/v1/environments")).body as Obj[]).filter((e) => e.name === "Staging"),
    finished: { name: "Staging", _parentId: "env_env0" },
  },
  {
    module: "domain",
    inputs: { name: "mail.example.com", routes: { support: { type: "webhook" } } },
    // The domain, with the addresses of its routes.
    held: async (emu) => Promise.all(((await emu.api("GET", "/v1/domains")).body.data as Obj[]).filter((d) => d.name === "mail.example.com")
      .map(async (d) => ({ ...d, routes: ((await emu.api("GET", "/v1/domains/mail.example.com/routes")).body.data as Obj[]).map((r) => r.address) }))),
    finished: { name: "mail.example.com", routes: ["support"] },
  },
];

describe("a create whose later step fails keeps what it made", () => {
  const emu = emulatorPerBlock({});

  it("stops every module of FIRST_WRITES", () => {
    expect(STOP_CASES.map((c) => c.module).sort()).toEqual(Object.keys(FIRST_WRITES).sort());
  });

  it.each(STOP_CASES.map((c) => [c.module, c] as const))("%s: the server stopped after the first write; the object is reported with its id and state, and an update from that state finishes it", async (module, c) => {
    const p = impl(module);
    await c.seed?.(emu());
    const inputs = await checked(p, c.inputs);
    await emu().api("POST", "/__emulator/faults", { stopAfter: FIRST_WRITES[module] });
    const failed = await p.create(inputs).then(() => undefined, (e: { id?: string; properties?: Obj; reasons?: string[]; message: string }) => e);
    await emu().api("POST", "/__emulator/faults", {});
    expect(failed?.message).toMatch(/was created and is kept in the stack; the next pulumi up finishes it/);
    expect(failed?.reasons?.[1]).toMatch(/^the \S+ .* was created and is kept in the stack/);
    expect(failed?.id).toBeTruthy();
    // Made once, and held where the state says.
    expect(await c.held(emu())).toHaveLength(1);
    // The next up: the engine updates from the recorded state to the declared inputs.
    const diff = await p.diff(failed!.id!, failed!.properties!, inputs);
    expect(diff.changes).toBe(true);
    await p.update(failed!.id!, failed!.properties!, inputs);
    const held = await c.held(emu());
    expect(held).toEqual([expect.objectContaining(c.finished)]);
  });
});

describe("a server that keeps a taken workflowId as a suffixed duplicate (3.15.0)", () => {
  const emu = emulatorPerBlock({ suffixDuplicateWorkflows: true });
  const workflow = impl("workflow");
  const inputs = { workflowId: "welcome", name: "From the stack", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] };
  const workflows = async () => ((await emu().api("GET", "/v2/workflows?limit=100")).body.workflows as Obj[]).map((w) => [w.workflowId, w.name]);

  // The seventh pass: POST /v2/workflows of an existing workflowId answered 201 with `<id>-wf-df1t`;
  // create-workflow.usecase.ts tries the id, then the id with a short suffix.
  it("deletes the duplicate again and refuses the create naming adopt: true", async () => {
    await emu().api("POST", "/v2/workflows", { workflowId: "welcome", name: "By hand", steps: [] });
    await expect(workflow.create(await checked(workflow, inputs))).rejects.toThrow(/Unable to create workflow "welcome": 409 .*stored this one as "welcome-wf-\w+", which was deleted again.*set adopt: true/);
    expect(await workflows()).toEqual([["welcome", "By hand"]]);
  });

  it("with adopt: true takes the existing one over and makes no duplicate", async () => {
    await emu().api("POST", "/v2/workflows", { workflowId: "welcome", name: "By hand", steps: [] });
    const made = await workflow.create(await checked(workflow, { ...inputs, adopt: true }));
    expect((made.outs as Obj).workflowId).toBe("welcome");
    expect(await workflows()).toEqual([["welcome", "From the stack"]]);
  });
});

/**
 * A create whose answer is lost (the work done, a 502 in place of the answer) on a server that
 * ignores `Idempotency-Key` (a self-hosted one with IS_API_IDEMPOTENCY_ENABLED=false: production-notes.md,
 * sixth pass; the real 3.15.0 server then took 8 identical POSTs as 8 objects) and keeps a taken
 * workflowId as a suffixed duplicate (3.15.0): a blind retry would make a second workflow.
 */
describe("a create whose answer is lost on a server without idempotency", () => {
  const emu = emulatorPerBlock({ idempotency: false, suffixDuplicateWorkflows: true });
  const workflow = impl("workflow");
  const inputs = { workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] };

  it("looks the workflow up by its workflowId before sending the create again, and takes over the one its lost create made", async () => {
    await emu().api("POST", "/__emulator/faults", { loseAnswer: { method: "POST", route: "/v2/workflows" } });
    const made = await workflow.create(await checked(workflow, inputs));
    await emu().api("POST", "/__emulator/faults", {});
    const all = ((await emu().api("GET", "/v2/workflows?limit=100")).body.workflows as Obj[]).map((w) => w.workflowId);
    expect(all).toEqual(["welcome"]);
    expect((made.outs as Obj).workflowId).toBe("welcome");
    const posts = (await emu().requests()).filter((r) => r.method === "POST" && r.route === "/v2/workflows");
    expect(posts.map((r) => r.status)).toEqual([502]);
  });

  it("never sends a create right after one whose answer was lost: a look-up comes first, and a create again only when it finds nothing", async () => {
    // Every request fails with a 5xx, before or after its work (the seeded rolls give both).
    await emu().api("POST", "/__emulator/faults", { errorRate: 1, seed: 5 });
    await workflow.create(await checked(workflow, inputs)).catch(() => undefined);
    await emu().api("POST", "/__emulator/faults", {});
    const log = (await emu().requests()).filter((r) => r.route === "/v2/workflows" || r.route === "/v2/workflows/{workflowId}").map((r) => `${r.method} ${r.status}`);
    expect(log.filter((l) => l.startsWith("POST")).length, log.join("\n")).toBeGreaterThan(0);
    for (let i = 0; i < log.length - 1; i++) if (/^POST 5/.test(log[i]!)) expect(log[i + 1], log.join("\n")).toMatch(/^GET/);
    const all = ((await emu().api("GET", "/v2/workflows?limit=100")).body.workflows as Obj[]).map((w) => w.workflowId);
    expect(all.filter((id) => id !== "welcome")).toEqual([]);
  });
});

/**
 * Credentials as each version of the service answers them to an API key: the current one `{}` in
 * lists and none in write answers (GHSA-rgr9-mpmj-mpw8, May 2026); servers from October 2025 to then
 * in clear; the 2.0 server each secret field encrypted (`nvsk.` and hex, new on every write) in write
 * answers and in clear in lists. An encrypted or hidden value never stands for the declared one.
 */
describe.each([
  ["the current service (hidden)", { hideCredentials: true }],
  ["a server of late 2025 (in clear)", { hideCredentials: false }],
  ["the 2.0 server (encrypted in write answers)", { hideCredentials: false, encryptCredentialAnswers: true }],
] as const)("integration credentials on %s", (_name, behaviour) => {
  const emu = emulatorPerBlock(behaviour);
  const integration = impl("integration");
  const inputs = { identifier: "sendgrid", providerId: "sendgrid", channel: "email", active: true, credentials: { apiKey: "SG.declared", from: "no-reply@example.com" } };

  it("keeps the declared credentials in the state, shows no change against them, and sends nothing on the next up", async () => {
    const checkedInputs = await checked(integration, inputs);
    const made = await integration.create(checkedInputs);
    expect((made.outs as Obj).credentials).toEqual(inputs.credentials);
    expect((await integration.diff(made.id, made.outs, checkedInputs)).changes).toBe(false);
    const read = await integration.read(made.id, made.outs);
    expect((read.props as Obj).credentials).toEqual(inputs.credentials);
    expect((await integration.diff(made.id, read.props, checkedInputs)).changes).toBe(false);
    // An update of another field answers credentials as the server does, and the state keeps the declared ones.
    const renamed = await checked(integration, { ...inputs, name: "Renamed" });
    const updated = await integration.update(made.id, read.props, renamed);
    expect((updated.outs as Obj).credentials).toEqual(inputs.credentials);
    expect((await integration.diff(made.id, updated.outs, renamed)).changes).toBe(false);
  });

  it("shows a key changed by hand as drift where the server answers it in clear", async () => {
    const made = await integration.create(await checked(integration, inputs));
    await emu().api("PUT", `/v1/integrations/${made.id}`, { credentials: { apiKey: "SG.by-hand", from: "no-reply@example.com" }, check: false });
    const read = await integration.read(made.id, made.outs);
    const drift = await integration.diff(made.id, read.props, await checked(integration, inputs));
    expect(drift.changed).toEqual(behaviour.hideCredentials ? [] : ["credentials"]);
  });
});
