/**
 * Workflow: an ordered list of steps run when the workflow is triggered.
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v2/workflows; with adopt: GET /v2/workflows/{workflowId} first, then nothing when
 *           it is as declared, else PUT (so too after our own retried create)
 *   read    GET /v2/workflows/{databaseId}
 *   update  PATCH /v2/workflows/{databaseId} of the fields that changed, when only fields it writes
 *           did; else GET /v2/workflows/{databaseId}, then PUT with each kept step's _id
 *   delete  DELETE /v2/workflows/{databaseId} (a 404 counts as done)
 *
 * Each step's issues (what the service says will stop it from sending) come with every answer
 * and are in the outputs; create, update and read show each as a warning, and with
 * `stepIssues: "error"` a create or update fails after its write (stepIssues.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotifyApiError } from "../client/errors";
import { clientFor } from "../config";
import type { RequestBody } from "../../spec/operations";
import {
  JsonObject, PreferenceBlock, PreferencesInput, SafeString, Severity, SLUG_IDENTIFIER, SLUG_MESSAGE, StepControlValues, WorkflowStepKind,
  type CreateWorkflowBody, type StepInput, type UpdateWorkflowBody, type Workflow as ApiWorkflow,
} from "../schemas";
import { allowedKeysAt, checkWith, unknownKeyMessage, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, isPlainObject, project, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type InputOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, undoSuffixed } from "./lifecycle";
import { modeOf, reportStepIssues, WorkflowStepIssues } from "./stepIssues";
import { STEP_ISSUE_MODES } from "../client/settings";

/** The fields of a step, as a program declares it and as the service holds it. */
const stepFields = {
  name: SafeString(200).min(1, { error: "must not be empty" }).describe("Step name; also what identifies the step across updates when no `stepId` is given."),
  type: WorkflowStepKind.describe("`in_app`, `email`, `sms`, `chat`, `push`, `delay`, `digest`, `throttle`, `custom` or `http_request`."),
  stepId: z.string().max(100).regex(SLUG_IDENTIFIER, { error: SLUG_MESSAGE }).optional().describe("Stable step id (a slug); generated from the name when left out."),
  controlValues: JsonObject.optional().describe(
    "Control values of the step kind, e.g. `{ subject, body }` for email (also `from`, `replyTo`, `preheader`, `useProviderDefaults`), " +
    "`{ body, editorType }` for chat, `{ method, url, headers?, body?, responseBodySchema?, enforceSchemaValidation?, continueOnFailure? }` " +
    "for http_request, `{ type, amount, unit }` for throttle (unit `minutes`, `hours` or `days`).",
  ),
};

/** Schema of one declared step: control values checked against the rules of its kind. */
export const WorkflowStepInput = z.strictObject(stepFields).superRefine((step, ctx) => {
  const schema = StepControlValues[step.type];
  if (!schema || step.controlValues === undefined) {
    if (step.type === "email" && step.controlValues === undefined) {
      ctx.addIssue({ code: "custom", path: ["controlValues"], message: "an email step requires controlValues with subject and body" });
    }
    if (step.type === "in_app" && step.controlValues === undefined) {
      ctx.addIssue({ code: "custom", path: ["controlValues"], message: "an in_app step requires controlValues with a body or a subject" });
    }
    if (step.type === "http_request" && step.controlValues === undefined) {
      ctx.addIssue({ code: "custom", path: ["controlValues"], message: "an http_request step requires controlValues with a method and a url" });
    }
    return;
  }
  const r = schema.safeParse(step.controlValues);
  if (!r.success) {
    for (const issue of r.error.issues) {
      // A misspelt control gets the closest control of the step's kind, as a misspelt credential does.
      const allowed = issue.code === "unrecognized_keys" ? allowedKeysAt(schema, issue.path) : undefined;
      if (issue.code === "unrecognized_keys" && allowed) {
        for (const key of issue.keys) ctx.addIssue({ code: "custom", path: ["controlValues", ...issue.path], message: unknownKeyMessage(key, allowed) });
      } else ctx.addIssue({ ...issue, path: ["controlValues", ...issue.path] } as never);
    }
  }
}).meta({ id: "WorkflowStep", description: "One step of a workflow, in order." }) as unknown as z.ZodType<z.output<typeof WorkflowStepShape>, TypedWorkflowStep>;

/** A declared step, as its zod object gives it (control values any JSON object). */
const WorkflowStepShape = z.strictObject(stepFields);
/**
 * A declared step as a program writes it, typed per step kind: `controlValues` are the controls
 * of that kind (`StepControlValues`), so the compiler refuses a misspelt or foreign control, as
 * `check` does at run time. Only the static type is narrowed; the schema and the check are the
 * zod object's.
 */
export type TypedWorkflowStep = {
  [K in keyof typeof StepControlValues]: Omit<z.input<typeof WorkflowStepShape>, "type" | "controlValues"> & { type: K; controlValues?: z.input<(typeof StepControlValues)[K]> };
}[keyof typeof StepControlValues];

/** A step of a workflow as the service holds it: the declared step plus its ids. */
export const WorkflowStepOutput = z.object({
  ...stepFields,
  stepId: z.string().describe("The step's id (a slug), given or generated from the name."),
  databaseId: z.string().describe("The step's database id (`_id`)."),
  issues: WorkflowStepIssues.optional().describe("What the service says will stop the step from sending; absent when nothing does. Read on every create, update and refresh."),
}).meta({ id: "WorkflowStepOutput", description: "A step of a workflow as the service holds it: the declared step plus its ids." });

/** One step of a workflow as a program declares it. */
export type WorkflowStepArgs = z.input<typeof WorkflowStepInput>;
/** A step of a workflow as the service holds it. */
export type WorkflowStepOutput = z.output<typeof WorkflowStepOutput>;

/** The field table of a {@link Workflow}. */
export const WORKFLOW = defineResource({
  name: "Workflow",
  module: "workflow",
  doc: "A workflow of the notification service: the steps (in-app, email, SMS, chat, push, delay, digest, throttle, custom, HTTP request) run when it is triggered.",
  inputs: {
    workflowId: field(z.string().min(1, { error: "must not be empty" }).max(100).regex(SLUG_IDENTIFIER, { error: SLUG_MESSAGE }),
      "The workflow's identifier and trigger name (a slug). Changing it replaces the workflow.", { createOnly: true }),
    // The service's update (a PUT) replaces the workflow whole: a field left out is reset, so each
    // optional field is `keep` (an update sends the value held when the program leaves it out).
    name: field(SafeString(200).min(1, { error: "must not be empty" }), "Display name."),
    description: field(SafeString(2000).optional(), "Free-text description.", { keep: true }),
    tags: field(z.array(SafeString(100)).max(16).optional(), "Tags (at most 16) to group and find workflows.", { filled: true, keep: true }),
    active: field(z.boolean().optional(), "Whether the workflow can be triggered (service default false).", { filled: true, keep: true }),
    validatePayload: field(z.boolean().optional(), "Whether triggers are checked against `payloadSchema`.", { keep: true }),
    // The service stores the schema as given, so a removed key must show.
    payloadSchema: field(JsonObject.optional(), "JSON Schema of the trigger payload.", { exact: true, keep: true }),
    isTranslationEnabled: field(z.boolean().optional(), "Whether the workflow's content is translated per subscriber locale.", { keep: true }),
    severity: field(Severity.optional(), "`high`, `medium`, `low` or `none`.", { filled: true, keep: true }),
    preferences: field(PreferencesInput.optional(), "`{ user?, workflow? }`, each `{ all: { enabled, readOnly }, channels: { email?: { enabled }, ... } }`.", { filled: true, keep: true }),
    steps: field(z.array(WorkflowStepInput).superRefine((steps, ctx) => {
      const seen = new Map<string, number>();
      steps.forEach((s, i) => {
        if (!s.stepId) return;
        if (seen.has(s.stepId)) ctx.addIssue({ code: "custom", path: [i, "stepId"], message: `duplicates the stepId of steps[${seen.get(s.stepId)}]` });
        seen.set(s.stepId, i);
      });
    }), "The steps, in order.", { output: z.array(WorkflowStepOutput) }),
    adopt: field(z.boolean().optional(), "Take over an existing workflow with the same workflowId instead of failing.", { control: true }),
    stepIssues: field(z.enum(STEP_ISSUE_MODES).meta({ id: "StepIssueMode", description: "What step issues do: `warn` shows each as a warning, `error` also fails the `pulumi up` that writes the workflow." }).optional(),
      "What the steps' issues (what the service says will stop a step from sending) do to this workflow: `warn` shows each as a warning, " +
      "`error` also fails the `pulumi up` that writes it (the workflow is kept in the stack, and the next up retries). Default: the provider's `stepIssues` setting.",
      { control: true }),
  },
  outputs: {
    databaseId: output(z.string(), "The service's `_id`; also the resource id."),
    slug: output(z.string(), "The service's slug of the workflow."),
    status: output(z.string(), "`ACTIVE`, `INACTIVE` or `ERROR` (active, but a step has control issues: see each step's `issues`)."),
    origin: output(z.string(), "Where the workflow was made: `platform-cloud`, `platform-cloud-v1` or `external`."),
    createdAt: output(z.string(), "When the workflow was created (ISO 8601)."),
    declaredKeys: output(z.array(z.string()), "The input properties this program sets (used for exact diffs), and `steps[i].stepId` for each step id it sets."),
  },
});

/**
 * A step as a program passes it to a {@link Workflow}: each field a `pulumi.Input`, except `type`,
 * a plain step kind, and the step itself, a plain object. The compiler narrows the union of
 * {@link TypedWorkflowStep} on `type` only when `type` is a literal in every member and no member is
 * a Promise or an Output (which have no `type`); otherwise a misspelt kind (`"emial"`) or a
 * misspelt control is reported against the union's last member (the `http_request` controls). So
 * narrowed, a misspelt kind is reported against the kinds allowed ("Type '"emial"' is not assignable
 * to type '"in_app" | "email" | ...'. Did you mean '"email"'?"), and a control against its kind's controls.
 */
export type WorkflowStepInputs = TypedWorkflowStep extends infer S
  ? S extends unknown ? { [P in keyof S]: P extends "type" ? S[P] : InputOf<S[P]> } : never
  : never;

/** Inputs of a {@link Workflow}: the table's, with the steps as {@link WorkflowStepInputs}. */
export type WorkflowArgs = {
  [K in keyof ArgsOf<typeof WORKFLOW>]: K extends "steps" ? pulumi.Input<WorkflowStepInputs[]> : ArgsOf<typeof WORKFLOW>[K];
};
/** The state of a {@link Workflow}: the service's view, each declared input as declared. */
export type WorkflowState = StateOf<typeof WORKFLOW>;

type Inputs = z.infer<typeof WORKFLOW.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Maps the service's workflow to outputs in the shape of the inputs, plus what the service adds. */
export function toWorkflowOutputs(w: ApiWorkflow): Props {
  const prefs = (w.preferences ?? {}) as Record<string, unknown>;
  return stripUndefined({
    ...serviceFields(WORKFLOW, w),
    databaseId: w._id,
    slug: w.slug,
    status: w.status,
    origin: w.origin,
    // The service answers the workflow's own preferences as `default` (older ones as `workflow`).
    preferences: { user: prefs.user ?? null, workflow: prefs.default ?? prefs.workflow ?? null },
    steps: w.steps.map((s) => ({
      name: s.name, type: s.type, stepId: s.stepId, databaseId: s._id, controlValues: s.controlValues ?? s.controls?.values ?? {},
      issues: s.issues,
    })),
    createdAt: w.createdAt,
  });
}

/**
 * `declaredKeys` of a workflow: the top-level input keys the program sets, then `steps[i].stepId`
 * for each step whose id the program sets. A read needs the second part: it has only the old
 * outputs, where every step carries the service's id, and a generated id must not become an input.
 */
export function workflowDeclaredKeys(inputs: Props): string[] {
  const keys = declaredKeys(inputs, WORKFLOW.inputKeys);
  if (Array.isArray(inputs.steps)) {
    inputs.steps.forEach((s, i) => {
      if (isPlainObject(s) && s.stepId !== undefined) keys.push(`steps[${i}].stepId`);
    });
  }
  return keys;
}

function outputsFor(w: ApiWorkflow, declared: Props, keys: string[]): { outs: WorkflowState; inputs: Props } {
  const svc = toWorkflowOutputs(w);
  const outs: Props = { ...svc, ...controlInputs(declared, WORKFLOW.controlKeys), declaredKeys: keys };
  const inputs: Props = controlInputs(declared, WORKFLOW.controlKeys);
  for (const k of keys.filter((x) => (WORKFLOW.inputKeys as readonly string[]).includes(x))) {
    inputs[k] = (WORKFLOW.exactKeys as readonly string[]).includes(k) ? svc[k] : project(svc[k], declared[k]);
    outs[k] = inputs[k];
  }
  // Steps keep their generated ids in the outputs whatever the program declared.
  const svcSteps = svc.steps as Props[];
  // So do their issues, outputs only: the inputs a read returns are projected onto the declared
  // steps, which have none, so issues never show as a diff.
  outs.steps = (project(svcSteps, declared.steps) as Props[]).map((s, i) => ({
    ...s, stepId: svcSteps[i]!.stepId, databaseId: svcSteps[i]!.databaseId, issues: svcSteps[i]!.issues,
  }));
  // The service's view in the shape the table gives the state (read leniently: values as returned).
  return { outs: stripUndefined(outs) as WorkflowState, inputs: stripUndefined(inputs) };
}

/**
 * The step list to send: each declared step carries the `_id` of the live step it continues
 * (matched by stepId, then by name and type), so content changes and reordering keep identity.
 */
export function matchSteps(declared: Inputs["steps"], live: ApiWorkflow["steps"]): StepInput[] {
  const used = new Set<string>();
  const take = (pred: (s: ApiWorkflow["steps"][number]) => boolean) => {
    const found = live.find((s) => !used.has(s._id) && pred(s));
    if (found) used.add(found._id);
    return found;
  };
  // The service keeps a given stepId as given, so two live steps may share one (a step named
  // "Alert" gets "alert", and a later step may be given "alert"): the one of the same type first.
  const matches = declared.map((d) => (d.stepId ? take((s) => s.stepId === d.stepId && s.type === d.type) ?? take((s) => s.stepId === d.stepId) : undefined));
  declared.forEach((d, i) => {
    if (!matches[i] && !d.stepId) matches[i] = take((s) => s.name === d.name && s.type === d.type);
  });
  return declared.map((d, i) => stripUndefined({
    _id: matches[i]?._id, stepId: matches[i] ? undefined : d.stepId, name: d.name, type: d.type, controlValues: d.controlValues ?? {},
  }));
}

/**
 * The update body (a whole replace): the declared fields, each field the program leaves out as the
 * service holds it (two flags the service may not answer sent as false), the steps matched to the
 * live ones, and the workflow's origin as held.
 */
/** The channels of a preferences block (the schema's): the 3.15.0 server refuses a user block without every one. */
const PREFERENCE_CHANNELS = Object.keys(PreferenceBlock.shape.channels.shape) as (keyof PreferenceBlock["channels"])[];

type Block = PreferenceBlock | null | undefined;

/**
 * Preferences as every version of the service takes them: each block the program declares with
 * every channel, the ones it leaves out as the service holds them (`live`, the workflow's current
 * preferences on an update: the block's own channel, else the workflow's default's), else on. The
 * real 3.15.0 server refuses a user block that names only some channels (422 "userPreferences.channels.sms:
 * sms must be an object", production-notes.md seventh pass: its PreferencesRequired command
 * validates each channel); newer ones fill the rest from their defaults. A read projects the
 * answer onto what was declared, so the filled channels never show as drift.
 */
function withEveryChannel(prefs: PreferencesInput | undefined, live?: ApiWorkflow["preferences"]): PreferencesInput | undefined {
  if (!prefs) return prefs;
  const held = (live ?? {}) as { user?: Block; default?: Block; workflow?: Block };
  const fill = (block: Block, own: Block): Block => {
    if (!block) return block;
    const workflowDefault = held.default ?? held.workflow;
    const channels = Object.fromEntries(PREFERENCE_CHANNELS.map((ch) => [ch, block.channels[ch] ?? own?.channels?.[ch] ?? workflowDefault?.channels?.[ch] ?? { enabled: true }]));
    return { ...block, channels };
  };
  return stripUndefined({ user: fill(prefs.user, held.user), workflow: fill(prefs.workflow, held.default ?? held.workflow) }) as PreferencesInput;
}

function updateBody(inputs: Inputs, live: ApiWorkflow): UpdateWorkflowBody {
  const held = { ...toWorkflowOutputs(live), active: live.active ?? false, isTranslationEnabled: live.isTranslationEnabled ?? false };
  const sent = { ...inputs, steps: matchSteps(inputs.steps, live.steps), preferences: withEveryChannel(inputs.preferences, live.preferences) };
  const fields: Omit<UpdateWorkflowBody, "origin"> = requestBody(WORKFLOW, sent, "update", held);
  return { ...fields, origin: live.origin };
}

/**
 * The fields `PATCH /v2/workflows` writes as a PUT would, and alone (its patch-workflow use case,
 * apps/api/src/app/workflows-v2/usecases/patch-workflow/patch-workflow.usecase.ts; PatchWorkflowDto):
 * a change of these is one PATCH of them, answered with the whole workflow. Not `active`, whose
 * PATCH sets the status even where a PUT would give ERROR, nor `isTranslationEnabled`, which the
 * PATCH does not store (it only toggles the enterprise translations).
 */
const PATCHED: readonly string[] = ["name", "description", "tags", "payloadSchema", "validatePayload"];

function isAlreadyExists(err: unknown): err is NotifyApiError {
  return err instanceof NotifyApiError && (err.status === 409 || (err.status === 400 && /already exist/i.test(err.message)));
}

/**
 * Takes over `live` (read already): no request when it is as declared (steps compared by name,
 * type, control values and declared step ids, as a preview compares them), else one PUT.
 */
async function adopt(live: ApiWorkflow, raw: Props, keys: string[]) {
  return adoptExisting(`workflow "${String(raw.workflowId)}"`, {
    id: live._id, compared: outputsFor(live, raw, keys).outs as unknown as Props, inputs: raw, diff: provider.diff,
    update: async () => {
      try {
        return outputsFor(await clientFor().workflows.update(live._id, updateBody(raw as Inputs, live)), raw, keys).outs;
      } catch (e) {
        throw failure(`adopt workflow "${String(raw.workflowId)}"`, e);
      }
    },
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(WORKFLOW.schema, news) };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(WORKFLOW, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = workflowDeclaredKeys(raw);
    const api = clientFor().workflows;
    // Resolved before the write, so that a bad setting fails with nothing written.
    const mode = modeOf(inputs);
    const made = await createOrAdopt({
      what: `workflow "${inputs.workflowId}"`, adopt: inputs.adopt, exists: isAlreadyExists,
      refuse: `A workflow with workflowId "${inputs.workflowId}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(inputs.workflowId)),
      takeOver: (existing) => adopt(existing, raw, keys),
      create: async () => {
        const steps = inputs.steps.map((s) => stripUndefined({ name: s.name, type: s.type, stepId: s.stepId, controlValues: s.controlValues ?? {} }));
        const made = await api.create(requestBody(WORKFLOW, { ...inputs, steps, preferences: withEveryChannel(inputs.preferences) }, "create"));
        // The 3.15.0 server answers a taken workflowId with 201 and a second workflow as
        // `<workflowId>-wf-<suffix>` (production-notes.md, seventh pass): not the declared one, so undone.
        if (made.workflowId === inputs.workflowId || !made.workflowId.startsWith(`${inputs.workflowId}-`)) return made;
        return undoSuffixed({ kind: "workflow", field: "workflowId", declared: inputs.workflowId, answered: made.workflowId, route: "/v2/workflows", remove: () => api.delete(made._id) });
      },
      created: (result) => ({ id: result._id, outs: outputsFor(result, raw, keys).outs }),
    });
    await reportStepIssues({ action: `create workflow "${inputs.workflowId}"`, workflowId: inputs.workflowId, id: made.id, outs: made.outs, mode, write: true, created: true });
    return made;
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const live = await readIfPresent(`read workflow ${id}`, () => clientFor().workflows.get(id));
    if (!live) return gone();
    // Project onto the declared shape: steps as the program wrote them, without the database id,
    // without a step id the service generated, and without the issues (outputs only).
    const declared: Props = { ...props };
    if (Array.isArray(props.steps)) {
      declared.steps = (props.steps as Props[]).map((s, i) => {
        const { databaseId: _d, issues: _i, stepId, ...rest } = isPlainObject(s) ? s : {};
        return keys.includes(`steps[${i}].stepId`) ? { ...rest, stepId } : rest;
      });
    }
    const { outs, inputs } = outputsFor(live, declared, keys);
    await reportStepIssues({ action: `read workflow "${live.workflowId}"`, workflowId: live.workflowId, id, outs, mode: "warn", write: false });
    return { id, props: outs, inputs };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = workflowDeclaredKeys(news);
    const api = clientFor().workflows;
    const mode = modeOf(inputs);
    const action = `update workflow "${inputs.workflowId}"`;
    let outs: WorkflowState;
    try {
      // A PATCH sends only what it names, so a field the program leaves out keeps the service's value as a PUT's held value would.
      const changed = diffOf(WORKFLOW, olds, news).changed;
      if (changed.length && changed.every((k) => PATCHED.includes(k) && news[k] !== undefined)) {
        const body: RequestBody<"WorkflowController_patchWorkflow"> = Object.fromEntries(changed.map((k) => [k, news[k]]));
        outs = outputsFor(await api.patch(id, body), news, keys).outs;
      } else {
        const live = await api.get(id);
        // Nothing to write: the engine retries a workflow whose last write failed on its step
        // issues (stepIssues: "error"); the read answers whether they are gone.
        outs = outputsFor(changed.length ? await api.update(live._id, updateBody(inputs, live)) : live, news, keys).outs;
      }
    } catch (err) {
      throw failure(action, err);
    }
    await reportStepIssues({ action, workflowId: inputs.workflowId, id, outs, mode, write: true });
    return { outs };
  },

  async delete(id: string, props: Props) {
    await deleteIfPresent(`delete workflow "${String(props.workflowId)}"`, () => clientFor().workflows.delete(id));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
