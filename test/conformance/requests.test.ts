/**
 * Every request the provider sends conforms to the service's contract: the request schemas of
 * spec/openapi.json (the service's published document, which nobody here wrote), never our own
 * zod schemas. The provider runs through every operation it uses, with the implementation modules
 * the engine's plugins call (each resource's check, create, read, update, adopt and delete; every
 * function; the client's subscriber and trigger calls the demo uses); the emulator records each
 * request's body and query, and each is validated against its operation's schema. The operations
 * exercised must cover every route the client can call, so a new client call without a case here
 * fails the test.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateRequest } from "../../emulator/contract";
import { mixCounts, prepareMix } from "../../bench/programs";
import * as notify from "../../provider";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { ROOT } from "../helpers/pulumi";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { impl } from "../helpers/implementation";
import type { Obj as KindObj } from "../kinds/descriptor";
import { floorOf } from "../kinds/floor";
import { KINDS } from "../kinds/index";

type Obj = Record<string, unknown>;
interface ResourceModule {
  provider: {
    check(olds: Obj, news: Obj): Promise<{ inputs: Obj; failures: unknown[] }>;
    diff(id: string, olds: Obj, news: Obj): Promise<{ changed: string[] }>;
    create(inputs: Obj): Promise<{ id: string; outs: Obj }>;
    read(id: string, props: Obj): Promise<{ id: string; props: Obj }>;
    update(id: string, olds: Obj, news: Obj): Promise<{ outs: Obj }>;
    delete(id: string, props: Obj): Promise<void>;
  };
}
/** The implementation module `provider/resources/<module>.ts`, from source. */
const moduleOf = (module: string): ResourceModule => ({ provider: impl(module) });

/**
 * Fields production accepts that spec/openapi.json (older than the live document) does not list:
 * email step controls `from`, `replyTo`, `preheader`, `useProviderDefaults` and the chat step's
 * `editorType` (production-notes.md, Second pass, "Requests production accepts").
 */
const NEWER_THAN_DOCUMENT = [
  /^steps\.\d+\.controlValues\.(from|replyTo|preheader|useProviderDefaults|editorType): must NOT have additional properties$/,
];

/** `METHOD /route` of every call in provider/client: what the provider can send. */
function clientOperations(): string[] {
  const dir = path.join(ROOT, "provider/client");
  const ops = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".ts"))) {
    for (const m of readFileSync(path.join(dir, f), "utf8").matchAll(/method: "([A-Z]+)", route: "([^"]+)"/g)) ops.add(`${m[1]} ${m[2]}`);
  }
  return [...ops].sort();
}

describe.each(["production", "spec"] as const)("the provider's requests conform to openapi.json (%s mode)", (mode) => {
  let emu: TestEmulator;
  let disconnect = () => {};

  beforeAll(async () => {
    emu = await startTestEmulator({ mode });
    disconnect = emu.connectEnvironment();
  });
  afterAll(async () => {
    disconnect();
    await emu?.close();
  });

  /** check (no failure allowed), then create; returns the id and outputs. */
  async function created(mod: ResourceModule, inputs: Obj) {
    const { inputs: checked, failures } = await mod.provider.check({}, inputs);
    expect(failures).toEqual([]);
    return { inputs: checked, ...(await mod.provider.create(checked)) };
  }

  it("sends only bodies and queries its operation's request schema accepts, over every operation the client has", async () => {
    const integration = moduleOf("integration");
    const workflow = moduleOf("workflow");
    const credentials = moduleOf("subscriberCredentials");
    const layout = moduleOf("layout");
    const topic = moduleOf("topic");
    const client = new notify.NotifyClient({ apiUrl: emu.url, apiKey: emu.key });

    // Subscribers and a trigger, as the demo makes them (create, patch, trigger with context).
    await client.subscribers.create({ subscriberId: "alice", email: "alice@example.com" });
    await client.subscribers.update("alice", { firstName: "Alice", data: { plan: "pro" } });

    // Integrations: create with set-primary, read, update, adopt, delete.
    const sendgrid = await created(integration, {
      identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, primary: true,
      credentials: { apiKey: "SG.key", from: "no-reply@example.com" },
      conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "plan", value: "pro", operator: "EQUAL", on: "subscriber" }] }],
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: "whsec" },
    });
    await integration.provider.read(sendgrid.id, sendgrid.outs);
    await integration.provider.update(sendgrid.id, sendgrid.outs, { ...sendgrid.inputs, name: "SendGrid (main)", credentials: { apiKey: "SG.rotated" } });
    const slack = await created(integration, { identifier: "slack-main", providerId: "slack", channel: "chat", active: true });
    await client.integrations.create({ identifier: "twilio-existing", providerId: "twilio", channel: "sms", active: false, check: false });
    const adopted = await created(integration, { identifier: "twilio-existing", providerId: "twilio", channel: "sms", active: true, adopt: true });

    // Workflows: every step kind, the newer email and chat controls, then read, update, adopt.
    const steps = [
      { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}", primaryAction: { label: "Open", redirect: { url: "/inbox" } } } },
      { name: "Wait", type: "delay", stepId: "pause", controlValues: { type: "regular", amount: 1, unit: "hours" } },
      { name: "Digest", type: "digest", controlValues: { amount: 5, unit: "minutes", digestKey: "payload.thread" } },
      { name: "Throttle", type: "throttle", controlValues: { type: "fixed", amount: 1, unit: "hours", threshold: 3 } },
      {
        name: "Email", type: "email", controlValues: {
          subject: "Welcome", body: "<p>Hi</p>", editorType: "html", from: { email: "team@example.com", name: "Team" },
          replyTo: "help@example.com", preheader: "Hello", useProviderDefaults: false,
        },
      },
      { name: "Chat", type: "chat", controlValues: { body: "Hi", editorType: "text" } },
      { name: "SMS", type: "sms", controlValues: { body: "Hi" } },
      { name: "Push", type: "push", controlValues: { subject: "Hi", body: "There" } },
      {
        name: "Webhook", type: "http_request", controlValues: {
          method: "POST", url: "https://hooks.example.com/notify", headers: [{ key: "x-source", value: "notify" }],
          body: [{ key: "user", value: "{{subscriber.subscriberId}}" }], continueOnFailure: true,
        },
      },
      { name: "Custom", type: "custom", controlValues: {} },
    ];
    const welcome = await created(workflow, {
      workflowId: "welcome", name: "Welcome", description: "d", tags: ["onboarding"], active: true, validatePayload: false,
      payloadSchema: { type: "object" }, isTranslationEnabled: false, severity: "high",
      preferences: { workflow: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: true } } } }, steps,
    });
    await workflow.provider.read(welcome.id, welcome.outs);
    await workflow.provider.update(welcome.id, welcome.outs, { ...welcome.inputs, name: "Welcome 2", steps: [...steps].reverse() });
    await workflow.provider.update(welcome.id, welcome.outs, { ...welcome.inputs, description: "patched" });
    await client.workflows.create({ workflowId: "existing", name: "Existing", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "x" } }] });
    // notify-preview's call: a step rendered with planned control values and a payload.
    await client.workflows.preview("existing", "inbox", { controlValues: { body: "{{ payload.n }}" }, previewPayload: { payload: { n: 1 } } });
    const adoptedWorkflow = await created(workflow, { workflowId: "existing", name: "Existing", adopt: true, steps: steps.slice(0, 2) });

    // Subscriber credentials: create, read, update, adopt, delete.
    const hook = await created(credentials, {
      subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.example.com/a" },
    });
    await credentials.provider.read(hook.id, hook.outs);
    await credentials.provider.update(hook.id, hook.outs, { ...hook.inputs, credentials: { webhookUrl: "https://hooks.example.com/b" } });
    const readopted = await created(credentials, {
      subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.example.com/c" }, adopt: true,
    });

    // Layouts: create (the default), create with control values, read, update, adopt, and an email
    // step naming one; topics: create with subscribers, read, update (rename, add, remove), adopt.
    const frame = await created(layout, { layoutId: "frame", name: "Frame" });
    const brand = await created(layout, {
      layoutId: "brand", name: "Brand", isTranslationEnabled: false,
      controlValues: { email: { body: "<html><body>{{ content }}</body></html>", editorType: "html" } },
    });
    await layout.provider.read(brand.id, brand.outs);
    await layout.provider.update(brand.id, brand.outs, { ...brand.inputs, name: "Brand 2" });
    await client.layouts.create({ layoutId: "existing-layout", name: "Existing" });
    const adoptedLayout = await created(layout, { layoutId: "existing-layout", name: "Adopted", adopt: true });
    const framed = await created(workflow, {
      workflowId: "framed", name: "Framed", steps: [{ name: "Email", type: "email", controlValues: { subject: "S", body: "B", layoutId: "brand" } }],
    });
    await client.subscribers.create({ subscriberId: "bob" });
    const news = await created(topic, { key: "news:daily", name: "News", subscribers: ["alice"] });
    await topic.provider.read(news.id, news.outs);
    await topic.provider.update(news.id, news.outs, { ...news.inputs, name: "Daily news", subscribers: ["bob"] });
    await client.topics.create({ key: "existing-topic" });
    const adoptedTopic = await created(topic, { key: "existing-topic", name: "Adopted", subscribers: ["alice"], adopt: true });

    await client.events.trigger({ name: "welcome", to: "alice", payload: { v: 1 }, transactionId: "tx-1", context: { tenant: "acme", region: { id: "eu" } } });

    // Every function, with every filter it sends.
    const events = await notify.getEvents({
      channels: ["email", "in_app"], templates: [welcome.id], emails: ["alice@example.com"], subscriberIds: ["alice"], severity: ["high"],
      transactionId: "tx-1", contextKeys: ["tenant:acme", "region:eu"], after: new Date(Date.now() - 3_600_000).toISOString(), limit: 10, maxResults: 20,
    });
    await notify.getEvent({ notificationId: events.events[0]!._id! });
    await notify.getMessages({ channel: "email", subscriberId: "alice", transactionIds: ["tx-1"], contextKeys: ["tenant:acme", "region:eu"], limit: 10 });
    await notify.getSubscriber({ subscriberId: "alice" });
    await notify.getSubscribers({ email: "alice@example.com", orderBy: "createdAt", orderDirection: "ASC", limit: 10, maxResults: 10 });
    await notify.getIntegrations({ channel: "email", activeOnly: true });
    await notify.getWorkflows({ query: "wel", tags: ["onboarding"], status: ["ACTIVE"], orderBy: "name", orderDirection: "ASC" });
    await notify.getLayouts({ query: "b", orderBy: "name", orderDirection: "ASC", maxResults: 10 });
    await notify.getTopics({ key: "news", name: "Daily", orderDirection: "ASC", maxResults: 10 });

    // Environments and environment variables: create (with parentId), read, update, adopt, delete; getEnvironments.
    const environment = moduleOf("environment");
    const variable = moduleOf("environmentVariable");
    const staging = await created(environment, { name: "Staging", color: "#3498db", parentId: "env_env0" });
    await environment.provider.read(staging.id, staging.outs);
    await environment.provider.update(staging.id, staging.outs, { ...staging.inputs, name: "Stage", color: "#000000" });
    await client.environments.create({ name: "Existing", color: "#111111" });
    const adoptedEnv = await created(environment, { name: "Existing", color: "#222222", adopt: true });
    const baseUrl = await created(variable, { key: "BASE_URL", type: "string", isSecret: true, values: { env_env0: "https://dev.example.com" } });
    await variable.provider.read(baseUrl.id, baseUrl.outs);
    await variable.provider.update(baseUrl.id, baseUrl.outs, { ...baseUrl.inputs, isSecret: false, values: { env_env0: "https://dev2.example.com" } });
    await client.environmentVariables.create({ key: "EXISTING" });
    const adoptedVar = await created(variable, { key: "EXISTING", values: { env_env0: "x" }, adopt: true });
    await client.environmentVariables.list("base");
    await notify.getEnvironments({ name: "Development" });

    // Contexts, translations and domains: create, read, update, adopt, delete; their functions.
    const context = moduleOf("context");
    const translation = moduleOf("translation");
    const domain = moduleOf("domain");
    const acme = await created(context, { type: "tenant", contextId: "acme", data: { plan: "pro" } });
    await context.provider.read(acme.id, acme.outs);
    await context.provider.update(acme.id, acme.outs, { ...acme.inputs, data: { plan: "enterprise" } });
    await client.contexts.create({ type: "tenant", id: "existing" });
    const adoptedContext = await created(context, { type: "tenant", contextId: "existing", data: {}, adopt: true });
    await notify.getContexts({ contextId: "acme", search: "tenant:", orderDirection: "ASC", maxResults: 10 });
    const fr = await created(translation, { resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Bonjour" } });
    await translation.provider.read(fr.id, fr.outs);
    await translation.provider.update(fr.id, fr.outs, { ...fr.inputs, content: { hello: "Salut" } });
    await notify.getTranslations({ resourceType: "workflow", resourceId: "welcome" });
    const mail = await created(domain, { name: "mail.example.com", data: { owner: "ops" }, routes: { support: { type: "webhook" }, old: { type: "webhook" } } });
    await domain.provider.read(mail.id, mail.outs);
    await domain.provider.update(mail.id, mail.outs, { ...mail.inputs, data: { owner: "dev" }, routes: { support: { type: "webhook", data: { a: "b" } }, fresh: { type: "webhook" } } });
    await client.domains.create({ name: "existing.example.com" });
    const adoptedDomain = await created(domain, { name: "existing.example.com", adopt: true });
    await notify.getDomains({ name: "example", maxResults: 10 });
    // Agents: create with links and settings, read, update (a link removed, settings changed), adopt, delete.
    const agent = moduleOf("agent");
    const bot = await created(agent, { identifier: "support-bot", name: "Support", behavior: { subscriberAccess: "open" }, bridgeUrl: "https://bots.example.com/a", integrations: ["slack-main"] });
    await agent.provider.read(bot.id, bot.outs);
    await agent.provider.update(bot.id, bot.outs, { ...bot.inputs, name: "Support desk", integrations: [] });
    await client.agents.create({ identifier: "existing-bot", name: "Existing" });
    const adoptedAgent = await created(agent, { identifier: "existing-bot", name: "Existing bot", adopt: true });
    await client.agents.list({ identifier: "support-bot" });
    // Subscribers: create (failIfExists), read, update, adopt, delete.
    const subscriber = moduleOf("subscriber");
    const oncall = await created(subscriber, { subscriberId: "ops-oncall", firstName: "On-call", email: "oncall@example.com", locale: "en-US", timezone: "Europe/Paris", data: { team: "ops" } });
    await subscriber.provider.read(oncall.id, oncall.outs);
    await subscriber.provider.update(oncall.id, oncall.outs, { ...oncall.inputs, lastName: "Desk", data: { team: "sre" } });
    await client.subscribers.create({ subscriberId: "existing-subscriber", firstName: "Existing" });
    const adoptedSubscriber = await created(subscriber, { subscriberId: "existing-subscriber", firstName: "Adopted", adopt: true });
    for (const r of [oncall, adoptedSubscriber]) await subscriber.provider.delete(r.id, r.outs);
    // Subscriber preferences, global (channels and schedule) and one workflow's: create, read, update, adopt, delete; their function.
    const preferences = moduleOf("subscriberPreferences");
    const aliceGlobal = await created(preferences, {
      subscriberId: "alice", channels: { sms: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } },
    });
    await preferences.provider.read(aliceGlobal.id, aliceGlobal.outs);
    await preferences.provider.update(aliceGlobal.id, aliceGlobal.outs, { ...aliceGlobal.inputs, channels: { sms: true, push: false } });
    const aliceWelcome = await created(preferences, { subscriberId: "alice", workflowId: "welcome", channels: { chat: false } });
    await preferences.provider.read(aliceWelcome.id, aliceWelcome.outs);
    await preferences.provider.update(aliceWelcome.id, aliceWelcome.outs, { ...aliceWelcome.inputs, channels: { chat: true, in_app: false } });
    await client.subscribers.updatePreferences("bob", { channels: { chat: false } });
    const adoptedPreferences = await created(preferences, { subscriberId: "bob", channels: { chat: false }, adopt: true });
    await notify.getSubscriberPreferences({ subscriberId: "alice", criticality: "all" });
    for (const r of [aliceWelcome, aliceGlobal, adoptedPreferences]) await preferences.provider.delete(r.id, r.outs);
    // Topic subscriptions: create with name, preferences and (context preferences on) context, read, update, adopt, delete.
    const topicSubscription = moduleOf("topicSubscription");
    await client.topics.create({ key: "alerts" });
    await emu.api("POST", "/__emulator/behaviour", { contextPreferences: true });
    const aliceAlerts = await created(topicSubscription, {
      topic: "alerts", subscriber: "alice", identifier: "alice-alerts", name: "Alice", contextKeys: ["tenant:acme"],
      preferences: [{ workflowId: "welcome", condition: { "==": [{ var: "payload.tier" }, "premium"] } }],
    });
    await emu.api("POST", "/__emulator/behaviour", { contextPreferences: false });
    await topicSubscription.provider.read(aliceAlerts.id, aliceAlerts.outs);
    await topicSubscription.provider.update(aliceAlerts.id, aliceAlerts.outs, { ...aliceAlerts.inputs, name: "Alice on call", preferences: [{ workflowId: "welcome", enabled: false }] });
    await client.topicSubscriptions.create("alerts", { subscriptions: [{ subscriberId: "bob", identifier: "bob-alerts" }] });
    const adoptedSubscription = await created(topicSubscription, { topic: "alerts", subscriber: "bob", identifier: "bob-alerts", name: "Bob", adopt: true });
    await notify.getTopicSubscriptions({ topicKey: "alerts", subscriberId: "alice", maxResults: 10 });
    for (const r of [aliceAlerts, adoptedSubscription]) await topicSubscription.provider.delete(r.id, r.outs);
    for (const [mod, r] of [[translation, fr], [context, acme], [context, adoptedContext], [domain, mail], [domain, adoptedDomain], [agent, bot], [agent, adoptedAgent]] as const) {
      await mod.provider.delete(r.id, r.outs);
    }
    // Channel connections: create (subscriber and shared), read, update (workspace and token), adopt, list, delete.
    const channelConnection = moduleOf("channelConnection");
    const aliceSlack = await created(channelConnection, { identifier: "alice-slack", integrationIdentifier: "slack-main", subscriberId: "alice", workspace: { id: "T1" }, auth: { accessToken: "xoxb-1" } });
    const acmeSlack = await created(channelConnection, {
      identifier: "acme-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { tenant: "acme" }, workspace: { id: "T2", name: "Acme" }, auth: { accessToken: "xoxb-2" },
    });
    await channelConnection.provider.read(aliceSlack.id, aliceSlack.outs);
    await channelConnection.provider.update(acmeSlack.id, acmeSlack.outs, { ...acmeSlack.inputs, auth: { accessToken: "xoxb-2b" } });
    await client.channelConnections.create({ identifier: "existing-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { team: "ops" }, workspace: { id: "T3" }, auth: { accessToken: "xoxb-3" } });
    const adoptedConnection = await created(channelConnection, {
      identifier: "existing-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { team: "ops" }, workspace: { id: "T3" }, auth: { accessToken: "xoxb-3" }, adopt: true,
    });
    await client.channelConnections.list({ subscriberId: "alice", integrationIdentifier: "slack-main", channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"] });
    // Channel endpoints: create (with a connection and contexts, and without), read, update, adopt, list, delete. Updated are
    // types the document's PATCH body lists (it leaves out ms_teams_*, telegram_chat and line_user, which production takes).
    const channelEndpoint = moduleOf("channelEndpoint");
    const alerts = await created(channelEndpoint, {
      identifier: "alice-alerts", subscriberId: "alice", integrationIdentifier: "slack-main", connectionIdentifier: "acme-slack", context: { tenant: "acme" },
      type: "slack_channel", endpoint: { channelId: "C1" },
    });
    const aliceHook = await created(channelEndpoint, { identifier: "alice-hook", subscriberId: "alice", integrationIdentifier: "slack-main", type: "webhook", endpoint: { url: "https://h.example.com/a", channel: "ops" } });
    await channelEndpoint.provider.read(alerts.id, alerts.outs);
    await channelEndpoint.provider.update(aliceHook.id, aliceHook.outs, { ...aliceHook.inputs, endpoint: { url: "https://h.example.com/b" } });
    await client.channelEndpoints.create({ identifier: "existing-teams", subscriberId: "alice", integrationIdentifier: "slack-main", type: "ms_teams_user", endpoint: { userId: "29:1" } });
    const adoptedEndpoint = await created(channelEndpoint, {
      identifier: "existing-teams", subscriberId: "alice", integrationIdentifier: "slack-main", type: "ms_teams_user", endpoint: { userId: "29:1" }, adopt: true,
    });
    await client.channelEndpoints.list({ subscriberId: "alice", integrationIdentifier: "slack-main", connectionIdentifier: "acme-slack", channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"] });
    await notify.getChannelConnections({ subscriberId: "alice", integrationIdentifier: "slack-main", channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"], maxResults: 10 });
    await notify.getChannelEndpoints({ subscriberId: "alice", connectionIdentifier: "acme-slack", contextKeys: ["tenant:acme"], maxResults: 10 });
    for (const r of [alerts, aliceHook, adoptedEndpoint]) await channelEndpoint.provider.delete(r.id, r.outs);
    for (const r of [aliceSlack, acmeSlack, adoptedConnection]) await channelConnection.provider.delete(r.id, r.outs);
    for (const [mod, r] of [[variable, baseUrl], [variable, adoptedVar], [environment, staging], [environment, adoptedEnv]] as const) {
      await mod.provider.delete(r.id, r.outs);
    }

    // Deletes, the credentials first (they need their integration).
    await credentials.provider.delete(readopted.id, readopted.outs);
    for (const [mod, r] of [
      [workflow, welcome], [workflow, adoptedWorkflow], [workflow, framed], [integration, sendgrid], [integration, slack], [integration, adopted],
      [layout, brand], [layout, adoptedLayout], [layout, frame], [topic, news], [topic, adoptedTopic],
    ] as const) {
      await mod.provider.delete(r.id, r.outs);
    }

    const log = await emu.requests();
    // Read closed: a field the document does not list is a mismatch too (the service would
    // ignore it, so sending it means the provider believes in a field production does not have),
    // except those production accepts beyond this document (NEWER_THAN_DOCUMENT).
    const mismatches = log.flatMap((r) => {
      expect(r.route, `${r.method} ${r.path} matched no operation`).toBeDefined();
      expect(r.bodyOmitted, `${r.method} ${r.path}`).toBeUndefined();
      return validateRequest(r.method, r.route!, { body: r.body, query: r.query }, "request-closed")
        .filter((m) => !NEWER_THAN_DOCUMENT.some((re) => re.test(m)))
        .map((m) => `${r.method} ${r.route}: ${m}`);
    });
    expect(mismatches).toEqual([]);
    // Every request succeeded but the delete of the environment's default layout, which the
    // service never deletes: a refused request would leave its operation's later calls unsent.
    // (Adopting looks before it creates, so no create meets an existing object.)
    expect(log.filter((r) => r.status >= 400).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      // A translation's create looks first whether or not it adopts (the service's write is an upsert).
      "GET /v2/translations/workflow/welcome/fr_FR 404",
      "DELETE /v2/layouts/" + frame.id + " 409",
    ]);
    expect([...new Set(log.map((r) => `${r.method} ${r.route}`))].sort()).toEqual(clientOperations());
  });

  // Each kind's request floor (test/kinds/<kind>.ts, `floor`), on the bench's arguments of its first
  // object: a create, a read, the update of one field and a delete each send exactly that many
  // requests (reads share the listings the floor names, so they are counted together). What the
  // create and the update answer, from the answers of their writes, is what a read then gives.
  it("creates, reads, updates one field of and deletes an object of each kind with exactly the requests of its floor", async () => {
    // bench-sub-0 to bench-sub-2: the first topic's two subscribers, and the first topic subscription's, which that topic leaves out.
    await prepareMix(emu.api, 3);
    const sent = async () => (await emu.requests()).filter((r) => !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);
    const made: { kind: (typeof KINDS)[number]["kind"]; mod: ResourceModule; id: string; inputs: KindObj; outs: Obj }[] = [];
    const refs = {
      counts: mixCounts(100), run: `floor${mode[0]}`,
      output: (kind: string, _i: number, key: string) => made.find((m) => m.kind === kind)!.outs[key],
    };
    const checked = async (mod: ResourceModule, inputs: Obj) => {
      const r = await mod.provider.check({}, inputs);
      expect(r.failures).toEqual([]);
      return r.inputs;
    };
    for (const d of KINDS) {
      const mod = moduleOf(RESOURCE_TABLES.find((t) => t.name === d.kind)!.module);
      const inputs = await checked(mod, d.bench.args(0, refs));
      await emu.clearRequests();
      const { id, outs } = await mod.provider.create(inputs);
      expect(await sent(), `${d.kind} create`).toHaveLength(floorOf([{ kind: d.kind, inputs }]).create);
      made.push({ kind: d.kind, mod, id, inputs, outs });
    }
    await emu.clearRequests();
    const reads = [];
    for (const m of made) reads.push(await m.mod.provider.read(m.id, m.outs));
    expect(await sent(), "the reads").toHaveLength(floorOf(made).read);
    made.forEach((m, i) => expect(reads[i]!.props, `${m.kind}: the create's outputs are what a read gives`).toEqual(m.outs));
    for (const m of made) {
      const news = await checked(m.mod, KINDS.find((d) => d.kind === m.kind)!.floor.change(m.inputs));
      await emu.clearRequests();
      const { outs } = await m.mod.provider.update(m.id, m.outs, news);
      expect(await sent(), `${m.kind} update`).toHaveLength(floorOf([{ kind: m.kind, inputs: news }]).update);
      expect((await m.mod.provider.diff(m.id, outs, news)).changed, `${m.kind} update`).toEqual([]);
      expect((await m.mod.provider.read(m.id, outs)).props, `${m.kind}: the update's outputs are what a read gives`).toEqual(outs);
    }
    for (const m of [...made].reverse()) {
      await emu.clearRequests();
      await m.mod.provider.delete(m.id, m.outs);
      expect(await sent(), `${m.kind} delete`).toHaveLength(floorOf([m]).delete);
    }
  });
});
