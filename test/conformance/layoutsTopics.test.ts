/**
 * The emulator's layouts (v2) and topics (v2) behave as production, per spec/production-notes.md,
 * Third pass §3 and §4 (sources: the service's public repository; paths as in that repository,
 * cited per test), and every request here is valid against spec/openapi.json. One test per
 * behaviour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const HTML = "<html><body><header>ACME</header>{{ content }}</body></html>";

describe("layouts and topics behave as production", () => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const env = "env_env0";
  const layout = (layoutId: string, name = layoutId, extra: Record<string, unknown> = {}) => api("POST", "/v2/layouts", { layoutId, name, ...extra });

  beforeAll(async () => { emu = await startTestEmulator(); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await api("POST", "/__emulator/behaviour", { plan: null });
  });

  describe("layouts (Third pass §3)", () => {
    // apps/api/src/app/layouts-v2/usecases/upsert-layout/upsert-layout.usecase.ts: isDefault is
    // "no default layout yet"; apps/api/src/app/layouts-v2/e2e/upsert-layout.e2e.ts.
    it("makes the first layout of an environment its default and later ones not", async () => {
      const first = await layout("first");
      const second = await layout("second");
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ layoutId: "first", isDefault: true, isTranslationEnabled: false, type: "BRIDGE" });
      expect(second.body.isDefault).toBe(false);
    });

    // apps/api/src/app/layouts-v2/layouts.controller.ts and utils/layout-templates.ts: create
    // ignores controlValues and seeds a block body holding the content variable.
    it("ignores control values on create and seeds a block body with the content variable", async () => {
      const r = await layout("seeded", "Seeded", { controlValues: { email: { body: HTML, editorType: "html" } } });
      expect(r.status).toBe(201);
      const email = r.body.controls.values.email;
      expect(email.editorType).toBe("block");
      const doc = JSON.parse(email.body);
      expect(doc.type).toBe("doc");
      expect(JSON.stringify(doc)).toContain('"type":"variable","attrs":{"id":"content"');
    });

    // libs/application-generic/src/services/resource-validator.service.ts;
    // packages/shared/src/consts/feature-tiers-constants.ts: FREE holds one v2 layout.
    it("refuses a second layout on the FREE plan with 400 and the count and limit", async () => {
      await api("POST", "/__emulator/behaviour", { plan: "free" });
      expect((await layout("only")).status).toBe(201);
      const r = await layout("more");
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: "Layout limit exceeded. Please contact us to support more layouts.", currentCount: 1, limit: 1, ctx: { currentCount: 1, limit: 1 } });
    });

    // apps/api/src/app/layouts-v2/usecases/upsert-layout/upsert-layout.usecase.ts (the limit is
    // checked before the duplicate); apps/api/src/app/layouts-v1/usecases/create-layout/create-layout.use-case.ts.
    it("answers a duplicate layoutId with 409", async () => {
      await layout("dup");
      const r = await layout("dup");
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(`Layout with identifier: dup already exists under environment ${env}`);
    });

    // libs/application-generic/src/usecases/get-layout-v0/get-layout.use-case.ts: PUT is not an upsert.
    it("answers PUT of an unknown layout with 404 instead of creating it", async () => {
      const r = await api("PUT", "/v2/layouts/nope", { name: "Nope" });
      expect(r.status).toBe(404);
      expect(r.body.message).toBe(`Layout not found for id nope in the environment ${env}`);
      expect((await api("GET", "/v2/layouts")).body.totalCount).toBe(0);
    });

    // libs/application-generic/src/pipes/parse-slug-id.ts: identifier, _id or slug.
    it("finds a layout by layoutId, database id and slug", async () => {
      const { body } = await layout("brand", "Brand Frame");
      expect(body.slug).toMatch(/^brand-frame_lt_[0-9A-Za-z]+$/);
      for (const id of ["brand", body._id, body.slug]) expect((await api("GET", `/v2/layouts/${id}`)).body._id).toBe(body._id);
    });

    // apps/api/src/app/layouts-v2/usecases/upsert-layout/upsert-layout.usecase.ts (upsertControlValues):
    // omitted keeps, null clears (values {}), an object replaces.
    it("keeps control values on PUT without them, replaces them with an object and clears them with null", async () => {
      const { body } = await layout("cv");
      const seeded = body.controls.values;
      expect((await api("PUT", "/v2/layouts/cv", { name: "CV" })).body.controls.values).toEqual(seeded);
      const set = await api("PUT", "/v2/layouts/cv", { name: "CV", controlValues: { email: { body: HTML, editorType: "html" } } });
      expect(set.status).toBe(200);
      expect(set.body.controls.values).toEqual({ email: { body: HTML, editorType: "html" } });
      const cleared = await api("PUT", "/v2/layouts/cv", { name: "CV", controlValues: null });
      expect(cleared.body.controls.values).toEqual({});
      expect((await api("GET", "/v2/layouts/cv")).body.controls.values).toEqual({});
    });

    // apps/api/src/app/layouts-v2/usecases/upsert-layout/upsert-layout.usecase.ts (validateLayout).
    it("refuses an html body that is not a whole HTML document with 400", async () => {
      await layout("h");
      const r = await api("PUT", "/v2/layouts/h", { name: "H", controlValues: { email: { body: "<p>{{ content }}</p>", editorType: "html" } } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Content must be a valid HTML content");
    });

    // Same file: a block body must be a stringified block-editor ("Maily") document.
    it("refuses a block body that is not a block-editor document with 400", async () => {
      await layout("b");
      const r = await api("PUT", "/v2/layouts/b", { name: "B", controlValues: { email: { body: HTML, editorType: "block" } } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Content must be a valid Maily JSON content");
    });

    // apps/api/src/app/layouts-v2/usecases/build-layout-issues/build-layout-issues.usecase.ts;
    // packages/shared/src/consts/layouts.ts: the body must hold the content variable.
    it("refuses a body without the content variable with 400 and the issue under ctx.controls", async () => {
      await layout("c");
      const r = await api("PUT", "/v2/layouts/c", { name: "C", controlValues: { email: { body: "<html><body>no</body></html>", editorType: "html" } } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Layout has validation issues");
      expect(r.body.ctx.controls["email.body"][0].message).toBe('The layout body should contain the "content" variable');
    });

    // apps/api/src/app/layouts-v2/usecases/delete-layout/delete-layout.use-case.ts.
    it("refuses to delete the default layout with 409 and deletes another with 204", async () => {
      await layout("default");
      await layout("other");
      const d = await api("DELETE", "/v2/layouts/default");
      expect(d.status).toBe(409);
      expect(d.body.message).toBe("Layout with id default is being used as a default layout, it can not be deleted");
      expect((await api("DELETE", "/v2/layouts/other")).status).toBe(204);
      expect((await api("GET", "/v2/layouts/other")).status).toBe(404);
      expect((await api("DELETE", "/v2/layouts/other")).status).toBe(404);
    });

    // Same file; libs/dal/src/repositories/layout/layout.repository.ts: the email steps that named
    // the layout lose their layoutId control.
    it("removes a deleted layout from every email step of the environment that named it", async () => {
      await layout("default");
      await layout("promo");
      const steps = [{ name: "Email", type: "email", controlValues: { subject: "S", body: "B", layoutId: "promo" } }];
      await api("POST", "/v2/workflows", { workflowId: "w1", name: "W1", steps });
      await api("POST", "/v2/workflows", { workflowId: "w2", name: "W2", steps: [{ ...steps[0], controlValues: { subject: "S", body: "B", layoutId: "default" } }] });
      expect((await api("DELETE", "/v2/layouts/promo")).status).toBe(204);
      const w1 = (await api("GET", "/v2/workflows/w1")).body.steps[0].controlValues;
      expect(w1).toEqual({ subject: "S", body: "B", editorType: "block" });
      expect((await api("GET", "/v2/workflows/w2")).body.steps[0].controlValues.layoutId).toBe("default");
    });

    // libs/application-generic/src/usecases/upsert-workflow/upsert-workflow.usecase.ts: resolved by
    // identifier or _id, stored as the identifier; unknown is a 404 of the workflow call.
    it("resolves an email step's layoutId by identifier or database id, stores the identifier, and refuses an unknown one with 404", async () => {
      const { body } = await layout("frame");
      const email = (layoutId: string) => [{ name: "Email", type: "email", controlValues: { subject: "S", body: "B", layoutId } }];
      const byId = await api("POST", "/v2/workflows", { workflowId: "by-id", name: "By id", steps: email(body._id) });
      expect(byId.status).toBe(201);
      expect(byId.body.steps[0].controlValues.layoutId).toBe("frame");
      const unknown = await api("PUT", "/v2/workflows/by-id", { name: "By id", steps: email("missing"), preferences: {}, origin: byId.body.origin });
      expect(unknown.status).toBe(404);
      expect((await api("POST", "/v2/workflows", { workflowId: "bad", name: "Bad", steps: email("missing") })).status).toBe(404);
    });

    // apps/api/src/app/layouts-v2/layouts.controller.ts; libs/dal/src/repositories/layout/layout.repository.ts;
    // apps/api/src/app/layouts-v2/usecases/list-layouts/list-layouts.use-case.ts.
    it("lists with offset pagination as {layouts, totalCount}, without control values, filtered by query", async () => {
      for (const id of ["a-one", "b-two", "c-three"]) await layout(id, id.toUpperCase());
      const page = await api("GET", "/v2/layouts?limit=2&offset=1&orderBy=name&orderDirection=ASC");
      expect(page.status).toBe(200);
      expect(page.body.totalCount).toBe(3);
      expect(page.body.layouts.map((l: any) => l.layoutId)).toEqual(["b-two", "c-three"]);
      expect(page.body.layouts[0].controls.values).toEqual({});
      expect((await api("GET", "/v2/layouts?query=thr")).body.layouts.map((l: any) => l.layoutId)).toEqual(["c-three"]);
    });
  });

  describe("topics (Third pass §4)", () => {
    const subscriber = (subscriberId: string) => api("POST", "/v2/subscribers", { subscriberId });

    // packages/shared/src/consts/validIdRegex.ts; apps/api/src/app/topics-v2/usecases/upsert-topic/upsert-topic.usecase.ts.
    it("checks the key format on creation: dots and loose e-mails pass, spaces do not", async () => {
      expect((await api("POST", "/v2/topics", { key: "news.daily" })).status).toBe(201);
      expect((await api("POST", "/v2/topics", { key: "a@b.c" })).status).toBe(201);
      const bad = await api("POST", "/v2/topics", { key: "has space" });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain("Invalid topic key");
    });

    // apps/api/src/app/topics-v2/topics.controller.ts and usecases/upsert-topic/upsert-topic.usecase.ts;
    // libs/dal/src/repositories/base-repository.ts: 201 both ways, the old document on update.
    it("upserts on POST with 201 both ways, answering the old name while storing the new one", async () => {
      const created = await api("POST", "/v2/topics", { key: "t", name: "Old" });
      expect(created.status).toBe(201);
      const updated = await api("POST", "/v2/topics", { key: "t", name: "New" });
      expect(updated.status).toBe(201);
      expect(updated.body).toMatchObject({ _id: created.body._id, name: "Old" });
      expect((await api("GET", "/v2/topics/t")).body.name).toBe("New");
    });

    // apps/api/src/app/topics-v2/usecases/upsert-topic/upsert-topic.usecase.ts.
    it("answers failIfExists=true on an existing key with 409", async () => {
      await api("POST", "/v2/topics", { key: "t" });
      const r = await api("POST", "/v2/topics?failIfExists=true", { key: "t", name: "X" });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('Topic with key "t" already exists');
    });

    // apps/api/src/app/topics-v2/usecases/update-topic/update-topic.usecase.ts; get-topic.usecase.ts.
    it("renames with PATCH and answers unknown keys with 404", async () => {
      await api("POST", "/v2/topics", { key: "t", name: "A" });
      const r = await api("PATCH", "/v2/topics/t", { name: "B" });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ key: "t", name: "B" });
      for (const [m, body] of [["GET", undefined], ["PATCH", { name: "C" }], ["DELETE", undefined]] as const) {
        const nf = await api(m, "/v2/topics/none", body);
        expect(nf.status, m).toBe(404);
        expect(nf.body.message).toBe("Topic with key none not found");
      }
    });

    // apps/api/src/app/topics-v2/topics.controller.ts; usecases/delete-topic/delete-topic.usecase.ts.
    it("deletes with 200 {acknowledged: true}, its subscriptions first", async () => {
      await subscriber("alice");
      await api("POST", "/v2/topics/t/subscriptions", { subscriptions: ["alice"] });
      const r = await api("DELETE", "/v2/topics/t");
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ acknowledged: true });
      expect((await emu.state() as any).subscriptions).toEqual([]);
    });

    // apps/api/src/app/topics-v2/usecases/list-topics/list-topics.usecase.ts; libs/dal/src/repositories/base-repository.ts.
    it("lists with a cursor, not re-wrapped, and answers an unknown cursor with an empty page", async () => {
      for (const k of ["k1", "k2", "k3"]) await api("POST", "/v2/topics", { key: k });
      const res = await fetch(`${emu.url}/v2/topics?limit=2&orderDirection=ASC`, { headers: { authorization: `ApiKey ${emu.key}` } });
      const raw = (await res.json()) as any;
      expect(Object.keys(raw).sort()).toEqual(["data", "next", "previous", "totalCount", "totalCountCapped"]);
      expect(raw.data.map((t: any) => t.key)).toEqual(["k1", "k2"]);
      const next = await api("GET", `/v2/topics?limit=2&orderDirection=ASC&after=${raw.next}`);
      expect(next.body.data.map((t: any) => t.key)).toEqual(["k3"]);
      expect(next.body.next).toBeNull();
      const unknown = await api("GET", "/v2/topics?after=000000000000000000000000");
      expect(unknown.body).toEqual({ data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false });
      expect((await api("GET", "/v2/topics?after=a&before=b")).status).toBe(400);
    });

    // apps/api/src/app/subscriptions/usecases/create-subscriptions/create-subscriptions.usecase.ts;
    // libs/application-generic/src/utils/subscription.ts; apps/api/src/app/topics-v2/topics.controller.ts.
    it("subscribes with 201 per item, tk_<key>:si_<subscriberId> identifiers, errors per unknown subscriber, idempotently", async () => {
      await subscriber("alice");
      const r = await api("POST", "/v2/topics/t/subscriptions", { subscriptions: ["alice", "ghost"], name: "T" });
      expect(r.status).toBe(201);
      expect(r.body.data.map((s: any) => s.identifier)).toEqual(["tk_t:si_alice"]);
      expect(r.body.meta).toEqual({ totalCount: 2, successful: 1, failed: 1 });
      expect(r.body.errors).toEqual([{ subscriberId: "ghost", code: "SUBSCRIBER_NOT_FOUND", message: expect.any(String) }]);
      const again = await api("POST", "/v2/topics/t/subscriptions", { subscriptions: ["alice"] });
      expect(again.body.data[0]._id).toBe(r.body.data[0]._id);
      expect((await api("GET", "/v2/topics/t")).body.name).toBe("T");
    });

    // Same files and apps/api/src/exception-filter.ts: every item failing is a 400 carrying the
    // same data, meta and errors; the topic was created first and stays.
    it("answers 400 with the per-item errors when every item fails, and keeps the topic it created", async () => {
      const r = await api("POST", "/v2/topics/auto/subscriptions", { subscriptions: ["ghost"] });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: "Api Exception Raised with status 400", data: [], meta: { totalCount: 1, successful: 0, failed: 1 }, errors: [{ subscriberId: "ghost", code: "SUBSCRIBER_NOT_FOUND" }] });
      expect((await api("GET", "/v2/topics/auto")).status).toBe(200);
    });

    // apps/api/src/app/topics-v2/dtos/create-topic-subscriptions.dto.ts: neither array is a 422.
    it("answers a subscribe without subscriptions or subscriberIds with 422", async () => {
      expect((await api("POST", "/v2/topics/t/subscriptions", { name: "x" })).status).toBe(422);
    });

    // apps/api/src/app/topics-v2/usecases/delete-topic-subscriptions/delete-topic-subscriptions.usecase.ts.
    it("unsubscribes with 200, SUBSCRIPTION_NOT_FOUND per item, and 404 for an unknown topic", async () => {
      await subscriber("alice");
      await subscriber("bob");
      await api("POST", "/v2/topics/t/subscriptions", { subscriptions: ["alice", "bob"] });
      const r = await api("DELETE", "/v2/topics/t/subscriptions", { subscriptions: ["alice"] });
      expect(r.status).toBe(200);
      expect(r.body.data.map((s: any) => s.identifier)).toEqual(["tk_t:si_alice"]);
      const gone = await api("DELETE", "/v2/topics/t/subscriptions", { subscriptions: ["alice"] });
      expect(gone.status).toBe(400);
      expect(gone.body.errors[0].code).toBe("SUBSCRIPTION_NOT_FOUND");
      expect((await api("DELETE", "/v2/topics/none/subscriptions", { subscriptions: ["bob"] })).status).toBe(404);
    });

    // apps/api/src/app/topics-v2/usecases/list-topic-subscriptions/list-topic-subscriptions.usecase.ts;
    // libs/dal/src/repositories/topic/topic-subscribers.repository.ts.
    it("lists subscriptions with a cursor, dropping those whose subscriber is gone, and 404 for an unknown topic", async () => {
      await subscriber("alice");
      await subscriber("bob");
      await api("POST", "/v2/topics/t/subscriptions", { subscriptions: ["alice", "bob"] });
      await api("DELETE", "/v2/subscribers/bob");
      const r = await api("GET", "/v2/topics/t/subscriptions?limit=10");
      expect(r.status).toBe(200);
      expect(r.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(["alice"]);
      expect(r.body.data[0]).not.toHaveProperty("name");
      expect((await api("GET", "/v2/topics/none/subscriptions")).status).toBe(404);
    });
  });
});
