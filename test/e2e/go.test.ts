/**
 * The generated Go SDK (sdk/go, package notify) under the real engine: a Go Automation API inline
 * program (test/e2e/go/main.go, built once with `go build`) declares two Integrations (one with a
 * secret credential), a Workflow with its Translation (the workflow's output as its resource id),
 * SubscriberCredentials, a Context, a Domain with a route and a Layout through the default provider, calls
 * getSubscriber, and declares an explicit provider instance (`notify.NewProvider`) for a second
 * environment of the same emulator (a second API key) with an Integration made through it. Beside
 * them, the kinds of issue #38, each taking the others' outputs: a Subscriber with its
 * SubscriberCredentials and SubscriberPreferences, a Topic and a TopicSubscription, a shared
 * ChannelConnection (its token a secret of the stack config) and a ChannelEndpoint through it, an
 * Agent linked to the Slack integration with a domain route to it; and each one's read function. The
 * native plugin is found through the project's `plugins.providers` path. Steps: up, a preview with
 * no changes, drift made through the emulator's API shown field by field by `preview --refresh`
 * (secrets masked), up restoring the declared values, destroy leaving nothing in either
 * environment but the default layout (a warning diagnostic on it says so, as one on the pending
 * domain says which records to add). There is no Go language host; the inline program runs in the
 * built binary. Skipped, saying so, when go is not on PATH.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runs, toolchain } from "../helpers/toolchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cliEnv, cliPath } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { checkpointFile, NATIVE_PLUGINS, stateDir } from "../../scripts/workspace";
import { buildGoProgram, GO_PROGRAM_RESOURCES, runGoProgram } from "../helpers/go";
import { defaultLayoutWarning } from "../../provider/resources/layout";
import { pendingWarning } from "../../provider/resources/domain";
import { programSecrets } from "../helpers/programSecrets";

// As in test/e2e/go/main.go.
const SENDGRID_KEY = "SG.go-secret-sendgrid-key";
const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/go-hook";
const SECOND_SENDGRID_KEY = "SG.go-second-tenant-sendgrid-key";
/** The second environment's API key, given to the explicit provider instance. */
const SECOND_API_KEY = "second-env-api-key-9876543210";
/** A credential set through the API behind the engine's back. */
const DRIFTED_KEY = "SG.drifted-by-hand-key";
// As in test/e2e/go/main.go.
const ONCALL_HOOK = "https://hooks.slack.example/services/T000/B000/go-oncall-hook";
/** The shared Slack workspace's access token: the stack config secret `slackToken`, never in the program. */
const SLACK_TOKEN = "xoxb-go-acme-workspace-token";
const SECRETS = [SENDGRID_KEY, SLACK_HOOK, SECOND_SENDGRID_KEY, SECOND_API_KEY, API_KEY, DRIFTED_KEY, ONCALL_HOOK, SLACK_TOKEN];
const CRITICAL = { "==": [{ var: "payload.severity" }, "critical"] };
const SCHEDULE = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } };
/**
 * The default provider's environment. Development: the service takes an agent's integration links
 * only in environments of type development (docs/agents.md; add-agent-integration.usecase.ts).
 */
const FIRST = "Development";
const TRANSLATION = { greeting: "Bonjour {{subscriber.firstName}}", email: { subject: "Bienvenue" } };
const CONTEXT_DATA = { name: "Acme", plan: "pro" };
const DOMAIN = "go-mail.example.com";

const hasGo = toolchain("test/e2e/go.test.ts", runs("go", ["version"]), "go is not on PATH (the inline program is built with it)");

type Op = "up" | "up-refresh" | "preview" | "preview-refresh" | "destroy";
type Diffs = Record<string, { op: string; diffs: string[] | null; detailed: Record<string, string> }>;

describe.skipIf(!hasGo)("a Go inline program on the generated SDK and the native plugin, with an explicit provider instance", () => {
  let emu: TestEmulator;
  let dir: string;
  let bin: string;
  let envA: string;
  let envB: string;
  /** The first up's stack outputs. */
  let upOutputs: Record<string, { value: any; secret: boolean }>;

  /**
   * Runs one operation of the program; resolves with its JSON result, and the CLI's output (what
   * the program printed on stderr).
   */
  const run = (op: Op) => runGoProgram(bin, op, { ...process.env, ...cliEnv(dir) }, {
    workDir: dir,
    pulumiRoot: path.dirname(path.dirname(cliPath())),
    config: { ...emu.stackConfig(), ...programSecrets("notify-go", SLACK_TOKEN) },
    second: { apiUrl: emu.url, apiKey: SECOND_API_KEY },
  });

  /** A raw request with the second environment's key; returns the unwrapped body. */
  const apiB = async (method: string, p: string) => (await emu.apiAs(SECOND_API_KEY, method, p)).body;
  /** The live (not deleted) integrations of one environment, by identifier, from the emulator's whole store. */
  const liveIntegrations = async (env: string) =>
    (await emu.state()).integrations.filter((i) => i._environmentId === env && !i.deleted).map((i) => i.identifier).sort();

  beforeAll(async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "notify-go-bin-"));
    bin = path.join(out, "notify-go-program");
    const started = Date.now();
    // -mod=readonly: go.mod and go.sum are what is committed.
    buildGoProgram(bin);
    process.stderr.write(`test/e2e/go.test.ts: go build took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    // Two keys of one emulator, each its own environment; credentials shown, so their drift is seen.
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=${FIRST}`, `${SECOND_API_KEY}=go-b`], hideCredentials: false });
    [envA, envB] = [`env_${FIRST}`, "env_go-b"];
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    dir = mkdtempSync(path.join(os.tmpdir(), "notify-go-"));
    for (const sub of [stateDir(dir), path.join(dir, "home")]) mkdirSync(sub, { recursive: true });
    // The project: the local backend, and the plugin from bin/ of this checkout.
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({
      name: "notify-go",
      runtime: "go",
      backend: { url: `file://${stateDir(dir)}` },
      plugins: NATIVE_PLUGINS,
    }));
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (bin) rmSync(path.dirname(bin), { recursive: true, force: true });
  });

  it("up creates everything in the right environment through the SDK, serves the invoke, and keeps every secret out of the checkpoint", async () => {
    const { result: up, cli } = await run("up");
    upOutputs = up.outputs;
    expect(up.changes).toEqual({ create: GO_PROGRAM_RESOURCES });
    const state = await emu.state();
    // Each environment holds its own objects only.
    expect(await liveIntegrations(envA)).toEqual(["go-sendgrid", "go-slack"]);
    expect(await liveIntegrations(envB)).toEqual(["go-second-sendgrid"]);
    expect(state.workflows.map((w) => [w.workflowId, w._environmentId])).toEqual([["go-welcome", envA]]);
    // Through the API too. The integrations list is the organisation's (as the service's is), so
    // both keys list all three, each with its environment; a workflow is found by its own key only.
    const envOf = (list: any[]) => Object.fromEntries(list.map((i) => [i.identifier, i._environmentId]));
    const byEnv = { "go-sendgrid": envA, "go-slack": envA, "go-second-sendgrid": envB };
    expect(envOf((await emu.api("GET", "/v1/integrations")).body)).toEqual(byEnv);
    expect(envOf(await apiB("GET", "/v1/integrations"))).toEqual(byEnv);
    expect((await emu.api("GET", "/v2/workflows/go-welcome")).status).toBe(200);
    expect((await emu.apiAs(SECOND_API_KEY, "GET", "/v2/workflows/go-welcome")).status).toBe(404);

    const integ = state.integrations.find((i) => i.identifier === "go-sendgrid" && !i.deleted);
    expect(integ).toMatchObject({ name: "SendGrid (Go)", providerId: "sendgrid", channel: "email", active: true });
    expect(integ.credentials.apiKey).toBe(SENDGRID_KEY);
    const other = state.integrations.find((i) => i.identifier === "go-second-sendgrid" && !i.deleted);
    expect(other.credentials.apiKey).toBe(SECOND_SENDGRID_KEY);
    expect(state.subscribers.find((s) => s.subscriberId === "alice").channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);

    const o = up.outputs;
    expect(o.id.value).toBe(integ._id);
    expect(o.integrationId.value).toBe(integ._id);
    expect(o.identifier).toEqual({ value: "go-sendgrid", secret: false });
    expect(o.channel.value).toBe("email");
    // Secret, and in clear here only because the Automation API returns outputs decrypted.
    expect(o.credentials).toEqual({ secret: true, value: { apiKey: SENDGRID_KEY, from: "no-reply@example.com" } });
    expect(o.environmentId.value).toBe(envA);
    expect(o.secondId.value).toBe(other._id);
    expect(o.secondEnvironmentId.value).toBe(envB);
    expect(o.workflowId.value).toBe("go-welcome");
    expect(o.welcomeSteps.value.map((s: { stepId: string }) => s.stepId)).toEqual(["inbox", "email"]);
    expect(o.credId.value).toBe("alice/slack/go-slack");
    expect(o.aliceName.value).toBe("Alice");
    // The translation, made after its workflow (whose translation is on), the context and the domain, all in the first environment.
    expect(state.workflows[0].isTranslationEnabled).toBe(true);
    expect(state.translations.map((t) => [t.resourceType, t.resourceId, t.locale, t.content, t._environmentId])).toEqual([["workflow", "go-welcome", "fr_FR", TRANSLATION, envA]]);
    expect(o.translationId.value).toBe("workflow/go-welcome/fr_FR");
    expect(state.contexts.map((c) => [c.key, c.data, c._environmentId])).toEqual([["tenant:go-acme", CONTEXT_DATA, envA]]);
    expect(o.contextKey.value).toBe("tenant:go-acme");
    expect(state.domains.map((d) => [d.name, d.status, d.data, d._environmentId])).toEqual([[DOMAIN, "pending", { owner: "ops" }, envA]]);
    expect(o.domainStatus.value).toBe("pending");
    expect(o.domainRecords.value).toEqual([{ type: "MX", name: DOMAIN, content: "inbound.notify-emulator.test", ttl: "Auto", priority: 10 }]);
    // The domain is pending: a warning on it says which records to add.
    const domain = (await emu.api("GET", `/v1/domains/${DOMAIN}`)).body;
    expect(up.warnings).toContainEqual({ urn: expect.stringMatching(/::notify:index:Domain::mail$/), message: pendingWarning(domain) });

    const file = checkpointFile(dir, "notify-go", "test");
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, "utf8");
    const checkpoint = JSON.parse(text).checkpoint.latest.resources as { type: string; urn: string; inputs: Record<string, unknown> }[];
    const second = checkpoint.find((r) => r.type === "pulumi:providers:notify" && r.urn.endsWith("::second"))!;
    expect(second.inputs.apiUrl).toBe(emu.url);
    // The explicit provider's key is stored, encrypted: a secret, not the key in clear.
    expect(second.inputs.apiKey).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    for (const secret of SECRETS) {
      expect(text).not.toContain(secret);
      expect(cli).not.toContain(secret);
    }
  });

  it("up made the kinds of issue #38 with their declared values, linked through the outputs, and their functions read them", async () => {
    const o = upOutputs;
    const state = await emu.state();
    const ofA = <T extends { _environmentId: string }>(list: T[]) => list.filter((x) => x._environmentId === envA);
    const slack = state.integrations.find((i) => i.identifier === "go-slack" && !i.deleted);
    const welcome = state.workflows.find((w) => w.workflowId === "go-welcome");
    // The subscriber, and its credentials and preferences made through its SubscriberId output.
    const oncall = state.subscribers.find((x) => x.subscriberId === "go-oncall" && !x.deleted);
    expect(oncall).toMatchObject({ firstName: "On-call", email: "oncall@example.com", timezone: "Europe/Paris", data: { team: "ops" }, _environmentId: envA });
    expect(oncall.channels.map((c: any) => [c.providerId, c._integrationId, c.credentials.webhookUrl])).toEqual([["slack", slack._id, ONCALL_HOOK]]);
    expect(o.oncallId.value).toBe("go-oncall");
    expect(state.subscriberPreferences.filter((p) => p._subscriberId === oncall._id).map((p) => [p._templateId, p.channels, p.schedule])).toEqual([[undefined, { email: false }, SCHEDULE]]);
    // The topic, and the subscription to it through its Key output, with the workflow's output in its preference.
    expect(ofA(state.topics).map((t) => [t.key, t.name])).toEqual([["go-incidents", "Incidents (Go)"]]);
    const sub = state.subscriptions.find((x) => x.identifier === "go-oncall-critical");
    expect(sub).toMatchObject({ topicKey: "go-incidents", subscriberId: "go-oncall", name: "On-call, critical only", contextKeys: [], _environmentId: envA });
    expect(state.subscriptionPreferences.filter((p) => p._topicSubscriptionId === sub._id).map((p) => [p._templateId, p.condition])).toEqual([[welcome._id, CRITICAL]]);
    expect(o.subscriptionId.value).toBe("go-incidents/go-oncall-critical");
    // The shared workspace of the declared context (its output), its token from the stack config, and the endpoint through it.
    expect(ofA(state.channelConnections).map((c) => [c.identifier, c.integrationIdentifier, c.subscriberId, c.contextKeys, c.workspace, c.auth])).toEqual([
      ["go-acme-slack", "go-slack", undefined, ["tenant:go-acme"], { id: "T0GO", name: "Acme (Go)" }, { accessToken: SLACK_TOKEN }],
    ]);
    expect(ofA(state.channelEndpoints).map((e) => [e.identifier, e.subscriberId, e.integrationIdentifier, e.connectionIdentifier, e.contextKeys, e.type, e.endpoint])).toEqual([
      ["go-oncall-alerts", "go-oncall", "go-slack", "go-acme-slack", ["tenant:go-acme"], "slack_channel", { channelId: "C0GO" }],
    ]);
    // The agent, linked to the Slack integration, and the domain's route to it (stored by the agent's database id, as the service does).
    const bot = ofA(state.agents).find((a) => a.identifier === "go-support-bot");
    expect(bot).toMatchObject({ name: "Support bot (Go)", bridgeUrl: "https://bots.example.com/go", behavior: { subscriberAccess: "restricted" }, active: true });
    expect(state.agentLinks.map((l) => [l._agentId, l._integrationId])).toEqual([[bot._id, slack._id]]);
    const routes = state.domainRoutes.map((r) => [r.address, r.type, r.agentId]).sort(([a], [b]) => a.localeCompare(b));
    expect(routes).toEqual([["bot", "agent", bot._id], ["support", "webhook", undefined]]);
    // What the program exported: the token secret, and each read function's result.
    expect(o.workspaceAuth).toEqual({ value: { accessToken: SLACK_TOKEN }, secret: true });
    expect(o.agents.value).toEqual([expect.objectContaining({
      identifier: "go-support-bot", name: "Support bot (Go)", bridgeUrl: "https://bots.example.com/go", behavior: { subscriberAccess: "restricted" },
      integrations: [expect.objectContaining({ identifier: "go-slack", integrationId: slack._id })],
    })]);
    // Email is shown (the active workflow welcome has an email step) and off, as declared.
    expect(o.oncallPreferences.value).toMatchObject({ channels: { email: false }, schedule: SCHEDULE });
    expect(o.incidentSubscriptions.value).toEqual([expect.objectContaining({
      identifier: "go-oncall-critical", topic: "go-incidents", subscriber: "go-oncall", name: "On-call, critical only", plain: false,
      preferences: [{ workflowId: "go-welcome", condition: CRITICAL, enabled: true }],
    })]);
    // Secret as a whole: the connections hold the token in clear (docs/channels.md).
    expect(o.slackConnections.secret).toBe(true);
    expect(o.slackConnections.value).toEqual([expect.objectContaining({
      identifier: "go-acme-slack", integrationIdentifier: "go-slack", contextKeys: ["tenant:go-acme"], workspace: { id: "T0GO", name: "Acme (Go)" }, auth: { accessToken: SLACK_TOKEN },
    })]);
    expect(o.workspaceEndpoints.value).toEqual([expect.objectContaining({
      identifier: "go-oncall-alerts", subscriberId: "go-oncall", connectionIdentifier: "go-acme-slack", contextKeys: ["tenant:go-acme"], type: "slack_channel", endpoint: { channelId: "C0GO" },
    })]);
  });

  it("a second preview has no changes", async () => {
    const { result: preview } = await run("preview");
    expect(Object.keys(preview.changes)).toEqual(["same"]);
  });

  it("preview --refresh shows drift made through the API field by field, in both environments, secrets masked", async () => {
    const state = await emu.state();
    const integ = state.integrations.find((i) => i.identifier === "go-sendgrid" && !i.deleted);
    // A rename and a changed secret credential on the default provider's integration.
    await emu.api("PUT", `/v1/integrations/${integ._id}`, { name: "Renamed by hand", credentials: { apiKey: DRIFTED_KEY, from: "no-reply@example.com" } });
    // A workflow field. The PUT replaces the workflow, so it carries what it does not change, as
    // the dashboard's does (left out, isTranslationEnabled and active would go back to off).
    const wf = (await emu.api("GET", "/v2/workflows/go-welcome")).body;
    const put = await emu.api("PUT", `/v2/workflows/${wf._id}`, {
      name: wf.name, description: "Edited by hand", origin: wf.origin, preferences: {}, isTranslationEnabled: wf.isTranslationEnabled, active: wf.active,
      steps: wf.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues })),
    });
    expect(put.status).toBe(200);
    // A rename in the second environment, seen only through the explicit provider.
    const other = state.integrations.find((i) => i.identifier === "go-second-sendgrid" && !i.deleted);
    const res = await emu.apiAs(SECOND_API_KEY, "PUT", `/v1/integrations/${other._id}`, { name: "Second, renamed by hand" });
    expect(res.status).toBe(200);
    const after = await emu.state();
    expect(after.integrations.find((i) => i._id === integ._id).credentials.apiKey).toBe(DRIFTED_KEY);
    // The new kinds, edited in the dashboard: the translation's content, the context's data, a route added to the domain.
    expect((await emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "go-welcome", locale: "fr_FR", content: { greeting: "Salut" } })).status).toBe(200);
    expect((await emu.api("PATCH", "/v2/contexts/tenant/go-acme", { data: { name: "Acme (edited by hand)" } })).status).toBe(200);
    expect((await emu.api("POST", `/v1/domains/${DOMAIN}/routes`, { address: "sales", type: "webhook" })).status).toBe(201);

    const { result: preview, cli } = await run("preview-refresh");
    const diffs = preview.diffs as Diffs;
    expect(Object.keys(diffs).sort()).toEqual(["acme", "mail", "second-sendgrid", "sendgrid", "welcome", "welcome-fr"]);
    // The plugin's detailed diff, as the engine passes it on in the step events: the changed fields
    // only, down to the values that differ, the secret one named whole (its values are masked).
    expect(diffs.sendgrid).toEqual({ op: "update", detailed: { name: "update", credentials: "update" }, diffs: ["name", "credentials"] });
    expect(diffs.welcome).toEqual({ op: "update", detailed: { description: "update" }, diffs: ["description"] });
    expect(diffs["second-sendgrid"]).toEqual({ op: "update", detailed: { name: "update" }, diffs: ["name"] });
    // Where inside a field: the content and the data were replaced by hand with one key, and a route was added.
    expect(diffs["welcome-fr"]).toEqual({ op: "update", detailed: { "content.greeting": "update", "content.email": "add" }, diffs: ["content"] });
    expect(diffs.acme).toEqual({ op: "update", detailed: { "data.name": "update", "data.plan": "add" }, diffs: ["data"] });
    expect(diffs.mail).toEqual({ op: "update", detailed: { "routes.sales": "delete" }, diffs: ["routes"] });
    // Every other resource of the program is the same (the summary counts as GO_PROGRAM_RESOURCES does).
    expect(preview.changes).toEqual({ same: GO_PROGRAM_RESOURCES - Object.keys(diffs).length, update: Object.keys(diffs).length });
    // The --diff output names the fields and the values that are not secret.
    expect(preview.stdout).toContain("Renamed by hand");
    expect(preview.stdout).toContain("Edited by hand");
    expect(preview.stdout).toContain("Acme (edited by hand)");
    // Neither the declared nor the drifted credential, nor a key, anywhere: the engine events, the
    // --diff output (both in the result), the CLI's progress output.
    expect(preview.events.length).toBeGreaterThan(0);
    for (const secret of SECRETS) expect(JSON.stringify(preview) + cli).not.toContain(secret);
  });

  it("up --refresh puts the declared values back in both environments, and then nothing differs", async () => {
    const { result: up } = await run("up-refresh");
    expect(up.changes).toEqual({ same: GO_PROGRAM_RESOURCES - 6, update: 6 });
    const state = await emu.state();
    const integ = state.integrations.find((i) => i.identifier === "go-sendgrid" && !i.deleted);
    expect(integ.name).toBe("SendGrid (Go)");
    expect(integ.credentials.apiKey).toBe(SENDGRID_KEY);
    expect(state.workflows.find((w) => w.workflowId === "go-welcome").description).toBe("Declared by the Go program");
    expect(state.integrations.find((i) => i.identifier === "go-second-sendgrid" && !i.deleted)).toMatchObject({ name: "SendGrid (second environment)", _environmentId: envB });
    expect(state.translations.map((t) => t.content)).toEqual([TRANSLATION]);
    expect(state.contexts.map((c) => c.data)).toEqual([CONTEXT_DATA]);
    expect(state.domainRoutes.map((r) => r.address).sort()).toEqual(["bot", "support"]);
    const { result: preview } = await run("preview-refresh");
    expect(preview.diffs).toEqual({});
    expect(Object.keys(preview.changes)).toEqual(["same"]);
  });

  it("destroy deletes everything it made, in both environments, but the default layout, which a warning on it says it leaves", async () => {
    const { result: destroy } = await run("destroy");
    expect(destroy.changes).toEqual({ delete: GO_PROGRAM_RESOURCES });
    expect(destroy.warnings).toEqual([{ urn: expect.stringMatching(/::notify:index:Layout::frame$/), message: defaultLayoutWarning("go-frame") }]);
    expect((await emu.state()).layouts.filter((l) => !l.deleted).map((l) => [l.identifier, l.isDefault])).toEqual([["go-frame", true]]);
    const state = await emu.state();
    expect(await liveIntegrations(envA)).toEqual([]);
    expect(await liveIntegrations(envB)).toEqual([]);
    expect(state.workflows).toEqual([]);
    expect(state.subscribers.find((s) => s.subscriberId === "alice").channels).toEqual([]);
    expect([state.translations, state.contexts, state.domains, state.domainRoutes]).toEqual([[], [], [], []]);
    expect(await apiB("GET", "/v1/integrations")).toEqual([]);
    // The kinds of issue #38: nothing left, and of the subscribers only alice, whom the program never declared.
    expect(state.subscribers.filter((x) => !x.deleted).map((x) => x.subscriberId)).toEqual(["alice"]);
    const left = { topics: state.topics, subscriptions: state.subscriptions, subscriptionPreferences: state.subscriptionPreferences, subscriberPreferences: state.subscriberPreferences, channelConnections: state.channelConnections, channelEndpoints: state.channelEndpoints, agents: state.agents, agentLinks: state.agentLinks };
    expect(left).toEqual(Object.fromEntries(Object.keys(left).map((k) => [k, []])));
    const resources = JSON.parse(readFileSync(checkpointFile(dir, "notify-go", "test"), "utf8")).checkpoint.latest?.resources ?? [];
    expect(resources).toEqual([]);
  });
});
