/**
 * The emulator's response bodies, unwrapped from the envelope, validate against the response
 * schemas of spec/openapi.json (the service's published document, which nobody here wrote): for
 * every route of the emulator's route table (emulator/server.ts's ROUTES), a case calls it and
 * validates what it answers. The case of an operation of a resource kind's API is its
 * descriptor's (`openapiCases` of test/kinds/<kind>.ts); those of no kind are below. A route
 * without a case fails, and so does an operation with two, each naming the operation.
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
import type { OpenapiCases, OpenapiContext } from "../kinds/descriptor";
import { KINDS } from "../kinds/index";

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

const WELCOME = { workflowId: "welcome", name: "Welcome", active: true, steps: [{ name: "Chat", type: "chat", controlValues: { body: "hi" } }, { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] };

/**
 * The cases of the operations of no resource kind, keyed `METHOD path` as the route table writes
 * it; each kind's are its descriptor's `openapiCases` (test/kinds/<kind>.ts).
 */
const CASES: OpenapiCases = {
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
  ["CASES of test/conformance/openapi.test.ts", CASES],
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
const { cases: ALL, twice: TWICE } = gather();

const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

it("every case is a route of the emulator", () => {
  expect([...ALL].filter(([k]) => !ROUTES.some((r) => routeKey(r) === k)).map(([k, { where }]) => `${k} (${where})`)).toEqual([]);
});

it("no operation has two cases", () => {
  expect(TWICE).toEqual([]);
});

describe.each(["production", "spec"] as const)("emulator responses conform to openapi.json in %s mode", (mode) => {
  let emu: TestEmulator;
  let made: OpenapiContext["made"];
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
    // What OpenapiContext's `made` says the cases find.
    made = { integrationId: integration._id, workflowId: WELCOME.workflowId, workflowBody: workflow, notificationId: events.data[0]._id };
  });
  afterAll(async () => { await emu?.close(); });

  it.each(ROUTES.map((r) => [r.method, r.path] as const))("%s %s: its body validates", async (method, route) => {
    const run = ALL.get(`${method} ${route}`)?.run;
    expect(run, `no case for ${method} ${route}: add one to its kind's descriptor (openapiCases, test/kinds/<kind>.ts), or to CASES here for an operation of no kind`).toBeDefined();
    await run!({
      mode,
      api: (...a) => emu.api(...a),
      made,
      expect: (actual, message) => expect(actual, message),
      call: async (status, p, body) => {
        const r = await emu.api(method, p, body);
        expect(r.status, JSON.stringify(r.body)).toBe(status);
        expect(check(method, route, status, r.body)).toEqual([]);
        return r.body;
      },
    });
  });

});
