/**
 * Contexts: `/v2/contexts` (create, list) and `/v2/contexts/{type}/{id}` (get, patch, delete), as
 * the service's apps/api/src/app/contexts/ does it, in both modes (api.md does not describe them):
 * per environment, unique by type and id; a second create is a 409, not an upsert
 * (create-context.usecase.ts); an update replaces `data` whole (update-context.usecase.ts, `$set:
 * { data }`); get, update and delete of a missing context answer 404; `data` is at most 64 KiB as
 * JSON (validators/data-size.validator.ts).
 */
import { conflict, notFound, validationFailed } from "../errors";
import type { ContextRecord, JsonObject } from "../records";
import { ofTenant } from "../store";
import type { Reply, RequestContext, Route } from "../types";
import { objectId } from "../util";
import { cursorPage } from "./topics";

/** The data size limit (validators/data-size.validator.ts: `CONTEXT_DATA_MAX_SIZE_BYTES = 64 * 1024`). */
const DATA_MAX_BYTES = 64 * 1024;

function checkDataSize(data: unknown): void {
  if (data === undefined || data === null) return;
  const bytes = Buffer.byteLength(JSON.stringify(data), "utf8");
  if (bytes > DATA_MAX_BYTES) {
    throw validationFailed([`data: Context data is too large (${Math.round(bytes / 1024)}KB). Maximum size is ${DATA_MAX_BYTES / 1024}KB`]);
  }
}

const contextsOf = (c: RequestContext): ContextRecord[] => ofTenant(c.store.data.contexts, c.tenant);

function findContext(c: RequestContext): ContextRecord {
  const { type, id } = c.params as { type: string; id: string };
  const found = contextsOf(c).find((x) => x.type === type && x.id === id);
  if (!found) throw notFound(`Context with type '${type}' and id '${id}' not found`);
  return found;
}

/** The answer's shape (dtos/dto.mapper.ts of the service): no database ids. */
const contextOut = (x: ContextRecord): JsonObject => ({ type: x.type, id: x.id, data: x.data, createdAt: x.createdAt, updatedAt: x.updatedAt });

function createContext(c: RequestContext): Reply {
  const b = c.body as { type: string; id: string; data?: JsonObject };
  checkDataSize(b.data);
  if (contextsOf(c).some((x) => x.type === b.type && x.id === b.id)) {
    throw conflict(`Context with type '${b.type}' and id '${b.id}' already exists`);
  }
  const now = new Date().toISOString();
  const rec: ContextRecord = {
    _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId,
    type: b.type, id: b.id, key: `${b.type}:${b.id}`, data: b.data ?? {}, createdAt: now, updatedAt: now,
  };
  c.store.data.contexts.push(rec);
  c.store.touch();
  return { status: 201, body: contextOut(rec) };
}

/** `GET /v2/contexts`, filtered as list-contexts.usecase.ts filters (`id` exact, `search` over `type:id`, case-insensitive). */
function listContexts(c: RequestContext): Reply {
  const id = c.query.get("id"), type = c.query.get("type"), search = (c.query.get("search") ?? "").toLowerCase();
  const list = contextsOf(c).filter((x) => (!id || x.id === id) && (!type || x.type === type) && (!search || x.key.toLowerCase().includes(search)));
  return cursorPage(c, list, contextOut);
}

export const contextRoutes: Route[] = [
  { method: "POST", path: "/v2/contexts", handler: createContext },
  { method: "GET", path: "/v2/contexts", handler: listContexts },
  { method: "GET", path: "/v2/contexts/{type}/{id}", handler: (c) => ({ status: 200, body: contextOut(findContext(c)) }) },
  {
    method: "PATCH", path: "/v2/contexts/{type}/{id}",
    handler: (c) => {
      const x = findContext(c);
      const data = (c.body as { data: JsonObject }).data;
      checkDataSize(data);
      Object.assign(x, { data, updatedAt: new Date().toISOString() });
      c.store.touch();
      return { status: 200, body: contextOut(x) };
    },
  },
  {
    method: "DELETE", path: "/v2/contexts/{type}/{id}",
    handler: (c) => {
      const x = findContext(c);
      c.store.data.contexts = c.store.data.contexts.filter((r) => r !== x);
      c.store.touch();
      return { status: 204 };
    },
  },
];
