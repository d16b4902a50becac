/** Workflows: `/v2/workflows` (create, list) and `/v2/workflows/{workflowId}` (get, update, patch, delete). */
import { openApiDocument } from "../contract";
import { badRequest, conflict, notFound, validationFailed } from "../errors";
import { ParamReader } from "../params";
import type { JsonObject, StepRecord, WorkflowRecord } from "../records";
import { EMULATOR_ORIGIN, resolveStepLayoutId } from "../shared";
import { dropTranslationsOf, ofTenant } from "../store";
import type { RequestContext, Route } from "../types";
import { bodyOf, objectId, slugify } from "../util";

interface StepInput { _id?: string; stepId?: string; name: string; type: string; controlValues?: JsonObject }

const DEFAULT_PREFERENCES = { all: { enabled: true, readOnly: false }, channels: { email: { enabled: true }, sms: { enabled: true }, in_app: { enabled: true }, chat: { enabled: true }, push: { enabled: true } } };

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

/** The live workflow by workflowId, slug or database `_id`, in the tenant's environment. */
export function findWorkflow(c: RequestContext, id: string): WorkflowRecord {
  const w = ofTenant(c.store.data.workflows, c.tenant).find((x) => x.workflowId === id || x.slug === id || x._id === id);
  if (!w) throw notFound(`Workflow cannot be found, workflowId: ${id}`);
  return w;
}

/** The full workflow a create, get or update answers. */
export function workflowOut(w: WorkflowRecord): JsonObject {
  const steps = w.steps.map((s) => ({
    controls: { values: s.controlValues ?? {}, dataSchema: { type: "object" }, uiSchema: { group: uiGroup(s.type) } },
    controlValues: s.controlValues ?? {},
    variables: { type: "object", properties: {} },
    stepId: s.stepId, _id: s._id, name: s.name, slug: `${s.stepId}_st_${s._id.slice(-6)}`, type: s.type,
    origin: w.origin, workflowId: w.workflowId, workflowDatabaseId: w._id,
  }));
  const prefs = w.preferences ?? {};
  return {
    _id: w._id, workflowId: w.workflowId, slug: w.slug, name: w.name, description: w.description ?? "",
    tags: w.tags ?? [], active: w.active, validatePayload: w.validatePayload ?? false, payloadSchema: w.payloadSchema ?? null,
    isTranslationEnabled: w.isTranslationEnabled ?? false, createdAt: w.createdAt, updatedAt: w.updatedAt,
    lastPublishedAt: null, lastTriggeredAt: w.lastTriggeredAt ?? null, steps, origin: w.origin,
    preferences: { user: prefs.user ?? null, default: prefs.workflow ?? DEFAULT_PREFERENCES },
    status: w.active ? "ACTIVE" : "INACTIVE", severity: w.severity ?? "none", payloadExample: null,
    updatedBy: { _id: "api-key" },
  };
}

function workflowListItem(w: WorkflowRecord): JsonObject {
  return {
    _id: w._id, workflowId: w.workflowId, slug: w.slug, name: w.name, tags: w.tags ?? [], createdAt: w.createdAt,
    updatedAt: w.updatedAt, lastPublishedAt: null, lastTriggeredAt: w.lastTriggeredAt ?? null,
    status: w.active ? "ACTIVE" : "INACTIVE", origin: w.origin, isTranslationEnabled: w.isTranslationEnabled ?? false,
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
    (!status.length || status.includes(w.active ? "ACTIVE" : "INACTIVE")));
  const sign = dir === "ASC" ? 1 : -1;
  list.sort((a, b) => {
    const av = String(a[orderBy] ?? ""), bv = String(b[orderBy] ?? "");
    if (av !== bv) return av < bv ? -sign : sign;
    return a._id < b._id ? -sign : sign;
  });
  return { status: 200, body: { workflows: list.slice(offset, offset + limit).map(workflowListItem), totalCount: list.length } };
}

export const workflowRoutes: Route[] = [
  {
    method: "POST", path: "/v2/workflows",
    handler: (c) => {
      const b = bodyOf(c, "WorkflowController_create");
      if (ofTenant(c.store.data.workflows, c.tenant).some((w) => w.workflowId === b.workflowId)) {
        throw conflict(`Workflow with the same workflowId already exists: ${b.workflowId}`);
      }
      const now = new Date().toISOString();
      const w: WorkflowRecord = {
        _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId,
        workflowId: b.workflowId, slug: `${b.workflowId}_wf_${objectId().slice(-8)}`, name: b.name, description: b.description ?? "",
        tags: b.tags ?? [], active: b.active ?? false, validatePayload: b.validatePayload ?? false, payloadSchema: b.payloadSchema ?? null,
        isTranslationEnabled: b.isTranslationEnabled ?? false, preferences: b.preferences ?? {}, severity: b.severity ?? "none",
        origin: EMULATOR_ORIGIN, createdAt: now, updatedAt: now,
        steps: withLayouts(c, applySteps([], b.steps.map(({ _id: _i, ...s }) => s), "create")),
      };
      c.store.data.workflows.push(w);
      c.store.touch();
      return { status: 201, body: workflowOut(w) };
    },
  },
  { method: "GET", path: "/v2/workflows", handler: listWorkflows },
  { method: "GET", path: "/v2/workflows/{workflowId}", handler: (c) => ({ status: 200, body: workflowOut(findWorkflow(c, c.params.workflowId!)) }) },
  {
    method: "PUT", path: "/v2/workflows/{workflowId}",
    handler: (c) => {
      const w = findWorkflow(c, c.params.workflowId!);
      const b = bodyOf(c, "WorkflowController_update");
      if (b.workflowId !== undefined && b.workflowId !== w.workflowId) {
        throw badRequest(["workflowId can be changed only for code-first workflows"]);
      }
      const steps = withLayouts(c, applySteps(w.steps, b.steps, "update"));
      // The origin sent back is not written: a workflow keeps the origin it was made with.
      Object.assign(w, {
        name: b.name, description: b.description ?? w.description, tags: b.tags ?? w.tags, active: b.active ?? false,
        validatePayload: b.validatePayload ?? w.validatePayload, payloadSchema: b.payloadSchema !== undefined ? b.payloadSchema : w.payloadSchema,
        isTranslationEnabled: b.isTranslationEnabled ?? false, preferences: b.preferences ?? {}, severity: b.severity ?? w.severity,
        steps, updatedAt: new Date().toISOString(),
      });
      c.store.touch();
      return { status: 200, body: workflowOut(w) };
    },
  },
  {
    // The patch-workflow use case (apps/api/src/app/workflows-v2/usecases/patch-workflow/patch-workflow.usecase.ts):
    // each of active, payloadSchema, validatePayload, name, description, tags that is sent and not
    // null is written, the rest and the steps kept; `active` sets the status; isTranslationEnabled
    // is not stored (it toggles the enterprise translations only); 200 with the whole workflow.
    method: "PATCH", path: "/v2/workflows/{workflowId}",
    handler: (c) => {
      const w = findWorkflow(c, c.params.workflowId!);
      const b = bodyOf(c, "WorkflowController_patchWorkflow");
      for (const k of ["active", "payloadSchema", "validatePayload", "name", "description", "tags"] as const) {
        if (b[k] !== undefined && b[k] !== null) w[k] = b[k] as never;
      }
      w.updatedAt = new Date().toISOString();
      c.store.touch();
      return { status: 200, body: workflowOut(w) };
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
