/**
 * The emulator's response bodies, unwrapped from the envelope, validate against the response
 * schemas of spec/openapi.json (the service's published document, which nobody here wrote): for
 * every route of the emulator's route table (emulator/server.ts's ROUTES), a case below calls it
 * and validates what it answers; a route without a case fails.
 *
 * Where api.md and openapi.json disagree we follow api.md (the spec we were given):
 * - api.md lists Integration `credentials` as required; production hides them from API-key
 *   callers, so in production mode they are absent and the schema's requirement is relaxed.
 * - Workflow step responses: the emulator returns the common fields api.md lists; the kind-specific
 *   `controls.values` shapes are those of api.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { componentsAsJsonSchema, openApiDocument, schemaOfOperation } from "../../emulator/contract";
import { ROUTES } from "../../emulator/server";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const doc = openApiDocument();

/** A response validator; `relaxed` drops required fields where production differs from the document. */
function validatorFor(relaxed: Record<string, string[]> = {}) {
  const root = componentsAsJsonSchema("response") as { components: { schemas: Record<string, Record<string, unknown>> } };
  for (const [name, fields] of Object.entries(relaxed)) {
    const s = root.components.schemas[name]!;
    if (Array.isArray(s.required)) s.required = (s.required as string[]).filter((f) => !fields.includes(f));
  }
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(root, "openapi");
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (method: string, route: string, status: number, body: unknown) => {
    const operation = doc.paths[route]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${route} is not in openapi.json`];
    const responses = operation.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
    const response = responses[String(status)];
    if (!response) return [`openapi.json has no ${status} response for ${method} ${route}`];
    // A response the document gives no content (a 204, an environment's delete): nothing to validate.
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) return [];
    const key = `${method} ${route} ${status}`;
    const validate = compiled.get(key) ?? ajv.compile(schemaOfOperation(schema, "response"));
    compiled.set(key, validate);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

/** What a case has: a raw call that validates its answer, and objects made once for the cases to use. */
interface Ctx {
  /** Calls `p` (a path of `route`), expects `status`, validates the body against the route's response; returns the body. */
  call(status: number, p: string, body?: unknown): Promise<any>;
  /** A raw call, for setting up (no validation). */
  api: TestEmulator["api"];
  mode: "production" | "spec";
  /** Objects made before the cases: an integration, a subscriber, a workflow (triggered once), a layout, a topic. */
  made: { integrationId: string; workflowId: string; workflowBody: any; notificationId: string };
}

const WELCOME = { workflowId: "welcome", name: "Welcome", active: true, steps: [{ name: "Chat", type: "chat", controlValues: { body: "hi" } }, { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] };
const HTML = "<html><body><div>{{content}}</div></body></html>";
const GREET = { name: "Greet", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] };

/** A workflow `workflowId` with translation on and its fr_FR translation (setup, not validated). */
async function translated(c: Ctx, workflowId: string): Promise<void> {
  await c.api("POST", "/v2/workflows", { ...GREET, workflowId });
  await c.api("POST", "/v2/translations", { resourceId: workflowId, resourceType: "workflow", locale: "fr_FR", content: { hi: "Salut" } });
}

/** The domain mail.example.com (made once; a second create is a 409) with a webhook route `address`. */
async function routed(c: Ctx, address: string): Promise<void> {
  await c.api("POST", "/v1/domains", { name: "mail.example.com" });
  await c.api("POST", "/v1/domains/mail.example.com/routes", { address, type: "webhook" });
}

/** One case per route of the emulator, keyed `METHOD path` as the route table writes it. */
const CASES: Record<string, (c: Ctx) => Promise<unknown>> = {
  // Integrations
  "GET /v1/integrations": (c) => c.call(200, "/v1/integrations"),
  "GET /v1/integrations/active": (c) => c.call(200, "/v1/integrations/active"),
  "POST /v1/integrations": (c) => c.call(201, "/v1/integrations", { identifier: "sendgrid-case", providerId: "sendgrid", channel: "email", credentials: { apiKey: "k" } }),
  "PUT /v1/integrations/{integrationId}": (c) => c.call(200, `/v1/integrations/${c.made.integrationId}`, { name: "Slack" }),
  "DELETE /v1/integrations/{integrationId}": async (c) => {
    const i = (await c.api("POST", "/v1/integrations", { identifier: "doomed", providerId: "twilio", channel: "sms", credentials: {} })).body;
    return c.call(200, `/v1/integrations/${i._id}`);
  },
  "POST /v1/integrations/{integrationId}/set-primary": (c) => c.call(200, `/v1/integrations/${c.made.integrationId}/set-primary`),
  // Subscribers and their credentials
  "POST /v2/subscribers": async (c) => {
    await c.call(201, "/v2/subscribers", { subscriberId: "bob", email: "b@example.com" });
    await c.call(201, "/v2/subscribers", { subscriberId: "bob", lastName: "B" });
    return c.call(409, "/v2/subscribers?failIfExists=true", { subscriberId: "bob" });
  },
  "GET /v2/subscribers": (c) => c.call(200, "/v2/subscribers?limit=5"),
  "GET /v2/subscribers/{subscriberId}": (c) => c.call(200, "/v2/subscribers/alice"),
  "PATCH /v2/subscribers/{subscriberId}": (c) => c.call(200, "/v2/subscribers/alice", { firstName: "Alice" }),
  "DELETE /v2/subscribers/{subscriberId}": async (c) => {
    await c.api("POST", "/v2/subscribers", { subscriberId: "doomed" });
    return c.call(200, "/v2/subscribers/doomed");
  },
  "PUT /v1/subscribers/{subscriberId}/credentials": (c) => c.call(200, "/v1/subscribers/alice/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/x" } }),
  "PATCH /v1/subscribers/{subscriberId}/credentials": (c) => c.call(200, "/v1/subscribers/alice/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/y" } }),
  "DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}": async (c) => {
    await c.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "discord", credentials: { webhookUrl: "https://d.example/x" } });
    return c.call(204, "/v1/subscribers/alice/credentials/discord");
  },
  // Workflows, events, messages
  "POST /v2/workflows": (c) => c.call(201, "/v2/workflows", { ...WELCOME, workflowId: "welcome-case" }),
  "GET /v2/workflows": (c) => c.call(200, "/v2/workflows"),
  "GET /v2/workflows/{workflowId}": (c) => c.call(200, `/v2/workflows/${c.made.workflowId}`),
  "PUT /v2/workflows/{workflowId}": (c) => c.call(200, `/v2/workflows/${c.made.workflowBody._id}`, {
    name: "Welcome 2", preferences: {}, origin: "platform-cloud",
    steps: c.made.workflowBody.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues })),
  }),
  "PATCH /v2/workflows/{workflowId}": (c) => c.call(200, `/v2/workflows/${c.made.workflowId}`, { description: "patched" }),
  "DELETE /v2/workflows/{workflowId}": async (c) => {
    await c.api("POST", "/v2/workflows", { ...WELCOME, workflowId: "doomed" });
    return c.call(204, "/v2/workflows/doomed");
  },
  "POST /v1/events/trigger": (c) => c.call(201, "/v1/events/trigger", { name: c.made.workflowId, to: "alice", payload: {} }),
  "GET /v1/notifications": (c) => c.call(200, "/v1/notifications"),
  "GET /v1/notifications/{notificationId}": (c) => c.call(200, `/v1/notifications/${c.made.notificationId}`),
  "GET /v1/messages": (c) => c.call(200, "/v1/messages"),
  // Environments and their variables
  "GET /v1/environments": (c) => c.call(200, "/v1/environments"),
  "POST /v1/environments": (c) => c.call(201, "/v1/environments", { name: "Staging", color: "#3498db" }),
  "PUT /v1/environments/{environmentId}": async (c) => {
    const e = (await c.api("POST", "/v1/environments", { name: "Renamed", color: "#000000" })).body;
    if (c.mode === "spec") return c.call(200, `/v1/environments/${e._id}`, { color: "#222222" });
    // Production answers the database's update counters, not the environment the document
    // describes (apps/api/src/app/environments-v1/usecases/update-environment/update-environment.usecase.ts).
    const r = await c.api("PUT", `/v1/environments/${e._id}`, { color: "#222222" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["matched", "modified"]);
  },
  "DELETE /v1/environments/{environmentId}": async (c) => {
    const e = (await c.api("POST", "/v1/environments", { name: "Doomed", color: "#000000" })).body;
    return c.call(200, `/v1/environments/${e._id}`);
  },
  "GET /v1/environment-variables": (c) => c.call(200, "/v1/environment-variables"),
  "POST /v1/environment-variables": (c) => c.call(200, "/v1/environment-variables", { key: "BASE_URL", values: [{ _environmentId: "env_env0", value: "https://x" }] }),
  "GET /v1/environment-variables/{variableKey}": async (c) => {
    await c.api("POST", "/v1/environment-variables", { key: "READ_ME" });
    return c.call(200, "/v1/environment-variables/READ_ME");
  },
  "PATCH /v1/environment-variables/{variableKey}": async (c) => {
    await c.api("POST", "/v1/environment-variables", { key: "PATCH_ME" });
    return c.call(200, "/v1/environment-variables/PATCH_ME", { isSecret: true });
  },
  "DELETE /v1/environment-variables/{variableKey}": async (c) => {
    await c.api("POST", "/v1/environment-variables", { key: "DOOMED" });
    return c.call(204, "/v1/environment-variables/DOOMED");
  },
  // Layouts
  "POST /v2/layouts": (c) => c.call(201, "/v2/layouts", { layoutId: "case-layout", name: "Case" }),
  "GET /v2/layouts": (c) => c.call(200, "/v2/layouts?limit=10"),
  "GET /v2/layouts/{layoutId}": (c) => c.call(200, "/v2/layouts/base"),
  "PUT /v2/layouts/{layoutId}": (c) => c.call(200, "/v2/layouts/base", { name: "Base", controlValues: { email: { body: HTML, editorType: "html" } } }),
  "DELETE /v2/layouts/{layoutId}": async (c) => {
    await c.api("POST", "/v2/layouts", { layoutId: "doomed", name: "Doomed" });
    return c.call(204, "/v2/layouts/doomed");
  },
  // Previews (the welcome workflow's chat step; the base layout)
  "POST /v2/workflows/{workflowId}/step/{stepId}/preview": (c) => c.call(201, `/v2/workflows/${c.made.workflowId}/step/chat/preview`, { previewPayload: { payload: {} } }),
  "POST /v2/layouts/{layoutId}/preview": (c) => c.call(201, "/v2/layouts/base/preview", {}),
  // Topics and their subscriptions
  "POST /v2/topics": (c) => c.call(201, "/v2/topics", { key: "case-topic", name: "Case" }),
  "GET /v2/topics": (c) => c.call(200, "/v2/topics?limit=10"),
  "GET /v2/topics/{topicKey}": (c) => c.call(200, "/v2/topics/news"),
  "PATCH /v2/topics/{topicKey}": (c) => c.call(200, "/v2/topics/news", { name: "News" }),
  "DELETE /v2/topics/{topicKey}": async (c) => {
    await c.api("POST", "/v2/topics", { key: "doomed", name: "Doomed" });
    return c.call(200, "/v2/topics/doomed");
  },
  "POST /v2/topics/{topicKey}/subscriptions": (c) => c.call(201, "/v2/topics/news/subscriptions", { subscriptions: ["alice"] }),
  "GET /v2/topics/{topicKey}/subscriptions": (c) => c.call(200, "/v2/topics/news/subscriptions?limit=10"),
  "DELETE /v2/topics/{topicKey}/subscriptions": async (c) => {
    await c.api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["carol"] });
    return c.call(200, "/v2/topics/news/subscriptions", { subscriptions: ["carol"] });
  },
  // Contexts
  "POST /v2/contexts": async (c) => {
    await c.call(201, "/v2/contexts", { type: "tenant", id: "bare" });
    return c.call(201, "/v2/contexts", { type: "tenant", id: "case", data: { plan: "pro" } });
  },
  "GET /v2/contexts": async (c) => {
    await c.api("POST", "/v2/contexts", { type: "tenant", id: "listed" });
    return c.call(200, "/v2/contexts?limit=1");
  },
  "GET /v2/contexts/{type}/{id}": async (c) => {
    await c.api("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { plan: "pro" } });
    return c.call(200, "/v2/contexts/tenant/acme");
  },
  "PATCH /v2/contexts/{type}/{id}": async (c) => {
    await c.api("POST", "/v2/contexts", { type: "tenant", id: "patched" });
    return c.call(200, "/v2/contexts/tenant/patched", { data: { plan: "enterprise" } });
  },
  "DELETE /v2/contexts/{type}/{id}": async (c) => {
    await c.api("POST", "/v2/contexts", { type: "tenant", id: "doomed" });
    return c.call(204, "/v2/contexts/tenant/doomed");
  },
  // Translations (of a workflow with translation on)
  "POST /v2/translations": async (c) => {
    await c.api("POST", "/v2/workflows", { ...GREET, workflowId: "greet-post" });
    return c.call(200, "/v2/translations", { resourceId: "greet-post", resourceType: "workflow", locale: "fr_FR", content: { hi: "Salut" } });
  },
  "GET /v2/translations/group/{resourceType}/{resourceId}": async (c) => {
    await translated(c, "greet-group");
    return c.call(200, "/v2/translations/group/workflow/greet-group");
  },
  "GET /v2/translations/{resourceType}/{resourceId}/{locale}": async (c) => {
    await translated(c, "greet-one");
    return c.call(200, "/v2/translations/workflow/greet-one/fr_FR");
  },
  "DELETE /v2/translations/{resourceType}/{resourceId}/{locale}": async (c) => {
    await translated(c, "greet-doomed");
    return c.call(204, "/v2/translations/workflow/greet-doomed/fr_FR");
  },
  "DELETE /v2/translations/{resourceType}/{resourceId}": async (c) => {
    await translated(c, "greet-group-doomed");
    return c.call(204, "/v2/translations/workflow/greet-group-doomed");
  },
  // Inbound-email domains and their routes
  "POST /v1/domains": (c) => c.call(201, "/v1/domains", { name: "case.example.com", data: { team: "ops" } }),
  "GET /v1/domains": async (c) => {
    await c.api("POST", "/v1/domains", { name: "listed.example.com" });
    return c.call(200, "/v1/domains");
  },
  "GET /v1/domains/{domain}": async (c) => {
    await c.api("POST", "/v1/domains", { name: "mail.example.com" });
    return c.call(200, "/v1/domains/mail.example.com");
  },
  "PATCH /v1/domains/{domain}": async (c) => {
    await c.api("POST", "/v1/domains", { name: "mail.example.com" });
    return c.call(200, "/v1/domains/mail.example.com", { data: {} });
  },
  "DELETE /v1/domains/{domain}": async (c) => {
    await c.api("POST", "/v1/domains", { name: "doomed.example.com" });
    return c.call(204, "/v1/domains/doomed.example.com");
  },
  "POST /v1/domains/{domain}/verify": async (c) => {
    await c.api("POST", "/v1/domains", { name: "mail.example.com" });
    return c.call(200, "/v1/domains/mail.example.com/verify");
  },
  "POST /v1/domains/{domain}/routes": async (c) => {
    await c.api("POST", "/v1/domains", { name: "mail.example.com" });
    return c.call(201, "/v1/domains/mail.example.com/routes", { address: "support", type: "webhook" });
  },
  "GET /v1/domains/{domain}/routes": async (c) => {
    await routed(c, "listed");
    return c.call(200, "/v1/domains/mail.example.com/routes");
  },
  "GET /v1/domains/{domain}/routes/{address}": async (c) => {
    await routed(c, "read");
    return c.call(200, "/v1/domains/mail.example.com/routes/read");
  },
  "PATCH /v1/domains/{domain}/routes/{address}": async (c) => {
    await routed(c, "patched");
    return c.call(200, "/v1/domains/mail.example.com/routes/patched", { data: { a: "b" } });
  },
  "DELETE /v1/domains/{domain}/routes/{address}": async (c) => {
    await routed(c, "doomed");
    return c.call(204, "/v1/domains/mail.example.com/routes/doomed");
  },
  // Agents, and their links to integrations (slack-main, made before the cases)
  "POST /v1/agents": (c) => c.call(201, "/v1/agents", { identifier: "made", name: "Made", description: "d", active: true }),
  "GET /v1/agents": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "listed", name: "Listed" });
    return c.call(200, "/v1/agents?limit=1");
  },
  "GET /v1/agents/{identifier}": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "read", name: "Read" });
    await c.api("POST", "/v1/agents/read/integrations", { integrationIdentifier: "slack-main" });
    return c.call(200, "/v1/agents/read");
  },
  "PATCH /v1/agents/{identifier}": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "patched", name: "Patched" });
    return c.call(200, "/v1/agents/patched", { name: "Patched 2", behavior: { subscriberAccess: "open" }, bridgeUrl: "https://bots.example.com/p" });
  },
  "DELETE /v1/agents/{identifier}": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "doomed", name: "Doomed" });
    return c.call(204, "/v1/agents/doomed?deleteFromProvider=false");
  },
  "POST /v1/agents/{identifier}/integrations": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "linker", name: "Linker" });
    return c.call(201, "/v1/agents/linker/integrations", { integrationIdentifier: "slack-main" });
  },
  "GET /v1/agents/{identifier}/integrations": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "lister", name: "Lister" });
    await c.api("POST", "/v1/agents/lister/integrations", { integrationIdentifier: "slack-main" });
    return c.call(200, "/v1/agents/lister/integrations");
  },
  "PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId}": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "repoint", name: "Repoint" });
    const link = await c.api("POST", "/v1/agents/repoint/integrations", { integrationIdentifier: "slack-main" });
    return c.call(200, `/v1/agents/repoint/integrations/${link.body._id}`, { integrationIdentifier: "slack-main" });
  },
  "DELETE /v1/agents/{identifier}/integrations/{agentIntegrationId}": async (c) => {
    await c.api("POST", "/v1/agents", { identifier: "unlink", name: "Unlink" });
    const link = await c.api("POST", "/v1/agents/unlink/integrations", { integrationIdentifier: "slack-main" });
    return c.call(204, `/v1/agents/unlink/integrations/${link.body._id}`);
  },
  // Channel connections (of slack-main; alice made before the cases)
  "POST /v1/channel-connections": (c) => c.call(201, "/v1/channel-connections", {
    identifier: "conn-made", integrationIdentifier: "slack-main", connectionMode: "shared", context: { tenant: "acme" }, workspace: { id: "T1", name: "Acme" }, auth: { accessToken: "xoxb-1" },
  }),
  "GET /v1/channel-connections": async (c) => {
    await c.api("POST", "/v1/channel-connections", { identifier: "conn-listed", integrationIdentifier: "slack-main", subscriberId: "alice", workspace: { id: "T2" }, auth: { accessToken: "xoxb-2" } });
    return c.call(200, "/v1/channel-connections?limit=1&subscriberId=alice");
  },
  "GET /v1/channel-connections/{identifier}": async (c) => {
    await c.api("POST", "/v1/channel-connections", { identifier: "conn-read", integrationIdentifier: "slack-main", subscriberId: "alice", context: { app: "read" }, workspace: { id: "T3" }, auth: { accessToken: "xoxb-3" } });
    return c.call(200, "/v1/channel-connections/conn-read");
  },
  "PATCH /v1/channel-connections/{identifier}": async (c) => {
    await c.api("POST", "/v1/channel-connections", { identifier: "conn-patched", integrationIdentifier: "slack-main", subscriberId: "alice", context: { app: "patch" }, workspace: { id: "T4" }, auth: { accessToken: "xoxb-4" } });
    return c.call(200, "/v1/channel-connections/conn-patched", { workspace: { id: "T4", name: "Renamed" }, auth: { accessToken: "xoxb-4b" } });
  },
  "DELETE /v1/channel-connections/{identifier}": async (c) => {
    await c.api("POST", "/v1/channel-connections", { identifier: "conn-doomed", integrationIdentifier: "slack-main", subscriberId: "alice", context: { app: "doomed" }, workspace: { id: "T5" }, auth: { accessToken: "xoxb-5" } });
    return c.call(204, "/v1/channel-connections/conn-doomed");
  },
  // Channel endpoints (of alice and slack-main)
  "POST /v1/channel-endpoints": (c) => c.call(201, "/v1/channel-endpoints", {
    identifier: "endp-made", subscriberId: "alice", integrationIdentifier: "slack-main", type: "slack_channel", endpoint: { channelId: "C1" }, context: { tenant: "acme" },
  }),
  "GET /v1/channel-endpoints": async (c) => {
    await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-listed", subscriberId: "alice", integrationIdentifier: "slack-main", type: "webhook", endpoint: { url: "https://h.example.com/x" } });
    return c.call(200, "/v1/channel-endpoints?limit=1&subscriberId=alice");
  },
  "GET /v1/channel-endpoints/{identifier}": async (c) => {
    await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-read", subscriberId: "alice", integrationIdentifier: "slack-main", type: "phone", endpoint: { phoneNumber: "+14155550123" } });
    return c.call(200, "/v1/channel-endpoints/endp-read");
  },
  "PATCH /v1/channel-endpoints/{identifier}": async (c) => {
    await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-patched", subscriberId: "alice", integrationIdentifier: "slack-main", type: "slack_user", endpoint: { userId: "U1" } });
    return c.call(200, "/v1/channel-endpoints/endp-patched", { endpoint: { userId: "U2" } });
  },
  "DELETE /v1/channel-endpoints/{identifier}": async (c) => {
    await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-doomed", subscriberId: "alice", integrationIdentifier: "slack-main", type: "slack_channel", endpoint: { channelId: "C9" } });
    return c.call(204, "/v1/channel-endpoints/endp-doomed");
  },
  // A subscriber's preferences (alice, and the welcome workflow, made before the cases)
  "GET /v2/subscribers/{subscriberId}/preferences": async (c) => {
    await c.api("PATCH", "/v2/subscribers/alice/preferences", { workflowId: c.made.workflowId, channels: { chat: false } });
    await c.call(200, "/v2/subscribers/alice/preferences?criticality=all");
    return c.call(200, "/v2/subscribers/alice/preferences");
  },
  "PATCH /v2/subscribers/{subscriberId}/preferences": async (c) => {
    await c.call(200, "/v2/subscribers/alice/preferences", {
      channels: { email: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } },
    });
    return c.call(200, "/v2/subscribers/alice/preferences", { workflowId: c.made.workflowId, channels: { in_app: false } });
  },
  // One topic subscription (topic news and subscriber alice, made before the cases; the welcome workflow)
  "GET /v2/topics/{topicKey}/subscriptions/{identifier}": async (c) => {
    await c.api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-read", name: "Read" }] });
    await c.api("PATCH", "/v2/topics/news/subscriptions/alice-read", { preferences: [{ filter: { workflowIds: [c.made.workflowId] }, enabled: false }] });
    return c.call(200, "/v2/topics/news/subscriptions/alice-read");
  },
  "PATCH /v2/topics/{topicKey}/subscriptions/{identifier}": async (c) => {
    await c.api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-patched" }] });
    return c.call(200, "/v2/topics/news/subscriptions/alice-patched", {
      name: "Patched", preferences: [{ filter: { workflowIds: [c.made.workflowId] }, condition: { "==": [{ var: "payload.tier" }, "premium"] } }],
    });
  },
};

const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

it("every case is a route of the emulator", () => {
  expect(Object.keys(CASES).filter((k) => !ROUTES.some((r) => routeKey(r) === k))).toEqual([]);
});

describe.each(["production", "spec"] as const)("emulator responses conform to openapi.json in %s mode", (mode) => {
  let emu: TestEmulator;
  let made: Ctx["made"];
  const check = validatorFor(mode === "production" ? { IntegrationResponseDto: ["credentials"] } : {});

  beforeAll(async () => {
    emu = await startTestEmulator({ mode });
    const ok = async (method: string, p: string, body?: unknown) => {
      const r = await emu.api(method, p, body);
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    await ok("POST", "/__emulator/behaviour", { plan: null });
    const integration = await ok("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true, credentials: {} });
    await ok("POST", "/v2/subscribers", { subscriberId: "alice", email: "a@example.com" });
    await ok("POST", "/v2/subscribers", { subscriberId: "carol" });
    const workflow = await ok("POST", "/v2/workflows", WELCOME);
    await ok("POST", "/v1/events/trigger", { name: WELCOME.workflowId, to: "alice", payload: {} });
    const events = await ok("GET", "/v1/notifications");
    await ok("POST", "/v2/layouts", { layoutId: "base", name: "Base" });
    await ok("POST", "/v2/topics", { key: "news", name: "News" });
    made = { integrationId: integration._id, workflowId: WELCOME.workflowId, workflowBody: workflow, notificationId: events.data[0]._id };
  });
  afterAll(async () => { await emu?.close(); });

  it.each(ROUTES.map((r) => [r.method, r.path] as const))("%s %s: its body validates", async (method, route) => {
    const run = CASES[`${method} ${route}`];
    expect(run, `no case for ${method} ${route}: add one to CASES`).toBeDefined();
    await run!({
      mode,
      api: (...a) => emu.api(...a),
      made,
      call: async (status, p, body) => {
        const r = await emu.api(method, p, body);
        expect(r.status, JSON.stringify(r.body)).toBe(status);
        expect(check(method, route, status, r.body)).toEqual([]);
        return r.body;
      },
    });
  });

});
