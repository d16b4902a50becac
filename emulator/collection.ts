/**
 * A kind whose routes are plain, declared rather than written: list, get, create, update and
 * delete over one list of the store, found by the key its item path names, answering the
 * service's 404 and 409 templates. What the service does beyond that (plan gates, limits, size
 * checks, what an update merges, what a delete takes with it) stays as code in the declaration's
 * hooks, beside it in the kind's route file. A kind with rules of another shape (an upsert, a
 * soft delete, lists of lists) keeps writing its routes by hand and may still use `cursorPage`.
 */
import type { paths } from "../spec/contract";
import { HttpError, conflict, notFound } from "./errors";
import { ParamReader } from "./params";
import type { JsonObject, StoredLists } from "./records";
import type { Reply, RequestContext, Route } from "./types";
import { objectId } from "./util";

/** What every record of a declared kind carries: an id, an owner, and its times. */
interface Stored {
  _id: string;
  _organizationId: string;
  /** Absent on organisation-wide kinds (environment variables). */
  _environmentId?: string;
  createdAt: string;
  updatedAt: string;
}

/** The store's lists whose records a collection can hold. */
type ListName = { [N in keyof StoredLists]: StoredLists[N][number] extends Stored ? N : never }[keyof StoredLists];
type RecordOf<N extends ListName> = StoredLists[N][number];
/** The fields a record names, without its index signature (`[extra: string]: unknown`), so a key cannot name a field that is not there. */
type FieldOf<R> = keyof { [K in keyof R as string extends K ? never : number extends K ? never : K]: 0 } & string;

/** The names of a path template's parameters: `"type" | "id"` of `/v2/contexts/{type}/{id}`. */
type ParamsOf<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never;

/** The JSON body `spec/openapi.json` gives the operation `method` of `path` (`never` without one). */
type BodyAt<P extends keyof paths, M extends string> = paths[P] extends { [K in M]: infer O }
  ? O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never
  : never;

/** One record's key: the values the item path names, by parameter (the service's messages quote them). */
export type Key<I> = Record<ParamsOf<I>, string>;

/** The fields the collection fills itself on create: id, owner, times. */
type Managed = "_id" | "_environmentId" | "_organizationId" | "createdAt" | "updatedAt";

/**
 * What a create's `build` gives: every field but the managed ones, the key's fields optional (the
 * body's key fills them). A mapped type with `as`, unlike `Omit`, keeps the named fields of a
 * record that also has an index signature.
 */
type NewFields<R, KF extends PropertyKey> = { [K in keyof R as K extends Managed | KF ? never : K]: R[K] } & { [K in KF & keyof R]?: R[K] };

/** How a list answers. */
export type ListStyle<R> =
  /** The service's cursor page (`{data, next, previous, totalCount, totalCountCapped}`, never enveloped): see {@link cursorPage}. */
  | { style: "cursor"; filter?: (c: RequestContext) => (r: R) => boolean }
  /** Every record at once, as a JSON array (enveloped in production mode). */
  | { style: "all"; filter?: (c: RequestContext) => (r: R) => boolean; order?: (a: R, b: R) => number };

/** A declared kind: its place in the store, its paths and key, its messages, its answer, and its special rules as hooks. */
export interface CollectionSpec<N extends ListName, P extends keyof paths, I extends keyof paths, KF extends FieldOf<RecordOf<N>>, M extends "PATCH" | "PUT"> {
  /** The store's list (one of the kind's own, see kind.ts). */
  store: N;
  /** The collection's path as `spec/openapi.json` writes it: its list and create operations. */
  path: P;
  /** The path of one record: its get, update and delete operations. */
  item: I;
  /**
   * Each parameter of the item path, and the record field it names. On create the body's field of
   * that name is the new key. (The `Record` half lets the compiler read the field names here
   * rather than guess them from `build`, whose check would then pass anything.)
   */
  key: { [K in ParamsOf<I>]: KF } & Record<string, KF>;
  /** How a key value is read, in a path and in a create body alike (the service lower-cases domain names). */
  normalize?: (value: string) => string;
  /** Whose records a caller sees: its environment's (the default) or its organisation's. */
  scope?: "environment" | "organization";
  /** Where a key is taken once: within the caller's scope (the default), or across the whole service. */
  unique?: "scope" | "service";
  /** The service's 404 message for a key no record has. */
  notFound: (key: Key<I>, c: RequestContext) => string;
  /** The service's 409 message for a key a record already has. */
  conflict: (key: Key<I>, c: RequestContext) => string;
  /** A record as every answer shows it. */
  out: (record: RecordOf<N>, c: RequestContext) => JsonObject;
  /** `GET path`. */
  list?: ListStyle<RecordOf<N>>;
  /** `POST path`: `check`, then the 409 on the body's key, then `build`. */
  create?: {
    /** What the service refuses before it looks for a duplicate (plan gates, limits, sizes). */
    check?: (c: RequestContext, body: BodyAt<P, "post">) => void;
    /**
     * The new record's own fields (the key's fields may be left out when the body carries them;
     * id, owner and times are the collection's). May still refuse: it runs after the 409.
     */
    build: (c: RequestContext, body: BodyAt<P, "post">) => NoInfer<NewFields<RecordOf<N>, KF>>;
    /** The answer's status: the framework's POST default 201 unless the controller says otherwise. */
    status?: 200 | 201;
    /** A taken key: another key the service stores the new record under instead of answering 409, or undefined for the 409. */
    onTaken?: (c: RequestContext, key: Key<I>) => Key<I> | undefined;
  };
  /** `PATCH item` (or `PUT`): `check`, the 404, then `apply`. */
  update?: {
    method?: M;
    /** What the service refuses before it looks the record up. */
    check?: (c: RequestContext, body: BodyAt<I, Lowercase<M>>) => void;
    /** The changes to make, or nothing when the body changes nothing (then `updatedAt` stays). May refuse. */
    apply: (c: RequestContext, record: RecordOf<N>, body: BodyAt<I, Lowercase<M>>) => Partial<RecordOf<N>> | undefined;
  };
  /** `DELETE item`, answering 204: `true`, or what the service deletes along with the record. */
  remove?: true | { cascade: (c: RequestContext, record: RecordOf<N>) => void };
}

/** A declared kind: its routes, and its look-ups for the special rules beside it. */
export interface Collection<R> {
  /** Its operations, for the server's route table. */
  readonly routes: Route[];
  /** The records the caller sees. */
  all(c: RequestContext): R[];
  /** The record the request's path names; the service's 404 when there is none. */
  find(c: RequestContext): R;
}

/** Declares a kind whose routes are plain (see the file comment). */
export function defineCollection<
  N extends ListName, P extends keyof paths, I extends keyof paths, KF extends FieldOf<RecordOf<N>>, M extends "PATCH" | "PUT" = "PATCH",
>(
  spec: CollectionSpec<N, P, I, KF, M>,
): Collection<RecordOf<N>> {
  // `ListName` admits only lists of `Stored` records; the intersection tells the compiler so.
  type R = RecordOf<N> & Stored;
  const params = [...spec.item.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!) as ParamsOf<I>[];
  const fieldOf: Record<ParamsOf<I>, KF> = spec.key;
  const named = Object.keys(fieldOf);
  if (params.length === 0 || named.length !== params.length || params.some((p) => !named.includes(p))) {
    throw new Error(`collection ${spec.store}: the key names ${JSON.stringify(named)}; it must name the parameters of ${spec.item}, ${JSON.stringify(params)}, and nothing else`);
  }
  const normalize = spec.normalize ?? ((v: string) => v);
  const stored = (c: RequestContext): R[] => c.store.data[spec.store] as R[];
  const all = (c: RequestContext): R[] =>
    stored(c).filter((r) => (spec.scope === "organization" ? r._organizationId === c.tenant.organizationId : r._environmentId === c.tenant.environmentId));
  const has = (r: R, key: Key<I>) => params.every((p) => r[fieldOf[p]] === key[p]);
  const keyOf = (values: Record<string, unknown>): Key<I> | undefined => {
    const key = {} as Key<I>;
    for (const p of params) {
      const v = values[fieldOf[p]];
      if (typeof v !== "string") return undefined;
      key[p] = normalize(v);
    }
    return key;
  };
  const find = (c: RequestContext): R => {
    const key = Object.fromEntries(params.map((p) => [p, normalize(c.params[p]!)])) as Key<I>;
    const found = all(c).find((r) => has(r, key));
    if (!found) throw notFound(spec.notFound(key, c));
    return found;
  };
  const out = (c: RequestContext) => (r: R) => spec.out(r, c);

  const routes: Route[] = [];
  const { list, create, update, remove } = spec;
  if (create) {
    routes.push({
      method: "POST", path: spec.path,
      handler: (c) => {
        const body = c.body as BodyAt<P, "post">;
        create.check?.(c, body);
        // A body without the key (the service makes one) cannot meet a duplicate.
        let key = keyOf((body ?? {}) as Record<string, unknown>);
        if (key && (spec.unique === "service" ? stored(c) : all(c)).some((r) => has(r, key!))) {
          const other = create.onTaken?.(c, key);
          if (!other) throw conflict(spec.conflict(key, c));
          key = other;
        }
        const fields = create.build(c, body);
        const now = new Date().toISOString();
        const owner = spec.scope === "organization"
          ? { _organizationId: c.tenant.organizationId }
          : { _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId };
        const keyFields = key ? Object.fromEntries(params.map((p) => [fieldOf[p], key[p]])) : {};
        const record = { _id: objectId(), ...owner, ...keyFields, ...fields, createdAt: now, updatedAt: now } as R;
        stored(c).push(record);
        c.store.touch();
        return { status: create.status ?? 201, body: spec.out(record, c) };
      },
    });
  }
  if (list) {
    routes.push({
      method: "GET", path: spec.path,
      handler: (c) => {
        const records = list.filter ? all(c).filter(list.filter(c)) : all(c);
        if (list.style === "cursor") return cursorPage(c, records, out(c));
        if (list.order) records.sort(list.order);
        return { status: 200, body: records.map(out(c)) };
      },
    });
  }
  routes.push({ method: "GET", path: spec.item, handler: (c) => ({ status: 200, body: spec.out(find(c), c) }) });
  if (update) {
    routes.push({
      method: update.method ?? "PATCH", path: spec.item,
      handler: (c) => {
        const body = c.body as BodyAt<I, Lowercase<M>>;
        update.check?.(c, body);
        const record = find(c);
        const changes = update.apply(c, record, body);
        if (changes) Object.assign(record, changes, { updatedAt: new Date().toISOString() });
        c.store.touch();
        return { status: 200, body: spec.out(record, c) };
      },
    });
  }
  if (remove) {
    routes.push({
      method: "DELETE", path: spec.item,
      handler: (c) => {
        const record = find(c);
        (c.store.data[spec.store] as R[]) = stored(c).filter((r) => r !== record);
        if (remove !== true) remove.cascade(c, record);
        c.store.touch();
        return { status: 204 };
      },
    });
  }
  return { routes, all, find };
}

const COUNT_CAP = 50_000;

/**
 * Cursor pagination over `all` (already filtered), as the service's base repository does it:
 * in `_id` order per `orderDirection`, `after`/`before` a record `_id`; an unknown cursor is an
 * empty page with null cursors and count 0.
 */
export function cursorPage<T extends { _id: string }>(c: RequestContext, all: T[], map: (x: T) => JsonObject): Reply {
  const q = c.query;
  const p = new ParamReader(q);
  const limit = p.int("limit", 10, 1, 100);
  const dir = p.oneOf("orderDirection", ["ASC", "DESC"], "DESC");
  const includeCursor = q.get("includeCursor") === "true";
  p.done();
  const after = q.get("after"), before = q.get("before");
  if (after && before) throw new HttpError(400, "Cannot specify both \"after\" and \"before\" cursors at the same time.");
  const sign = dir === "ASC" ? 1 : -1;
  const list = [...all].sort((a, b) => (a._id < b._id ? -sign : a._id > b._id ? sign : 0));
  const empty = { data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };
  let start = 0, end = Math.min(list.length, limit);
  if (after) {
    const i = list.findIndex((x) => x._id === after);
    if (i < 0) return { status: 200, bare: true, body: empty };
    start = includeCursor ? i : i + 1;
    end = Math.min(list.length, start + limit);
  } else if (before) {
    const i = list.findIndex((x) => x._id === before);
    if (i < 0) return { status: 200, bare: true, body: empty };
    end = includeCursor ? i + 1 : i;
    start = Math.max(0, end - limit);
  }
  const page = list.slice(start, end);
  return {
    status: 200, bare: true,
    body: {
      data: page.map(map),
      next: end < list.length && page.length ? page[page.length - 1]!._id : null,
      previous: start > 0 && page.length ? page[0]!._id : null,
      totalCount: Math.min(list.length, COUNT_CAP),
      totalCountCapped: list.length > COUNT_CAP,
    },
  };
}
