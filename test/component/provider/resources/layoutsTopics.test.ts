/**
 * The Layout and Topic implementation modules (from source) against an emulator in this
 * process: what each lifecycle step sends, read off the emulator's request log.
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl } from "../../../helpers/implementation";
import { defaultLayoutWarning } from "../../../../provider/resources/layout";
import * as lifecycle from "../../../../provider/resources/lifecycle";

const HTML = "<html><body>{{ content }}</body></html>";

describe.each(["production", "spec"] as const)("Layout and Topic lifecycles (%s mode)", (mode) => {
  const emulator = emulatorPerBlock({ mode }, async (emu) => {
    for (const subscriberId of ["alice", "bob", "carol"]) await emulator().api("POST", "/v2/subscribers", { subscriberId });
  });
  const layout = impl("layout");
  const topic = impl("topic");
  const writes = async () => (await emulator().requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route} ${JSON.stringify(r.body ?? null)}`);

  it("creates a layout with control values by a create, then an update that sets them", async () => {
    const inputs = await checked(layout, { layoutId: "brand", name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } });
    const { id, outs } = await layout.create(inputs);
    expect((await writes()).map((w) => w.split(" ").slice(0, 2).join(" "))).toEqual(["POST /v2/layouts", "PUT /v2/layouts/{layoutId}"]);
    expect(outs.controlValues).toEqual({ email: { body: HTML, editorType: "html" } });
    expect((await layout.diff(id, outs, inputs)).changes).toBe(false);
  });

  it("leaves the seeded body of a layout without control values alone: no diff after create or read, and no update", async () => {
    const inputs = await checked(layout, { layoutId: "plain", name: "Plain" });
    const { id, outs } = await layout.create(inputs);
    expect((await writes()).map((w) => w.split(" ")[0])).toEqual(["POST"]);
    expect((outs.controlValues as { email: { editorType: string } }).email.editorType).toBe("block");
    await emulator().api("PUT", "/v2/layouts/plain", { name: "Plain", controlValues: { email: { body: HTML, editorType: "html" } } });
    const read = await layout.read(id, outs);
    expect(read.inputs).toEqual(inputs);
    expect((await layout.diff(id, read.props, inputs)).changes).toBe(false);
  });

  it("removes the default layout from the stack without failing and leaves it on the service, saying so through the warning hook; deletes another", async () => {
    const first = await layout.create(await checked(layout, { layoutId: "first", name: "First" }));
    const second = await layout.create(await checked(layout, { layoutId: "second", name: "Second" }));
    expect(first.outs.isDefault).toBe(true);
    // The hook of the modules' process (the front end serving them sets where it leads).
    const warned: string[] = [];
    const before = lifecycle.setWarningSink(async (m) => { warned.push(m); });
    try {
      await layout.delete(first.id, first.outs);
      await layout.delete(second.id, second.outs);
    } finally {
      lifecycle.setWarningSink(before);
    }
    expect(warned).toEqual([defaultLayoutWarning("first")]);
    expect((await emulator().api("GET", "/v2/layouts/first")).status).toBe(200);
    expect((await emulator().api("GET", "/v2/layouts/second")).status).toBe(404);
  });

  it("adopts an existing layout with adopt: true, and refuses it without", async () => {
    await emulator().api("POST", "/v2/layouts", { layoutId: "taken", name: "Made by hand" });
    await expect(layout.create(await checked(layout, { layoutId: "taken", name: "Mine" }))).rejects.toThrow(/set adopt: true/);
    const { outs } = await layout.create(await checked(layout, { layoutId: "taken", name: "Mine", adopt: true }));
    expect(outs.name).toBe("Mine");
    expect((await emulator().api("GET", "/v2/layouts/taken")).body.name).toBe("Mine");
  });

  it("round-trips an email step naming a layout by its id without a diff, and shows the layout's deletion as a change of the steps", async () => {
    const workflow = impl("workflow");
    await layout.create(await checked(layout, { layoutId: "default-frame", name: "Default" }));
    const brand = await layout.create(await checked(layout, { layoutId: "brand", name: "Brand" }));
    const inputs = await checked(workflow, {
      workflowId: "framed", name: "Framed",
      steps: [{ name: "Email", type: "email", controlValues: { subject: "S", body: "<p>B</p>", editorType: "html", layoutId: brand.id } }],
    });
    const wf = await workflow.create(inputs);
    expect((await workflow.diff(wf.id, wf.outs, inputs)).changes).toBe(false);
    const read = await workflow.read(wf.id, wf.outs);
    expect(read.inputs).toEqual(inputs);
    await layout.delete(brand.id, brand.outs);
    const after = await workflow.read(wf.id, read.props);
    expect((await workflow.diff(wf.id, after.props, inputs)).changed).toEqual(["steps"]);
  });

  it("sends only the subscriber added and only the subscriber removed, whatever the declared order", async () => {
    const a = await checked(topic, { key: "news", name: "News", subscribers: ["bob", "alice"] });
    const { id, outs } = await topic.create(a);
    expect(outs.subscribers).toEqual(["alice", "bob"]);
    const reordered = await checked(topic, { ...a, subscribers: ["alice", "bob"] });
    expect((await topic.diff(id, outs, reordered)).changes).toBe(false);

    const added = await checked(topic, { ...a, subscribers: ["carol", "bob", "alice"] });
    expect((await topic.diff(id, outs, added)).changed).toEqual(["subscribers"]);
    await emulator().clearRequests();
    const { outs: afterAdd } = await topic.update(id, outs, added);
    expect(await writes()).toEqual(['POST /v2/topics/{topicKey}/subscriptions {"subscriptions":["carol"]}']);

    const removed = await checked(topic, { ...a, subscribers: ["carol", "bob"] });
    await emulator().clearRequests();
    await topic.update(id, afterAdd, removed);
    // By the plain membership's identifier alone: a subscriber id would remove the subscriber's every subscription of the topic.
    expect(await writes()).toEqual(['DELETE /v2/topics/{topicKey}/subscriptions {"subscriptions":[{"identifier":"tk_news:si_alice"}]}']);
  });

  it("adopts a topic that has another name and reports the declared name, which the service then holds", async () => {
    await emulator().api("POST", "/v2/topics", { key: "taken", name: "Old name" });
    await expect(topic.create(await checked(topic, { key: "taken", name: "New name" }))).rejects.toThrow(/set adopt: true/);
    const { outs } = await topic.create(await checked(topic, { key: "taken", name: "New name", adopt: true }));
    expect(outs.name).toBe("New name");
    expect((await emulator().api("GET", "/v2/topics/taken")).body.name).toBe("New name");
  });

  // The topic the create made is kept in the stack, as created but not initialised: the next up
  // (once the subscriber exists) subscribes them, and a destroy removes it; nothing is orphaned.
  it("fails a create whose subscriber does not exist, naming it, and reports the topic it made as created but not initialised", async () => {
    const failed = await topic.create(await checked(topic, { key: "ghosts", subscribers: ["alice", "ghost"] })).then(() => undefined, (e: Error & { id?: string; properties?: Record<string, unknown> }) => e);
    expect(failed?.message).toMatch(/ghost: SUBSCRIBER_NOT_FOUND[\s\S]*kept in the stack/);
    expect(failed).toMatchObject({ id: "ghosts", properties: expect.objectContaining({ key: "ghosts", subscribers: [] }) });
    expect((await emulator().api("GET", "/v2/topics/ghosts")).status).toBe(200);
  });
});
