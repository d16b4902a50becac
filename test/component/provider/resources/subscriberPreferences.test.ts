/**
 * The SubscriberPreferences implementation module (from source) against an
 * emulator in this process: what each lifecycle step sends, read off the emulator's request log,
 * where production's rules shape it (production-notes.md, fifth pass §6; each fact's source in
 * test/conformance/subscriberPreferences.test.ts).
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl } from "../../../helpers/implementation";

const step = (type: string) => ({ name: type, type, controlValues: type === "email" ? { subject: "S", body: "B" } : { body: "B" } });

describe.each(["production", "spec"] as const)("the SubscriberPreferences lifecycle (%s mode)", (mode) => {
  const emulator = emulatorPerBlock({ mode }, async (emu) => {
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" });
    await emu.api("POST", "/v2/workflows", { workflowId: "alerts", name: "Alerts", active: true, steps: ["email", "sms", "in_app"].map(step) });
  });
  const prefs = impl("subscriberPreferences");
  const api = (method: string, path: string, body?: unknown) => emulator().api(method, path, body);
  const shown = async (query = "") => (await api("GET", `/v2/subscribers/alice/preferences${query}`)).body;
  const writes = async () => (await emulator().requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route} ${JSON.stringify(r.body ?? null)}`);

  // A global write clears the subscriber's per-workflow choices of the channels it sends.
  it("updates global preferences with only the channels that changed, so a workflow's choice of another channel stays", async () => {
    const inputs = await checked(prefs, { subscriberId: "alice", channels: { email: false, sms: true } });
    const { id, outs } = await prefs.create(inputs);
    await api("PATCH", "/v2/subscribers/alice/preferences", { workflowId: "alerts", channels: { email: true } });
    await emulator().clearRequests();
    const next = await checked(prefs, { subscriberId: "alice", channels: { email: false, sms: false } });
    await prefs.update(id, outs, next);
    expect(await writes()).toEqual(['PATCH /v2/subscribers/{subscriberId}/preferences {"channels":{"sms":false}}']);
    expect((await shown()).workflows[0].channels.email).toBe(true);
  });

  // The service shows a channel only while an active workflow has a step of it.
  it("writes a channel no active workflow uses, and keeps it as declared: no diff after create or read", async () => {
    const inputs = await checked(prefs, { subscriberId: "alice", channels: { chat: false, email: false } });
    const { id, outs } = await prefs.create(inputs);
    expect(await writes()).toEqual(['PATCH /v2/subscribers/{subscriberId}/preferences {"channels":{"chat":false,"email":false}}']);
    expect((await shown()).global.channels).not.toHaveProperty("chat");
    expect((await prefs.diff(id, outs, inputs)).changes).toBe(false);
    const read = await prefs.read(id, outs);
    expect(read.inputs).toEqual(inputs);
    // A channel it shows is compared: switched by hand, it is drift.
    await api("PATCH", "/v2/subscribers/alice/preferences", { channels: { email: true } });
    expect((await prefs.diff(id, (await prefs.read(id, outs)).props, inputs)).changed).toEqual(["channels"]);
  });

  it("refuses a workflow whose preferences are read-only, and a workflow named by its slug, before any write", async () => {
    const made = (await api("POST", "/v2/workflows", {
      workflowId: "fixed", name: "Fixed", active: true, steps: [step("email")],
      // Every channel in the user block, which the 3.15.0 server requires (emulator/routes/workflows.ts checkUserChannels).
      preferences: { user: { all: { enabled: true, readOnly: true }, channels: Object.fromEntries(["email", "sms", "in_app", "chat", "push"].map((ch) => [ch, { enabled: true }])) } },
    })).body;
    await emulator().clearRequests();
    await expect(prefs.create(await checked(prefs, { subscriberId: "alice", workflowId: "fixed", channels: { email: false } })))
      .rejects.toThrow(/workflow "fixed" has read-only preferences .* the service ignores a subscriber's choices for it/);
    await expect(prefs.create(await checked(prefs, { subscriberId: "alice", workflowId: made.slug, channels: { email: false } })))
      .rejects.toThrow(/workflowId: give the workflow's workflowId "fixed", not its _id or slug/);
    expect(await writes()).toEqual([]);
  });

  it("names the subscriber a create cannot find, and what to do", async () => {
    await expect(prefs.create(await checked(prefs, { subscriberId: "nobody", channels: { email: false } })))
      .rejects.toThrow(/Unable to set preferences of subscriber "nobody": .*404.*Subscriber "nobody" does not exist; declare it with a Subscriber and pass its subscriberId output/);
  });

  it("gives back global preferences on delete (channels on, schedule off), after which a create needs no adopt", async () => {
    const inputs = await checked(prefs, { subscriberId: "alice", channels: { email: false }, schedule: { isEnabled: true } });
    const { id, outs } = await prefs.create(inputs);
    await prefs.delete(id, outs);
    expect((await shown()).global).toEqual({ enabled: true, channels: { email: true, sms: true, in_app: true }, schedule: { isEnabled: false } });
    await expect(prefs.create(inputs)).resolves.toMatchObject({ id: "alice" });
  });

  it("gives back a workflow's channels as the global ones on delete, after which a create needs no adopt", async () => {
    await api("PATCH", "/v2/subscribers/alice/preferences", { channels: { sms: false } });
    const inputs = await checked(prefs, { subscriberId: "alice", workflowId: "alerts", channels: { sms: true, in_app: false } });
    const { id, outs } = await prefs.create(inputs);
    expect(id).toBe("alice/alerts");
    await prefs.delete(id, outs);
    expect((await shown()).workflows[0].channels).toEqual({ email: true, sms: false, in_app: true });
    await expect(prefs.create(inputs)).resolves.toMatchObject({ id: "alice/alerts" });
  });

  it("refuses without adopt choices the subscriber made already, naming adopt: true", async () => {
    await api("PATCH", "/v2/subscribers/alice/preferences", { workflowId: "alerts", channels: { sms: false } });
    await emulator().clearRequests();
    await expect(prefs.create(await checked(prefs, { subscriberId: "alice", workflowId: "alerts", channels: { sms: true } }))).rejects.toThrow(/adopt: true/);
    expect(await writes()).toEqual([]);
  });

  it("reads a workflow's preferences as gone when the workflow is deleted, and keeps them as they were while it is inactive", async () => {
    const inputs = await checked(prefs, { subscriberId: "alice", workflowId: "alerts", channels: { sms: false } });
    const { id, outs } = await prefs.create(inputs);
    const workflow = (await api("GET", "/v2/workflows/alerts")).body;
    await api("PUT", "/v2/workflows/alerts", { name: workflow.name, steps: workflow.steps.map((s: { _id: string; name: string; type: string; controlValues: unknown }) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues })), active: false, preferences: {}, origin: workflow.origin });
    const inactive = await prefs.read(id, outs);
    expect(inactive.inputs).toEqual(inputs);
    await api("DELETE", "/v2/workflows/alerts");
    expect((await prefs.read(id, outs)).id).toBe("");
  });
});
