/**
 * A "dashboard-made" environment, seeded through the service's API as the dashboard shapes it:
 * every step kind the provider models and `http_request` among them, a default layout and another,
 * integrations with conditions and configurations, a topic with 250 subscribers and one subscription
 * of its own (a name and a condition), plain and secret
 * variables, an email step pointing at a layout; and the newer kinds: a context with data, a
 * workflow with translation on and two translations (one locale each), a verified inbound-email
 * domain with a route to the webhook and one to an agent, a shared Slack workspace and an endpoint
 * through it. Used by the export tests. Translations and domains need the Business plan
 * or above (the emulator's default plan).
 */
import { WORKFLOW_STEP_KINDS } from "../../provider/schemas/common";
import { API_KEY, startTestEmulator, type TestEmulator } from "./emulator";

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** The secret variable's value (the service shows it masked, so the user supplies it from config). */
export const SECRET_VARIABLE_VALUE = "s3cr3t-dashboard-token";

/** Alice's Slack webhook (a secret the service returns, so its value is known to the export). */
export const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/dashboard";

/** The shared Slack workspace's access token (the service answers it in clear, so the export knows it). */
export const CHANNEL_TOKEN = "xoxb-dashboard-workspace-token";

/** Control values of each step kind as the dashboard saves them. */
export const DASHBOARD_STEPS: Record<(typeof WORKFLOW_STEP_KINDS)[number], Record<string, unknown>> = {
  in_app: { subject: "Hello {{subscriber.firstName}}", body: "Your order {{payload.orderId}} shipped", avatar: "https://cdn.example.com/a.png", data: { orderId: "{{payload.orderId}}" } },
  email: { subject: "Your receipt", body: "<p>Thanks, \"{{subscriber.firstName}}\" — été</p>\n<p>Line two</p>", editorType: "html", layoutId: "brand" },
  sms: { body: "Code: {{payload.code}}" },
  chat: { body: "Deployed {{payload.version}}", editorType: "text" },
  push: { subject: "New message", body: "You have a new message" },
  digest: { type: "regular", amount: 5, unit: "minutes", digestKey: "payload.threadId" },
  delay: { type: "regular", amount: 30, unit: "seconds" },
  throttle: { type: "fixed", amount: 1, unit: "hours", threshold: 3 },
  custom: { anything: { nested: [1, 2, 3] } },
  http_request: {
    method: "POST", url: "https://hooks.example.com/notify?x=1&y=$2", headers: [{ key: "X-Source", value: "notify" }],
    body: [{ key: "id", value: "{{payload.id}}" }], continueOnFailure: true,
  },
};

/** The translations of the workflow "order-shipped", by locale. */
export const DASHBOARD_TRANSLATIONS: Record<string, Record<string, unknown>> = {
  de_DE: { subject: "Ihre Bestellung wurde versandt", body: { line1: "Danke, {{subscriber.firstName}}" } },
  fr_FR: { subject: "Votre commande est partie", body: { line1: "Merci, {{subscriber.firstName}} — été" } },
};

/** The inbound-email domain of the environment. */
export const DASHBOARD_DOMAIN = "inbound.dashboard.example.com";

/**
 * An emulator whose key (API_KEY) is environment `env_<env>`, seeded as the dashboard made it:
 * room for the seeded variables, and the Business plan (translations and domains need it).
 */
export async function startDashboardEmulator(env: string): Promise<TestEmulator> {
  const emu = await startTestEmulator({ apiKeys: [`${API_KEY}=${env}`], environmentVariableLimit: 50, plan: "business" });
  await seedDashboardEnvironment(emu.api, `env_${env}`);
  return emu;
}

/** Seeds the environment of `api`'s key; `n` subscribers (250 by default) on the topic. */
export async function seedDashboardEnvironment(api: Api, envId: string, n = 250): Promise<void> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await api(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
    return r.body;
  };
  // The first layout is the environment's default.
  await ok("POST", "/v2/layouts", { layoutId: "default-frame", name: "Default frame" });
  await ok("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" });
  await ok("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { editorType: "html", body: "<html><body><header>ACME</header>{{ content }}</body></html>" } } });

  const sg = await ok("POST", "/v1/integrations", {
    identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true,
    credentials: { apiKey: "SG.dashboard-key", from: "no-reply@example.com" },
    conditions: [{ isNegated: false, type: "GROUP", value: "AND", children: [{ field: "tier", value: "pro", operator: "EQUAL", on: "subscriber" }] }],
    configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: "whsec-dashboard" },
  });
  await ok("POST", `/v1/integrations/${sg._id}/set-primary`);
  await ok("POST", "/v1/integrations", { identifier: "slack-alerts", name: "Slack alerts", providerId: "slack", channel: "chat", active: true });
  // A subscriber with credentials for the Slack integration (exported only when named).
  await ok("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
  await ok("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-alerts", credentials: { webhookUrl: SLACK_HOOK } });

  await ok("POST", "/v2/workflows", {
    workflowId: "order-shipped", name: "Order shipped", description: "Every channel", tags: ["orders", "dashboard"], active: true, isTranslationEnabled: true,
    steps: WORKFLOW_STEP_KINDS.map((type) => ({ name: `${type} step`, type, controlValues: DASHBOARD_STEPS[type] })),
  });
  await ok("POST", "/v2/workflows", {
    workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Welcome!" } }],
  });
  // Alice's own preferences, as she chose them in her inbox: no SMS, office hours on Mondays, and no
  // order mails (exported only when she is named).
  await ok("PATCH", "/v2/subscribers/alice/preferences", {
    channels: { sms: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } },
  });
  await ok("PATCH", "/v2/subscribers/alice/preferences", { workflowId: "order-shipped", channels: { email: false } });

  // The workflow's translations, one document per locale as the dashboard's translation editor saves them.
  for (const [locale, content] of Object.entries(DASHBOARD_TRANSLATIONS)) {
    await ok("POST", "/v2/translations", { resourceType: "workflow", resourceId: "order-shipped", locale, content });
  }
  await ok("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { plan: "enterprise", region: "eu", seats: 25 } });
  // Tenant acme's Slack workspace, shared by the context, and the ops channel alice is reached in through it.
  await ok("POST", "/v1/channel-connections", {
    identifier: "acme-slack", integrationIdentifier: "slack-alerts", connectionMode: "shared", context: { tenant: "acme" },
    workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: CHANNEL_TOKEN },
  });
  await ok("POST", "/v1/channel-endpoints", {
    identifier: "alice-ops", subscriberId: "alice", integrationIdentifier: "slack-alerts", connectionIdentifier: "acme-slack", context: { tenant: "acme" },
    type: "slack_channel", endpoint: { channelId: "C0123456" },
  });
  // A domain with a route to the inbound webhook, verified: its MX record set (the emulator's DNS
  // control) to the mail server the service names, then checked.
  const domain = await ok("POST", "/v1/domains", { name: DASHBOARD_DOMAIN, data: { owner: "support-team" } });
  await ok("POST", `/v1/domains/${DASHBOARD_DOMAIN}/routes`, { address: "support", type: "webhook", data: { queue: "tier-1" } });
  // An agent with its bridge and behaviour, which the domain's `bot` address is routed to.
  await ok("POST", "/v1/agents", { identifier: "support-bot", name: "Support bot", description: "Answers the support inbox" });
  await ok("PATCH", "/v1/agents/support-bot", { bridgeUrl: "https://bots.example.com/support", behavior: { subscriberAccess: "restricted" } });
  await ok("POST", `/v1/domains/${DASHBOARD_DOMAIN}/routes`, { address: "bot", type: "agent", agentId: "support-bot" });
  await ok("POST", "/__emulator/dns", { domain: DASHBOARD_DOMAIN, mx: domain.expectedDnsRecords[0].content });
  const verified = await ok("POST", `/v1/domains/${DASHBOARD_DOMAIN}/verify`);
  if (verified.status !== "verified") throw new Error(`domain ${DASHBOARD_DOMAIN} is ${verified.status} after its MX record was set`);

  const ids = Array.from({ length: n }, (_, i) => `sub-${String(i).padStart(3, "0")}`);
  for (const subscriberId of ids) await ok("POST", "/v2/subscribers", { subscriberId, firstName: "User" });
  await ok("POST", "/v2/topics", { key: "news:daily", name: "Daily news" });
  for (let i = 0; i < ids.length; i += 100) await ok("POST", "/v2/topics/news:daily/subscriptions", { subscriptions: ids.slice(i, i + 100) });
  // Alice's subscription of the topic, with a name and a condition on the shipping workflow: a subscription of its own, not a plain membership.
  await ok("POST", "/v2/topics/news:daily/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-express", name: "Express orders" }] });
  await ok("PATCH", "/v2/topics/news:daily/subscriptions/alice-express", {
    preferences: [{ filter: { workflowIds: ["order-shipped"] }, enabled: true, condition: { "==": [{ var: "payload.express" }, true] } }],
  });

  await ok("POST", "/v1/environment-variables", { key: "BASE_URL", values: [{ _environmentId: envId, value: "https://app.example.com" }] });
  await ok("POST", "/v1/environment-variables", { key: "API_TOKEN", isSecret: true, values: [{ _environmentId: envId, value: SECRET_VARIABLE_VALUE }] });
}
