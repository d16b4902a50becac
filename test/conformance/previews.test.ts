/**
 * The emulator's previews behave as production, per spec/production-notes.md, Fifth pass §3
 * (sources: the service's public repository; paths as in that repository, cited per test), in
 * both of the emulator's modes; every request here is valid against spec/openapi.json. One test
 * per behaviour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

/** A block-editor (Maily) document: a heading with a payload variable, a paragraph with a subscriber variable. */
const BLOCK_BODY = JSON.stringify({
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 2, textAlign: "left" }, content: [{ type: "text", text: "Order " }, { type: "variable", attrs: { id: "payload.orderId" } }] },
    { type: "paragraph", attrs: { textAlign: "left" }, content: [{ type: "text", text: "Hi " }, { type: "variable", attrs: { id: "subscriber.firstName" } }] },
  ],
});
const HTML_LAYOUT = "<html><body><header>ACME header</header>{{ content }}<footer>ACME footer</footer></body></html>";
const HTML_EMAIL = { subject: "Order {{ payload.orderId }}", body: "<html><body><p>Hello {{ subscriber.firstName }}, order {{ payload.orderId }}</p></body></html>", editorType: "html" };

describe.each(["production", "spec"] as const)("previews behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const workflow = (workflowId: string, steps: unknown[], extra: Record<string, unknown> = {}) =>
    api("POST", "/v2/workflows", { workflowId, name: workflowId, steps, ...extra });
  const preview = (workflowId: string, stepId: string, body: unknown = {}) => api("POST", `/v2/workflows/${workflowId}/step/${stepId}/preview`, body);
  const payload = (p: Record<string, unknown>) => ({ previewPayload: { payload: p } });

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await api("POST", "/__emulator/behaviour", { plan: null });
  });

  // libs/application-generic/src/usecases/preview/preview.usecase.ts: 201 (the controller's POST),
  // `{result: {type, preview}, previewPayloadExample, schema}`;
  // apps/api/src/app/environments-v1/usecases/output-renderers/email-output-renderer.usecase.ts:
  // an `html` body is Liquid-rendered, the subject too.
  it("renders an html email body and its subject with Liquid, the payload substituted", async () => {
    await workflow("orders", [{ name: "Email", stepId: "email", type: "email", controlValues: HTML_EMAIL }]);
    const r = await preview("orders", "email", payload({ orderId: "A-17" }));
    expect(r.status).toBe(201);
    expect(r.body.result.type).toBe("email");
    expect(r.body.result.preview.subject).toBe("Order A-17");
    expect(r.body.result.preview.body).toContain("<p>Hello John, order A-17</p>");
    expect(r.body.previewPayloadExample.payload).toEqual({ orderId: "A-17" });
  });

  // email-output-renderer.usecase.ts: a body that parses as JSON is block-editor content, wrapped in
  // Liquid, rendered with the payload, then turned into a whole HTML document by Maily's renderer
  // (its doctype and comments stripped, renderWithLayout).
  it("renders a block-editor body to a whole HTML document, its variables substituted", async () => {
    await workflow("orders", [{ name: "Email", stepId: "email", type: "email", controlValues: { subject: "S", body: BLOCK_BODY, editorType: "block" } }]);
    const body: string = (await preview("orders", "email", payload({ orderId: "B-42" }))).body.result.preview.body;
    expect(body).toMatch(/^<html[^>]*>[\s\S]*<\/html>$/);
    expect(body).toMatch(/<h2[^>]*>Order B-42<\/h2>/);
    expect(body).toMatch(/Hi John/);
    expect(body).not.toContain("{{");
  });

  // email-output-renderer.usecase.ts (renderWithLayout): the step's layoutId names a layout whose
  // body is rendered with the step's HTML as its `content` variable.
  it("puts the step's layout around the body", async () => {
    await api("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" });
    await api("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { body: HTML_LAYOUT, editorType: "html" } } });
    await workflow("orders", [{ name: "Email", stepId: "email", type: "email", controlValues: { ...HTML_EMAIL, body: "<p>Order {{ payload.orderId }}</p>", layoutId: "brand" } }]);
    const body: string = (await preview("orders", "email", payload({ orderId: "C-3" }))).body.result.preview.body;
    expect(body).toMatch(/<header>ACME header<\/header><p>Order C-3<\/p><footer>ACME footer<\/footer>/);
  });

  // email-output-renderer.usecase.ts: a block-editor step inside a block-editor layout: the layout's
  // content variable node holds the step's HTML (rendered without its own document tags).
  it("puts a block-editor body inside a block-editor layout as one document", async () => {
    await api("POST", "/v2/layouts", { layoutId: "seeded", name: "Seeded" }); // seeded with a block body holding {{content}}
    await workflow("orders", [{ name: "Email", stepId: "email", type: "email", controlValues: { subject: "S", body: BLOCK_BODY, layoutId: "seeded" } }]);
    const body: string = (await preview("orders", "email", payload({ orderId: "D-9" }))).body.result.preview.body;
    expect(body.match(/<html/g)).toHaveLength(1);
    expect(body).toMatch(/<h2[^>]*>Order D-9<\/h2>/);
  });

  // email-output-renderer.usecase.ts (appendNovuBranding): the branding footer goes before the
  // last </body> unless the organization removed branding.
  it("adds the platform's branding footer before </body>", async () => {
    await workflow("orders", [{ name: "Email", stepId: "email", type: "email", controlValues: HTML_EMAIL }]);
    const body: string = (await preview("orders", "email")).body.result.preview.body;
    expect(body).toMatch(/data-platform-branding[\s\S]*<\/body>/);
  });

  // preview.usecase.ts (initializePreviewContext): the body's controlValues replace the stored ones.
  it("renders the control values of the request instead of the stored ones", async () => {
    await workflow("orders", [{ name: "SMS", stepId: "sms", type: "sms", controlValues: { body: "stored" } }]);
    const r = await preview("orders", "sms", { controlValues: { body: "sent {{ payload.n }}" }, ...payload({ n: 2 }) });
    expect(r.body.result).toEqual({ type: "sms", preview: { body: "sent 2" } });
  });

  // libs/application-generic/src/usecases/preview/utils/preview-error-handler.ts (createErrorResponse)
  // and apps/api/src/app/workflows-v2/e2e/generate-preview.e2e.ts: an unknown workflow or step is a
  // 201 with an empty preview, no type, an empty payload example and a null schema.
  it("answers an unknown workflow or step with 201 and an empty preview", async () => {
    await workflow("orders", [{ name: "SMS", stepId: "sms", type: "sms", controlValues: { body: "x" } }]);
    for (const [w, s] of [["nope", "sms"], ["orders", "nope"]]) {
      const r = await preview(w!, s!);
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ result: { preview: {} }, previewPayloadExample: {}, schema: null });
    }
  });

  // preview.usecase.ts (the inner catch): a step that does not render gets `preview: {}`, its type,
  // and the payload example and schema still filled.
  it("answers a template that does not compile with an empty preview and the rest filled", async () => {
    await workflow("orders", [{ name: "SMS", stepId: "sms", type: "sms", controlValues: { body: "ok" } }]);
    const r = await preview("orders", "sms", { controlValues: { body: "{% if %}" } });
    expect(r.status).toBe(201);
    expect(r.body.result).toEqual({ type: "sms", preview: {} });
    expect(r.body.previewPayloadExample.subscriber).toBeDefined();
    expect(r.body.schema).not.toBeNull();
  });

  // Output renderers of apps/api/src/app/environments-v1/usecases/output-renderers/ (in-app, SMS,
  // chat, push) and spec/openapi.json GeneratePreviewResponseDto: each channel's fields, rendered.
  it("renders in-app, SMS, chat and push steps to their channels' fields", async () => {
    const steps = [
      { name: "Inbox", stepId: "inbox", type: "in_app", controlValues: { subject: "Hi {{ subscriber.firstName }}", body: "Order {{ payload.id }}", redirect: { url: "/orders/{{ payload.id }}" } } },
      { name: "SMS", stepId: "sms", type: "sms", controlValues: { body: "SMS {{ payload.id }}" } },
      { name: "Chat", stepId: "chat", type: "chat", controlValues: { body: "Chat {{ payload.id }}" } },
      { name: "Push", stepId: "push", type: "push", controlValues: { subject: "Push", body: "Push {{ payload.id }}" } },
    ];
    await workflow("orders", steps);
    const got = async (s: string) => (await preview("orders", s, payload({ id: "7" }))).body.result;
    expect(await got("inbox")).toEqual({ type: "in_app", preview: { subject: "Hi John", body: "Order 7", redirect: { url: "/orders/7" } } });
    expect(await got("sms")).toEqual({ type: "sms", preview: { body: "SMS 7" } });
    expect(await got("chat")).toEqual({ type: "chat", preview: { body: "Chat 7" } });
    expect(await got("push")).toEqual({ type: "push", preview: { subject: "Push", body: "Push 7" } });
  });

  // libs/application-generic/src/usecases/preview/services/payload-merger.service.ts: with a payload
  // schema the example is generated from it and the request's payload keys the schema lacks are dropped;
  // mock-data-generator.service.ts: the example subscriber, under the request's fields.
  it("builds the payload example from the payload schema and the example subscriber", async () => {
    const payloadSchema = { type: "object", properties: { orderId: { type: "string" }, total: { type: "number", default: 10 } } };
    await workflow("orders", [{ name: "SMS", stepId: "sms", type: "sms", controlValues: { body: "{{ payload.orderId }} {{ payload.total }}" } }], { payloadSchema });
    const r = await preview("orders", "sms", { previewPayload: { payload: { orderId: "E-1", stray: 1 }, subscriber: { firstName: "Ada" } } });
    expect(r.body.previewPayloadExample.payload).toEqual({ orderId: "E-1", total: 10 });
    expect(r.body.previewPayloadExample.subscriber).toMatchObject({ subscriberId: "123456", firstName: "Ada", lastName: "Doe", email: "user@example.com" });
    expect(r.body.result.preview).toEqual({ body: "E-1 10" });
  });

  // apps/api/src/app/layouts-v2/usecases/preview-layout/preview-layout.usecase.ts and preview-utils.ts;
  // packages/shared/src/consts/layouts.ts: 201, an email preview of the layout whose content variable
  // is a dashed placeholder box reading "Dynamic placeholder content".
  it("previews a layout with a placeholder in place of its content", async () => {
    await api("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" });
    await api("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { body: HTML_LAYOUT, editorType: "html" } } });
    const r = await api("POST", "/v2/layouts/brand/preview", {});
    expect(r.status).toBe(201);
    expect(r.body.result.type).toBe("email");
    expect(r.body.result.preview.body).toMatch(/ACME header<\/header><table data-content-placeholder[^>]*>[\s\S]*dashed[\s\S]*Dynamic placeholder content/);
    expect(r.body.schema).toMatchObject({ type: "object", properties: { subscriber: {}, context: {} } });
  });

  // preview-utils.ts: in a block-editor layout (a new layout's seeded body) the content variable node
  // becomes the placeholder, inserted as HTML.
  it("previews a block-editor layout with the placeholder as HTML", async () => {
    await api("POST", "/v2/layouts", { layoutId: "seeded", name: "Seeded" });
    const body: string = (await api("POST", "/v2/layouts/seeded/preview", {})).body.result.preview.body;
    expect(body).toMatch(/<table data-content-placeholder[\s\S]*Dynamic placeholder content/);
  });

  // preview-layout.usecase.ts (GetLayoutUseCase first, outside the try): an unknown layout is a 404.
  it("answers an unknown layout with 404", async () => {
    const r = await api("POST", "/v2/layouts/nope/preview", {});
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^Layout not found for id nope/);
  });
});
