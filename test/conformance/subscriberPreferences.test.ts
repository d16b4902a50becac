/**
 * The emulator's subscriber preferences (`/v2/subscribers/{subscriberId}/preferences`) behave as
 * production, in both modes. Sources: production-notes.md, fifth pass §6, which reads the
 * service's apps/api/src/app/subscribers-v2/usecases/{get,update}-subscriber-preferences/,
 * apps/api/src/app/subscribers/usecases/get-subscriber-global-preference/,
 * apps/api/src/app/inbox/usecases/update-preferences/ and
 * libs/application-generic/src/usecases/{merge-preferences,upsert-preferences}/ (cited per test);
 * spec/openapi.json for the shapes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const step = (type: string) => ({ name: type, type, controlValues: type === "email" ? { subject: "S", body: "B" } : { body: "B" } });

describe.each(["production", "spec"] as const)("subscriber preferences behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const prefs = async (query = "") => (await api("GET", `/v2/subscribers/alice/preferences${query}`)).body;
  const patch = (body: Record<string, unknown>) => api("PATCH", "/v2/subscribers/alice/preferences", body);
  const workflow = (workflowId: string, types: string[], extra: Record<string, unknown> = {}) =>
    api("POST", "/v2/workflows", { workflowId, name: workflowId, active: true, steps: types.map(step), ...extra });
  const entry = (body: { workflows: { workflow: { identifier: string } }[] }, id: string) => body.workflows.find((w) => w.workflow.identifier === id) as any;

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await api("POST", "/v2/subscribers", { subscriberId: "alice" });
  });

  it("answers 404 for an unknown subscriber, on read and on write", async () => {
    const g = await api("GET", "/v2/subscribers/nobody/preferences");
    expect([g.status, g.body.message]).toEqual([404, "Subscriber with id: nobody not found"]);
    // update-preferences.usecase.ts: NotFoundException `Subscriber with id: <id> is not found`.
    const p = await api("PATCH", "/v2/subscribers/nobody/preferences", { channels: { email: false } });
    expect([p.status, p.body.message]).toEqual([404, "Subscriber with id: nobody is not found"]);
  });

  // get-subscriber-global-preference.usecase.ts: all-true defaults, filtered to the channel types the
  // active workflows' steps use; enabled always true; no schedule until one is stored.
  it("shows defaults only for the channel types active workflows use, and no workflow that is inactive", async () => {
    expect(await prefs()).toEqual({ global: { enabled: true, channels: {} }, workflows: [] });
    await workflow("digest", ["in_app", "email"]);
    await workflow("paused", ["sms"], { active: false });
    const body = await prefs();
    expect(body.global).toEqual({ enabled: true, channels: { in_app: true, email: true } });
    expect(body.workflows).toHaveLength(1);
    expect(entry(body, "digest")).toMatchObject({ enabled: true, channels: { in_app: true, email: true }, workflow: { identifier: "digest", name: "digest" } });
    // Present only once the subscriber chose something for the workflow.
    expect(entry(body, "digest")).not.toHaveProperty("updatedAt");
  });

  // update-subscriber-preferences.usecase.ts and upsert-preferences.usecase.ts (deepMerge): only the
  // channels sent change; the answer is the GET body.
  it("changes only the global channels sent, and answers the preferences", async () => {
    await workflow("all", ["in_app", "email", "sms", "chat", "push"]);
    const r = await patch({ channels: { email: false } });
    expect(r.status).toBe(200);
    expect(r.body.global.channels).toEqual({ in_app: true, email: false, sms: true, chat: true, push: true });
    await patch({ channels: { sms: false } });
    expect((await prefs()).global.channels).toEqual({ in_app: true, email: false, sms: false, chat: true, push: true });
    expect(entry(await prefs(), "all").channels).toMatchObject({ email: false, sms: false });
  });

  // upsert-preferences.usecase.ts: `schedule` stored with the global preferences, `$set` whole when
  // sent, kept when not; update-preferences.usecase.ts stores it with the global preferences only.
  it("stores the schedule with the global preferences, replaced whole when sent and kept when not, never per workflow", async () => {
    await workflow("all", ["in_app", "email"]);
    const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } };
    await patch({ schedule });
    expect((await prefs()).global.schedule).toEqual(schedule);
    await patch({ channels: { email: false } });
    expect((await prefs()).global.schedule).toEqual(schedule);
    await patch({ schedule: { isEnabled: false } });
    expect((await prefs()).global.schedule).toEqual({ isEnabled: false });
    await patch({ workflowId: "all", schedule, channels: { email: true } });
    expect((await prefs()).global.schedule).toEqual({ isEnabled: false });
  });

  // merge-preferences.usecase.ts: the workflow's preferences, then the subscriber's global choices, then
  // its choices for the workflow; update-subscriber-preferences.usecase.ts takes the workflowId, `_id` or slug.
  it("merges a workflow's channels: its defaults, then the subscriber's global choice, then its choice for the workflow", async () => {
    const made = (await workflow("quiet", ["email", "in_app"], { preferences: { workflow: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false } } } } })).body;
    await workflow("loud", ["email"]);
    expect(entry(await prefs(), "quiet").channels).toEqual({ email: false, in_app: true });
    await patch({ channels: { email: true } });
    expect(entry(await prefs(), "quiet").channels.email).toBe(true);
    const r = await patch({ workflowId: made.slug, channels: { in_app: false } });
    expect(r.status).toBe(200);
    expect(entry(r.body, "quiet")).toMatchObject({ channels: { email: true, in_app: false }, overrides: expect.arrayContaining([{ channel: "in_app", source: "subscriber" }]) });
    expect(entry(r.body, "quiet").updatedAt).toEqual(expect.any(String));
    expect(entry(r.body, "loud")).not.toHaveProperty("updatedAt");
  });

  // upsert-preferences.usecase.ts `deleteSubscriberWorkflowChannelPreferences`: a global write first
  // removes the channels it sends from every one of the subscriber's per-workflow preferences.
  it("clears the subscriber's per-workflow choices of the channels a global write sends", async () => {
    await workflow("a", ["email", "sms"]);
    await patch({ workflowId: "a", channels: { email: false, sms: false } });
    await patch({ channels: { email: true } });
    expect(entry(await prefs(), "a").channels).toEqual({ email: true, sms: false });
  });

  // get-subscriber-preferences.usecase.ts: `criticality` (default nonCritical); a workflow whose merged
  // preferences are read-only is critical, and merge-preferences.usecase.ts ignores the subscriber there.
  it("lists a read-only workflow only for criticality critical or all, with the subscriber's choice ignored", async () => {
    // Every channel in the user block: the 3.15.0 server refuses one that names only some (test/conformance/production.test.ts).
    const channels = Object.fromEntries(["email", "sms", "in_app", "chat", "push"].map((ch) => [ch, { enabled: true }]));
    await workflow("fixed", ["email"], { preferences: { user: { all: { enabled: true, readOnly: true }, channels } } });
    await workflow("free", ["email"]);
    await patch({ channels: { email: false } });
    expect((await prefs()).workflows.map((w: any) => w.workflow.identifier)).toEqual(["free"]);
    expect((await prefs("?criticality=critical")).workflows.map((w: any) => w.workflow.identifier)).toEqual(["fixed"]);
    const all = await prefs("?criticality=all");
    expect([entry(all, "fixed").channels.email, entry(all, "free").channels.email]).toEqual([true, false]);
  });

  it("answers 404 for a workflow it cannot find", async () => {
    const r = await patch({ workflowId: "nope", channels: { email: false } });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^Workflow cannot be found/);
  });

  // remove-subscriber.usecase.ts deletes the subscriber's preferences with it.
  it("forgets the preferences with the subscriber: the same id made again has the defaults", async () => {
    await workflow("a", ["email"]);
    await patch({ channels: { email: false } });
    await api("DELETE", "/v2/subscribers/alice");
    await api("POST", "/v2/subscribers", { subscriberId: "alice" });
    expect((await prefs()).global.channels).toEqual({ email: true });
  });
});
