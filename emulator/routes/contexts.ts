/**
 * Contexts: `/v2/contexts` (create, list) and `/v2/contexts/{type}/{id}` (get, patch, delete), as
 * the service's apps/api/src/app/contexts/ does it, in both modes (api.md does not describe them):
 * per environment, unique by type and id; a second create is a 409, not an upsert
 * (create-context.usecase.ts); an update replaces `data` whole (update-context.usecase.ts, `$set:
 * { data }`); get, update and delete of a missing context answer 404; `data` is at most 64 KiB as
 * JSON (validators/data-size.validator.ts).
 */
import { emulatorKind, list } from "../kind";
import type { ContextRecord } from "../records";
import { defineCollection } from "../collection";
import { validationFailed } from "../errors";

/** The data size limit (validators/data-size.validator.ts: `CONTEXT_DATA_MAX_SIZE_BYTES = 64 * 1024`). */
const DATA_MAX_BYTES = 64 * 1024;

function checkDataSize(data: unknown): void {
  if (data === undefined || data === null) return;
  const bytes = Buffer.byteLength(JSON.stringify(data), "utf8");
  if (bytes > DATA_MAX_BYTES) {
    throw validationFailed([`data: Context data is too large (${Math.round(bytes / 1024)}KB). Maximum size is ${DATA_MAX_BYTES / 1024}KB`]);
  }
}

/** Contexts, declared (see ../collection.ts). */
const contexts = defineCollection({
  store: "contexts",
  path: "/v2/contexts",
  item: "/v2/contexts/{type}/{id}",
  key: { type: "type", id: "id" },
  // get-context.usecase.ts as the real 3.15.0 server answered it (production-notes.md, seventh pass).
  notFound: (k, c) => `Context with id '${k.id}' and type '${k.type}' not found in environment ${c.tenant.environmentId}`,
  conflict: (k) => `Context with type '${k.type}' and id '${k.id}' already exists`,
  // The answer's shape (dtos/dto.mapper.ts of the service): no database ids.
  out: (x) => ({ type: x.type, id: x.id, data: x.data, createdAt: x.createdAt, updatedAt: x.updatedAt }),
  // Filtered as list-contexts.usecase.ts filters: `id` and `type` exact, `search` over `type:id`, case-insensitive.
  list: {
    style: "cursor",
    filter: (c) => {
      const id = c.query.get("id"), type = c.query.get("type"), search = (c.query.get("search") ?? "").toLowerCase();
      return (x) => (!id || x.id === id) && (!type || x.type === type) && (!search || x.key.toLowerCase().includes(search));
    },
  },
  create: {
    check: (_c, b) => checkDataSize(b.data),
    build: (_c, b) => ({ key: `${b.type}:${b.id}`, data: b.data ?? {} }),
  },
  update: {
    apply: (_c, _x, b) => {
      checkDataSize(b.data);
      return { data: b.data };
    },
  },
  remove: true,
});

const contextRoutes = contexts.routes;

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ contexts: list<ContextRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Contexts: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: contextRoutes });
