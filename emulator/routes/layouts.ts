/**
 * Layouts v2: `/v2/layouts` (create, list) and `/v2/layouts/{layoutId}` (get, update, delete), as
 * production-notes.md, Third pass §3 describes production: per environment; the first layout of
 * an environment is its default and cannot be deleted; a FREE plan holds one layout; create
 * ignores control values and seeds a block body; update is not an upsert; deleting a layout
 * removes it from the email steps that named it.
 */
import { HttpError, badRequest, conflict, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader } from "../params";
import type { JsonObject, LayoutRecord, WorkflowRecord } from "../records";
import { EMULATOR_ORIGIN, liveLayouts } from "../shared";
import { dropTranslationsOf, ofTenant } from "../store";
import type { RequestContext, Route } from "../types";
import { bodyOf, objectId } from "../util";

/**
 * The body a new layout is seeded with: a minimal block-editor document holding the `content`
 * variable (apps/api/src/app/layouts-v2/utils/layout-templates.ts of the service, `EMPTY_LAYOUT`).
 */
export const SEEDED_LAYOUT_BODY = JSON.stringify({
  type: "doc",
  content: [
    { type: "paragraph", attrs: { textAlign: null, showIfKey: null }, content: [{ type: "text", text: " " }] },
    {
      type: "paragraph", attrs: { textAlign: "left", showIfKey: null },
      content: [{ type: "variable", attrs: { id: "content", label: null, fallback: null, required: false, aliasFor: null } }],
    },
    { type: "paragraph", attrs: { textAlign: null, showIfKey: null }, content: [{ type: "text", text: " " }] },
  ],
});

/** Layouts per environment: FREE 1, other plans and self-hosted 100 (resource-validator.service.ts). */
function layoutLimit(c: RequestContext): number {
  return c.behaviour.plan === "free" ? 1 : 100;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
function base62(hex: string): string {
  let n = BigInt(`0x${hex.replace(/[^0-9a-f]/gi, "") || "0"}`);
  let out = "";
  do {
    out = BASE62[Number(n % 62n)]! + out;
    n /= 62n;
  } while (n > 0n);
  return out;
}

const slugOf = (l: LayoutRecord) => `${slugName(l.name)}_lt_${base62(l._id)}`;
function slugName(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The live layout by identifier, `_id` or slug (the service's ParseSlugIdPipe), else 404. */
export function findLayout(c: RequestContext, id: string): LayoutRecord {
  const l = liveLayouts(c).find((x) => x.identifier === id || x._id === id || slugOf(x) === id);
  if (!l) throw notFound(`Layout not found for id ${id} in the environment ${c.tenant.environmentId}`);
  return l;
}

function layoutOut(l: LayoutRecord, list = false): JsonObject {
  return {
    _id: l._id, layoutId: l.identifier, slug: slugOf(l), name: l.name, isDefault: l.isDefault,
    isTranslationEnabled: l.isTranslationEnabled, createdAt: l.createdAt, updatedAt: l.updatedAt,
    updatedBy: { _id: "api-key" }, origin: EMULATOR_ORIGIN, type: "BRIDGE",
    variables: list ? {} : { type: "object", properties: { content: { type: "string" }, subscriber: { type: "object" } } },
    controls: list ? { values: {} } : {
      dataSchema: { type: "object", properties: { email: { type: "object" } } },
      uiSchema: { group: "LAYOUT" },
      values: l.controlValues ?? {},
    },
  };
}

/** Whether a block-editor JSON document holds a variable node named `variable`. */
function hasBlockVariable(node: unknown, variable: string): boolean {
  if (!node || typeof node !== "object") return false;
  const n = node as { type?: unknown; attrs?: { id?: unknown }; content?: unknown };
  if (n.type === "variable" && n.attrs?.id === variable) return true;
  return Array.isArray(n.content) && n.content.some((x) => hasBlockVariable(x, variable));
}

function isBlockDocument(body: string): unknown {
  try {
    const doc = JSON.parse(body) as { type?: unknown; content?: unknown };
    return doc && doc.type === "doc" && Array.isArray(doc.content) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The body checks of an update (apps/api/src/app/layouts-v2/usecases/upsert-layout/upsert-layout.usecase.ts,
 * build-layout-issues.usecase.ts): html needs `<html`, `</html>`, `<body`, `</body>`; block a
 * block-editor document; either one the `content` variable.
 */
function checkLayoutBody(controlValues: JsonObject | null | undefined): void {
  const email = controlValues?.email as { body: string; editorType: string } | undefined;
  if (!email) return;
  const { body, editorType } = email;
  const doc = isBlockDocument(body);
  const isHtml = body.includes("<html") && body.includes("</html>") && body.includes("<body") && body.includes("</body>");
  if (editorType === "html" && !isHtml) throw badRequest("Content must be a valid HTML content");
  if (editorType === "block" && !doc) throw badRequest("Content must be a valid Maily JSON content");
  const hasContent = editorType === "block" ? hasBlockVariable(doc, "content") : /\{\{\s*content\s*\}\}/.test(body);
  if (!hasContent) {
    throw new HttpError(400, "Layout has validation issues", {
      ctx: { controls: { "email.body": [{ issueType: "MISSING_VALUE", variableName: "content", message: 'The layout body should contain the "content" variable' }] } },
    });
  }
}

function listLayouts(c: RequestContext) {
  const q = c.query;
  const p = new ParamReader(q);
  const limit = p.int("limit", 50, 1);
  const offset = p.int("offset", 0, 0);
  const orderBy = p.oneOf("orderBy", ["createdAt", "updatedAt", "name"], "createdAt");
  const dir = p.oneOf("orderDirection", ["ASC", "DESC"], "DESC");
  p.done();
  const text = (q.get("query") ?? "").toLowerCase();
  const list = liveLayouts(c).filter((l) => !text || l.name.toLowerCase().includes(text) || l.identifier.toLowerCase().includes(text));
  const sign = dir === "ASC" ? 1 : -1;
  list.sort((a, b) => {
    const av = String(a[orderBy]), bv = String(b[orderBy]);
    if (av !== bv) return av < bv ? -sign : sign;
    return a._id < b._id ? -sign : sign;
  });
  return { status: 200, body: { layouts: list.slice(offset, offset + limit).map((l) => layoutOut(l, true)), totalCount: list.length } };
}

/** Removes `layoutId` from every email step of the environment's workflows that names `identifier`. */
function unlinkFromWorkflows(c: RequestContext, identifier: string): void {
  for (const w of ofTenant<WorkflowRecord>(c.store.data.workflows, c.tenant)) {
    for (const s of w.steps) {
      if (s.type === "email" && s.controlValues?.layoutId === identifier) {
        const { layoutId: _l, ...rest } = s.controlValues;
        s.controlValues = rest;
        w.updatedAt = new Date().toISOString();
      }
    }
  }
}


/** `name` is 1 to 128 characters (the service's upsert validation constants). */
function checkName(name: string): void {
  if (name.length < 1 || name.length > 128) throw validationFailed(["name: must be 1 to 128 characters"]);
}

const layoutRoutes: Route[] = [
  {
    method: "POST", path: "/v2/layouts",
    handler: (c) => {
      const b = bodyOf(c, "LayoutsController_create");
      checkName(b.name);
      const identifier = b.layoutId || slugName(b.name);
      const live = liveLayouts(c);
      // The limit is checked before the duplicate (resource-validator.service.ts, then the use case).
      const limit = layoutLimit(c);
      if (live.length >= limit) {
        throw new HttpError(400, "Layout limit exceeded. Please contact us to support more layouts.", { ctx: { currentCount: live.length, limit } });
      }
      if (live.some((l) => l.identifier === identifier)) {
        throw conflict(`Layout with identifier: ${identifier} already exists under environment ${c.tenant.environmentId}`);
      }
      const now = new Date().toISOString();
      // Control values in the body are ignored; the server seeds its own (layouts.controller.ts).
      const l: LayoutRecord = {
        _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId,
        identifier, name: b.name, isDefault: !live.some((x) => x.isDefault), isTranslationEnabled: b.isTranslationEnabled ?? false,
        controlValues: { email: { body: SEEDED_LAYOUT_BODY, editorType: "block" } }, deleted: false, createdAt: now, updatedAt: now,
      };
      c.store.data.layouts.push(l);
      c.store.touch();
      return { status: 201, body: layoutOut(l) };
    },
  },
  { method: "GET", path: "/v2/layouts", handler: listLayouts },
  { method: "GET", path: "/v2/layouts/{layoutId}", handler: (c) => ({ status: 200, body: layoutOut(findLayout(c, c.params.layoutId!)) }) },
  {
    method: "PUT", path: "/v2/layouts/{layoutId}",
    handler: (c) => {
      const b = bodyOf(c, "LayoutsController_update");
      checkName(b.name);
      checkLayoutBody(b.controlValues);
      // Not an upsert: an unknown layout is a 404 (get-layout.use-case.ts).
      const l = findLayout(c, c.params.layoutId!);
      l.name = b.name;
      if (b.isTranslationEnabled !== undefined) l.isTranslationEnabled = b.isTranslationEnabled;
      // Omitted: unchanged; null: cleared; an object: replaces them.
      if (b.controlValues === null) delete l.controlValues;
      else if (b.controlValues !== undefined) l.controlValues = b.controlValues;
      l.updatedAt = new Date().toISOString();
      c.store.touch();
      return { status: 200, body: layoutOut(l) };
    },
  },
  {
    method: "DELETE", path: "/v2/layouts/{layoutId}",
    handler: (c) => {
      const l = findLayout(c, c.params.layoutId!);
      if (l.isDefault) throw conflict(`Layout with id ${c.params.layoutId} is being used as a default layout, it can not be deleted`);
      l.deleted = true;
      delete l.controlValues;
      dropTranslationsOf(c.store, l._id);
      unlinkFromWorkflows(c, l.identifier);
      c.store.touch();
      return { status: 204 };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ layouts: list<LayoutRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Layouts: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: layoutRoutes });
