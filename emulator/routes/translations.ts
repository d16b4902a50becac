/**
 * Translations v2: `/v2/translations` (upsert), `/v2/translations/{resourceType}/{resourceId}/{locale}`
 * (get, delete), `/v2/translations/{resourceType}/{resourceId}` (delete the resource's group) and
 * `/v2/translations/group/{resourceType}/{resourceId}` (its locales), as the service's
 * apps/api/src/app/translations/e2e/v2/*.e2e-ee.ts show production, in both modes (api.md does not
 * describe them):
 * - a POST creates or replaces one locale's content whole and answers 200 either way;
 * - a locale is normalised to `_` separators (`en-US` is `en_US`); a malformed one is a 422 in a
 *   body and a 400 in a path;
 * - the resource (a workflow or layout, by identifier, slug or `_id`) must exist, else 404;
 * - deleting the workflow or layout deletes its translations (see `dropTranslationsOf`); turning
 *   its `isTranslationEnabled` off keeps them (the translation package's manage-translations
 *   use case: "Soft-disables by not deleting data");
 * - the feature needs the Business plan or above: a lower plan answers 402.
 */
import { HttpError, badRequest, notFound, paymentRequired, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import type { JsonObject, Scoped } from "../records";
import { ofTenant } from "../store";
import type { Reply, RequestContext, Route } from "../types";
import { objectId } from "../util";
import { findLayout } from "./layouts";
import { findWorkflow } from "./workflows";

/** A translation (`/v2/translations`): one locale's content of a workflow or layout, per environment. */
export interface TranslationRecord extends Scoped {
  resourceType: "workflow" | "layout";
  /** The resource's identifier (workflowId or layoutId). */
  resourceId: string;
  /** The resource's database `_id`: the translations go with that object. */
  _resourceInternalId: string;
  /** Normalised to `_` separators (`en_US`). */
  locale: string;
  content: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** A locale code: a language, then region or script parts (`en_US`, `zh_Hans_CN`), `-` or `_` between. */
const LOCALE = /^[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$/;

type ResourceType = TranslationRecord["resourceType"];

/** The resource's identifier, name and database id; 404 when it does not exist. */
function resourceOf(c: RequestContext, type: ResourceType, id: string): { identifier: string; name: string; _id: string; enabled: boolean } {
  if (type === "workflow") {
    const w = findWorkflow(c, id);
    return { identifier: w.workflowId, name: w.name, _id: w._id, enabled: w.isTranslationEnabled ?? false };
  }
  const l = findLayout(c, id);
  return { identifier: l.identifier, name: l.name, _id: l._id, enabled: l.isTranslationEnabled };
}

/** Translations need the Business plan or above (the e2e tests raise the organisation to it "to avoid payment required errors"). */
function checkPlan(c: RequestContext): void {
  if (c.behaviour.plan === "free" || c.behaviour.plan === "pro") throw paymentRequired();
}

function normalisedLocale(raw: string, where: "body" | "path"): string {
  if (!LOCALE.test(raw)) {
    if (where === "body") throw validationFailed([`locale: ${JSON.stringify(raw)} is not a valid locale code (e.g. en_US)`]);
    throw badRequest(`Invalid locale: ${raw}`);
  }
  return raw.replace(/-/g, "_");
}

const translationsOf = (c: RequestContext, internalId: string) =>
  ofTenant(c.store.data.translations, c.tenant).filter((t) => t._resourceInternalId === internalId);

const translationOut = (t: TranslationRecord): JsonObject => ({
  resourceId: t.resourceId, resourceType: t.resourceType, locale: t.locale, content: t.content, createdAt: t.createdAt, updatedAt: t.updatedAt,
});

function upsert(c: RequestContext): Reply {
  checkPlan(c);
  const b = c.body as { resourceId: string; resourceType: ResourceType; locale: string; content: JsonObject };
  const locale = normalisedLocale(b.locale, "body");
  const r = resourceOf(c, b.resourceType, b.resourceId);
  const now = new Date().toISOString();
  let t = translationsOf(c, r._id).find((x) => x.locale === locale);
  if (t) Object.assign(t, { content: b.content, updatedAt: now });
  else {
    t = {
      _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, resourceType: b.resourceType,
      resourceId: r.identifier, _resourceInternalId: r._id, locale, content: b.content, createdAt: now, updatedAt: now,
    };
    c.store.data.translations.push(t);
  }
  c.store.touch();
  return { status: 200, body: translationOut(t) };
}

function one(c: RequestContext): { t: TranslationRecord | undefined; locale: string } {
  checkPlan(c);
  const p = c.params as { resourceType: ResourceType; resourceId: string; locale: string };
  const locale = normalisedLocale(p.locale, "path");
  const r = resourceOf(c, p.resourceType, p.resourceId);
  return { t: translationsOf(c, r._id).find((x) => x.locale === locale), locale };
}

const missing = (c: RequestContext, locale: string) => notFound(`Translation for locale ${locale} of ${c.params.resourceType} ${c.params.resourceId} not found`);

const translationRoutes: Route[] = [
  { method: "POST", path: "/v2/translations", handler: upsert },
  // Before the locale route, which would take `group` for a resource type.
  {
    method: "GET", path: "/v2/translations/group/{resourceType}/{resourceId}",
    handler: (c) => {
      checkPlan(c);
      const type = c.params.resourceType as ResourceType;
      const r = resourceOf(c, type, c.params.resourceId!);
      const list = translationsOf(c, r._id);
      // The group exists once translations were enabled on the resource or a translation was made.
      if (!list.length && !r.enabled) throw new HttpError(404, `Translation group for ${type} ${c.params.resourceId} not found`);
      const times = list.map((t) => t.createdAt).sort();
      const updated = list.map((t) => t.updatedAt).sort();
      const now = new Date().toISOString();
      return {
        status: 200,
        body: {
          resourceId: r.identifier, resourceType: type, resourceName: r.name, locales: list.map((t) => t.locale).sort(),
          createdAt: times[0] ?? now, updatedAt: updated[updated.length - 1] ?? now,
        },
      };
    },
  },
  {
    method: "GET", path: "/v2/translations/{resourceType}/{resourceId}/{locale}",
    handler: (c) => {
      const { t, locale } = one(c);
      if (!t) throw missing(c, locale);
      return { status: 200, body: translationOut(t) };
    },
  },
  {
    method: "DELETE", path: "/v2/translations/{resourceType}/{resourceId}/{locale}",
    handler: (c) => {
      const { t, locale } = one(c);
      if (!t) throw missing(c, locale);
      c.store.data.translations = c.store.data.translations.filter((x) => x !== t);
      c.store.touch();
      return { status: 204 };
    },
  },
  {
    method: "DELETE", path: "/v2/translations/{resourceType}/{resourceId}",
    handler: (c) => {
      checkPlan(c);
      const r = resourceOf(c, c.params.resourceType as ResourceType, c.params.resourceId!);
      if (!translationsOf(c, r._id).length) throw new HttpError(404, `Translation group for ${c.params.resourceType} ${c.params.resourceId} not found`);
      c.store.data.translations = c.store.data.translations.filter((x) => x._resourceInternalId !== r._id);
      c.store.touch();
      return { status: 204 };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ translations: list<TranslationRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Translations: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: translationRoutes });
