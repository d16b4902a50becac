/**
 * A workflow's step issues under the real engine, through both front ends, against the emulator
 * (which computes them as production does: test/conformance/stepIssues.test.ts): `pulumi up` and
 * `pulumi preview --refresh` print each issue as a warning on the workflow, the issues are
 * outputs that show no diff, and with the provider setting `stepIssues: error` the up fails after
 * its write, the workflow kept in the stack and retried by the next up until the issue is gone.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { exportedState, warningsOf } from "../helpers/pulumi";
import { declareKind, FRONT_ENDS } from "../helpers/frontEnds";
import { useStack } from "../helpers/stack";

/** The warning of the email step without an active primary integration (provider/resources/stepIssues.ts words it). */
const MISSING_EMAIL = 'workflow "welcome": step "mail" (email) will not send: MISSING_INTEGRATION: Missing active primary integration provider; ' +
  "no active primary integration for channel email: add an active email Integration with primary: true in this environment (and make the workflow depend on it)";

describe.each(FRONT_ENDS)("step issues through the %s front end", (frontEnd) => {
  const spec = { name: "Welcome" };
  const program: automation.PulumiFn = async () => {
    const wf = declareKind(frontEnd, "Workflow", "welcome", {
      workflowId: "welcome", name: spec.name, active: true,
      steps: [{ name: "Mail", stepId: "mail", type: "email", controlValues: { subject: "Hi", body: "<p>Hi</p>", editorType: "html" } }],
    });
    return { status: wf.status, steps: wf.steps };
  };
  const { emu, ts } = useStack({ frontEnd, program });
  // The engine's own warnings (which plugin it runs) aside.
  const workflowWarnings = (events: automation.EngineEvent[]) => warningsOf(events).filter((w) => w.message.includes('workflow "welcome"'));
  /** On the workflow in both front ends: the native plugin has the request's URN, the dynamic resource its __urn. */
  const onWorkflow = (message: string) => ({ urn: expect.stringMatching(frontEnd === "dynamic" ? /^urn:pulumi:[\w-]+::[\w-]+::pulumi-nodejs:dynamic\/notify:Workflow::welcome$/ : /^urn:pulumi:[\w-]+::[\w-]+::notify:index:Workflow::welcome$/), message });

  it("up creates the workflow and warns on it naming the step, the channel and what to do; the issues are outputs, and previews are empty", async () => {
    const events: automation.EngineEvent[] = [];
    const up = await ts.stack.up({ onEvent: (e) => events.push(e) });
    expect(workflowWarnings(events)).toEqual([onWorkflow(MISSING_EMAIL)]);
    expect(up.outputs.status!.value).toBe("ACTIVE");
    expect((up.outputs.steps!.value as { issues?: unknown }[])[0]!.issues).toEqual({
      integration: { email: [{ issueType: "MISSING_INTEGRATION", message: "Missing active primary integration provider" }] },
    });
    await ts.stack.preview({ expectNoChanges: true });
    // preview --refresh reads the workflow (integration issues are computed on each read) and shows the warning again.
    const refreshed: automation.EngineEvent[] = [];
    await ts.stack.preview({ expectNoChanges: true, refresh: true, onEvent: (e) => refreshed.push(e) });
    expect(workflowWarnings(refreshed)).toEqual([onWorkflow(MISSING_EMAIL)]);
  });

  it("up --refresh that reads the workflow and then writes it warns once: both answers report the one issue", async () => {
    spec.name = "Welcome (renamed)";
    const events: automation.EngineEvent[] = [];
    const up = await ts.stack.up({ refresh: true, onEvent: (e) => events.push(e) });
    expect(up.summary.resourceChanges?.update).toBe(1);
    expect(workflowWarnings(events)).toEqual([onWorkflow(MISSING_EMAIL)]);
  });

  it("with notify:stepIssues error, the up that writes the workflow fails after the write naming the issue, keeps it in the stack, and fails again until the issue is gone", async () => {
    await ts.stack.setConfig("notify:stepIssues", { value: "error" });
    spec.name = "Welcome aboard";
    // The engine prints the failure's reasons: what failed, then each issue.
    await expect(ts.stack.up()).rejects.toThrow(/Unable to update workflow "welcome": the service reports step issues, and stepIssues is "error" \(the workflow is written and kept in the stack; the next pulumi up retries it\)[\s\S]*step "mail" \(email\) will not send: MISSING_INTEGRATION/);
    // Written, and recorded: the service and the stack both hold the new name.
    expect((await emu.api("GET", "/v2/workflows/welcome")).body.name).toBe("Welcome aboard");
    const workflow = (await exportedState(ts.stack)).resources.find((r) => String(r.urn).endsWith("::welcome"))!;
    expect((workflow.outputs as { name: string }).name).toBe("Welcome aboard");
    // Nothing changed, but the engine retries the workflow: a read, no write, and the same failure.
    await emu.clearRequests();
    await expect(ts.stack.up()).rejects.toThrow(/step "mail" \(email\) will not send/);
    expect((await emu.requests()).filter((r) => r.route?.startsWith("/v2/workflows")).map((r) => `${r.method} ${r.route}`)).toEqual(["GET /v2/workflows/{workflowId}"]);
    const made = await emu.api("POST", "/v1/integrations", { identifier: "sendgrid", providerId: "sendgrid", channel: "email", active: true, check: false });
    await emu.api("POST", `/v1/integrations/${made.body._id}/set-primary`);
    const events: automation.EngineEvent[] = [];
    await ts.stack.up({ onEvent: (e) => events.push(e) });
    expect(workflowWarnings(events)).toEqual([]);
    await ts.stack.preview({ expectNoChanges: true });
  });
});
