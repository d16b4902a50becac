/**
 * A workflow's step issues through the Workflow implementation module (from source) against an
 * emulator in this process: the issues in the outputs without a diff, the warnings naming the
 * workflow, the step, the control or channel and what to do, and the `error` mode (the provider's
 * setting or the workflow's input) failing a write after it, with the workflow kept.
 */
import { afterEach, describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl, type Obj } from "../../../helpers/implementation";
import * as lifecycle from "../../../../provider/resources/lifecycle";
import { stepIssueMessages } from "../../../../provider/resources/stepIssues";
import { dynamicProvider } from "../../../../provider/resources/workflow";
import { connectionSetting } from "../../../../provider/client/settings";

const STEP_ISSUES_ENV = connectionSetting("stepIssues").env;

/** An SMS step without a body (a control issue: MISSING_VALUE) and an email step (no integration: MISSING_INTEGRATION); neither channel has an integration. */
const STEPS = [
  { name: "Text", stepId: "text", type: "sms", controlValues: {} },
  { name: "Mail", stepId: "mail", type: "email", controlValues: { subject: "Hi", body: "<p>Hi</p>", editorType: "html" } },
];

/** Runs `fn` with the warning hook collecting what it is given. */
async function warnings<T>(fn: () => Promise<T>): Promise<{ result?: T; error?: unknown; warned: string[] }> {
  const warned: string[] = [];
  const before = lifecycle.setWarningSink(async (m) => { warned.push(m); });
  try {
    return { result: await fn(), warned };
  } catch (error) {
    return { error, warned };
  } finally {
    lifecycle.setWarningSink(before);
  }
}

describe.each(["production", "spec"] as const)("a workflow's step issues (%s mode)", (mode) => {
  const emulator = emulatorPerBlock({ mode });
  const workflow = impl("workflow");
  const methods = async () => (await emulator().requests()).map((r) => `${r.method} ${r.route}`);
  afterEach(() => { delete process.env[STEP_ISSUES_ENV]; });

  it("carries each step's issues in the outputs, warns once per issue naming workflow, step, control or channel and what to do, and shows no diff", async () => {
    const inputs = await checked(workflow, { workflowId: "welcome", name: "Welcome", active: true, steps: STEPS });
    const { result, warned } = await warnings(() => workflow.create(inputs));
    const { id, outs } = result!;
    const steps = outs.steps as { issues?: Obj }[];
    // The service's issues (test/conformance/stepIssues.test.ts has their sources), as answered.
    expect(steps[0]!.issues).toEqual({
      controls: { body: [{ issueType: "MISSING_VALUE", variableName: "body", message: "Body is required" }] },
      integration: { sms: [{ issueType: "MISSING_INTEGRATION", message: "Missing active primary integration provider" }] },
    });
    expect(steps[1]!.issues).toEqual({ integration: { email: [{ issueType: "MISSING_INTEGRATION", message: "Missing active primary integration provider" }] } });
    expect(outs.status).toBe("ERROR");
    expect(warned).toEqual(stepIssueMessages("welcome", outs.steps as never).map((m) => m.message));
    expect(warned).toEqual([
      'workflow "welcome": step "text" (sms), control "body": MISSING_VALUE: Body is required; set controlValues.body of the step',
      'workflow "welcome": step "text" (sms) will not send: MISSING_INTEGRATION: Missing active primary integration provider; ' +
        "no active primary integration for channel sms: add an active sms Integration with primary: true in this environment (and make the workflow depend on it)",
      'workflow "welcome": step "mail" (email) will not send: MISSING_INTEGRATION: Missing active primary integration provider; ' +
        "no active primary integration for channel email: add an active email Integration with primary: true in this environment (and make the workflow depend on it)",
    ]);
    expect((await workflow.diff(id, outs, inputs)).changes).toBe(false);
    // A refresh reads them again (integration issues are computed on each read) and warns; issues are outputs only.
    const read = await warnings(() => workflow.read(id, outs));
    expect(read.warned).toEqual(warned);
    expect(read.result!.inputs).toEqual(inputs);
    expect((await workflow.diff(id, read.result!.props, inputs)).changes).toBe(false);
  });

  // An Inbox is connected only when the in-app component first connects from a browser: no program
  // can act on "Inbox is not connected", so it is said once, when the workflow is created, and fails nothing.
  it("says the Inbox issue, which no program can act on, once at create: not on reads or updates, and not as a failure in error mode", async () => {
    await emulator().api("POST", "/v1/integrations", { identifier: "novu-inbox", providerId: "novu", channel: "in_app", active: true, check: false });
    const steps = [{ name: "Inbox", stepId: "inbox", type: "in_app", controlValues: { body: "Hi" } }];
    const inputs = await checked(workflow, { workflowId: "inbox", name: "Inbox", steps, stepIssues: "error" });
    const made = await warnings(() => workflow.create(inputs));
    expect(made.error).toBeUndefined();
    const issues = (made.result!.outs.steps as { issues?: { integration?: Record<string, { message: string }[]> } }[])[0]!.issues;
    expect(issues?.integration?.in_app?.[0]?.message).toMatch(/Inbox is not connected/i);
    expect(made.warned).toEqual([expect.stringMatching(/^workflow "inbox": step "inbox" \(in_app\) will not send: MISSING_INTEGRATION: .*Inbox is not connected.*\(said once, when the workflow is created: no program can connect an Inbox\)$/i)]);
    const read = await warnings(() => workflow.read(made.result!.id, made.result!.outs));
    expect(read.warned).toEqual([]);
    const renamed = await checked(workflow, { workflowId: "inbox", name: "Inbox (renamed)", steps, stepIssues: "error" });
    const updated = await warnings(() => workflow.update(made.result!.id, read.result!.props, renamed));
    expect([updated.error, updated.warned]).toEqual([undefined, []]);
  });

  it("warns no more once the issues are gone: an integration made primary is seen by the next read", async () => {
    const inputs = await checked(workflow, { workflowId: "mailer", name: "Mailer", steps: [STEPS[1]] });
    const { result } = await warnings(() => workflow.create(inputs));
    const made = await emulator().api("POST", "/v1/integrations", { identifier: "sendgrid", providerId: "sendgrid", channel: "email", active: true, check: false });
    await emulator().api("POST", `/v1/integrations/${made.body._id}/set-primary`);
    const read = await warnings(() => workflow.read(result!.id, result!.outs));
    expect(read.warned).toEqual([]);
    expect((read.result!.props.steps as { issues?: unknown }[])[0]!.issues).toBeUndefined();
  });

  it("with stepIssues: \"error\" fails the create after writing it, with the workflow's id and state for the stack, every issue in the message", async () => {
    const inputs = await checked(workflow, { workflowId: "strict", name: "Strict", steps: STEPS, stepIssues: "error" });
    const { error, warned } = await warnings(() => workflow.create(inputs));
    expect(error).toBeInstanceOf(lifecycle.ResourceInitFailure);
    const failure = error as lifecycle.ResourceInitFailure;
    const live = await emulator().api("GET", "/v2/workflows/strict");
    expect(failure.id).toBe(live.body._id);
    expect(failure.properties).toMatchObject({ workflowId: "strict", databaseId: live.body._id, stepIssues: "error", status: "ERROR" });
    // The engine shows the reasons, one a line: what failed first, then every issue; the message has them too.
    const [headline, ...issues] = failure.reasons;
    expect(headline).toMatch(/^Unable to create workflow "strict": the service reports step issues, and stepIssues is "error" \(the workflow is written and kept in the stack; the next pulumi up retries it\)$/);
    expect(issues).toEqual(stepIssueMessages("strict", failure.properties.steps as never).map((m) => m.message));
    for (const reason of failure.reasons) expect(failure.message).toContain(reason);
    expect(warned).toEqual([]);
  });

  it("retries a workflow whose write failed on its issues with a read only, and succeeds once they are gone", async () => {
    const inputs = await checked(workflow, { workflowId: "retry", name: "Retry", steps: [STEPS[1]], stepIssues: "error" });
    const failure = (await warnings(() => workflow.create(inputs))).error as lifecycle.ResourceInitFailure;
    await emulator().clearRequests();
    // The engine's retry: an update with the state recorded and the same inputs.
    await expect(workflow.update(failure.id, failure.properties, inputs)).rejects.toBeInstanceOf(lifecycle.ResourceInitFailure);
    expect(await methods()).toEqual(["GET /v2/workflows/{workflowId}"]);
    const made = await emulator().api("POST", "/v1/integrations", { identifier: "ses", providerId: "ses", channel: "email", active: true, check: false });
    await emulator().api("POST", `/v1/integrations/${made.body._id}/set-primary`);
    const { outs } = await workflow.update(failure.id, failure.properties, inputs);
    expect((outs.steps as { issues?: unknown }[])[0]!.issues).toBeUndefined();
  });

  it("takes the mode from the provider's setting, the workflow's input overriding it, and fails an update after its write", async () => {
    process.env[STEP_ISSUES_ENV] = "error";
    const fine = await checked(workflow, { workflowId: "texts", name: "Texts", steps: [{ name: "Text", stepId: "text", type: "sms", controlValues: { body: "Hi" } }] });
    // The SMS step has no integration: its issue fails the write in error mode.
    const failure = await workflow.create(fine).catch((e: unknown) => e as lifecycle.ResourceInitFailure);
    expect(failure.message).toMatch(/workflow "texts": step "text" \(sms\) will not send: MISSING_INTEGRATION/);
    const made = await emulator().api("POST", "/v1/integrations", { identifier: "twilio", providerId: "twilio", channel: "sms", active: true, check: false });
    await emulator().api("POST", `/v1/integrations/${made.body._id}/set-primary`);
    const { id } = failure;
    const { outs } = await workflow.update(id, failure.properties, fine);
    // An empty body is a missing one to the service.
    const broken = { ...fine, steps: [{ name: "Text", stepId: "text", type: "sms", controlValues: { body: "" } }] };
    await emulator().clearRequests();
    await expect(workflow.update(id, outs, broken)).rejects.toThrow(/control "body": MISSING_VALUE: Body is required/);
    expect(await methods()).toEqual(["GET /v2/workflows/{workflowId}", "PUT /v2/workflows/{workflowId}"]);
    const relaxed = await warnings(() => workflow.update(id, outs, { ...broken, stepIssues: "warn" }));
    expect(relaxed.error).toBeUndefined();
    expect(relaxed.warned).toEqual(['workflow "texts": step "text" (sms), control "body": MISSING_VALUE: Body is required; set controlValues.body of the step']);
  });

  it("refuses a provider setting outside warn and error before writing anything, naming the value and the values allowed", async () => {
    process.env[STEP_ISSUES_ENV] = "loud";
    const inputs = await checked(workflow, { workflowId: "never", name: "Never", steps: [STEPS[1]] });
    await expect(workflow.create(inputs)).rejects.toThrow(`notify:stepIssues (or ${STEP_ISSUES_ENV}) must be one of "warn", "error", got "loud"`);
    expect(await methods()).toEqual([]);
  });

  it("keeps the dynamic resource's __provider in the state a failed write records", async () => {
    const inputs = await checked(workflow, { workflowId: "dyn", name: "Dyn", steps: [STEPS[1]], stepIssues: "error" });
    const failed = await dynamicProvider.create!({ ...inputs, __provider: "exports.handler = () => 0;" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(lifecycle.ResourceInitFailure);
    expect((failed as lifecycle.ResourceInitFailure).properties.__provider).toBe("exports.handler = () => 0;");
  });
});
