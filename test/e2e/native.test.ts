/**
 * The native provider plugin `pulumi-resource-notify` under the real engine: the three resources
 * declared by type token (no dynamic provider), found through the project's `plugins.providers`
 * path (bin/ of this checkout), configured from the stack config like any provider.
 */
import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type * as pulumiModule from "@pulumi/pulumi";
import { createTestStack, exportedState, nativeRequire, type TestStack } from "../helpers/pulumi";
import { declare, detailedDiffs, PLUGIN, usePlugin } from "../helpers/native";
import { useStack } from "../helpers/stack";

const SENDGRID_KEY = "SG.native-secret-sendgrid-key";
const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/native-hook";

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

describe("the native provider plugin under the real engine", () => {
  const { emu, stack } = useStack({ seed: async (emu) => void (await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" })) });

  describe("lifecycle", () => {
    let ts: TestStack;
    let emailProvider = "sendgrid";
    beforeAll(async () => {
      ts = await stack({
        program: async () => {
          const email = declare("Integration", "sendgrid", {
            identifier: "sendgrid-main", name: "SendGrid", providerId: emailProvider, channel: "email",
            credentials: { apiKey: SENDGRID_KEY, from: "no-reply@example.com" }, active: true,
          });
          const slack = declare("Integration", "slack", { identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true });
          const welcome = declare("Workflow", "welcome", {
            workflowId: "welcome", name: "Welcome",
            steps: [
              { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } },
              { name: "Email", type: "email", controlValues: { subject: "Welcome", body: "<p>Hi</p>" } },
            ],
          });
          const cred = declare("SubscriberCredentials", "alice-slack", {
            subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier, credentials: { webhookUrl: SLACK_HOOK },
          });
          const alice = await pulumi.runtime.invoke("notify:index:getSubscriber", { subscriberId: "alice" });
          return { emailId: email.id, integrationId: email.integrationId, welcomeSteps: welcome.steps, credId: cred.id, aliceName: alice.firstName };
        },
        frontEnd: "native",
      });
    });

    it("creates the three resources, serves an invoke, and keeps secrets secret", async () => {
      const up = await ts.stack.up();
      expect(up.summary.resourceChanges?.create).toBe(5); // the stack and four resources (the summary leaves providers out)
      const state = await emu.state();
      expect(state.integrations.filter((i) => !i.deleted).map((i) => i.identifier).sort()).toEqual(["sendgrid-main", "slack-main"]);
      expect(state.workflows.map((w) => w.workflowId)).toEqual(["welcome"]);
      expect(state.subscribers[0].channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
      expect(up.outputs.emailId!.value).toBe(up.outputs.integrationId!.value);
      expect(up.outputs.welcomeSteps!.value.map((s: { stepId: string }) => s.stepId)).toEqual(["inbox", "email"]);
      expect(up.outputs.credId!.value).toBe("alice/slack/slack-main");
      expect(up.outputs.aliceName!.value).toBe("Alice");
      const at = await exportedState(ts.stack);
      expect(at.resources.find((r) => r.type === "pulumi:providers:notify")).toBeDefined();
      expect(at.dynamic).toHaveLength(0);
      // Secret in inputs and outputs at rest: neither the key nor the hook is stored in plain text.
      expect(at.text).not.toContain(SENDGRID_KEY);
      expect(at.text).not.toContain(SLACK_HOOK);
      await ts.stack.preview({ expectNoChanges: true });
    });

    it("shows drift made through the API in preview --refresh with a detailed diff naming the field, and up restores it", async () => {
      const s = await emu.state();
      const integ = s.integrations.find((i) => i.identifier === "sendgrid-main" && !i.deleted);
      await emu.api("PUT", `/v1/integrations/${integ._id}`, { name: "Renamed by hand" });
      await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.slack.example/changed" } });

      const { diffs } = await detailedDiffs(ts.stack, { refresh: true });
      expect(diffs.sendgrid).toEqual({ op: "update", detailed: { name: "update" } });
      // A secret's drift is named too (its values are masked).
      expect(diffs["alice-slack"]).toEqual({ op: "update", detailed: { credentials: "update" } });
      expect(diffs.welcome).toBeUndefined();

      await ts.stack.up({ refresh: true });
      const after = await emu.state();
      expect(after.integrations.find((i) => i._id === integ._id).name).toBe("SendGrid");
      expect(after.subscribers[0].channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
    });

    it("plans a replacement of an immutable field as update-replace", async () => {
      emailProvider = "mailgun";
      const { diffs } = await detailedDiffs(ts.stack);
      expect(diffs.sendgrid).toEqual({ op: "replace", detailed: { providerId: "update-replace" } });
      emailProvider = "sendgrid";
    });

    it("destroys everything it made", async () => {
      const destroy = await ts.stack.destroy();
      expect(destroy.summary.result).toBe("succeeded");
      const s = await emu.state();
      expect(s.integrations.filter((i) => !i.deleted)).toHaveLength(0);
      expect(s.workflows).toHaveLength(0);
      expect(s.subscribers[0].channels).toHaveLength(0);
      expect((await exportedState(ts.stack)).resources).toHaveLength(0);
    });
  });

  it("adopts an integration made through the API with the import option, and the next preview is empty", async () => {
    const made = await emu.api("POST", "/v1/integrations", { identifier: "imported-sg", name: "Imported", providerId: "sendgrid", channel: "email", active: true });
    expect(made.status).toBeLessThan(300);
    const id = made.body._id as string;
    const ts = await stack({
      program: async () => {
        // What the service holds, as `pulumi import` would write it.
        declare("Integration", "imported", {
          identifier: "imported-sg", name: "Imported", providerId: "sendgrid", channel: "email", kind: "delivery",
          active: true, primary: made.body.primary, conditions: [], environmentId: made.body._environmentId,
        }, { import: id });
      },
      frontEnd: "native",
    });
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(1);
    await ts.stack.preview({ expectNoChanges: true });
    const state = await exportedState(ts.stack);
    expect(state.resources.find((r) => String(r.urn).endsWith("::imported"))?.id).toBe(id);
  });

  // `pulumi import` (stack.import) needs the project's language host even without generated code,
  // and the Node.js one is not available here; the import option takes the same id-only Read.
  it("adopts a workflow and subscriber credentials made through the API with the import option, and the next preview is empty", async () => {
    const wf = await emu.api("POST", "/v2/workflows", {
      workflowId: "imported-wf", name: "Imported", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }],
    });
    await emu.api("POST", "/v1/integrations", { identifier: "import-slack", providerId: "slack", channel: "chat", active: true });
    const cred = await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "import-slack", credentials: { webhookUrl: SLACK_HOOK } });
    expect([wf.status, cred.status].every((st) => st < 300)).toBe(true);
    const ts = await stack({
      program: async () => {
        // Every field the service holds, as `pulumi import` would write them: the steps without their ids.
        declare("Workflow", "imported-wf", {
          workflowId: "imported-wf", name: "Imported", description: "", tags: [], active: false, validatePayload: false,
          isTranslationEnabled: false, severity: "none", preferences: wf.body.preferences && {
            user: wf.body.preferences.user ?? null, workflow: wf.body.preferences.default ?? wf.body.preferences.workflow ?? null,
          },
          steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }],
        }, { import: wf.body._id });
        declare("SubscriberCredentials", "imported-cred", {
          subscriberId: "alice", providerId: "slack", integrationIdentifier: "import-slack", credentials: pulumi.secret({ webhookUrl: SLACK_HOOK }),
        }, { import: "alice/slack/import-slack" });
      },
      frontEnd: "native",
    });
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(2);
    await ts.stack.preview({ expectNoChanges: true });
    const state = await exportedState(ts.stack);
    expect(state.text).not.toContain(SLACK_HOOK);
    const imported = state.resources.find((r) => String(r.urn).endsWith("::imported-wf")) as { id: string; inputs: { steps: object[] } };
    expect(imported.id).toBe(wf.body._id);
    expect(Object.keys(imported.inputs.steps[0]!).sort()).toEqual(["controlValues", "name", "type"]);
  });

  it("prints nothing on stdout but the port", async () => {
    const child = spawn(PLUGIN, [], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no port within 20 s; stdout so far: ${JSON.stringify(out)}`)), 20_000);
      child.stdout.on("data", () => {
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    // A moment more, so anything printed after the port would show as well.
    await new Promise((r) => setTimeout(r, 300));
    child.kill();
    expect(out).toMatch(/^\d+\n$/);
  });

  it("names both settings when the connection is missing", async () => {
    const ts = await createTestStack({
      program: async () => {
        declare("Integration", "orphan", { identifier: "orphan", providerId: "sendgrid", channel: "email" });
      },
    });
    try {
      await usePlugin(ts);
      const err = await ts.stack.up().then(() => undefined, (e: Error) => e);
      expect(err?.message).toMatch(/notify:apiUrl, or NOTIFY_API_URL/);
      expect(err?.message).toMatch(/notify:apiKey, or NOTIFY_API_KEY/);
    } finally {
      await ts.cleanup();
    }
  });
});
