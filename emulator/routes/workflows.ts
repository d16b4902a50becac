/** Workflows: `/v2/workflows` (create, list) and `/v2/workflows/{workflowId}` (get, update, patch, delete). */
import { openApiDocument } from "../contract";
import { HttpError, badRequest, conflict, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader } from "../params";
import type { IntegrationRecord, JsonObject, StepIssue, StepRecord, WorkflowRecord } from "../records";
import { DEFAULT_WORKFLOW_PREFERENCES, EMULATOR_ORIGIN, resolveStepLayoutId } from "../shared";
import { dropTranslationsOf, ofTenant } from "../store";
import type { RequestContext, Route } from "../types";
import { bodyOf, objectId, slugify } from "../util";

interface StepInput { _id?: string; stepId?: string; name: string; type: string; controlValues?: JsonObject }


let knownKinds: string[] | undefined;
/** The step kinds a create or update may add: the document's step discriminator. */
function stepKinds(): string[] {
  if (!knownKinds) {
    const steps = (openApiDocument().components.schemas.CreateWorkflowDto?.properties as Record<string, { items?: { discriminator?: { mapping?: Record<string, string> } } }>).steps;
    knownKinds = Object.keys(steps?.items?.discriminator?.mapping ?? {});
  }
  return knownKinds;
}

/** The UI group a step's controls belong to (`SKIP` for kinds without one, known or not). */
function uiGroup(type: string): string {
  return ({ in_app: "IN_APP", email: "EMAIL", digest: "DIGEST", delay: "DELAY", throttle: "THROTTLE", sms: "SMS", chat: "CHAT", push: "PUSH", http_request: "HTTP_REQUEST" } as Record<string, string>)[type] ?? "SKIP";
}

/** Defaults the service fills into control values that the caller left out. */
function withStepDefaults(type: string, cv: JsonObject | undefined): JsonObject {
  const v = { ...(cv ?? {}) };
  if (type === "email" && v.editorType === undefined) v.editorType = "block";
  if ((type === "delay" || type === "digest") && v.type === undefined) v.type = "regular";
  return v;
}

/**
 * The controls each step kind requires, as the service's control schemas declare them
 * (libs/application-generic/src/schemas/control/sms-control.schema.ts `body: z.string()`,
 * push-control.schema.ts `subject` and `body`, chat-control.schema.ts `body`). Email's subject and
 * body are filled by the dashboard sanitizer before the check (sanitize-control-values.ts
 * `sanitizeEmail`), so an email step never misses them; in-app needs one of the two
 * (in-app-control.schema.ts, a union of a subject-required and a body-required schema).
 */
const REQUIRED_CONTROLS: Record<string, readonly string[]> = { sms: ["body"], push: ["subject", "body"], chat: ["body"] };

/** `body` → `Body`, as the service's capitalize helper writes a control's name in its messages. */
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A `{{ name }}` output of a Liquid template whose variable has no namespace (a single segment).
 * Only output tokens: tags (`{% for x in ... %}`, which bring local variables) are not modelled.
 */
const OUTPUT_TOKEN = /\{\{-?\s*([^{}|]*?)\s*(?:\|[^{}]*)?-?\}\}/g;
const BARE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Liquid's literals, which are values, not variables. */
const LIQUID_LITERALS = new Set(["true", "false", "nil", "null", "empty", "blank"]);

/**
 * The control issues of a step, as the service stores them on create and update (production-notes.md,
 * fifth pass §2; libs/application-generic/src/usecases/build-step-issues/build-step-issues.usecase.ts):
 * a required control missing or empty is `MISSING_VALUE` "<Control> is required" on that control
 * (utils/issues.ts `mapAjvErrorToMessage`; an empty string counts as missing, sanitize-control-values.ts
 * `sanitizeEmptyInput`); a `{{name}}` without a namespace anywhere in the control values is
 * `ILLEGAL_VARIABLE_IN_CONTROL_VALUE` 'Variable "name" invalid or missing namespace' on the
 * control's dotted path (utils/issues.ts `processControlValuesByLiquid`;
 * template-parser/new-liquid-parser.ts `validateVariable`, without the payload suggestion).
 */
export function controlIssues(type: string, values: JsonObject): Record<string, StepIssue[]> {
  const controls: Record<string, StepIssue[]> = {};
  const filled = (k: string) => typeof values[k] === "string" && (values[k] as string).trim() !== "";
  if (type === "in_app" && !filled("subject") && !filled("body")) {
    controls.body = [{ issueType: "MISSING_VALUE", variableName: "body", message: "Subject or body is required" }];
  }
  for (const k of REQUIRED_CONTROLS[type] ?? []) {
    if (!filled(k)) controls[k] = [{ issueType: "MISSING_VALUE", variableName: k, message: `${capitalize(k)} is required` }];
  }
  const walk = (v: unknown, path: string[]) => {
    if (typeof v === "string") {
      const names = [...new Set([...v.matchAll(OUTPUT_TOKEN)].map((m) => m[1]!).filter((n) => BARE_NAME.test(n) && !LIQUID_LITERALS.has(n)))];
      if (names.length) {
        controls[path.join(".")] = names.map((n) => ({ issueType: "ILLEGAL_VARIABLE_IN_CONTROL_VALUE", variableName: n, message: `Variable "${n}" invalid or missing namespace` }));
      }
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    }
  };
  walk(values, []);
  return controls;
}

/** A step with its control issues computed, as a create or update stores it. */
function withControlIssues(s: StepRecord): StepRecord {
  const { issues: _old, ...step } = s;
  const controls = controlIssues(s.type, s.controlValues ?? {});
  return Object.keys(controls).length ? { ...step, issues: { controls } } : step;
}

/**
 * A workflow's status as a create or update sets it: `INACTIVE` when inactive, else `ERROR` when a
 * step has control issues, else `ACTIVE`; integration issues never count
 * (libs/application-generic/src/utils/compute-workflow-status.ts).
 */
function computedStatus(active: boolean, steps: StepRecord[]): string {
  if (!active) return "INACTIVE";
  return steps.some((s) => Object.keys(s.issues?.controls ?? {}).length > 0) ? "ERROR" : "ACTIVE";
}

/** The status held: the last write's, or for a seeded record without one, a create's. */
function statusOf(w: WorkflowRecord): string {
  return w.status ?? computedStatus(w.active, w.steps.map((s) => (s.issues ? s : withControlIssues(s))));
}

/** The channel of each step kind that delivers through an integration (the service's STEP_TYPE_TO_CHANNEL_TYPE). */
const STEP_CHANNELS: Record<string, string> = { email: "email", sms: "sms", chat: "chat", push: "push", in_app: "in_app" };

/**
 * The integration issues of a step, computed on every read and never stored
 * (libs/application-generic/src/usecases/get-workflow/get-workflow.usecase.ts,
 * `validateIntegrationFromCache`): an email or SMS step needs an active **primary** integration
 * of its channel in the workflow's environment, a chat or push step any active one; an in-app step
 * an active one that an Inbox has connected (`connected`), else the Inbox message. Other kinds none.
 */
function integrationIssues(type: string, active: IntegrationRecord[]): Record<string, StepIssue[]> | undefined {
  const channel = STEP_CHANNELS[type];
  if (!channel) return undefined;
  const primaryNeeded = type === "email" || type === "sms";
  const found = active.find((i) => i.channel === channel && (!primaryNeeded || i.primary));
  let message: string | undefined;
  if (type === "in_app") {
    if (!found) message = "Missing active integration provider";
    else if (found.connected !== true) message = "Inbox is not connected. Please connect your Inbox integration.";
  } else if (!found) {
    message = `Missing active${primaryNeeded ? " primary" : ""} integration provider`;
  }
  return message ? { [type]: [{ issueType: "MISSING_INTEGRATION", message }] } : undefined;
}

/** The live workflow by workflowId, slug or database `_id`, in the tenant's environment. */
export function findWorkflow(c: RequestContext, id: string): WorkflowRecord {
  const w = ofTenant(c.store.data.workflows, c.tenant).find((x) => x.workflowId === id || x.slug === id || x._id === id);
  // get-workflow-by-ids.usecase.ts: NotFoundException({ message: "Workflow cannot be found", workflowId }),
  // which the exception filter answers with the id at the top level and under ctx, and no `error`.
  if (!w) throw new HttpError(404, "Workflow cannot be found", { ctx: { workflowId: id }, noStatusName: true });
  return w;
}

/**
 * The full workflow a create, get or update answers, with each step's issues: its stored control
 * issues and its integration issues as of now, `issues` left out when there are none.
 */
export function workflowOut(c: RequestContext, w: WorkflowRecord): JsonObject {
  const active = c.store.data.integrations.filter((i) => i._environmentId === w._environmentId && i.active && !i.deleted);
  const issuesOf = (s: StepRecord) => {
    const integration = integrationIssues(s.type, active);
    const issues = { ...(s.issues?.controls && Object.keys(s.issues.controls).length ? { controls: s.issues.controls } : {}), ...(integration ? { integration } : {}) };
    return Object.keys(issues).length ? { issues } : {};
  };
  const steps = w.steps.map((s) => ({
    controls: { values: s.controlValues ?? {}, dataSchema: { type: "object" }, uiSchema: { group: uiGroup(s.type) } },
    controlValues: s.controlValues ?? {},
    variables: { type: "object", properties: {} },
    stepId: s.stepId, _id: s._id, name: s.name, slug: `${s.stepId}_st_${s._id.slice(-6)}`, type: s.type,
    origin: w.origin, workflowId: w.workflowId, workflowDatabaseId: w._id, ...issuesOf(s),
  }));
  const prefs = w.preferences ?? {};
  return {
    _id: w._id, workflowId: w.workflowId, slug: w.slug, name: w.name, description: w.description ?? "",
    tags: w.tags ?? [], active: w.active, validatePayload: w.validatePayload ?? false, payloadSchema: w.payloadSchema ?? null,
    isTranslationEnabled: w.isTranslationEnabled ?? false, createdAt: w.createdAt, updatedAt: w.updatedAt,
    lastPublishedAt: null, lastTriggeredAt: w.lastTriggeredAt ?? null, steps, origin: w.origin,
    preferences: { user: prefs.user ?? null, default: prefs.workflow ?? DEFAULT_WORKFLOW_PREFERENCES },
    status: statusOf(w), severity: w.severity ?? "none", payloadExample: null,
    updatedBy: { _id: "api-key" },
  };
}

function workflowListItem(w: WorkflowRecord): JsonObject {
  return {
    _id: w._id, workflowId: w.workflowId, slug: w.slug, name: w.name, tags: w.tags ?? [], createdAt: w.createdAt,
    updatedAt: w.updatedAt, lastPublishedAt: null, lastTriggeredAt: w.lastTriggeredAt ?? null,
    status: statusOf(w), origin: w.origin, isTranslationEnabled: w.isTranslationEnabled ?? false,
    stepTypeOverviews: w.steps.map((s) => s.type), steps: w.steps.map((s) => ({ slug: s.stepId, type: s.type })),
  };
}

/**
 * The new step list of a workflow, with production's step ids (the service's upsert-workflow use
 * case, apps/api/src/app/workflows-v2/usecases/upsert-workflow/upsert-workflow.usecase.ts): a
 * step matched by `_id` keeps its `stepId`; a new step takes the `stepId` it is given, as given
 * (no check against the others); a new step without one gets the slug of its name, unless an id
 * already holds it (the existing workflow's steps on update, the ids assigned so far in this
 * request on create), then the slug with a suffix. So a given id may repeat one generated before
 * it, as in production. A step kind the document does not list is accepted only on a step that
 * already has it (one seeded or created by a newer server, sent back with its `_id`).
 */
function applySteps(existingSteps: StepRecord[], steps: StepInput[], op: "create" | "update"): StepRecord[] {
  const existing = new Map(existingSteps.map((s) => [s._id, s]));
  const unknownKinds = steps.flatMap((s, i) =>
    stepKinds().includes(s.type) || (s._id !== undefined && existing.get(s._id)?.type === s.type) ? [] : [`steps.${i}.type: must be one of ${stepKinds().join(", ")}`]);
  if (unknownKinds.length) throw validationFailed(unknownKinds);
  const creating = op === "create";
  const taken = new Set(existingSteps.map((s) => s.stepId));
  return steps.map((s) => {
    const prior = s._id !== undefined ? existing.get(s._id) : undefined;
    if (s._id !== undefined && !prior) throw badRequest([`steps: step with _id ${s._id} does not exist in this workflow`]);
    if (prior) {
      if (creating) taken.add(prior.stepId);
      return { ...prior, name: s.name, type: s.type, controlValues: withStepDefaults(s.type, s.controlValues) };
    }
    let id = s.stepId;
    if (id === undefined) {
      const base = slugify(s.name);
      id = base;
      for (let n = 1; taken.has(id); n++) id = `${base}-${n}`;
    }
    if (creating) taken.add(id);
    return { _id: objectId(), stepId: id, name: s.name, type: s.type, controlValues: withStepDefaults(s.type, s.controlValues) };
  });
}

/**
 * Email steps' `layoutId`: resolved by identifier or `_id` in the environment (unknown: 404) and
 * stored as the identifier; null or absent means no layout (production-notes.md, Third pass §3).
 */
function withLayouts(c: RequestContext, steps: StepRecord[]): StepRecord[] {
  for (const s of steps) {
    const id = s.controlValues?.layoutId;
    if (s.type === "email" && typeof id === "string") s.controlValues = { ...s.controlValues, layoutId: resolveStepLayoutId(c, id) };
  }
  return steps;
}

function listWorkflows(c: RequestContext) {
  const q = c.query;
  const p = new ParamReader(q);
  const limit = p.int("limit", 10, 1, 100);
  const offset = p.int("offset", 0, 0);
  const dir = q.get("orderDirection") ?? "DESC";
  const orderBy = q.get("orderBy") ?? "createdAt";
  p.done();
  const status = q.getAll("status");
  const text = (q.get("query") ?? "").toLowerCase();
  const tags = q.getAll("tags");
  const list = ofTenant(c.store.data.workflows, c.tenant).filter((w) =>
    (!text || w.name.toLowerCase().includes(text) || w.workflowId.toLowerCase().includes(text)) &&
    (!tags.length || tags.some((t) => (w.tags ?? []).includes(t))) &&
    (!status.length || status.includes(statusOf(w))));
  const sign = dir === "ASC" ? 1 : -1;
  list.sort((a, b) => {
    const av = String(a[orderBy] ?? ""), bv = String(b[orderBy] ?? "");
    if (av !== bv) return av < bv ? -sign : sign;
    return a._id < b._id ? -sign : sign;
  });
  return { status: 200, body: { workflows: list.slice(offset, offset + limit).map(workflowListItem), totalCount: list.length } };
}

/**
 * A user preferences block must name every channel, each an object: the real 3.15.0 server answered
 * a PUT whose `preferences.user.channels` named only some with 422 "userPreferences.channels.sms:
 * sms must be an object; ..." (production-notes.md, seventh pass), from its PreferencesRequired
 * command (libs/application-generic/src/usecases/upsert-preferences/upsert-preferences.command.ts:
 * `@IsObject() @ValidateNested()` on each of email, sms, in_app, push, chat). Newer servers fill
 * the rest from their defaults; what every version takes is all five.
 */
function checkUserChannels(preferences: unknown): void {
  const user = (preferences as { user?: { channels?: Record<string, unknown> } | null } | undefined)?.user;
  if (!user) return;
  const missing = Object.keys(DEFAULT_WORKFLOW_PREFERENCES.channels).filter((ch) => typeof user.channels?.[ch] !== "object" || user.channels[ch] === null);
  if (missing.length) throw validationFailed(missing.map((ch) => `userPreferences.channels.${ch}: ${ch} must be an object`));
}

const workflowRoutes: Route[] = [
  {
    method: "POST", path: "/v2/workflows",
    handler: (c) => {
      const b = bodyOf(c, "WorkflowController_create");
      checkUserChannels(b.preferences);
      const taken = (id: string) => ofTenant(c.store.data.workflows, c.tenant).some((w) => w.workflowId === id);
      if (taken(b.workflowId)) {
        if (!c.behaviour.suffixDuplicateWorkflows) throw conflict(`Workflow with the same workflowId already exists: ${b.workflowId}`);
        // The real 3.15.0 server stored a second workflow as `<workflowId>-wf-df1t` and answered 201
        // (production-notes.md, seventh pass); its create-workflow use case tries the id, then the
        // id with a short suffix (libs/application-generic/src/usecases/create-workflow-v0/create-workflow.usecase.ts).
        let id: string;
        do id = `${b.workflowId}-wf-${objectId().slice(-4)}`; while (taken(id));
        b.workflowId = id;
      }
      const now = new Date().toISOString();
      const w: WorkflowRecord = {
        _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId,
        workflowId: b.workflowId, slug: `${b.workflowId}_wf_${objectId().slice(-8)}`, name: b.name, description: b.description ?? "",
        // Created without `active`, a workflow is active (the upsert use case: `workflowDto?.active ?? true`);
        // without a payload schema it gets an open object schema and validatePayload (create-workflow.usecase.ts),
        // as the real 3.15.0 server answered (production-notes.md, seventh pass).
        tags: b.tags ?? [], active: b.active ?? true,
        validatePayload: b.validatePayload ?? (b.payloadSchema ? false : true), payloadSchema: b.payloadSchema ?? { type: "object", additionalProperties: true, properties: {} },
        isTranslationEnabled: b.isTranslationEnabled ?? false, preferences: b.preferences ?? {}, severity: b.severity ?? "none",
        origin: EMULATOR_ORIGIN, createdAt: now, updatedAt: now,
        steps: withLayouts(c, applySteps([], b.steps.map(({ _id: _i, ...s }) => s), "create")).map(withControlIssues),
      };
      w.status = computedStatus(w.active, w.steps);
      c.store.data.workflows.push(w);
      c.store.touch();
      return { status: 201, body: workflowOut(c, w) };
    },
  },
  { method: "GET", path: "/v2/workflows", handler: listWorkflows },
  { method: "GET", path: "/v2/workflows/{workflowId}", handler: (c) => ({ status: 200, body: workflowOut(c, findWorkflow(c, c.params.workflowId!)) }) },
  {
    method: "PUT", path: "/v2/workflows/{workflowId}",
    handler: (c) => {
      const w = findWorkflow(c, c.params.workflowId!);
      const b = bodyOf(c, "WorkflowController_update");
      checkUserChannels(b.preferences);
      if (b.workflowId !== undefined && b.workflowId !== w.workflowId) {
        throw badRequest(["workflowId can be changed only for code-first workflows"]);
      }
      const steps = withLayouts(c, applySteps(w.steps, b.steps, "update")).map(withControlIssues);
      // The origin sent back is not written: a workflow keeps the origin it was made with.
      Object.assign(w, {
        name: b.name, description: b.description ?? w.description, tags: b.tags ?? w.tags, active: b.active ?? false,
        validatePayload: b.validatePayload ?? w.validatePayload, payloadSchema: b.payloadSchema !== undefined ? b.payloadSchema : w.payloadSchema,
        isTranslationEnabled: b.isTranslationEnabled ?? false, preferences: b.preferences ?? {}, severity: b.severity ?? w.severity,
        steps, updatedAt: new Date().toISOString(),
      });
      w.status = computedStatus(w.active, w.steps);
      c.store.touch();
      return { status: 200, body: workflowOut(c, w) };
    },
  },
  {
    // The patch-workflow use case (apps/api/src/app/workflows-v2/usecases/patch-workflow/patch-workflow.usecase.ts):
    // each of active, payloadSchema, validatePayload, name, description, tags that is sent and not
    // null is written, the rest and the steps kept; `active` sets the status; isTranslationEnabled
    // is not stored (it toggles the enterprise translations only); 200 with the whole workflow.
    // `active` sets the status to ACTIVE or INACTIVE even when a step has control issues (where a
    // PUT gives ERROR); the control issues are recomputed only when payloadSchema changes, which
    // the issues modelled here do not depend on.
    method: "PATCH", path: "/v2/workflows/{workflowId}",
    handler: (c) => {
      const w = findWorkflow(c, c.params.workflowId!);
      const b = bodyOf(c, "WorkflowController_patchWorkflow");
      for (const k of ["active", "payloadSchema", "validatePayload", "name", "description", "tags"] as const) {
        if (b[k] !== undefined && b[k] !== null) w[k] = b[k] as never;
      }
      if (b.active !== undefined && b.active !== null) w.status = b.active ? "ACTIVE" : "INACTIVE";
      w.updatedAt = new Date().toISOString();
      c.store.touch();
      return { status: 200, body: workflowOut(c, w) };
    },
  },
  {
    method: "DELETE", path: "/v2/workflows/{workflowId}",
    handler: (c) => {
      const w = findWorkflow(c, c.params.workflowId!);
      c.store.data.workflows = c.store.data.workflows.filter((x) => x !== w);
      dropTranslationsOf(c.store, w._id);
      c.store.touch();
      return { status: 204 };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ workflows: list<WorkflowRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Workflows: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: workflowRoutes });
