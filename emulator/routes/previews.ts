/**
 * Previews: `POST /v2/workflows/{workflowId}/step/{stepId}/preview` and
 * `POST /v2/layouts/{layoutId}/preview`, as production-notes.md, Fifth pass §3 describes
 * production: 201 with `{result: {type, preview}, previewPayloadExample, schema}`; the body's
 * `controlValues` in place of the stored ones when given; an unknown workflow or step is not an
 * error but an empty preview; a template that does not render gives an empty `preview` with the
 * rest filled; an unknown layout is a 404. Rendering is `../render.ts`.
 */
import { emulatorKind } from "../kind";
import { LAYOUT_CONTENT_VARIABLE, renderStep, type LayoutLookup, type RenderVariables } from "../render";
import type { JsonObject, StepRecord, WorkflowRecord } from "../records";
import { liveLayouts, resolveStepLayoutId } from "../shared";
import { ofTenant } from "../store";
import type { RequestContext, Route } from "../types";
import { bodyOf } from "../util";

/**
 * The subscriber and actor a preview gets unless the request gives its own fields
 * (libs/application-generic/src/usecases/preview/services/mock-data-generator.service.ts).
 */
const EXAMPLE_SUBSCRIBER: JsonObject = {
  subscriberId: "123456", firstName: "John", lastName: "Doe", email: "user@example.com", phone: "+1234567890",
  avatar: "https://example.com/avatar.png", locale: "en_US", timezone: "America/New_York", data: {},
};
const EXAMPLE_ACTOR: JsonObject = { ...EXAMPLE_SUBSCRIBER, subscriberId: "actor-123", firstName: "Jane", lastName: "Actor", email: "actor@example.com" };

/** The answer to a preview of a workflow or step the environment does not have (preview-error-handler.ts). */
const EMPTY_PREVIEW = { result: { preview: {} }, previewPayloadExample: {}, schema: null };

/** The step variables' schema the emulator's workflows show (routes/workflows.ts `variables`). */
const STEP_VARIABLES_SCHEMA = { type: "object", properties: {} };

/** The layout preview's `schema` (production-notes.md, Fifth pass §3). */
const LAYOUT_VARIABLES_SCHEMA = { type: "object", properties: { subscriber: { type: "object" }, context: { type: "object" } } };

/**
 * What takes the place of a layout's `{{ content }}` in its preview: a dashed box reading
 * "Dynamic placeholder content" (packages/shared/src/consts/layouts.ts of the service; this markup
 * is the emulator's own).
 */
export const LAYOUT_PREVIEW_PLACEHOLDER_TEXT = "Dynamic placeholder content";
const LAYOUT_PREVIEW_PLACEHOLDER =
  '<table data-content-placeholder="" align="center" width="100%" role="presentation"><tr>' +
  '<td style="border:1px dashed #e1e4ea;border-radius:4px;padding:8px;text-align:center;background-color:#fbfbfb">' +
  `<p style="font-size:10px;color:#99a0ae;display:inline">${LAYOUT_PREVIEW_PLACEHOLDER_TEXT}</p></td></tr></table>`;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** `b` merged into `a`: objects deeply, anything else (arrays too) replaced. */
function merge(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? merge(out[k], v) : v;
  return out;
}

/** `value` without the keys `shape` lacks, at every depth (the service drops payload keys its schema lacks). */
function onlyKeysOf(value: JsonObject, shape: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (!(k in shape)) continue;
    const s = shape[k];
    if (isObject(v) && isObject(s)) out[k] = onlyKeysOf(v, s);
    else if (Array.isArray(v) && Array.isArray(s) && isObject(s[0])) out[k] = v.map((x) => (isObject(x) ? onlyKeysOf(x, s[0] as JsonObject) : x));
    else out[k] = v;
  }
  return out;
}

/**
 * An example value of a JSON schema, as the service's mock generator fills one: `examples`,
 * `example`, `default`, the first of `enum`, else by type, every property filled, arrays of one
 * (libs/application-generic/src/utils/json-schema-mock.ts). The generator's guesses from property
 * names (an `email` property gets an address) are not reproduced: strings are "example text".
 */
export function exampleOf(schema: unknown): unknown {
  if (!isObject(schema)) return {};
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null") : [schema.type];
  const type = types[0] ?? (isObject(schema.properties) ? "object" : undefined);
  switch (type) {
    case "object":
      return Object.fromEntries(Object.entries(isObject(schema.properties) ? schema.properties : {}).map(([k, s]) => [k, exampleOf(s)]));
    case "array":
      return [exampleOf(schema.items)];
    case "integer":
      return 42;
    case "number":
      return 42.5;
    case "boolean":
      return true;
    case "string":
      if (schema.format === "email") return "user@example.com";
      if (schema.format === "uri" || schema.format === "url") return "https://example.com";
      if (schema.format === "date-time") return new Date().toISOString();
      if (schema.format === "date") return new Date().toISOString().slice(0, 10);
      return "example text";
    default:
      return {};
  }
}

/** Every `payload.<path>` a template names, for a workflow without a payload schema. */
function payloadPlaceholders(controls: unknown): JsonObject {
  const out: JsonObject = {};
  const text = JSON.stringify(controls ?? {});
  for (const m of text.matchAll(/\{\{\s*payload\.([\w.]+)/g)) {
    const path = m[1]!.split(".");
    let at = out;
    path.forEach((key, i) => {
      if (i === path.length - 1) at[key] ??= `{{payload.${m[1]}}}`;
      else at = (isObject(at[key]) ? at[key] : (at[key] = {})) as JsonObject;
    });
  }
  return out;
}

/** A `{type: id}` or `{type: {id, data}}` context as the preview resolves it: `{type: {id, data}}`. */
function resolveContext(context: unknown): JsonObject | undefined {
  if (!isObject(context)) return undefined;
  const out: JsonObject = {};
  for (const [type, v] of Object.entries(context)) {
    if (typeof v === "string") out[type] = { id: v, data: {} };
    else if (isObject(v)) out[type] = { id: v.id, data: v.data ?? {} };
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The payload example of a step's preview: with a payload schema, an example of it with the
 * request's payload over it (keys the schema lacks dropped); without one, a placeholder per
 * `payload.*` variable the controls name, under the request's; then the example subscriber and
 * actor under the request's, and its context (libs/application-generic/src/usecases/preview/services/payload-merger.service.ts).
 */
function payloadExample(w: WorkflowRecord, controls: JsonObject, given: JsonObject): JsonObject {
  // The open schema a workflow gets by default (an object of no properties, additional ones allowed)
  // says nothing of the payload's keys: the preview takes its variables as it does without one.
  const open = w.payloadSchema && Object.keys((w.payloadSchema.properties ?? {}) as object).length === 0 && w.payloadSchema.additionalProperties !== false;
  const schemaBased = w.payloadSchema && !open ? { payload: exampleOf(w.payloadSchema) } : undefined;
  const base = schemaBased ?? { payload: payloadPlaceholders(controls) };
  const user: JsonObject = {};
  for (const k of ["payload", "steps"] as const) if (given[k] !== undefined) user[k] = given[k];
  const out = merge(base, schemaBased ? onlyKeysOf(user, schemaBased) : user);
  out.subscriber = merge(EXAMPLE_SUBSCRIBER, isObject(given.subscriber) ? given.subscriber : {});
  out.actor = merge(EXAMPLE_ACTOR, isObject(given.actor) ? given.actor : {});
  const context = resolveContext(given.context);
  if (context) out.context = context;
  return out;
}

/** The live workflow by workflowId, slug or `_id`, else undefined. */
function workflowOf(c: RequestContext, id: string): WorkflowRecord | undefined {
  return ofTenant(c.store.data.workflows, c.tenant).find((w) => w.workflowId === id || w.slug === id || w._id === id);
}

/** A layout's stored email controls, by the identifier or `_id` a step names. */
function layoutLookup(c: RequestContext): LayoutLookup {
  return (id) => {
    const l = liveLayouts(c).find((x) => x.identifier === id || x._id === id);
    const email = l?.controlValues?.email;
    return isObject(email) && typeof email.body === "string" ? { body: email.body, editorType: String(email.editorType ?? "block") } : undefined;
  };
}

async function previewStep(c: RequestContext) {
  const b = bodyOf(c, "WorkflowController_generatePreview") ?? {};
  const w = workflowOf(c, c.params.workflowId!);
  const step: StepRecord | undefined = w?.steps.find((s) => s.stepId === c.params.stepId || s._id === c.params.stepId);
  if (!w || !step) return { status: 201, body: EMPTY_PREVIEW };
  const controls = (b.controlValues as JsonObject | undefined) ?? step.controlValues ?? {};
  const example = payloadExample(w, controls, (b.previewPayload ?? {}) as JsonObject);
  const vars: RenderVariables = { steps: {}, ...example };
  let preview: JsonObject;
  try {
    preview = await renderStep(step.type, controls, vars, layoutLookup(c));
  } catch {
    preview = {};
  }
  return { status: 201, body: { result: { type: step.type, preview }, previewPayloadExample: example, schema: STEP_VARIABLES_SCHEMA } };
}

async function previewLayout(c: RequestContext) {
  const b = bodyOf(c, "LayoutsController_generatePreview") ?? {};
  // An unknown layout is a 404 with the layout routes' message (resolveStepLayoutId throws it).
  const identifier = resolveStepLayoutId(c, c.params.layoutId!);
  const layout = liveLayouts(c).find((l) => l.identifier === identifier)!;
  const controls = (b.controlValues as JsonObject | undefined) ?? layout.controlValues ?? {};
  const given = (b.previewPayload ?? {}) as JsonObject;
  const example: JsonObject = {
    subscriber: merge(EXAMPLE_SUBSCRIBER, isObject(given.subscriber) ? given.subscriber : {}),
    actor: EXAMPLE_ACTOR,
  };
  try {
    const email = isObject(controls.email) ? controls.email : {};
    const body = typeof email.body === "string" ? email.body : email.editorType === "html" ? "" : "{}";
    // The layout is previewed as the body of an email step, its content variable a placeholder.
    const preview = await renderStep(
      "email", { subject: "email-layout-preview", body }, { ...example, [LAYOUT_CONTENT_VARIABLE]: LAYOUT_PREVIEW_PLACEHOLDER }, () => undefined,
      { rawVariable: LAYOUT_CONTENT_VARIABLE },
    );
    return { status: 201, body: { result: { type: "email", preview: { body: preview.body } }, previewPayloadExample: example, schema: LAYOUT_VARIABLES_SCHEMA } };
  } catch {
    return { status: 201, body: { result: { type: "email" }, previewPayloadExample: {}, schema: null } };
  }
}

const previewRoutes: Route[] = [
  { method: "POST", path: "/v2/workflows/{workflowId}/step/{stepId}/preview", handler: previewStep },
  { method: "POST", path: "/v2/layouts/{layoutId}/preview", handler: previewLayout },
];

/** Step previews (no list of their own): a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ routes: previewRoutes });
