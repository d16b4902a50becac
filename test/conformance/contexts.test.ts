/**
 * The emulator's contexts (`/v2/contexts`) behave as production, in both modes (api.md does not
 * describe them, so the modes agree). Sources: the service's public repository,
 * apps/api/src/app/contexts/ (paths cited per test). One test per behaviour; every request here
 * is valid against spec/openapi.json unless the test is about a refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("contexts behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const create = (body: Record<string, unknown>) => api("POST", "/v2/contexts", body);

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  // contexts.controller.ts (`@ApiResponse(GetContextResponseDto, 201)`); create-context.usecase.ts
  // stores `data: command.data || {}`; dtos/dto.mapper.ts answers type, id, data and the timestamps.
  it("creates with 201, and a context without data holds an empty object", async () => {
    const r = await create({ type: "tenant", id: "acme", data: { plan: "pro" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ type: "tenant", id: "acme", data: { plan: "pro" } });
    expect(Object.keys(r.body).sort()).toEqual(["createdAt", "data", "id", "type", "updatedAt"]);
    expect((await create({ type: "workspace", id: "w1" })).body.data).toEqual({});
  });

  // create-context.usecase.ts: `ConflictException("Context with type '<type>' and id '<id>' already
  // exists")`; e2e/create-context.e2e.ts "should throw error if a context already exists".
  it("answers a second create of the same type and id with 409 and leaves the first as it was (no upsert)", async () => {
    await create({ type: "tenant", id: "dup", data: { name: "Acme Corp" } });
    const r = await create({ type: "tenant", id: "dup", data: { name: "Acme Corp Updated" } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("Context with type 'tenant' and id 'dup' already exists");
    expect((await api("GET", "/v2/contexts/tenant/dup")).body.data).toEqual({ name: "Acme Corp" });
    // The same id under another type is another context.
    expect((await create({ type: "app", id: "dup" })).status).toBe(201);
  });

  // CreateContextRequestDto (openapi.json): type and id 1 to 100 of [a-zA-Z0-9_-];
  // e2e/create-context.e2e.ts: an empty or malformed type or id is a 422.
  it("refuses an empty or malformed type or id with 422", async () => {
    for (const body of [{ type: "", id: "a" }, { type: "tenant", id: "" }, { type: "Invalid_Type!", id: "a" }, { type: "tenant", id: "Invalid ID!" }, { type: "tenant", id: "x".repeat(101) }]) {
      expect((await create(body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  // validators/data-size.validator.ts: JSON of the data at most 64 KiB, "Context data is too large".
  it("refuses data larger than 64 KiB as JSON with 422 on create and update", async () => {
    const big = { blob: "x".repeat(64 * 1024) };
    const r = await create({ type: "tenant", id: "big", data: big });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain("Context data is too large (64KB). Maximum size is 64KB");
    await create({ type: "tenant", id: "small", data: {} });
    expect((await api("PATCH", "/v2/contexts/tenant/small", { data: big })).status).toBe(422);
    expect((await create({ type: "tenant", id: "fits", data: { blob: "x".repeat(64 * 1024 - 20) } })).status).toBe(201);
  });

  // update-context.usecase.ts: `$set: { data: command.data }`: the data is replaced whole, not merged;
  // UpdateContextRequestDto requires data.
  it("replaces the data whole on update and requires it", async () => {
    await create({ type: "tenant", id: "acme", data: { plan: "pro", region: "eu" } });
    const r = await api("PATCH", "/v2/contexts/tenant/acme", { data: { plan: "enterprise" } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ plan: "enterprise" });
    expect((await api("PATCH", "/v2/contexts/tenant/acme", {})).status).toBe(422);
  });

  // get-context, update-context and delete-context use cases: NotFoundException for a missing
  // context; contexts.controller.ts: delete answers 204 (`HttpCode(NO_CONTENT)`).
  it("answers 404 for a missing context on get, update and delete, and 204 on delete", async () => {
    for (const [method, body] of [["GET"], ["PATCH", { data: {} }], ["DELETE"]] as const) {
      const r = await api(method, "/v2/contexts/tenant/nobody", body);
      expect(r.status, method).toBe(404);
    }
    // The message as the real 3.15.0 server answered it (production-notes.md, seventh pass), the
    // older of get-context.usecase.ts's two wordings: "Context with id '<id>' and type '<type>' not
    // found in environment <environmentId>".
    expect((await api("PATCH", "/v2/contexts/tenant/nobody", { data: {} })).body.message).toMatch(/^Context with id 'nobody' and type 'tenant' not found in environment \S+$/);
    await create({ type: "tenant", id: "gone" });
    expect((await api("DELETE", "/v2/contexts/tenant/gone")).status).toBe(204);
    expect((await api("GET", "/v2/contexts/tenant/gone")).status).toBe(404);
  });

  // list-contexts.usecase.ts: per environment, newest first by default, `id` exact, `search` a
  // case-insensitive match on the key `type:id`, cursor pagination (`next`).
  it("lists the environment's contexts newest first with id and search filters and a cursor", async () => {
    for (const [type, id] of [["tenant", "acme"], ["tenant", "globex"], ["app", "acme"]]) await create({ type, id });
    const all = await api("GET", "/v2/contexts");
    expect(all.body.data.map((x: { type: string; id: string }) => `${x.type}:${x.id}`)).toEqual(["app:acme", "tenant:globex", "tenant:acme"]);
    expect((await api("GET", "/v2/contexts?id=acme")).body.data).toHaveLength(2);
    expect((await api("GET", "/v2/contexts?search=TENANT:G")).body.data.map((x: { id: string }) => x.id)).toEqual(["globex"]);
    const first = await api("GET", "/v2/contexts?limit=2");
    expect(first.body.data).toHaveLength(2);
    const second = await api("GET", `/v2/contexts?limit=2&after=${first.body.next}`);
    expect(second.body.data.map((x: { id: string }) => x.id)).toEqual(["acme"]);
    expect(second.body.next).toBeNull();
  });
});
