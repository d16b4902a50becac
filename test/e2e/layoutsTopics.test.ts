/**
 * Layout and Topic under the real engine, against the emulator in production and spec mode: up,
 * an empty preview, subscribers as a set (order is no change; one added or removed sends only
 * that), drift field by field on `preview --refresh` and its repair, a deleted layout showing as
 * drift on the workflow that named it, destroy (the default layout stays on the service), adopt,
 * and import through the native plugin (id-only read).
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { exportedState, loadPackage, nativeRequire, previewDiffs, warningsOf } from "../helpers/pulumi";
import { defaultLayoutWarning } from "../../provider/resources/layout";
import { declare } from "../helpers/native";
import { EMULATOR_MODES, useStack } from "../helpers/stack";

const html = (brand: string) => `<html><body><header>${brand}</header>{{ content }}</body></html>`;

interface Spec {
  frameName: string;
  brandName: string;
  brandBody: string;
  topicName: string;
  subscribers: string[];
  adopt: boolean;
}

const initial = (): Spec => ({ frameName: "Frame", brandName: "Brand", brandBody: html("ACME"), topicName: "Daily news", subscribers: ["alice", "bob"], adopt: false });

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    // The layouts are a component's children: their URNs carry its type, and their warnings are on them.
    const branding = new pulumi.ComponentResource("acme:index:Branding", "branding");
    // The environment's first layout, hence its default; its body is left to the service.
    const frame = new notify.Layout("frame", { layoutId: "frame", name: spec.frameName, adopt: spec.adopt }, { parent: branding });
    const brand = new notify.Layout("brand", {
      layoutId: "brand", name: spec.brandName, controlValues: { email: { editorType: "html", body: spec.brandBody } }, adopt: spec.adopt,
    }, { dependsOn: [frame], parent: branding });
    const mail = new notify.Workflow("mail", {
      workflowId: "mail", name: "Mail", adopt: spec.adopt,
      steps: [{ name: "Email", type: "email", controlValues: { subject: "Hi", body: "<p>Hi</p>", editorType: "html", layoutId: brand.layoutId } }],
    });
    const news = new notify.Topic("news", { key: "news:daily", name: spec.topicName, subscribers: spec.subscribers, adopt: spec.adopt });
    return { frameDefault: frame.isDefault, brandDefault: brand.isDefault, mailId: mail.id, newsId: news.id };
  };
}

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

describe.each(EMULATOR_MODES)("layouts and topics against the emulator in %s mode", (mode) => {
  const spec = initial();
  const { emu, ts, stack } = useStack({
    emulator: { mode }, program: program(spec),
    seed: async (e) => { for (const subscriberId of ["alice", "bob", "carol"]) await e.api("POST", "/v2/subscribers", { subscriberId }); },
  });
  const live = async () => {
    const s = (await emu.state()) as Record<string, any[]>;
    return {
      layouts: s.layouts!.filter((l) => !l.deleted),
      topics: s.topics!,
      subscribers: (key: string) => s.subscriptions!.filter((x) => x.topicKey === key).map((x) => x.subscriberId).sort(),
      step: () => s.workflows!.find((w) => w.workflowId === "mail")?.steps[0].controlValues,
    };
  };

  it("creates layouts, a workflow naming one and a topic with its subscribers, and the next preview is empty", async () => {
    const up = await ts.stack.up();
    // The four resources, the layouts' component and the stack.
    expect(up.summary.resourceChanges?.create).toBe(6);
    expect(up.outputs.frameDefault!.value).toBe(true);
    expect(up.outputs.brandDefault!.value).toBe(false);
    const l = await live();
    expect(l.layouts.find((x) => x.identifier === "brand").controlValues).toEqual({ email: { editorType: "html", body: html("ACME") } });
    expect(l.step().layoutId).toBe("brand");
    expect(l.subscribers("news:daily")).toEqual(["alice", "bob"]);
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    expect(await emu.operationRequests()).toHaveLength(0);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("sees no change when the subscribers are declared in another order", async () => {
    spec.subscribers = ["bob", "alice"];
    await ts.stack.preview({ expectNoChanges: true });
  });

  it("sends only the subscriber added, then only the subscriber removed", async () => {
    spec.subscribers = ["bob", "carol", "alice"];
    expect((await previewDiffs(ts.stack)).diffs).toEqual({ news: { op: "update", keys: ["subscribers"] } });
    await emu.clearRequests();
    await ts.stack.up();
    const writes = (await emu.requests()).filter((r) => r.method !== "GET").map((r) => ({ method: r.method, route: r.route, body: r.body }));
    expect(writes).toEqual([{ method: "POST", route: "/v2/topics/{topicKey}/subscriptions", body: { subscriptions: ["carol"] } }]);

    spec.subscribers = ["carol", "bob"];
    await emu.clearRequests();
    await ts.stack.up();
    const removes = (await emu.requests()).filter((r) => r.method !== "GET").map((r) => ({ method: r.method, route: r.route, body: r.body }));
    // By the plain membership's identifier: an item naming the subscriber would also remove its subscriptions with identifiers of their own.
    expect(removes).toEqual([{ method: "DELETE", route: "/v2/topics/{topicKey}/subscriptions", body: { subscriptions: [{ identifier: "tk_news:daily:si_alice" }] } }]);
    expect((await live()).subscribers("news:daily")).toEqual(["bob", "carol"]);
    await ts.stack.preview({ expectNoChanges: true });
  });

  it("shows drift made through the API field by field on preview --refresh, and up --refresh repairs it", async () => {
    await emu.api("PUT", "/v2/layouts/brand", { name: "Renamed by hand", controlValues: { email: { editorType: "html", body: html("Hand edit") } } });
    // The default layout's body is not declared: a change to it is not drift.
    await emu.api("PUT", "/v2/layouts/frame", { name: "Frame", controlValues: { email: { editorType: "html", body: html("Dashboard") } } });
    await emu.api("PATCH", "/v2/topics/news:daily", { name: "Renamed topic" });
    await emu.api("DELETE", "/v2/topics/news:daily/subscriptions", { subscriptions: ["carol"] });

    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs).toEqual({
      brand: { op: "update", keys: ["controlValues", "name"] },
      news: { op: "update", keys: ["name", "subscribers"] },
    });
    await ts.stack.up({ refresh: true });
    const l = await live();
    expect(l.layouts.find((x) => x.identifier === "brand")).toMatchObject({ name: "Brand", controlValues: { email: { body: html("ACME") } } });
    expect(l.topics.find((t) => t.key === "news:daily").name).toBe("Daily news");
    expect(l.subscribers("news:daily")).toEqual(["bob", "carol"]);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("shows a layout deleted through the API as drift on the workflow that named it, and up restores both", async () => {
    expect((await emu.api("DELETE", "/v2/layouts/brand")).status).toBe(204);
    expect((await live()).step().layoutId).toBeUndefined();
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs.brand?.op).toBe("create");
    expect(diffs.mail).toEqual({ op: "update", keys: ["steps"] });
    await ts.stack.up({ refresh: true });
    expect((await live()).step().layoutId).toBe("brand");
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("destroys what it made, leaving the default layout on the service with a warning", async () => {
    const frameUrn = (await exportedState(ts.stack)).resources.find((r) => String(r.urn).endsWith("::frame"))!.urn;
    expect(frameUrn).toMatch(/::acme:index:Branding\$pulumi-nodejs:dynamic\/notify:Layout::frame$/);
    const events: automation.EngineEvent[] = [];
    await ts.stack.destroy({ onEvent: (e) => events.push(e) });
    // A warning diagnostic on the layout, not stderr nor the stack's, as the native plugin's
    // (test/e2e/nativeSdk.test.ts): the dynamic-provider plugin gives an operation no URN, the
    // layout's __urn gives it (provider/resources/dynamic.ts).
    expect(warningsOf(events)).toContainEqual({ urn: frameUrn, message: defaultLayoutWarning("frame") });
    const l = await live();
    expect(l.layouts.map((x) => x.identifier)).toEqual(["frame"]);
    expect(l.topics).toEqual([]);
    expect(l.subscribers("news:daily")).toEqual([]);
    expect(l.step()).toBeUndefined();
  });

  it("refuses to take over the layout left behind and an existing topic without adopt, and manages them with it", async () => {
    await emu.api("POST", "/v2/topics", { key: "news:daily", name: "Made by hand" });
    await emu.api("POST", "/v2/topics/news:daily/subscriptions", { subscriptions: ["alice"] });
    await expect(ts.stack.up()).rejects.toThrow(/set adopt: true/);
    spec.adopt = true;
    await ts.stack.up();
    const l = await live();
    expect(l.layouts.map((x) => x.identifier).sort()).toEqual(["brand", "frame"]);
    expect(l.topics.find((t) => t.key === "news:daily").name).toBe("Daily news");
    expect(l.subscribers("news:daily")).toEqual(["bob", "carol"]);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    await ts.stack.destroy();
    spec.adopt = false;
  });

  it("lists layouts and topics with getLayouts and getTopicsOutput in a program", async () => {
    await emu.api("POST", "/v2/topics", { key: "listed:one", name: "One" });
    await emu.api("POST", "/v2/topics", { key: "listed:two", name: "Two" });
    const fts = await stack({
      program: async () => {
        const notify = loadPackage();
        const layouts = await notify.getLayouts({ orderBy: "name", orderDirection: "ASC" });
        const topics = notify.getTopicsOutput({ key: pulumi.output("listed"), orderDirection: "ASC", maxResults: 1 });
        return { layoutIds: layouts.layouts.map((l) => l.layoutId), defaults: layouts.layouts.map((l) => l.isDefault), topicKeys: topics.topics.apply((t) => t.map((x) => x.key)) };
      },
    });
    const up = await fts.stack.up();
    expect(up.outputs.layoutIds!.value).toEqual(["frame"]);
    expect(up.outputs.defaults!.value).toEqual([true]);
    expect(up.outputs.topicKeys!.value).toEqual(["listed:one"]);
  });

  it("imports a layout by its layoutId and a topic by its key through the native plugin, and the next preview is empty", async () => {
    const made = await emu.api("POST", "/v2/layouts", { layoutId: "imported", name: "Imported" });
    await emu.api("POST", "/v2/topics", { key: "imported-topic", name: "Imported topic" });
    await emu.api("POST", "/v2/topics/imported-topic/subscriptions", { subscriptions: ["carol", "alice"] });
    const email = made.body.controls.values.email;
    const its = await stack({
      program: async () => {
        // Every field the service holds, as `pulumi import` would write them.
        declare("Layout", "imported", {
          layoutId: "imported", name: "Imported", isTranslationEnabled: false, controlValues: { email: { body: email.body, editorType: email.editorType } },
        }, { import: "imported" });
        declare("Topic", "imported-topic", { key: "imported-topic", name: "Imported topic", subscribers: ["alice", "carol"] }, { import: "imported-topic" });
      },
      frontEnd: "native",
    });
    const up = await its.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(2);
    const state = await exportedState(its.stack);
    expect(state.resources.filter((r) => String(r.type).startsWith("notify:")).map((r) => r.id).sort()).toEqual(["imported", "imported-topic"]);
    await its.stack.preview({ expectNoChanges: true, refresh: true });
  });
});
