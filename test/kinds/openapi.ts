/**
 * The cases of test/conformance/openapi.test.ts, shared with the live suite's probes
 * (test/live): every operation's case (a kind's descriptor's `openapiCases`, or {@link CASES} here
 * for an operation of no kind), the objects the cases find made ({@link makeMade}), and the
 * validator of an answer against its operation's response in spec/openapi.json.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { componentsAsJsonSchema, openApiDocument, schemaOfOperation } from "../../emulator/contract";
import type { TestEmulator } from "../helpers/emulator";
import type { OpenapiCases, OpenapiContext } from "./descriptor";
import { KINDS } from "./index";

const doc = openApiDocument();

/** A response validator; `relaxed` drops required fields where production differs from the document. */
export function validatorFor(relaxed: Record<string, string[]> = {}) {
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

/** Production hides an integration's credentials from API-key callers: the document's requirement is relaxed for it. */
export const PRODUCTION_RELAXED = { IntegrationResponseDto: ["credentials"] };

const WELCOME = { workflowId: "welcome", name: "Welcome", active: true, steps: [{ name: "Chat", type: "chat", controlValues: { body: "hi" } }, { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] };

/**
 * The cases of the operations of no resource kind, keyed `METHOD path` as the route table writes
 * it; each kind's are its descriptor's `openapiCases` (test/kinds/<kind>.ts).
 */
export const CASES: OpenapiCases = {
  // Events and messages (the welcome workflow, triggered once before the cases)
  "POST /v1/events/trigger": (c) => c.call(201, "/v1/events/trigger", { name: c.made.workflowId, to: "alice", payload: {} }),
  "GET /v1/notifications": (c) => c.call(200, "/v1/notifications"),
  "GET /v1/notifications/{notificationId}": (c) => c.call(200, `/v1/notifications/${c.made.notificationId}`),
  "GET /v1/messages": (c) => c.call(200, "/v1/messages"),
  // Previews (the welcome workflow's chat step; the base layout)
  "POST /v2/workflows/{workflowId}/step/{stepId}/preview": (c) => c.call(201, `/v2/workflows/${c.made.workflowId}/step/chat/preview`, { previewPayload: { payload: {} } }),
  "POST /v2/layouts/{layoutId}/preview": (c) => c.call(201, "/v2/layouts/base/preview", {}),
};

/** Where each operation's case is: this file, or a kind's descriptor. */
const SOURCES: readonly [where: string, cases: OpenapiCases][] = [
  ["CASES of test/kinds/openapi.ts", CASES],
  ...KINDS.map((d) => [`openapiCases of ${d.kind} (test/kinds/)`, d.openapiCases] as [string, OpenapiCases]),
];

/** Every operation's case and where it is written; an operation written in two places keeps the first and is in `twice`. */
function gather(): { cases: Map<string, { where: string; run: OpenapiCases[string] }>; twice: string[] } {
  const cases = new Map<string, { where: string; run: OpenapiCases[string] }>();
  const twice: string[] = [];
  for (const [where, table] of SOURCES) {
    for (const [op, run] of Object.entries(table)) {
      const first = cases.get(op);
      if (first) twice.push(`${op}: in ${first.where} and in ${where}`);
      else cases.set(op, { where, run });
    }
  }
  return { cases, twice };
}
export const { cases: ALL_CASES, twice: TWICE } = gather();

/**
 * Makes what OpenapiContext's `made` says the cases find (the integration slack-main, the
 * subscribers alice and carol, the welcome workflow triggered once, the layout base, the topic
 * news), through `api`; returns `made`.
 */
export async function makeMade(api: TestEmulator["api"]): Promise<OpenapiContext["made"]> {
  const ok = async (method: string, p: string, body?: unknown) => {
    const r = await api(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const integration = await ok("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true, credentials: {} });
  await ok("POST", "/v2/subscribers", { subscriberId: "alice", email: "a@example.com" });
  await ok("POST", "/v2/subscribers", { subscriberId: "carol" });
  const workflow = await ok("POST", "/v2/workflows", WELCOME);
  await ok("POST", "/v1/events/trigger", { name: WELCOME.workflowId, to: "alice", payload: {} });
  const events = await ok("GET", "/v1/notifications");
  await ok("POST", "/v2/layouts", { layoutId: "base", name: "Base" });
  await ok("POST", "/v2/topics", { key: "news", name: "News" });
  return { integrationId: integration._id, workflowId: WELCOME.workflowId, workflowBody: workflow, notificationId: events.data[0]._id };
}
