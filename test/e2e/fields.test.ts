/**
 * Every input of every resource, one at a time: a mutable field changes in place and the plan
 * names exactly that field; an immutable one replaces. Then all mutable changes are applied in one
 * `up`, reach the service in place, and the next preview is empty.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadPackage, previewDiffs } from "../helpers/pulumi";
import { useStack } from "../helpers/stack";
import { previewShown } from "../helpers/shownDiff";

type Props = Record<string, unknown>;

const baseIntegration = (): Props => ({
  identifier: "fields-int", name: "Fields", providerId: "sendgrid", channel: "email",
  credentials: { apiKey: "SG.fields-key", from: "a@example.com" }, active: true,
  conditions: [{ isNegated: false, type: "BOOLEAN", value: "AND", children: [{ field: "tier", value: "gold", operator: "EQUAL", on: "payload" }] }],
  configurations: { inboundWebhookEnabled: false },
});
const baseWorkflow = (): Props => ({
  workflowId: "fields-wf", name: "Fields", description: "first", tags: ["a"], active: true, validatePayload: false,
  payloadSchema: { type: "object", properties: { name: { type: "string" } } }, isTranslationEnabled: false, severity: "low",
  preferences: { user: null, workflow: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: true } } } },
  steps: [
    { name: "Inbox", type: "in_app", controlValues: { body: "Hi" } },
    { name: "Email", type: "email", controlValues: { subject: "S", body: "<p>B</p>", editorType: "html" } },
  ],
});
const baseCredentials = (): Props => ({
  subscriberId: "fields-sub", providerId: "slack", integrationIdentifier: "slack-a", credentials: { webhookUrl: "https://hooks.example/1" },
});

/** Engine events mask these on both sides, so only what the CLI shows (shownDiff.ts) names their change. */
const SECRET_INPUTS = new Set(["credentials", "configurations"]);

describe("each input, one at a time", () => {
  let props: { integration: Props; workflow: Props; credentials: Props };
  const { emu, ts } = useStack({
    seed: async (emu) => {
      await emu.api("POST", "/v2/subscribers", { subscriberId: "fields-sub" });
      await emu.api("POST", "/v2/subscribers", { subscriberId: "fields-sub-2" });
      for (const id of ["slack-a", "slack-b"]) await emu.api("POST", "/v1/integrations", { identifier: id, providerId: "slack", channel: "chat", active: true });
      await emu.api("POST", "/v1/integrations", { identifier: "discord-a", providerId: "discord", channel: "chat" });
      // The environment's primary email integration: the service makes the first active one
      // primary on create (create-integration.usecase.ts), and the integration under test must not be.
      await emu.api("POST", "/v1/integrations", { identifier: "postmark-primary", providerId: "postmark", channel: "email", active: true, check: false });
    },
    program: async () => {
      const notify = loadPackage();
      new notify.Integration("int", props.integration as never);
      new notify.Workflow("wf", props.workflow as never);
      new notify.SubscriberCredentials("cred", props.credentials as never);
    },
  });

  beforeAll(async () => {
    props = { integration: baseIntegration(), workflow: baseWorkflow(), credentials: baseCredentials() };
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(4);
    await ts.stack.preview({ expectNoChanges: true });
  });

  const reset = () => { props.integration = baseIntegration(); props.workflow = baseWorkflow(); props.credentials = baseCredentials(); };

  const mutable: [keyof typeof props, string, string, unknown][] = [
    ["integration", "int", "identifier", "fields-int-renamed"],
    ["integration", "int", "name", "Fields 2"],
    ["integration", "int", "credentials", { apiKey: "SG.rotated", from: "a@example.com" }],
    ["integration", "int", "active", false],
    ["integration", "int", "primary", true],
    ["integration", "int", "conditions", []],
    ["integration", "int", "configurations", { inboundWebhookEnabled: true }],
    ["workflow", "wf", "name", "Fields 2"],
    ["workflow", "wf", "description", "second"],
    ["workflow", "wf", "tags", ["a", "b"]],
    ["workflow", "wf", "active", false],
    ["workflow", "wf", "validatePayload", true],
    ["workflow", "wf", "payloadSchema", { type: "object", properties: {} }],
    ["workflow", "wf", "isTranslationEnabled", true],
    ["workflow", "wf", "severity", "high"],
    ["workflow", "wf", "preferences", { user: null, workflow: { all: { enabled: false, readOnly: true }, channels: {} } }],
    ["workflow", "wf", "steps", [{ name: "Inbox", type: "in_app", controlValues: { body: "Hello" } }, { name: "Email", type: "email", controlValues: { subject: "S", body: "<p>B</p>", editorType: "html" } }]],
    ["credentials", "cred", "credentials", { webhookUrl: "https://hooks.example/2" }],
  ];
  it.each(mutable)("%s.%s: %s updates in place, naming only that field", async (res, name, field, value) => {
    reset();
    props[res][field] = value;
    if (!SECRET_INPUTS.has(field)) {
      expect((await previewDiffs(ts.stack)).diffs).toEqual({ [name]: { op: "update", keys: [field] } });
      return;
    }
    // A secret is named too (`[diff: ~credentials]`): what the CLI shows, which the inputs' difference cannot tell.
    const { shown } = await previewShown(ts.stack);
    expect(Object.fromEntries(Object.entries(shown).map(([n, d]) => [n, { op: d.op, keys: d.keys }]))).toEqual({ [name]: { op: "update", keys: [field] } });
  });

  const immutable: [keyof typeof props, string, string, unknown][] = [
    ["integration", "int", "providerId", "mailgun"],
    ["integration", "int", "channel", "sms"],
    ["integration", "int", "environmentId", "env_other"],
    ["workflow", "wf", "workflowId", "fields-wf-2"],
    ["credentials", "cred", "subscriberId", "fields-sub-2"],
    ["credentials", "cred", "integrationIdentifier", "slack-b"],
    ["credentials", "cred", "providerId", "discord"],
  ];
  it.each(immutable)("%s.%s: %s replaces", async (res, name, field, value) => {
    reset();
    props[res][field] = value;
    if (field === "providerId" && res === "credentials") props.credentials.integrationIdentifier = "discord-a";
    const p = (await previewDiffs(ts.stack)).diffs;
    expect(Object.keys(p)).toEqual([name]);
    expect(p[name]!.op).toBe("replace");
    expect(p[name]!.keys).toEqual([field, ...(field === "providerId" && res === "credentials" ? ["integrationIdentifier"] : [])].sort());
  });

  it("applies every mutable change in place in one up, and the next preview is empty", async () => {
    reset();
    const before = await emu.state();
    const ids = {
      int: before.integrations.find((i) => i.identifier === "fields-int")._id,
      wf: before.workflows[0]._id,
      steps: before.workflows[0].steps.map((s: any) => s._id),
    };
    for (const [res, , field, value] of mutable) {
      // A primary integration is active (check refuses primary with active: false).
      if (res === "integration" && field === "active") continue;
      if (res === "credentials") props.credentials.credentials = value;
      else props[res][field] = value;
    }
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 3 });
    expect(up.summary.resourceChanges?.create ?? 0).toBe(0);
    expect(up.summary.resourceChanges?.delete ?? 0).toBe(0);
    const after = await emu.state();
    const int = after.integrations.find((i) => i._id === ids.int);
    expect(int).toMatchObject({
      identifier: "fields-int-renamed", name: "Fields 2", credentials: { apiKey: "SG.rotated", from: "a@example.com" },
      active: true, primary: true, conditions: [], configurations: { inboundWebhookEnabled: true },
    });
    const wf = after.workflows[0];
    expect(wf._id).toBe(ids.wf);
    expect(wf).toMatchObject({
      name: "Fields 2", description: "second", tags: ["a", "b"], active: false, validatePayload: true,
      payloadSchema: { type: "object", properties: {} }, isTranslationEnabled: true, severity: "high",
      preferences: { workflow: { all: { enabled: false, readOnly: true } } },
    });
    expect(wf.steps.map((s: any) => s._id)).toEqual(ids.steps);
    expect(wf.steps[0].controlValues.body).toBe("Hello");
    const sub = after.subscribers.find((s) => s.subscriberId === "fields-sub");
    expect(sub.channels.map((c: any) => c.credentials.webhookUrl)).toEqual(["https://hooks.example/2"]);
    await ts.stack.preview({ expectNoChanges: true });
  });
});
