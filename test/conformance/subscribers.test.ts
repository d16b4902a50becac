/**
 * The emulator's v2 subscribers (`/v2/subscribers`, `/v2/subscribers/{subscriberId}`) behave as
 * production, in both modes: what the Subscriber resource relies on (create and its upsert, read,
 * patch, delete). Sources: the service's apps/api/src/app/subscribers-v2/ (controller and use cases,
 * cited per test), libs/application-generic/src/usecases/update-subscriber/update-subscriber.usecase.ts,
 * production-notes.md (second pass), and spec/openapi.json.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("v2 subscribers behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const create = (body: Record<string, unknown>, query = "") => api("POST", `/v2/subscribers${query}`, body);
  const get = async (id: string) => (await api("GET", `/v2/subscribers/${id}`)).body;

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  // subscribers.controller.ts createSubscriber: each profile field as `body.<field> || undefined`,
  // `data` as `body.data || {}`; the POST answers 201 (the framework's default).
  it("creates with 201, storing data {} when none is sent and leaving out empty fields", async () => {
    const r = await create({ subscriberId: "ops", firstName: "", lastName: null, email: "ops@example.com" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ subscriberId: "ops", email: "ops@example.com", data: {} });
    expect(r.body.firstName ?? undefined).toBeUndefined();
    expect(r.body.lastName ?? undefined).toBeUndefined();
  });

  // Same controller: an existing subscriber is updated through UpdateSubscriber with `data: body.data || {}`,
  // which `$set`s it: an upsert without data empties the data; an empty field is not written.
  it("upserts an existing subscriber, replacing its data with {} when none is sent and keeping fields sent empty", async () => {
    await create({ subscriberId: "ops", firstName: "Ops", data: { team: "sre" } });
    const r = await create({ subscriberId: "ops", firstName: "", lastName: "Desk" });
    expect(r.status).toBe(201);
    expect(await get("ops")).toMatchObject({ firstName: "Ops", lastName: "Desk", data: {} });
  });

  // create-or-update-subscriber.usecase.ts: `failIfExists` on an existing subscriber is a ConflictException.
  it("answers 409 to a create with failIfExists=true of an existing subscriber, and changes nothing", async () => {
    await create({ subscriberId: "ops", firstName: "Ops" });
    const r = await create({ subscriberId: "ops", firstName: "Other" }, "?failIfExists=true");
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('Subscriber with id "ops" already exists');
    expect((await get("ops")).firstName).toBe("Ops");
  });

  // update-subscriber.usecase.ts: `email` is set whenever it is not undefined (null clears it); every
  // other field only when `!= null`, so null leaves it; `data` is replaced whole.
  it("patches as UpdateSubscriber does: null clears only the email, data is replaced whole", async () => {
    await create({ subscriberId: "ops", firstName: "Ops", email: "ops@example.com", data: { team: "sre", pager: true } });
    const r = await api("PATCH", "/v2/subscribers/ops", { firstName: null, email: null, data: { team: "ops" } });
    expect(r.status).toBe(200);
    expect(r.body.firstName).toBe("Ops");
    expect(r.body.email ?? null).toBeNull();
    expect(r.body.data).toEqual({ team: "ops" });
  });

  // update-subscriber.usecase.ts: `subscriberNeedUpdate` false returns the subscriber as it is, unwritten.
  it("writes nothing, updatedAt included, when a patch changes nothing", async () => {
    const made = (await create({ subscriberId: "ops", firstName: "Ops" })).body;
    await new Promise((r) => setTimeout(r, 5));
    const r = await api("PATCH", "/v2/subscribers/ops", { firstName: "Ops" });
    expect(r.body.updatedAt).toBe(made.updatedAt);
  });

  // get-subscriber.usecase.ts "Subscriber: <id> was not found"; patch-subscriber.usecase.ts
  // "Subscriber <id> was not found"; remove-subscriber.usecase.ts NotFoundException({ message:
  // "Subscriber was not found", externalSubscriberId }).
  it("answers 404 with each use case's own message", async () => {
    const g = await api("GET", "/v2/subscribers/nobody");
    expect([g.status, g.body.message]).toEqual([404, "Subscriber: nobody was not found"]);
    const p = await api("PATCH", "/v2/subscribers/nobody", { firstName: "A" });
    expect([p.status, p.body.message]).toEqual([404, "Subscriber nobody was not found"]);
    const d = await api("DELETE", "/v2/subscribers/nobody");
    expect([d.status, d.body.message, d.body.externalSubscriberId]).toEqual([404, "Subscriber was not found", "nobody"]);
  });

  // remove-subscriber.usecase.ts: the subscriber, its topic subscriptions and its preferences go;
  // 200 `{acknowledged: true, status: "deleted"}`. The id is free again afterwards.
  it("deletes with its topic subscriptions, answering acknowledged, and the id can be made again", async () => {
    await create({ subscriberId: "ops", firstName: "Ops" });
    await api("POST", "/v2/topics/alerts/subscriptions", { subscriptions: ["ops"] });
    const r = await api("DELETE", "/v2/subscribers/ops");
    expect([r.status, r.body]).toEqual([200, { acknowledged: true, status: "deleted" }]);
    expect((await api("GET", "/v2/subscribers/ops")).status).toBe(404);
    expect((await emu.state()).subscriptions).toEqual([]);
    const again = await create({ subscriberId: "ops" }, "?failIfExists=true");
    expect(again.status).toBe(201);
    expect(again.body.firstName ?? undefined).toBeUndefined();
  });
});
