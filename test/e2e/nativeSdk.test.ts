/**
 * A TypeScript program on the typed SDK of the native plugin (sdk/nodejs, the npm package
 * `@pulumi-notify/native`, loaded by name from the project's node_modules as a user's program
 * loads it), under the real engine with the plugin of this checkout (the project's `plugins`
 * setting): up, an empty preview and refresh, objects made through the API taken over with the
 * `import` option (one as declared: reads alone; one differing: exactly the writes of what
 * differs), a change of a secret field named in the engine's detailed diff, destroy.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as native from "../../sdk/nodejs";
import { exportedState, warningsOf } from "../helpers/pulumi";
import { defaultLayoutWarning } from "../../provider/resources/layout";
import { detailedDiffs } from "../helpers/native";
import type { TestEmulator } from "../helpers/emulator";
import { useStack } from "../helpers/stack";
import { linkNodejsSdk, nodejsSdkName } from "../../scripts/nodejs-sdk";

const SENDGRID_KEY = "SG.typed-native-secret-key";
const HTML = "<html><body>{{ content }}</body></html>";


describe("the typed TypeScript SDK of the native plugin", () => {
  const spec = { sendgridKey: SENDGRID_KEY };
  /** The SDK as the program loads it: by name, from the project directory. */
  let notify: typeof native;

  const program: automation.PulumiFn = async () => {
    const sg = new notify.Integration("sendgrid", {
      identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: notify.Channel.Email, active: true,
      credentials: { apiKey: spec.sendgridKey, from: "no-reply@example.com" },
    });
    const welcome = new notify.Workflow("welcome", {
      workflowId: "welcome", name: "Welcome",
      steps: [{ name: "Inbox", type: notify.WorkflowStepKind.InApp, controlValues: { body: "Hi {{subscriber.firstName}}" } }],
    });
    // Made through the API: declared as the service holds them, taken over by id.
    new notify.Layout("brand", {
      layoutId: "brand", name: "Brand", isTranslationEnabled: false, controlValues: { email: { body: HTML, editorType: "html" } },
    }, { import: "brand" });
    new notify.Topic("news", { key: "news", name: "News", subscribers: ["alice", "bob"] }, { import: "news" });
    // This one differs from what the service holds (bob is not subscribed yet).
    new notify.Topic("alerts", { key: "alerts", name: "Alerts", subscribers: ["alice", "bob"] }, { import: "alerts" });
    return { integrationId: sg.integrationId, stepIds: welcome.steps.apply((s) => s.map((x) => x.stepId)) };
  };

  const seed = async (emu: TestEmulator) => {
    const ok = async (method: string, p: string, body: unknown) => {
      const r = await emu.api(method, p, body);
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    };
    for (const subscriberId of ["alice", "bob"]) await ok("POST", "/v2/subscribers", { subscriberId });
    await ok("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" });
    await ok("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } });
    await ok("POST", "/v2/topics", { key: "news", name: "News" });
    await ok("POST", "/v2/topics/news/subscriptions", { subscriptions: ["alice", "bob"] });
    await ok("POST", "/v2/topics", { key: "alerts", name: "Alerts" });
    await ok("POST", "/v2/topics/alerts/subscriptions", { subscriptions: ["alice"] });
  };
  const { emu, ts } = useStack({ seed, program, frontEnd: "native" });

  beforeAll(() => {
    linkNodejsSdk(ts.dir);
    notify = createRequire(path.join(ts.dir, "package.json"))(nodejsSdkName()) as typeof native;
  });

  it("creates what is new and imports what exists, writing only what differs", async () => {
    await emu.clearRequests();
    const up = await ts.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.import).toBe(3);
    // The new integration and workflow are created; of the imported objects only the topic that
    // differs is written to, by one subscription of the subscriber it lacks.
    const writes = (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"));
    expect(writes.map((r) => `${r.method} ${r.route}`).sort()).toEqual(["POST /v1/integrations", "POST /v2/topics/{topicKey}/subscriptions", "POST /v2/workflows"]);
    expect(writes.find((r) => r.route === "/v2/topics/{topicKey}/subscriptions")?.path).toBe("/v2/topics/alerts/subscriptions");
    expect(up.outputs.stepIds!.value).toEqual(["inbox"]);
    const state = await exportedState(ts.stack);
    expect(state.dynamic).toEqual([]);
    expect(state.resources.find((r) => r.type === "notify:index:Layout")?.id).toBe("brand");
    // The SDK's resources are the plugin's: a provider resource of package notify, of the SDK's version.
    expect(state.resources.find((r) => r.type === "pulumi:providers:notify")).toBeDefined();
    expect(state.text).not.toContain(SENDGRID_KEY);
  });

  it("then previews no change, and no drift with refresh", async () => {
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("names a changed secret field in the detailed diff without showing its value", async () => {
    spec.sendgridKey = "SG.typed-native-rotated";
    try {
      const { diffs } = await detailedDiffs(ts.stack);
      expect(diffs).toEqual({ sendgrid: { op: "update", detailed: { credentials: "update" } } });
    } finally {
      spec.sendgridKey = SENDGRID_KEY;
    }
  });

  it("destroys what it manages (the environment's default layout stays on the service, with a warning on it)", async () => {
    const events: automation.EngineEvent[] = [];
    const destroy = await ts.stack.destroy({ onEvent: (e) => events.push(e) });
    expect(destroy.summary.result).toBe("succeeded");
    expect(warningsOf(events)).toEqual([{ urn: expect.stringMatching(/::notify:index:Layout::brand$/), message: defaultLayoutWarning("brand") }]);
    expect((await emu.state()).layouts.filter((l) => !l.deleted).map((l) => l.identifier)).toEqual(["brand"]);
    const s = await emu.state();
    expect(s.integrations.filter((i) => !i.deleted)).toEqual([]);
    expect(s.workflows).toEqual([]);
    expect(s.topics).toEqual([]);
    expect((await exportedState(ts.stack)).resources).toEqual([]);
  });
});
