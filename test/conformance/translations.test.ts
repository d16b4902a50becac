/**
 * The emulator's translations (`/v2/translations`) behave as production, in both modes (api.md does
 * not describe them). Sources: the service's public repository, apps/api/src/app/translations/e2e/v2/
 * and its enterprise translation package (cited per test). One test per behaviour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("translations behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const put = (locale: string, content: Record<string, unknown>, resourceId = "welcome", resourceType = "workflow") =>
    api("POST", "/v2/translations", { resourceId, resourceType, locale, content });
  const get = (locale: string, resourceId = "welcome", resourceType = "workflow") => api("GET", `/v2/translations/${resourceType}/${resourceId}/${locale}`);

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await api("POST", "/__emulator/behaviour", { plan: null });
    await api("POST", "/v2/workflows", { workflowId: "welcome", name: "Welcome", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "{{t.hello}}" } }] });
  });

  // e2e/v2/create-translation.e2e-ee.ts: "should create new translation successfully" and "should
  // update existing translation" both expect 200; the update's content is exactly the new content.
  it("creates and replaces a locale's content whole with one POST, answering 200 both times", async () => {
    const first = await put("en_US", { hello: "Hello", bye: "Bye" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ resourceId: "welcome", resourceType: "workflow", locale: "en_US", content: { hello: "Hello", bye: "Bye" } });
    const second = await put("en_US", { hello: "Hi" });
    expect(second.status).toBe(200);
    expect((await get("en_US")).body.content).toEqual({ hello: "Hi" });
  });

  // e2e/v2/create-translation.e2e-ee.ts "should validate locale format" (422 in the body);
  // e2e/v2/delete-translation.e2e-ee.ts "should validate locale format in URL parameter" (400) and
  // "should handle underscores in locale and normalize them" (en-US is en_US).
  it("refuses a malformed locale (422 in a body, 400 in a path) and reads en-US as en_US", async () => {
    expect((await put("123", { k: "v" })).status).toBe(422);
    expect((await api("DELETE", "/v2/translations/workflow/welcome/invalid-locale-123")).status).toBe(400);
    await put("en_US", { k: "v" });
    expect((await api("DELETE", "/v2/translations/workflow/welcome/en-US")).status).toBe(204);
    expect((await get("en_US")).status).toBe(404);
    expect((await put("zh_Hans_CN", { k: "v" })).status).toBe(200);
  });

  // e2e/v2/delete-translation.e2e-ee.ts: 204, only that locale goes; 404 for a locale or workflow that does not exist.
  it("deletes one locale with 204, leaving the others, and answers 404 for what does not exist", async () => {
    await put("en_US", { hello: "Hello" });
    await put("fr_FR", { hello: "Bonjour" });
    expect((await api("DELETE", "/v2/translations/workflow/welcome/en_US")).status).toBe(204);
    expect((await get("en_US")).status).toBe(404);
    expect((await get("fr_FR")).body.content).toEqual({ hello: "Bonjour" });
    expect((await api("DELETE", "/v2/translations/workflow/welcome/de_DE")).status).toBe(404);
    expect((await api("DELETE", "/v2/translations/workflow/507f1f77bcf86cd799439011/en_US")).status).toBe(404);
    expect((await put("en_US", { k: "v" }, "no-such-workflow")).status).toBe(404);
  });

  // e2e/v2/delete-translation-group.e2e-ee.ts: the group's delete takes every locale (204); 404 when there is none.
  it("deletes a resource's whole group with 204, and answers 404 for a group that does not exist", async () => {
    await put("en_US", { a: "1" });
    await put("es_ES", { a: "2" });
    expect((await api("DELETE", "/v2/translations/workflow/welcome")).status).toBe(204);
    expect((await get("en_US")).status).toBe(404);
    expect((await get("es_ES")).status).toBe(404);
    expect((await api("DELETE", "/v2/translations/workflow/welcome")).status).toBe(404);
  });

  // The translation package's DeleteTranslationGroupCommand, "used when a workflow is deleted, a
  // layout is deleted": the group and every localization in it go with the resource.
  it("deletes a workflow's and a layout's translations with the workflow or layout", async () => {
    await put("en_US", { a: "1" });
    await api("POST", "/v2/layouts", { layoutId: "frame", name: "Frame" });
    await api("POST", "/v2/layouts", { layoutId: "brand", name: "Brand", isTranslationEnabled: true });
    expect((await put("fr_FR", { footer: "Pied" }, "brand", "layout")).status).toBe(200);
    await api("DELETE", "/v2/workflows/welcome");
    await api("DELETE", "/v2/layouts/brand");
    expect((await emu.state() as unknown as { translations: unknown[] }).translations).toEqual([]);
    // A workflow made again under the same id starts without translations.
    await api("POST", "/v2/workflows", { workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "x" } }] });
    expect((await get("en_US")).status).toBe(404);
  });

  // The translation package's manage-translations use case: turning translations off "soft-disables
  // by not deleting data"; the data is kept for a re-enable.
  it("keeps a workflow's translations when its isTranslationEnabled goes off", async () => {
    await put("en_US", { hello: "Hello" });
    const w = (await api("GET", "/v2/workflows/welcome")).body;
    const r = await api("PUT", `/v2/workflows/${w._id}`, {
      name: w.name, isTranslationEnabled: false, origin: w.origin, preferences: {},
      steps: w.steps.map((s: { _id: string; name: string; type: string; controlValues: unknown }) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues })),
    });
    expect(r.status).toBe(200);
    expect(r.body.isTranslationEnabled).toBe(false);
    expect((await get("en_US")).body.content).toEqual({ hello: "Hello" });
  });

  // e2e/v2/*.e2e-ee.ts raise the organisation to the Business tier "to avoid payment required errors".
  it("answers 402 below the Business plan", async () => {
    await api("POST", "/__emulator/behaviour", { plan: "pro" });
    expect((await put("en_US", { a: "1" })).status).toBe(402);
    await api("POST", "/__emulator/behaviour", { plan: "business" });
    expect((await put("en_US", { a: "1" })).status).toBe(200);
  });

  // e2e/v2/get-translation-group.e2e-ee.ts: the group names the resource and lists its locales.
  it("lists a resource's locales in its group", async () => {
    await put("fr_FR", { a: "1" });
    await put("en_US", { a: "2" });
    const g = await api("GET", "/v2/translations/group/workflow/welcome");
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ resourceId: "welcome", resourceType: "workflow", resourceName: "Welcome", locales: ["en_US", "fr_FR"] });
  });
});
