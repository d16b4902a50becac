/**
 * A workflow's step issues: what the service says will stop a step from sending (a required
 * control missing, a variable it cannot resolve, a plan limit, no integration for the step's
 * channel). The service sets the workflow's status to `ERROR` for control issues only, and
 * computes integration issues on each read (spec/production-notes.md, fifth pass §2). Here: their
 * type in the workflow's outputs, the sentence each becomes (naming the workflow, the step, the
 * control or channel, and what to do), and what they do to an operation (a warning, or with
 * `stepIssues: "error"` a failed `pulumi up` that keeps what it wrote).
 */
import { z } from "zod";
import { stepIssueMode, type StepIssueMode } from "../config";
import { ResourceInitFailure, warn } from "./lifecycle";

/** One issue of a step, as the service reports it. */
export const WorkflowStepIssue = z.object({
  issueType: z.string().describe("The service's code: `MISSING_VALUE`, `INVALID_URL`, `ILLEGAL_VARIABLE_IN_CONTROL_VALUE`, `INVALID_FILTER_ARG_IN_VARIABLE`, `TIER_LIMIT_EXCEEDED` or `MISSING_INTEGRATION`."),
  variableName: z.string().optional().describe("The variable or control the issue is about, when the service names one."),
  message: z.string().describe("The service's message."),
}).meta({ id: "WorkflowStepIssue", description: "One issue the service reports on a step." });

/** The issues of one step: of its controls, by control path, and of its channel's integration, by step type. */
export const WorkflowStepIssues = z.object({
  controls: z.record(z.string(), z.array(WorkflowStepIssue)).optional().describe("Issues of the step's controls, by dotted control path (`body`, `primaryAction.label`). Any of them sets the workflow's status to `ERROR`."),
  integration: z.record(z.string(), z.array(WorkflowStepIssue)).optional().describe("Issues of the integration the step sends through, by step type: no active (for email and SMS: primary) integration of its channel in the environment."),
}).meta({ id: "WorkflowStepIssues", description: "What the service says will stop a step from sending; absent when nothing does." });

/** The issues of one step. */
export type WorkflowStepIssues = z.infer<typeof WorkflowStepIssues>;
type Issue = z.infer<typeof WorkflowStepIssue>;

/** A step as the outputs hold it, as far as its issues are concerned. */
export interface StepWithIssues {
  stepId: string;
  type: string;
  issues?: WorkflowStepIssues;
}

/** The step kinds an email or SMS step's integration must be primary for (get-workflow.usecase.ts of the service). */
const PRIMARY_CHANNELS = ["email", "sms"];

/** What to do about an issue of a control (`control` its dotted path), by the service's code. */
function controlRemedy(issue: Issue, control: string): string {
  switch (issue.issueType) {
    case "MISSING_VALUE": return `set controlValues.${control} of the step`;
    case "INVALID_URL": return `make controlValues.${control} a full URL, a path starting with /, or a {{variable}}`;
    case "ILLEGAL_VARIABLE_IN_CONTROL_VALUE": return `in controlValues.${control}, give each variable its namespace ({{payload.…}}, {{subscriber.…}}, {{steps.…}}, {{context.…}}) and check the Liquid syntax`;
    case "INVALID_FILTER_ARG_IN_VARIABLE": return `fix the filter's arguments in controlValues.${control}`;
    case "TIER_LIMIT_EXCEEDED": return `lower controlValues.${control} to the plan's limit, or change the plan`;
    default: return `fix controlValues.${control} of the step`;
  }
}

/** What to do about an integration issue of a step of `type`. */
function integrationRemedy(issue: Issue, type: string): string {
  if (/inbox is not connected/i.test(issue.message)) return "connect an Inbox (the in-app component) to the environment's active in_app integration";
  return PRIMARY_CHANNELS.includes(type)
    ? `no active primary integration for channel ${type}: add an active ${type} Integration with primary: true in this environment (and make the workflow depend on it)`
    : `no active integration for channel ${type}: add an active ${type} Integration in this environment (and make the workflow depend on it)`;
}

/**
 * What a program can do about an issue. An Inbox is connected only when the in-app component first
 * connects from a browser (production sets the integration's `connected` then), so "Inbox is not
 * connected" is one no program can act on: said once, when the workflow is created, and never a
 * failure. Every other issue a program fixes (a control value, an integration it declares).
 */
export type IssueSeverity = "actionable" | "informational";

/** The severity of an integration issue of a step (controls' issues are all actionable). */
export function integrationIssueSeverity(issue: Issue): IssueSeverity {
  return /inbox is not connected/i.test(issue.message) ? "informational" : "actionable";
}

/** One issue as the provider says it. */
export interface StepIssueMessage {
  message: string;
  severity: IssueSeverity;
}

/**
 * One sentence per issue of the steps, naming the workflow (its `workflowId`, which the resource's
 * name need not be), the step, the control or channel, the service's code and message, and what to
 * do, with its {@link IssueSeverity}. Each is a warning on the workflow's resource, in both front ends.
 */
export function stepIssueMessages(workflowId: string, steps: readonly StepWithIssues[]): StepIssueMessage[] {
  const out: StepIssueMessage[] = [];
  for (const s of steps) {
    const step = `workflow "${workflowId}": step "${s.stepId}" (${s.type})`;
    for (const [control, issues] of Object.entries(s.issues?.controls ?? {})) {
      for (const i of issues) out.push({ message: `${step}, control "${control}": ${i.issueType}: ${i.message}; ${controlRemedy(i, control)}`, severity: "actionable" });
    }
    for (const [type, issues] of Object.entries(s.issues?.integration ?? {})) {
      for (const i of issues) out.push({ message: `${step} will not send: ${i.issueType}: ${i.message}; ${integrationRemedy(i, type)}`, severity: integrationIssueSeverity(i) });
    }
  }
  return out;
}

/** The mode of one workflow: its `stepIssues` input, else the provider's setting. Throws naming a bad setting. */
export function modeOf(declared: { stepIssues?: StepIssueMode }): StepIssueMode {
  return declared.stepIssues ?? stepIssueMode();
}

/** What an operation reports about the steps it wrote or read. */
export interface IssueReport {
  /** `create workflow "welcome"`: the action a failure names. */
  action: string;
  workflowId: string;
  /** The object written: its id and state, which the stack keeps when the operation fails. */
  id: string;
  outs: { steps?: readonly StepWithIssues[] };
  /** `error` fails a write; a read only warns. */
  mode: StepIssueMode;
  write: boolean;
  /** The write that made the workflow: the one operation that says the informational issues. */
  created?: boolean;
}

/**
 * Shows each actionable step issue as a warning on the workflow (an informational one only when the
 * workflow is created); in `error` mode a write fails instead, after
 * the write, as a {@link ResourceInitFailure}: the stack keeps the workflow as written, the failure
 * lists every issue, and the next `pulumi up` updates the workflow again (so it fails until the
 * issues are gone). A read (refresh) only warns, whatever the mode.
 */
export async function reportStepIssues(r: IssueReport): Promise<void> {
  const all = stepIssueMessages(r.workflowId, r.outs.steps ?? []);
  // An issue no program can act on is said once, by the create, and fails nothing.
  const messages = all.filter((m) => m.severity === "actionable").map((m) => m.message);
  if (r.created) for (const m of all.filter((x) => x.severity === "informational")) await warn(`${m.message} (said once, when the workflow is created: no program can connect an Inbox)`);
  if (!messages.length) return;
  if (r.write && r.mode === "error") {
    // The engine shows a failed write's reasons, one a line, rather than its message: the first
    // says what failed and why, the others are the issues.
    const headline = `Unable to ${r.action}: the service reports step issues, and stepIssues is "error" ` +
      "(the workflow is written and kept in the stack; the next pulumi up retries it)";
    throw new ResourceInitFailure(`${headline}:\n${messages.map((m) => `  - ${m}`).join("\n")}`, r.id, r.outs as Record<string, unknown>, [headline, ...messages]);
  }
  for (const m of messages) await warn(m);
}
