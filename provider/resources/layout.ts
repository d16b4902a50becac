/**
 * Layout: an email layout (v2) of the environment, which an email step names by its `layoutId`.
 *
 *   check   no request
 *   diff    no request
 *   create  POST /v2/layouts, then PUT /v2/layouts/{layoutId} when controlValues are declared
 *           (create ignores them); with adopt: GET /v2/layouts/{layoutId} first, then nothing when it
 *           is as declared, else PUT (so too after our own retried create)
 *   read    GET /v2/layouts/{layoutId} (the path also takes the database id or the slug)
 *   update  PUT /v2/layouts/{layoutId} (what the program leaves out sent as the state holds it)
 *   delete  DELETE /v2/layouts/{layoutId} (a 404 counts as done; the environment's default layout,
 *           which the service never deletes (409), is left on the service with a warning)
 */
import { z } from "zod";
import { NotifyApiError, isConflict, isNotFound } from "../client/errors";
import { clientFor } from "../config";
import { LAYOUT_EDITOR_TYPES, SafeString, type CreateLayoutBody, type Layout as ApiLayout, type UpdateLayoutBody } from "../schemas";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, failure, findIfPresent, gone, readIfPresent, readInputs, warn } from "./lifecycle";
import { project } from "./diff";

/** Whether a block-editor document (parsed JSON) holds the variable node `content`. */
function hasContentVariable(node: unknown): boolean {
  if (!node || typeof node !== "object") return false;
  const n = node as { type?: unknown; attrs?: { id?: unknown }; content?: unknown };
  if (n.type === "variable" && n.attrs?.id === "content") return true;
  return Array.isArray(n.content) && n.content.some(hasContentVariable);
}

/**
 * The email controls of a layout, checked as the service checks them on update (production-notes.md,
 * Third pass §3): an `html` body is a document with `<html>` and `<body>` and `{{ content }}` in it;
 * a `block` body is a block-editor JSON document (`{"type":"doc","content":[...]}`) with a `content`
 * variable node. The service answers 400 otherwise; checking here fails the preview instead.
 */
export const LayoutEmailControls = z.strictObject({
  body: z.string({ error: "is required (string): the layout's HTML or block-editor JSON, with the content variable" }).max(500_000)
    .describe("The layout body: HTML (editorType `html`) or a stringified block-editor document (`block`). It must hold the `content` variable, where each email's own body goes."),
  editorType: z.enum(LAYOUT_EDITOR_TYPES).describe("`html` or `block`."),
}).superRefine((v, ctx) => {
  if (v.body === UNKNOWN) return;
  if (v.editorType === "html") {
    const missing = ["<html", "</html>", "<body", "</body>"].filter((t) => !v.body.includes(t));
    if (missing.length) {
      ctx.addIssue({ code: "custom", path: ["body"], message: `an html layout body must be a whole HTML document: it lacks ${missing.join(", ")}` });
    } else if (!/\{\{\s*content\s*\}\}/.test(v.body)) {
      ctx.addIssue({ code: "custom", path: ["body"], message: "an html layout body must contain the content variable, {{ content }}" });
    }
    return;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(v.body);
  } catch {
    doc = undefined;
  }
  const d = doc as { type?: unknown; content?: unknown } | undefined;
  if (!d || d.type !== "doc" || !Array.isArray(d.content)) {
    ctx.addIssue({ code: "custom", path: ["body"], message: 'a block layout body must be a stringified block-editor document, {"type":"doc","content":[...]}' });
  } else if (!hasContentVariable(d)) {
    ctx.addIssue({ code: "custom", path: ["body"], message: 'a block layout body must contain the content variable: a node {"type":"variable","attrs":{"id":"content"}}' });
  }
}).meta({ id: "LayoutEmailControls", description: "The email controls of a layout: its body and editor." });

/** A layout's control values as a program declares them. */
export const LayoutControlValues = z.strictObject({
  email: LayoutEmailControls.optional().describe("The email layout: `{ body, editorType }`."),
}).meta({ id: "LayoutControlValues", description: "The control values of a layout." });

/** The field table of a {@link Layout}. */
export const LAYOUT = defineResource({
  name: "Layout",
  module: "layout",
  doc: "An email layout of the environment: the HTML or block-editor frame an email step's content is rendered into. " +
    "An email step names it with `controlValues.layoutId` (the layout's `layoutId` or its id; the service stores the layoutId). " +
    "The id, and the import id, is the layoutId. The first layout of an " +
    "environment becomes its default, which the service never deletes: destroying it removes it from the stack and leaves it " +
    "on the service (a warning says so); declare it again with `adopt: true` to manage it once more.",
  inputs: {
    layoutId: field(SafeString(200).min(1, { error: "must not be empty" }),
      "The layout's identifier in the environment, which email steps name; the natural key for `adopt`. Changing it replaces the layout.", { createOnly: true }),
    name: field(SafeString(128).min(1, { error: "must not be empty" }), "Display name (1 to 128 characters)."),
    // The service's update may reset a flag it is not sent: an update sends the one it holds.
    isTranslationEnabled: field(z.boolean().optional(), "Whether the layout's content is translated per subscriber locale (service default false).", { serviceDefault: false, keep: true }),
    controlValues: field(LayoutControlValues.optional(),
      "`{ email: { body, editorType } }`. Left out, the layout keeps the body the service gives a new layout (a block document " +
      "holding only the content variable) and whatever is set later in the dashboard: neither shows as drift. Removed from a " +
      "program that declared it, the layout keeps its body as it is.", { updateOnly: true }),
    adopt: field(z.boolean().optional(), "Take over an existing layout with the same layoutId instead of failing.", { control: true }),
  },
  outputs: {
    databaseId: output(z.string(), "The service's `_id` of the layout."),
    slug: output(z.string(), "The service's slug of the layout."),
    isDefault: output(z.boolean(), "Whether this is the environment's default layout (the first one created; the service never deletes it)."),
    createdAt: output(z.string(), "When the layout was created (ISO 8601)."),
  },
});

/** Inputs of a {@link Layout}. */
export type LayoutArgs = ArgsOf<typeof LAYOUT>;
/** The state of a {@link Layout}: the service's view, each declared input as declared. */
export type LayoutState = StateOf<typeof LAYOUT>;

type Inputs = z.infer<typeof LAYOUT.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Maps the service's layout to outputs: its fields as the table names them, control values as stored. */
export function toLayoutOutputs(l: ApiLayout): Props {
  const email = l.controls?.values?.email;
  return stripUndefined({
    ...serviceFields(LAYOUT, l),
    controlValues: email ? { email: { body: email.body, editorType: email.editorType } } : {},
    databaseId: l._id,
    slug: l.slug,
    isDefault: l.isDefault,
    createdAt: l.createdAt,
  });
}

function outputsFor(l: ApiLayout, declared: Props, keys: string[]): LayoutState {
  const svc = toLayoutOutputs(l);
  const out: Props = { ...svc, ...controlInputs(declared, LAYOUT.controlKeys), declaredKeys: keys };
  for (const k of keys) out[k] = project(svc[k], declared[k]);
  return stripUndefined(out) as LayoutState;
}

/**
 * The update body: name, the translation flag (declared, else as `held`, the layout's fields as
 * the service holds them: the service may reset an omitted flag), control values when declared.
 */
function updateBody(inputs: Inputs, held: Props): UpdateLayoutBody {
  return requestBody(LAYOUT, inputs, "update", held);
}

function isAlreadyExists(err: unknown): err is NotifyApiError {
  return err instanceof NotifyApiError && (err.status === 409 || (err.status === 400 && /already exist/i.test(err.message)));
}

/** Takes over `existing` (read already): no request when it is as declared, else one PUT. */
async function adopt(existing: ApiLayout, raw: Props, keys: string[]) {
  return adoptExisting(`layout "${String(raw.layoutId)}"`, {
    id: existing.layoutId, compared: outputsFor(existing, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async () => {
      try {
        return outputsFor(await clientFor().layouts.update(existing.layoutId, updateBody(raw as Inputs, serviceFields(LAYOUT, existing))), raw, keys);
      } catch (e) {
        throw failure(`adopt layout "${String(raw.layoutId)}"`, e);
      }
    },
  });
}

/** The warning of a destroy that leaves the environment's default layout on the service. */
export function defaultLayoutWarning(layoutId: string): string {
  return `layout "${layoutId}" is the environment's default layout, which the service never deletes; ` +
    "it was removed from the stack and remains on the service (declare it with adopt: true to manage it again)";
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    return { inputs: stripUndefined(news), failures: checkWith(LAYOUT.schema, news, topLevel(unknownKeyHint(Object.keys(LAYOUT.inputs)))) };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(LAYOUT, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, LAYOUT.inputKeys);
    const api = clientFor().layouts;
    return createOrAdopt({
      what: `layout "${inputs.layoutId}"`, adopt: inputs.adopt, exists: isAlreadyExists,
      refuse: `A layout with layoutId "${inputs.layoutId}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => api.get(inputs.layoutId)),
      takeOver: (existing) => adopt(existing, raw, keys),
      create: () => api.create(requestBody(LAYOUT, inputs, "create")),
      created: async (layout) => {
        // The create takes no control values: they go in an update.
        if (inputs.controlValues !== undefined) {
          try {
            layout = await api.update(layout.layoutId, updateBody(inputs, serviceFields(LAYOUT, layout)));
          } catch (err) {
            throw failure(`set the control values of layout "${inputs.layoutId}"`, err);
          }
        }
        return { id: layout.layoutId, outs: outputsFor(layout, raw, keys) };
      },
      partial: (layout) => ({ id: layout.layoutId, outs: outputsFor(layout, raw, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const live = await readIfPresent(`read layout ${id}`, () => clientFor().layouts.get(id));
    if (!live) return gone();
    const outs = outputsFor(live, props, keys);
    // An import by database id or slug reads the same layout: its id is the layoutId.
    return { id: live.layoutId, props: outs, inputs: readInputs(props, outs, keys, LAYOUT.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, LAYOUT.inputKeys);
    const api = clientFor().layouts;
    try {
      // What the program leaves out is sent as the state holds it (a refresh brings a hand edit in first).
      const updated = await api.update(id, updateBody(inputs, olds));
      return { outs: outputsFor(updated, news, keys) };
    } catch (err) {
      throw failure(`update layout "${inputs.layoutId}"`, err);
    }
  },

  async delete(id: string, props: Props) {
    const api = clientFor().layouts;
    try {
      await api.delete(id);
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err) && /default layout/i.test(err.message)) {
        // The service never deletes an environment's default layout and has no way to make another
        // one the default: leave it, so that a stack holding it can still be destroyed.
        await warn(defaultLayoutWarning(String(props.layoutId)));
        return;
      }
      throw failure(`delete layout "${String(props.layoutId)}"`, err);
    }
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
