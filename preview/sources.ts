/**
 * Which workflows to render, read from what Pulumi writes: a stack's state (`pulumi stack export`)
 * and a preview of changes (`pulumi preview --json`, or the engine events of
 * `pulumi preview --event-log FILE`, which the Automation API's `onEvent` also delivers). A
 * workflow resource is found by its type, with either front end: the TypeScript classes
 * (`pulumi-nodejs:dynamic/notify:Workflow`) or the provider plugin (`notify:index:Workflow`).
 */
import { WORKFLOW } from "../provider/resources/workflow";

/** A step as a program declares it: the fields of the workflow's `steps` input that identify and render it. */
export interface DeclaredStep {
  name?: string;
  stepId?: string;
  type: string;
  controlValues?: Record<string, unknown>;
}

/** A workflow a file names, with the steps it declares there when the file holds them. */
export interface DeclaredWorkflow {
  workflowId: string;
  /** The declared steps; absent when the file says the workflow goes away (a delete in a preview). */
  steps?: DeclaredStep[];
}

/**
 * What a `--changed-from` file holds: `plan` (a preview: its declared steps are what the service
 * will hold after `up`), or `state` (a stack's state: its declared steps are what the stack last
 * deployed, before any change made on the service since).
 */
export interface ChangeSource {
  kind: "plan" | "state";
  workflows: DeclaredWorkflow[];
}

/** The type tokens of a workflow resource, one per front end. */
const WORKFLOW_TYPES = new Set([`pulumi-nodejs:dynamic/notify:${WORKFLOW.name}`, `notify:index:${WORKFLOW.name}`]);

/** The operations of a preview that leave a resource as it is. */
const UNCHANGED_OPS = new Set(["same", "read", "refresh", "discard", "discard-replaced", "remove-pending-replace"]);

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A resource's inputs as a workflow, or undefined when they are not one's. */
function workflowOf(inputs: unknown): DeclaredWorkflow | undefined {
  if (!isObject(inputs) || typeof inputs.workflowId !== "string") return undefined;
  const steps = Array.isArray(inputs.steps) ? inputs.steps.filter(isObject).filter((s) => typeof s.type === "string") as unknown as DeclaredStep[] : [];
  return { workflowId: inputs.workflowId, steps };
}

/** The workflows of a `pulumi stack export` (its `deployment.resources`), with the steps each declares. */
export function workflowsOfState(state: unknown): DeclaredWorkflow[] {
  const resources = isObject(state) && isObject(state.deployment) && Array.isArray(state.deployment.resources) ? state.deployment.resources : undefined;
  if (!resources) throw new Error("not a `pulumi stack export` file: it has no deployment.resources");
  return resources.filter((r): r is Obj => isObject(r) && WORKFLOW_TYPES.has(String(r.type)))
    .map((r) => workflowOf(r.inputs)).filter((w): w is DeclaredWorkflow => !!w);
}

/** One changing step of a preview: its operation, type and the old and new inputs. */
interface PlannedStep { op: string; type: string; oldInputs?: unknown; newInputs?: unknown }

/** The workflows a preview changes: the new declaration, or no steps for a delete. */
function workflowsOfPlan(steps: PlannedStep[]): DeclaredWorkflow[] {
  const out = new Map<string, DeclaredWorkflow>();
  for (const s of steps) {
    if (!WORKFLOW_TYPES.has(s.type) || UNCHANGED_OPS.has(s.op)) continue;
    const next = s.op === "delete" || s.op === "delete-replaced" ? undefined : workflowOf(s.newInputs);
    const prior = workflowOf(s.oldInputs);
    const workflowId = next?.workflowId ?? prior?.workflowId;
    // A replacement shows as several steps (create-replacement, delete-replaced): the new declaration wins.
    if (workflowId && (next || !out.has(workflowId))) out.set(workflowId, next ?? { workflowId });
  }
  return [...out.values()];
}

/**
 * Reads a `--changed-from` file: a stack export (`deployment.resources`), a `pulumi preview --json`
 * output (`steps[]` with `op`, `oldState`, `newState`), or an event log (one engine event a line,
 * `resourcePreEvent.metadata` with `op`, `type`, `old`, `new`).
 */
export function readChangeSource(text: string): ChangeSource {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined;
  }
  if (isObject(whole) && isObject(whole.deployment)) return { kind: "state", workflows: workflowsOfState(whole) };
  if (isObject(whole) && Array.isArray(whole.steps)) {
    return {
      kind: "plan",
      workflows: workflowsOfPlan(whole.steps.filter(isObject).map((s) => {
        const state = (isObject(s.newState) ? s.newState : isObject(s.oldState) ? s.oldState : {}) as Obj;
        return {
          op: String(s.op), type: String(state.type ?? ""),
          oldInputs: isObject(s.oldState) ? s.oldState.inputs : undefined, newInputs: isObject(s.newState) ? s.newState.inputs : undefined,
        };
      })),
    };
  }
  const events: PlannedStep[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      events.length = 0;
      break;
    }
    const m = isObject(e) && isObject(e.resourcePreEvent) && isObject(e.resourcePreEvent.metadata) ? e.resourcePreEvent.metadata : undefined;
    if (m) {
      events.push({
        op: String(m.op), type: String(m.type),
        oldInputs: isObject(m.old) ? m.old.inputs : undefined, newInputs: isObject(m.new) ? m.new.inputs : undefined,
      });
    } else if (!isObject(e)) {
      events.length = 0;
      break;
    }
  }
  if (events.length || (whole === undefined && text.trim().split("\n").every((l) => /^\s*\{/.test(l)))) return { kind: "plan", workflows: workflowsOfPlan(events) };
  throw new Error("not a `pulumi stack export` file, a `pulumi preview --json` output or a `pulumi preview --event-log` file");
}
