/**
 * Adoption that writes nothing: each resource's implementation module (as the engine's plugin
 * loads it), given `adopt: true` and an object the service already holds, against an emulator in
 * this process. An object as declared is taken over with reads alone (the exact requests are
 * asserted); a differing one gets exactly the writes of what differs; the state answered then
 * diffs empty against the declared inputs, and so does a read of it.
 *
 * Production hides an integration's credentials from API-key callers and shows a secret
 * variable's values masked (spec/production-notes.md): such a declared value cannot be compared,
 * so adopting writes it, once; the values it does return (subscriber webhook URLs, plain
 * variable values, integration configurations) are compared like any other field.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../helpers/emulator";
import { loadPackage } from "../../helpers/pulumi";

type Obj = Record<string, unknown>;
interface Provider {
  check(olds: Obj, news: Obj): Promise<{ inputs: Obj; failures: unknown[] }>;
  diff(id: string, olds: Obj, news: Obj): Promise<{ changes: boolean; changed: string[] }>;
  create(inputs: Obj): Promise<{ id: string; outs: Obj }>;
  read(id: string, props: Obj): Promise<{ id: string; props: Obj; inputs?: Obj }>;
  update(id: string, olds: Obj, news: Obj): Promise<{ outs: Obj }>;
}
const impl = (module: string) => loadPackage<{ provider: Provider }>(`/dist/provider/resources/${module}`).provider;

const HOOK = "https://hooks.slack.example/services/T000/B000/adopted";
const HTML = "<html><body>{{ content }}</body></html>";
const STEPS = [
  { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } },
  { name: "Wait", type: "delay", stepId: "pause", controlValues: { type: "regular", amount: 1, unit: "hours" } },
  { name: "Email", type: "email", controlValues: { subject: "Welcome", body: "<p>Hi</p>", editorType: "html" } },
];

/**
 * One resource's adoption: what the service holds (made through the API, as the dashboard or
 * another tool would), the declared inputs equal to it, the requests an adoption of it sends, and
 * a declaration that differs with the writes it needs.
 */
interface Case {
  module: string;
  /** Makes the object on the service. */
  seed(emu: TestEmulator): Promise<void>;
  /** The declared inputs (without adopt) equal to what the service holds. */
  equal: Obj;
  /** The requests (method and route) the adoption of the equal object sends: reads only. */
  reads: string[];
  /** A declaration that differs from the seeded object, and the writes (method and route) it needs, in order. */
  differing: Obj;
  writes: string[];
}

const ok = async (p: Promise<{ status: number; body: any }>) => {
  const r = await p;
  if (r.status >= 300) throw new Error(`seed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

const CASES: Record<string, Case> = {
  Integration: {
    module: "integration",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/integrations", {
        identifier: "sg-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, check: false,
        conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "plan", value: "pro", operator: "EQUAL", on: "subscriber" }] }],
      }));
    },
    equal: {
      identifier: "sg-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true,
      conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "plan", value: "pro", operator: "EQUAL", on: "subscriber" }] }],
    },
    // The API key's environment (the listing spans the organisation), then the listing.
    reads: ["GET /v1/environments", "GET /v1/integrations"],
    differing: { identifier: "sg-main", name: "SendGrid (main)", providerId: "sendgrid", channel: "email", active: true },
    writes: ["PUT /v1/integrations/{integrationId}"],
  },
  Workflow: {
    module: "workflow",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/workflows", { workflowId: "welcome", name: "Welcome", tags: ["onboarding"], steps: STEPS }));
    },
    equal: { workflowId: "welcome", name: "Welcome", tags: ["onboarding"], steps: STEPS },
    reads: ["GET /v2/workflows/{workflowId}"],
    differing: { workflowId: "welcome", name: "Welcome", tags: ["onboarding"], steps: [STEPS[0], { ...STEPS[2], controlValues: { ...STEPS[2]!.controlValues, subject: "Hello" } }] },
    writes: ["PUT /v2/workflows/{workflowId}"],
  },
  SubscriberCredentials: {
    module: "subscriberCredentials",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true, check: false }));
      await ok(emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: HOOK } }));
    },
    equal: { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: HOOK } },
    // The subscriber, then the integration the entry names (production's entry carries its _id only).
    reads: ["GET /v2/subscribers/{subscriberId}", "GET /v1/integrations"],
    differing: { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: `${HOOK}-rotated` } },
    writes: ["PUT /v1/subscribers/{subscriberId}/credentials"],
  },
  Environment: {
    module: "environment",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/environments", { name: "Staging", color: "#3498db" }));
    },
    equal: { name: "Staging", color: "#3498db" },
    reads: ["GET /v1/environments"],
    differing: { name: "Staging", color: "#222222" },
    writes: ["PUT /v1/environments/{environmentId}"],
  },
  EnvironmentVariable: {
    module: "environmentVariable",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/environment-variables", { key: "BASE_URL", type: "string", isSecret: false, values: [{ _environmentId: "env_env0", value: "https://a.example" }] }));
    },
    equal: { key: "BASE_URL", type: "string", isSecret: false, values: { env_env0: "https://a.example" } },
    reads: ["GET /v1/environment-variables/{variableKey}"],
    differing: { key: "BASE_URL", type: "string", isSecret: false, values: { env_env0: "https://b.example" } },
    writes: ["PATCH /v1/environment-variables/{variableKey}"],
  },
  Layout: {
    module: "layout",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" }));
      await ok(emu.api("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } }));
    },
    equal: { layoutId: "brand", name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } },
    reads: ["GET /v2/layouts/{layoutId}"],
    differing: { layoutId: "brand", name: "Brand 2", controlValues: { email: { body: HTML, editorType: "html" } } },
    writes: ["PUT /v2/layouts/{layoutId}"],
  },
  Topic: {
    module: "topic",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/topics", { key: "news", name: "News" }));
      await ok(emu.api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["alice", "bob"] }));
    },
    equal: { key: "news", name: "News", subscribers: ["alice", "bob"] },
    reads: ["GET /v2/topics/{topicKey}", "GET /v2/topics/{topicKey}/subscriptions"],
    // Only a subscriber added: one subscribe, no rename, no unsubscribe.
    differing: { key: "news", name: "News", subscribers: ["alice", "bob", "carol"] },
    writes: ["POST /v2/topics/{topicKey}/subscriptions"],
  },
  Context: {
    module: "context",
    seed: async (emu) => void (await ok(emu.api("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { plan: "pro" } }))),
    equal: { type: "tenant", contextId: "acme", data: { plan: "pro" } },
    reads: ["GET /v2/contexts/{type}/{id}"],
    // The service replaces data whole: one PATCH.
    differing: { type: "tenant", contextId: "acme", data: { plan: "enterprise" } },
    writes: ["PATCH /v2/contexts/{type}/{id}"],
  },
  Translation: {
    module: "translation",
    seed: async (emu) => {
      await ok(emu.api("POST", "/v2/workflows", { workflowId: "greet", name: "Greet", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] }));
      await ok(emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "greet", locale: "fr_FR", content: { hi: "Salut" } }));
    },
    equal: { resourceType: "workflow", resourceId: "greet", locale: "fr_FR", content: { hi: "Salut" } },
    reads: ["GET /v2/translations/{resourceType}/{resourceId}/{locale}"],
    differing: { resourceType: "workflow", resourceId: "greet", locale: "fr_FR", content: { hi: "Bonjour" } },
    writes: ["POST /v2/translations"],
  },
  Domain: {
    module: "domain",
    seed: async (emu) => {
      const d = await ok(emu.api("POST", "/v1/domains", { name: "mail.example.com", data: { team: "ops" } }));
      // DNS set as the domain expects, so it is verified and a read needs no verify.
      await ok(emu.api("POST", "/__emulator/dns", { domain: "mail.example.com", mx: d.expectedDnsRecords[0].content }));
      await ok(emu.api("POST", "/v1/domains/mail.example.com/verify"));
      await ok(emu.api("POST", "/v1/domains/mail.example.com/routes", { address: "support", type: "webhook" }));
    },
    equal: { name: "mail.example.com", data: { team: "ops" }, routes: { support: { type: "webhook" } } },
    reads: ["GET /v1/domains/{domain}", "GET /v1/domains/{domain}/routes"],
    // Only a route added: one POST, the data and the other route left alone.
    differing: { name: "mail.example.com", data: { team: "ops" }, routes: { support: { type: "webhook" }, sales: { type: "webhook" } } },
    writes: ["POST /v1/domains/{domain}/routes"],
  },
};

describe.each(["production", "spec"] as const)("adoption that writes nothing (%s mode)", (mode) => {
  let emu: TestEmulator;
  let disconnect = () => {};
  const requests = async () => (await emu.requests()).filter((r) => !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);
  const checked = async (p: Provider, inputs: Obj) => {
    const r = await p.check({}, inputs);
    expect(r.failures).toEqual([]);
    return r.inputs;
  };

  // An emulator per test, so that each test has a new client, as each engine operation's provider
  // process has (a client shares one integration listing between its reads).
  beforeEach(async () => {
    emu = await startTestEmulator({ mode });
    disconnect = emu.connectEnvironment();
    for (const subscriberId of ["alice", "bob", "carol"]) await emu.api("POST", "/v2/subscribers", { subscriberId });
  });
  afterEach(async () => {
    disconnect();
    await emu?.close();
  });

  it("every resource kind has a case", () => {
    const { RESOURCE_TABLES } = loadPackage<{ RESOURCE_TABLES: readonly { name: string; controlKeys: readonly string[] }[] }>("/dist/provider/resources/index");
    expect(Object.keys(CASES).sort()).toEqual(RESOURCE_TABLES.filter((t) => t.controlKeys.includes("adopt")).map((t) => t.name).sort());
  });

  describe.each(Object.entries(CASES))("%s", (_name, c) => {
    const p = impl(c.module);

    it("adopts an object as declared with reads alone, and its state diffs empty, before and after a read", async () => {
      await c.seed(emu);
      await emu.clearRequests();
      const inputs = await checked(p, { ...c.equal, adopt: true });
      const { id, outs } = await p.create(inputs);
      expect(await requests()).toEqual(c.reads);
      expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
      const read = await p.read(id, outs);
      expect((await p.diff(id, read.props, inputs)).changed).toEqual([]);
    });

    it("adopts a differing object with exactly the writes of what differs, then diffs empty", async () => {
      await c.seed(emu);
      await emu.clearRequests();
      const inputs = await checked(p, { ...c.differing, adopt: true });
      const { id, outs } = await p.create(inputs);
      expect((await requests()).filter((r) => !r.startsWith("GET "))).toEqual(c.writes);
      expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
      const read = await p.read(id, outs);
      expect((await p.diff(id, read.props, inputs)).changed).toEqual([]);
    });
  });

  // Values the service does not give back cannot be compared: declared, they are written once.
  it("writes an integration's credentials only where the service hides them", async () => {
    const p = impl("integration");
    await CASES.Integration!.seed(emu);
    await emu.api("PUT", `/v1/integrations/${(await emu.api("GET", "/v1/integrations")).body[0]._id}`, { credentials: { apiKey: "SG.key" }, check: false });
    await emu.clearRequests();
    const inputs = await checked(p, { ...CASES.Integration!.equal, credentials: { apiKey: "SG.key" }, adopt: true });
    const { id, outs } = await p.create(inputs);
    const writes = (await requests()).filter((r) => !r.startsWith("GET "));
    expect(writes).toEqual(mode === "production" ? ["PUT /v1/integrations/{integrationId}"] : []);
    expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
  });

  it("does not take over an integration of another environment with the same identifier: creates its own", async () => {
    const p = impl("integration");
    const production = (await emu.api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Production");
    await ok(emu.api("POST", "/v1/integrations", { identifier: "sg-main", providerId: "sendgrid", channel: "email", active: true, check: false, _environmentId: production._id }));
    await emu.clearRequests();
    const { id, outs } = await p.create(await checked(p, { ...CASES.Integration!.equal, adopt: true }));
    expect((await requests()).filter((r) => !r.startsWith("GET "))).toEqual(["POST /v1/integrations"]);
    expect(outs.environmentId).not.toBe(production._id);
    const all = (await emu.api("GET", "/v1/integrations")).body.filter((i: { identifier: string; deleted: boolean }) => i.identifier === "sg-main" && !i.deleted);
    expect(all.map((i: { _id: string }) => i._id).sort()).toEqual([id, all.find((i: { _environmentId: string }) => i._environmentId === production._id)._id].sort());
  });

  it("writes a secret variable's value, which reads back masked, and only that value", async () => {
    const p = impl("environmentVariable");
    await ok(emu.api("POST", "/v1/environment-variables", { key: "TOKEN", type: "string", isSecret: true, values: [{ _environmentId: "env_env0", value: "s3cret" }] }));
    await emu.clearRequests();
    const inputs = await checked(p, { key: "TOKEN", isSecret: true, values: { env_env0: "s3cret" }, adopt: true });
    const { id, outs } = await p.create(inputs);
    const log = (await emu.requests()).filter((r) => r.method !== "GET");
    expect(log.map((r) => `${r.method} ${r.route}`)).toEqual(["PATCH /v1/environment-variables/{variableKey}"]);
    expect(log[0]!.body).toEqual({ values: [{ _environmentId: "env_env0", value: "s3cret" }] });
    expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
  });

  it("takes over Development with reads alone when its colour is as declared", async () => {
    const p = impl("environment");
    const dev = (await emu.api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Development");
    await emu.clearRequests();
    const inputs = await checked(p, { name: "Development", color: dev.color, adopt: true });
    const { id } = await p.create(inputs);
    expect(id).toBe(dev._id);
    expect(await requests()).toEqual(["GET /v1/environments"]);
  });
});
