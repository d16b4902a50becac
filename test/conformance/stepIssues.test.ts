/**
 * The emulator's workflow step issues and status behave as production, per spec/production-notes.md,
 * Fifth pass §2 (sources: the service's public repository; paths as in that repository, cited per
 * test), in both of the emulator's modes; every request here is valid against spec/openapi.json.
 * One test per behaviour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

describe.each(["production", "spec"] as const)("step issues behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const workflow = (workflowId: string, steps: unknown[], extra: Record<string, unknown> = {}) =>
    api("POST", "/v2/workflows", { workflowId, name: workflowId, active: true, steps, ...extra });
  const integration = (identifier: string, providerId: string, channel: string, active = true) =>
    api("POST", "/v1/integrations", { identifier, providerId, channel, active, check: false });
  const issuesOf = async (workflowId: string) => ((await api("GET", `/v2/workflows/${workflowId}`)).body.steps as { issues?: unknown }[]).map((s) => s.issues);
  /** A key of the organisation's Production environment: another environment, with integrations of its own. */
  const productionKey = async () => (await api("POST", "/__emulator/keys", { environment: "Production" })).body.key as string;

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => { await api("POST", "/__emulator/reset"); });

  // libs/application-generic/src/schemas/control/sms-control.schema.ts (`body: z.string()`),
  // push-control.schema.ts (`subject`, `body`), chat-control.schema.ts (`body`): required; an empty
  // string is removed before the check (utils/sanitize-control-values.ts, sanitizeEmptyInput), and
  // a missing required control is MISSING_VALUE "<Control> is required" on its key
  // (utils/issues.ts, mapAjvErrorToMessage, mapAjvErrorToIssueType). Stored with the step on create
  // (libs/application-generic/src/usecases/build-step-issues/build-step-issues.usecase.ts).
  it("stores a missing required control as MISSING_VALUE on that control, an empty string counting as missing", async () => {
    const r = await workflow("missing", [
      { name: "Text", type: "sms", controlValues: {} },
      { name: "Push", type: "push", controlValues: { subject: "Hi", body: "" } },
      { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 1, unit: "hours" } },
    ]);
    expect(r.status).toBe(201);
    expect(r.body.steps[0].issues.controls).toEqual({ body: [{ issueType: "MISSING_VALUE", variableName: "body", message: "Body is required" }] });
    expect(r.body.steps[1].issues.controls).toEqual({ body: [{ issueType: "MISSING_VALUE", variableName: "body", message: "Body is required" }] });
    expect(r.body.steps[2].issues).toBeUndefined();
  });

  // template-parser/new-liquid-parser.ts, validateVariable: a variable of one segment has no
  // namespace; utils/issues.ts, processControlValuesByLiquid: ILLEGAL_VARIABLE_IN_CONTROL_VALUE
  // 'Variable "<name>" invalid or missing namespace' (no payload suggestion) on the control's dotted
  // path, for every control value, nested ones included.
  it("stores a variable without a namespace as ILLEGAL_VARIABLE_IN_CONTROL_VALUE on the control's path", async () => {
    const r = await workflow("vars", [
      { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{ name }}, {{payload.ok}} {{ true }}", primaryAction: { label: "Open {{ link }}" } } },
    ]);
    expect(r.body.steps[0].issues.controls).toEqual({
      body: [{ issueType: "ILLEGAL_VARIABLE_IN_CONTROL_VALUE", variableName: "name", message: 'Variable "name" invalid or missing namespace' }],
      "primaryAction.label": [{ issueType: "ILLEGAL_VARIABLE_IN_CONTROL_VALUE", variableName: "link", message: 'Variable "link" invalid or missing namespace' }],
    });
  });

  // libs/application-generic/src/utils/compute-workflow-status.ts: INACTIVE when inactive, else
  // ERROR when a step has control issues, else ACTIVE; integration issues never count. The list
  // shows the same status.
  it("sets the status to ERROR for control issues only, INACTIVE when inactive, whatever the integrations", async () => {
    expect((await workflow("broken", [{ name: "Text", type: "sms", controlValues: {} }])).body.status).toBe("ERROR");
    expect((await workflow("off", [{ name: "Text", type: "sms", controlValues: {} }], { active: false })).body.status).toBe("INACTIVE");
    const noIntegration = await workflow("fine", [{ name: "Mail", type: "email", controlValues: { subject: "S", body: "B" } }]);
    expect(noIntegration.body.steps[0].issues.integration).toBeDefined();
    expect(noIntegration.body.status).toBe("ACTIVE");
    const listed = (await api("GET", "/v2/workflows?status=ERROR")).body.workflows.map((w: { workflowId: string }) => w.workflowId);
    expect(listed).toEqual(["broken"]);
  });

  // apps/api/src/app/workflows-v2/usecases/upsert-workflow (update): control issues recomputed and
  // stored with the step; the status follows (compute-workflow-status.ts).
  it("recomputes the control issues and the status on update", async () => {
    const made = (await workflow("fixme", [{ name: "Text", type: "sms", controlValues: {} }])).body;
    const r = await api("PUT", `/v2/workflows/${made._id}`, {
      name: "fixme", origin: made.origin, active: true, preferences: {},
      steps: [{ _id: made.steps[0]._id, name: "Text", type: "sms", controlValues: { body: "Hello {{subscriber.firstName}}" } }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe("ACTIVE");
    expect(r.body.steps[0].issues?.controls).toBeUndefined();
  });

  // apps/api/src/app/workflows-v2/usecases/patch-workflow/patch-workflow.usecase.ts: `active` sets
  // the status to ACTIVE or INACTIVE directly, even with control issues (a PUT would give ERROR).
  it("lets a PATCH of active set ACTIVE despite control issues", async () => {
    await workflow("patched", [{ name: "Text", type: "sms", controlValues: {} }], { active: false });
    const r = await api("PATCH", "/v2/workflows/patched", { active: true });
    expect(r.body.status).toBe("ACTIVE");
    expect(r.body.steps[0].issues.controls.body).toBeDefined();
  });

  // libs/application-generic/src/usecases/get-workflow/get-workflow.usecase.ts,
  // validateIntegrationFromCache: an email or SMS step needs an active primary integration of its
  // channel in the environment ("Missing active primary integration provider"), a chat or push step
  // any active one ("Missing active integration provider"); delay and the other kinds none; keyed
  // by the step type, issueType MISSING_INTEGRATION.
  it("computes MISSING_INTEGRATION per channel: email and SMS need an active primary integration, chat and push an active one", async () => {
    const made = await workflow("channels", [
      { name: "Mail", type: "email", controlValues: { subject: "S", body: "B" } },
      { name: "Text", type: "sms", controlValues: { body: "B" } },
      { name: "Chat", type: "chat", controlValues: { body: "B" } },
      { name: "Push", type: "push", controlValues: { subject: "S", body: "B" } },
      { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 1, unit: "hours" } },
    ]);
    const missing = (type: string, primary: boolean) => ({ integration: { [type]: [{ issueType: "MISSING_INTEGRATION", message: `Missing active${primary ? " primary" : ""} integration provider` }] } });
    expect(made.body.steps.map((s: { issues?: unknown }) => s.issues)).toEqual([missing("email", true), missing("sms", true), missing("chat", false), missing("push", false), undefined]);
    await integration("slack", "slack", "chat");
    await integration("fcm", "fcm", "push");
    // Made inactive and activated: create-integration.usecase.ts would make an email integration
    // created active the primary one (none of its channel is); an update does not.
    const mail = (await integration("sendgrid", "sendgrid", "email", false)).body;
    await api("PUT", `/v1/integrations/${mail._id}`, { active: true, check: false });
    await integration("twilio-off", "twilio", "sms", false);
    // An active email integration that is not primary does not do: the step needs the primary one.
    expect(await issuesOf("channels")).toEqual([missing("email", true), missing("sms", true), undefined, undefined, undefined]);
    await api("POST", `/v1/integrations/${mail._id}/set-primary`);
    expect(await issuesOf("channels")).toEqual([undefined, missing("sms", true), undefined, undefined, undefined]);
  });

  // get-workflow.usecase.ts: integration issues are computed at read time and never stored (the
  // workflow is not written again); only the caller's environment's integrations count.
  it("computes integration issues on read from the workflow's environment only", async () => {
    await workflow("later", [{ name: "Chat", type: "chat", controlValues: { body: "B" } }]);
    const prod = await productionKey();
    await emu.apiAs(prod, "POST", "/v1/integrations", { identifier: "slack-prod", providerId: "slack", channel: "chat", active: true, check: false });
    expect((await issuesOf("later"))[0]).toEqual({ integration: { chat: [{ issueType: "MISSING_INTEGRATION", message: "Missing active integration provider" }] } });
    await integration("slack-dev", "slack", "chat");
    expect((await issuesOf("later"))[0]).toBeUndefined();
  });

  // get-workflow.usecase.ts: an in-app step needs an active in-app integration ("Missing active
  // integration provider"), and one an Inbox has connected, else "Inbox is not connected. Please
  // connect your Inbox integration." (still MISSING_INTEGRATION: INBOX_NOT_CONNECTED is declared,
  // never produced).
  it("asks an in-app step for an active in-app integration an Inbox has connected", async () => {
    await workflow("inbox", [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } }]);
    expect((await issuesOf("inbox"))[0]).toEqual({ integration: { in_app: [{ issueType: "MISSING_INTEGRATION", message: "Missing active integration provider" }] } });
    const unconnected = (await integration("inbox", "novu", "in_app")).body;
    expect((await issuesOf("inbox"))[0]).toEqual({ integration: { in_app: [{ issueType: "MISSING_INTEGRATION", message: "Inbox is not connected. Please connect your Inbox integration." }] } });
    // The first active in-app integration is the one asked (not necessarily the primary one): that one off, a connected one on.
    await api("PUT", `/v1/integrations/${unconnected._id}`, { active: false });
    await api("POST", "/__emulator/seed", { integrations: [{ providerId: "novu", channel: "in_app", active: true, connected: true }] });
    expect((await issuesOf("inbox"))[0]).toBeUndefined();
  });
});
