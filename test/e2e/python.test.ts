/**
 * The generated Python SDK (sdk/python, pulumi_notify) under the real engine: a Python Automation
 * API inline program (test/e2e/python/inline_program.py) declares integrations, a workflow with
 * its translation (the workflow's output as its resource id), subscriber credentials, a context and
 * a domain with a route and a layout, and calls getSubscriber through the native plugin, found through the project's `plugins.providers` path,
 * against the emulator, plus an integration in a second environment through an explicit provider.
 * The kinds of issue #38 beside them, each taking the others' outputs: a Subscriber with its
 * SubscriberCredentials and SubscriberPreferences, a Topic and a TopicSubscription, a shared
 * ChannelConnection (its token a secret of the stack config) and a ChannelEndpoint through it, an
 * Agent linked to the Slack integration with a domain route to it; and each one's read function:
 * up, a preview with no changes, drift made through the API shown field by field by
 * `preview --refresh` (a changed secret named, its value never printed), up restoring, destroy.
 * The plugin's warnings (the domain pending, the default layout left on the service) are warning
 * diagnostics on their resources in the engine's events.
 * The interpreter is the venv of scripts/ensure-python-venv (pulumi from PyPI at the version that script names, on first use, and sdk/python
 * installed with pip); no Python language host is needed for an inline program. Skipped, saying
 * so, when python3 is missing.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, PYTHON_PROGRAM, PYTHON_PROGRAM_RESOURCES, pythonProjectDir, runPython, venvPython, type PythonOp } from "../helpers/python";
import { checkpointFile } from "../../scripts/workspace";
import { defaultLayoutWarning } from "../../provider/resources/layout";
import { pendingWarning } from "../../provider/resources/domain";
import { programSecrets } from "../helpers/programSecrets";

const SENDGRID_KEY = "SG.python-secret-sendgrid-key"; // as in inline_program.py
const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/python-hook"; // as in inline_program.py
const SECOND_KEY = "python-second-environment-key";
const CHANGED_KEY = "SG.changed-by-hand-in-the-dashboard";
const CHANGED_HOOK = "https://hooks.slack.example/changed-by-hand";
// As in inline_program.py.
const TRANSLATION = { greeting: "Bonjour {{subscriber.firstName}}", email: { subject: "Bienvenue" } };
const CONTEXT_DATA = { name: "Acme", plan: "pro" };
const DOMAIN = "py-mail.example.com";
const ONCALL_HOOK = "https://hooks.slack.example/services/T000/B000/python-oncall-hook";
const CRITICAL = { "==": [{ var: "payload.severity" }, "critical"] };
/** The shared Slack workspace's access token: the stack config secret `slackToken`, never in the program. */
const SLACK_TOKEN = "xoxb-python-acme-workspace-token";
/**
 * The default provider's environment. Development: the service takes an agent's integration links
 * only in environments of type development (docs/agents.md; add-agent-integration.usecase.ts).
 */
const FIRST = "Development";

describe.skipIf(!hasPython("test/e2e/python.test.ts"))("a Python inline program on the generated SDK and the native plugin", () => {
  let emu: TestEmulator;
  let dir: string;
  let python: string;
  /** The first up's stack outputs. */
  let upOutputs: Record<string, { value: any; secret: boolean }>;

  const run = (op: PythonOp) => runPython(python, PYTHON_PROGRAM, op, dir, {
    config: { ...emu.stackConfig(), ...programSecrets("notify-python", SLACK_TOKEN) },
    second: { url: emu.url, key: SECOND_KEY },
  });

  beforeAll(async () => {
    python = venvPython();
    // Two environments (a key each); credentials shown in responses, so drift in them can be made and seen.
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=${FIRST}`, `${SECOND_KEY}=second`], hideCredentials: false });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    dir = pythonProjectDir("notify-python");
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The live (not deleted) integrations of an environment. */
  const integrationsOf = async (env: string) => (await emu.state()).integrations.filter((i) => i._environmentId === `env_${env}` && !i.deleted);

  it("up creates the resources through the SDK's classes, serves the SDK's invoke, and keeps secrets secret", async () => {
    const up = await run("up");
    upOutputs = up.outputs;
    expect(up.changes).toEqual({ create: PYTHON_PROGRAM_RESOURCES });
    const first = await integrationsOf(FIRST);
    const integ = first.find((i) => i.identifier === "py-sendgrid");
    expect(integ).toMatchObject({ name: "SendGrid (Python)", providerId: "sendgrid", channel: "email", active: true });
    expect(integ.credentials.apiKey).toBe(SENDGRID_KEY);
    expect(first.map((i) => i.identifier).sort()).toEqual(["py-sendgrid", "py-slack"]);
    const state = await emu.state();
    expect(state.workflows.map((w) => [w.workflowId, w._environmentId])).toEqual([["py-welcome", `env_${FIRST}`]]);
    expect(state.subscribers.find((x) => x.subscriberId === "alice").channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
    expect(up.outputs.id.value).toBe(integ._id);
    expect(up.outputs.integrationId.value).toBe(integ._id);
    expect(up.outputs.identifier).toEqual({ value: "py-sendgrid", secret: false });
    expect(up.outputs.channel.value).toBe("email");
    expect(up.outputs.credentials.secret).toBe(true);
    expect(up.outputs.stepIds.value).toEqual(["inbox", "email"]);
    expect(up.outputs.credId.value).toBe("alice/slack/py-slack");
    expect(up.outputs.aliceName.value).toBe("Alice");
    // The explicit provider's integration is in the second environment, and only there.
    const second = await integrationsOf("second");
    expect(second.map((i) => [i.identifier, i.name])).toEqual([["py-sendgrid", "SendGrid (second environment)"]]);
    expect(up.outputs.secondEnvironmentId.value).toBe("env_second");
    // The translation, made after its workflow (whose translation is on), the context and the domain.
    expect(state.workflows[0].isTranslationEnabled).toBe(true);
    expect(state.translations.map((t) => [t.resourceType, t.resourceId, t.locale, t.content])).toEqual([["workflow", "py-welcome", "fr_FR", TRANSLATION]]);
    expect(up.outputs.translationId.value).toBe("workflow/py-welcome/fr_FR");
    expect(state.contexts.map((c) => [c.key, c.data])).toEqual([["tenant:py-acme", CONTEXT_DATA]]);
    expect(up.outputs.contextKey.value).toBe("tenant:py-acme");
    expect(state.domains.map((d) => [d.name, d.status, d.data])).toEqual([[DOMAIN, "pending", { owner: "ops" }]]);
    expect(up.outputs.domainStatus.value).toBe("pending");
    expect(up.outputs.domainRecords.value).toEqual([{ type: "MX", name: DOMAIN, content: "inbound.notify-emulator.test", ttl: "Auto", priority: 10 }]);
    // The domain is pending: a warning on it says which records to add.
    const domain = (await emu.api("GET", `/v1/domains/${DOMAIN}`)).body;
    expect(up.warnings).toContainEqual({ urn: expect.stringMatching(/::notify:index:Domain::mail$/), message: pendingWarning(domain) });
    const file = checkpointFile(dir, "notify-python", "test");
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("notify:index:Integration");
    for (const secret of [SENDGRID_KEY, SLACK_HOOK, SECOND_KEY, API_KEY, ONCALL_HOOK, SLACK_TOKEN]) expect(text).not.toContain(secret);
  });

  it("up made the kinds of issue #38 with their declared values, linked through the outputs, and their functions read them", async () => {
    const o = upOutputs;
    const state = await emu.state();
    const ofFirst = <T extends { _environmentId: string }>(list: T[]) => list.filter((x) => x._environmentId === `env_${FIRST}`);
    const slack = state.integrations.find((i) => i.identifier === "py-slack" && !i.deleted);
    const welcome = state.workflows.find((w) => w.workflowId === "py-welcome");
    // The subscriber, and its credentials and preferences made through its subscriberId output.
    const oncall = state.subscribers.find((x) => x.subscriberId === "py-oncall" && !x.deleted);
    expect(oncall).toMatchObject({ firstName: "On-call", email: "oncall@example.com", timezone: "Europe/Paris", data: { team: "ops" }, _environmentId: `env_${FIRST}` });
    expect(oncall.channels.map((c: any) => [c.providerId, c._integrationId, c.credentials.webhookUrl])).toEqual([["slack", slack._id, ONCALL_HOOK]]);
    expect(o.oncallId.value).toBe("py-oncall");
    const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } };
    expect(state.subscriberPreferences.filter((p) => p._subscriberId === oncall._id).map((p) => [p._templateId, p.channels, p.schedule])).toEqual([[undefined, { email: false }, schedule]]);
    // The topic, and the subscription to it through its key output, with the workflow's output in its preference.
    expect(ofFirst(state.topics).map((t) => [t.key, t.name])).toEqual([["py-incidents", "Incidents (Python)"]]);
    const sub = state.subscriptions.find((x) => x.identifier === "py-oncall-critical");
    expect(sub).toMatchObject({ topicKey: "py-incidents", subscriberId: "py-oncall", name: "On-call, critical only", contextKeys: [] });
    expect(state.subscriptionPreferences.filter((p) => p._topicSubscriptionId === sub._id).map((p) => [p._templateId, p.condition])).toEqual([[welcome._id, CRITICAL]]);
    expect(o.subscriptionId.value).toBe("py-incidents/py-oncall-critical");
    // The shared workspace of the declared context (its output), its token from the stack config, and the endpoint through it.
    expect(ofFirst(state.channelConnections).map((c) => [c.identifier, c.integrationIdentifier, c.subscriberId, c.contextKeys, c.workspace, c.auth])).toEqual([
      ["py-acme-slack", "py-slack", undefined, ["tenant:py-acme"], { id: "T0PYTHON", name: "Acme (Python)" }, { accessToken: SLACK_TOKEN }],
    ]);
    expect(ofFirst(state.channelEndpoints).map((e) => [e.identifier, e.subscriberId, e.integrationIdentifier, e.connectionIdentifier, e.contextKeys, e.type, e.endpoint])).toEqual([
      ["py-oncall-alerts", "py-oncall", "py-slack", "py-acme-slack", ["tenant:py-acme"], "slack_channel", { channelId: "C0PYTHON" }],
    ]);
    // The agent, linked to the Slack integration, and the domain's route to it (stored by the agent's database id, as the service does).
    const bot = ofFirst(state.agents).find((a) => a.identifier === "py-support-bot");
    expect(bot).toMatchObject({ name: "Support bot (Python)", bridgeUrl: "https://bots.example.com/python", behavior: { subscriberAccess: "restricted" }, active: true });
    expect(state.agentLinks.map((l) => [l._agentId, l._integrationId])).toEqual([[bot._id, slack._id]]);
    const routes = state.domainRoutes.map((r) => [r.address, r.type, r.agentId]).sort(([a], [b]) => a.localeCompare(b));
    expect(routes).toEqual([["bot", "agent", bot._id], ["support", "webhook", undefined]]);
    // What the program exported: the token secret, and each read function's result. A typed
    // object's stack output has the wire's camelCase keys: the Python SDK of 3.259.0 wrote its
    // Python (snake_case) ones (pulumi/pulumi#24246), the venv's (scripts/ensure-python-venv) no longer does.
    expect(o.workspaceAuth).toEqual({ value: { accessToken: SLACK_TOKEN }, secret: true });
    expect(o.agents.value).toEqual([expect.objectContaining({
      identifier: "py-support-bot", name: "Support bot (Python)", bridgeUrl: "https://bots.example.com/python", behavior: { subscriberAccess: "restricted" },
      integrations: [expect.objectContaining({ identifier: "py-slack", integrationId: slack._id })],
    })]);
    // Email is shown (the active workflow welcome has an email step) and off, as declared.
    expect(o.oncallPreferences.value).toMatchObject({ channels: { email: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } } });
    expect(o.incidentSubscriptions.value).toEqual([expect.objectContaining({
      identifier: "py-oncall-critical", topic: "py-incidents", subscriber: "py-oncall", name: "On-call, critical only", plain: false,
      preferences: [{ workflowId: "py-welcome", condition: CRITICAL, enabled: true }],
    })]);
    // Secret as a whole: the connections hold the token in clear (docs/channels.md).
    expect(o.slackConnections.secret).toBe(true);
    expect(o.slackConnections.value).toEqual([expect.objectContaining({
      identifier: "py-acme-slack", integrationIdentifier: "py-slack", contextKeys: ["tenant:py-acme"], workspace: { id: "T0PYTHON", name: "Acme (Python)" }, auth: { accessToken: SLACK_TOKEN },
    })]);
    expect(o.workspaceEndpoints.value).toEqual([expect.objectContaining({
      identifier: "py-oncall-alerts", subscriberId: "py-oncall", connectionIdentifier: "py-acme-slack", contextKeys: ["tenant:py-acme"], type: "slack_channel", endpoint: { channelId: "C0PYTHON" },
    })]);
  });

  it("a second preview has no changes", async () => {
    const preview = await run("preview");
    expect(Object.keys(preview.changes)).toEqual(["same"]);
  });

  it("preview --refresh shows drift made through the API field by field, a changed secret named and never printed", async () => {
    const integ = (await integrationsOf(FIRST)).find((i) => i.identifier === "py-sendgrid");
    expect((await emu.api("PUT", `/v1/integrations/${integ._id}`, { name: "Renamed by hand", credentials: { apiKey: CHANGED_KEY, from: "no-reply@example.com" } })).status).toBe(200);
    expect((await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "py-slack", credentials: { webhookUrl: CHANGED_HOOK } })).status).toBeLessThan(300);
    const other = (await integrationsOf("second"))[0];
    expect((await emu.apiAs(SECOND_KEY, "PUT", `/v1/integrations/${other._id}`, { name: "Renamed in the second environment" })).status).toBe(200);
    // The new kinds, edited in the dashboard: the translation's content, the context's data, a route added to the domain.
    expect((await emu.api("POST", "/v2/translations", { resourceType: "workflow", resourceId: "py-welcome", locale: "fr_FR", content: { greeting: "Salut" } })).status).toBe(200);
    expect((await emu.api("PATCH", "/v2/contexts/tenant/py-acme", { data: { name: "Acme (edited by hand)" } })).status).toBe(200);
    expect((await emu.api("POST", `/v1/domains/${DOMAIN}/routes`, { address: "sales", type: "webhook" })).status).toBe(201);

    const preview = await run("preview-refresh");
    // Each place that differs, as the program would change it back (a secret field named whole):
    // the content and the data were replaced by hand with one key, and a route was added.
    expect(preview.diffs).toEqual({
      sendgrid: { op: "update", detailed: { name: "update", credentials: "update" } },
      "alice-slack": { op: "update", detailed: { credentials: "update" } },
      "second-sendgrid": { op: "update", detailed: { name: "update" } },
      "welcome-fr": { op: "update", detailed: { "content.greeting": "update", "content.email": "add" } },
      acme: { op: "update", detailed: { "data.name": "update", "data.plan": "add" } },
      mail: { op: "update", detailed: { "routes.sales": "delete" } },
    });
    expect(preview.changes).toMatchObject({ update: 6 });
    for (const secret of [CHANGED_KEY, CHANGED_HOOK, SENDGRID_KEY, SLACK_HOOK]) expect(preview.stdout).not.toContain(secret);
    expect(preview.stdout).toContain("Renamed by hand");
    expect(preview.stdout).toContain("Acme (edited by hand)");
  });

  it("up restores what the program declares, in both environments", async () => {
    const up = await run("up-refresh");
    expect(up.changes).toMatchObject({ update: 6 });
    const integ = (await integrationsOf(FIRST)).find((i) => i.identifier === "py-sendgrid");
    expect(integ).toMatchObject({ name: "SendGrid (Python)", credentials: { apiKey: SENDGRID_KEY } });
    expect((await emu.state()).subscribers.find((x) => x.subscriberId === "alice").channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
    expect((await integrationsOf("second"))[0].name).toBe("SendGrid (second environment)");
    const state = await emu.state();
    expect(state.translations.map((t) => t.content)).toEqual([TRANSLATION]);
    expect(state.contexts.map((c) => c.data)).toEqual([CONTEXT_DATA]);
    expect(state.domainRoutes.map((r) => r.address).sort()).toEqual(["bot", "support"]);
    expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
  });

  it("destroy deletes everything it made, in both environments, but the default layout, which a warning on it says it leaves", async () => {
    const destroy = await run("destroy");
    expect(destroy.changes).toEqual({ delete: PYTHON_PROGRAM_RESOURCES });
    expect(destroy.warnings).toEqual([{ urn: expect.stringMatching(/::notify:index:Layout::frame$/), message: defaultLayoutWarning("py-frame") }]);
    expect((await emu.state()).layouts.filter((l) => !l.deleted).map((l) => [l.identifier, l.isDefault])).toEqual([["py-frame", true]]);
    expect(await integrationsOf(FIRST)).toEqual([]);
    expect(await integrationsOf("second")).toEqual([]);
    const state = await emu.state();
    expect(state.workflows).toEqual([]);
    expect(state.subscribers.find((x) => x.subscriberId === "alice").channels).toEqual([]);
    expect([state.translations, state.contexts, state.domains, state.domainRoutes]).toEqual([[], [], [], []]);
    // The kinds of issue #38: nothing left, and of the subscribers only alice, whom the program never declared.
    expect(state.subscribers.filter((x) => !x.deleted).map((x) => x.subscriberId)).toEqual(["alice"]);
    const left = { topics: state.topics, subscriptions: state.subscriptions, subscriptionPreferences: state.subscriptionPreferences, subscriberPreferences: state.subscriberPreferences, channelConnections: state.channelConnections, channelEndpoints: state.channelEndpoints, agents: state.agents, agentLinks: state.agentLinks };
    expect(left).toEqual(Object.fromEntries(Object.keys(left).map((k) => [k, []])));
  });
});
