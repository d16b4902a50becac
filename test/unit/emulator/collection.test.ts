/**
 * emulator/collection.ts: what a declared kind's routes do, over a real store and without a
 * server: the operations a declaration gets, the key read from the path and the create body,
 * the 404 and 409 templates, the order of the hooks (what the service refuses before the
 * duplicate check, and after), and the owner a record gets.
 * The kinds declared on it (contexts, environment variables, domains) are checked against the
 * service in test/conformance.
 */
import { describe, expect, it } from "vitest";
import { defineCollection } from "../../../emulator/collection";
import { HttpError, badRequest, validationFailed } from "../../../emulator/errors";
import type { ContextRecord } from "../../../emulator/records";
import { emptyLists } from "../../../emulator/kinds";
import { Store, type Tenant } from "../../../emulator/store";
import type { Behaviour, Reply, RequestContext, Route } from "../../../emulator/types";

const DEV: Tenant = { environmentId: "env_dev", organizationId: "org_a" };
const PROD: Tenant = { environmentId: "env_prod", organizationId: "org_a" };
const OTHER_ORG: Tenant = { environmentId: "env_x", organizationId: "org_b" };

/** Calls the route `method path` of `routes` as `tenant` would, with path parameters and a body. */
function call(routes: Route[], store: Store, tenant: Tenant, method: Route["method"], route: string, params: Record<string, string> = {}, body?: unknown, query = ""): Reply {
  const r = routes.find((x) => x.method === method && x.path === route);
  if (!r) throw new Error(`no route ${method} ${route}`);
  const c: RequestContext = {
    tenant, key: "k", method, path: route, query: new URLSearchParams(query), body, params, store, behaviour: {} as Behaviour,
  };
  return r.handler(c) as Reply;
}

/** The error a call throws (the server renders it), or a failure naming what the call answered. */
function refusal(f: () => unknown): { status: number; message: string | string[] } {
  try {
    const answered = f();
    throw new Error(`expected a refusal, got ${JSON.stringify(answered)}`);
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    return { status: e.status, message: e.detail };
  }
}

/** The order the hooks ran in, per test. */
let ran: string[] = [];

/** A kind over the contexts list: a two-part key, every operation, each hook recording itself. */
const things = defineCollection({
  store: "contexts",
  path: "/v2/contexts",
  item: "/v2/contexts/{type}/{id}",
  key: { type: "type", id: "id" },
  normalize: (v) => v.toLowerCase(),
  notFound: (k) => `no ${k.type}/${k.id}`,
  conflict: (k) => `${k.type}/${k.id} taken`,
  out: (x) => ({ type: x.type, id: x.id, data: x.data, owner: x._environmentId ?? null }),
  list: { style: "all", order: (a, b) => (a.id < b.id ? -1 : 1) },
  create: {
    check: (_c, b) => {
      ran.push("create.check");
      if (b.data?.refuseBefore) throw validationFailed(["data: refused before the duplicate check"]);
    },
    build: (_c, b) => {
      ran.push("create.build");
      if (b.data?.refuseAfter) throw badRequest("refused after the duplicate check");
      return { key: `${b.type}:${b.id}`, data: b.data ?? {} };
    },
  },
  update: {
    check: () => void ran.push("update.check"),
    apply: (_c, _x, b) => {
      ran.push("update.apply");
      return b.data === undefined ? undefined : { data: b.data };
    },
  },
  remove: { cascade: (_c, x) => void ran.push(`cascade ${x.id}`) },
});

const ITEM = "/v2/contexts/{type}/{id}";
const create = (store: Store, t: Tenant, body: unknown) => call(things.routes, store, t, "POST", "/v2/contexts", {}, body);

describe("defineCollection", () => {
  it("gives the operations declared and always the get, at the collection's and the item's paths", () => {
    expect(things.routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v2/contexts", "GET /v2/contexts", `GET ${ITEM}`, `PATCH ${ITEM}`, `DELETE ${ITEM}`,
    ]);
    const bare = defineCollection({
      store: "contexts", path: "/v2/contexts", item: ITEM, key: { type: "type", id: "id" },
      notFound: () => "", conflict: () => "", out: () => ({}),
    });
    expect(bare.routes.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${ITEM}`]);
  });

  it("refuses a key that leaves a parameter of the item path unnamed, or names one it does not have", () => {
    const declare = (key: Record<string, "type" | "id">) => () => defineCollection({
      store: "contexts", path: "/v2/contexts", item: ITEM, key: key as { type: "type"; id: "id" },
      notFound: () => "", conflict: () => "", out: () => ({}),
    });
    expect(declare({ type: "type" })).toThrow('the key names ["type"]; it must name the parameters of /v2/contexts/{type}/{id}, ["type","id"], and nothing else');
    expect(declare({ type: "type", id: "id", extra: "id" })).toThrow(/the key names \["type","id","extra"\]/);
  });

  it("creates with the body's key (normalised), the caller's environment and organisation, and answers 201", () => {
    const store = new Store(emptyLists);
    const reply = create(store, DEV, { type: "Tenant", id: "Acme", data: { a: 1 } });
    expect(reply).toEqual({ status: 201, body: { type: "tenant", id: "acme", data: { a: 1 }, owner: "env_dev" } });
    const [rec] = store.data.contexts as ContextRecord[];
    expect(rec).toMatchObject({ _environmentId: "env_dev", _organizationId: "org_a", key: "Tenant:Acme" });
    expect(rec!._id).toMatch(/^[0-9a-f]{24}$/);
    expect(rec!.createdAt).toBe(rec!.updatedAt);
  });

  it("answers the 409 template for a key the caller's environment holds, and not for one another environment holds", () => {
    const store = new Store(emptyLists);
    create(store, DEV, { type: "tenant", id: "acme" });
    expect(refusal(() => create(store, DEV, { type: "TENANT", id: "acme" }))).toEqual({ status: 409, message: "tenant/acme taken" });
    expect(create(store, PROD, { type: "tenant", id: "acme" }).status).toBe(201);
  });

  it("runs check before the duplicate check and build after it, as the service's use cases order their refusals", () => {
    const store = new Store(emptyLists);
    create(store, DEV, { type: "tenant", id: "acme" });
    ran = [];
    expect(refusal(() => create(store, DEV, { type: "tenant", id: "acme", data: { refuseBefore: true } })).status).toBe(422);
    expect(refusal(() => create(store, DEV, { type: "tenant", id: "acme", data: { refuseAfter: true } })).status).toBe(409);
    expect(refusal(() => create(store, DEV, { type: "tenant", id: "new", data: { refuseAfter: true } })).status).toBe(400);
    expect(ran).toEqual(["create.check", "create.check", "create.check", "create.build"]);
    expect(store.data.contexts).toHaveLength(1);
  });

  it("finds by the path's key, normalised, in the caller's environment only; else the 404 template", () => {
    const store = new Store(emptyLists);
    create(store, DEV, { type: "tenant", id: "acme" });
    expect(call(things.routes, store, DEV, "GET", ITEM, { type: "TENANT", id: "Acme" }).body).toMatchObject({ id: "acme" });
    expect(refusal(() => call(things.routes, store, PROD, "GET", ITEM, { type: "tenant", id: "acme" }))).toEqual({ status: 404, message: "no tenant/acme" });
  });

  it("updates through apply after check and the 404, and leaves updatedAt when apply changes nothing", async () => {
    const store = new Store(emptyLists);
    create(store, DEV, { type: "tenant", id: "acme", data: { a: 1 } });
    const rec = (store.data.contexts as ContextRecord[])[0]!;
    const params = { type: "tenant", id: "acme" };
    ran = [];
    expect(refusal(() => call(things.routes, store, DEV, "PATCH", ITEM, { type: "tenant", id: "gone" }, {})).status).toBe(404);
    expect(ran).toEqual(["update.check"]);
    await new Promise((r) => setTimeout(r, 5));
    expect(call(things.routes, store, DEV, "PATCH", ITEM, params, {})).toEqual({ status: 200, body: { type: "tenant", id: "acme", data: { a: 1 }, owner: "env_dev" } });
    expect(rec.updatedAt).toBe(rec.createdAt);
    expect(call(things.routes, store, DEV, "PATCH", ITEM, params, { data: { b: 2 } }).body).toMatchObject({ data: { b: 2 } });
    expect(rec.updatedAt > rec.createdAt).toBe(true);
  });

  it("deletes with a 204, taking with it what cascade names, and a second delete is the 404", () => {
    const store = new Store(emptyLists);
    create(store, DEV, { type: "tenant", id: "acme" });
    create(store, PROD, { type: "tenant", id: "acme" });
    ran = [];
    expect(call(things.routes, store, DEV, "DELETE", ITEM, { type: "tenant", id: "acme" })).toEqual({ status: 204 });
    expect(ran).toEqual(["cascade acme"]);
    expect((store.data.contexts as ContextRecord[]).map((r) => r._environmentId)).toEqual(["env_prod"]);
    expect(refusal(() => call(things.routes, store, DEV, "DELETE", ITEM, { type: "tenant", id: "acme" })).status).toBe(404);
  });

  it("lists the caller's records in the declared order", () => {
    const store = new Store(emptyLists);
    for (const id of ["b", "c", "a"]) create(store, DEV, { type: "t", id });
    create(store, PROD, { type: "t", id: "z" });
    expect((call(things.routes, store, DEV, "GET", "/v2/contexts").body as { id: string }[]).map((x) => x.id)).toEqual(["a", "b", "c"]);
  });

  it("holds organisation-wide kinds per organisation, and service-wide keys once across organisations", () => {
    const variables = defineCollection({
      store: "environmentVariables", path: "/v1/environment-variables", item: "/v1/environment-variables/{variableKey}",
      key: { variableKey: "key" }, scope: "organization",
      notFound: (k) => `no ${k.variableKey}`, conflict: (k) => `${k.variableKey} taken`, out: (v) => ({ key: v.key, org: v._organizationId }),
      create: { build: () => ({ type: "string", isSecret: false, values: [] }), status: 200 },
    });
    const store = new Store(emptyLists);
    const post = (t: Tenant, key: string) => call(variables.routes, store, t, "POST", "/v1/environment-variables", {}, { key });
    expect(post(DEV, "A")).toEqual({ status: 200, body: { key: "A", org: "org_a" } });
    expect(store.data.environmentVariables[0]).not.toHaveProperty("_environmentId");
    expect(refusal(() => post(PROD, "A"))).toEqual({ status: 409, message: "A taken" });
    expect(post(OTHER_ORG, "A").status).toBe(200);
    expect(call(variables.routes, store, PROD, "GET", "/v1/environment-variables/{variableKey}", { variableKey: "A" }).body).toEqual({ key: "A", org: "org_a" });

    const names = defineCollection({
      store: "domains", path: "/v1/domains", item: "/v1/domains/{domain}", key: { domain: "name" }, unique: "service",
      notFound: () => "", conflict: (k) => `${k.domain} taken`, out: (d) => ({ name: d.name }),
      create: { build: () => ({ status: "pending" as const, mxRecordConfigured: false }) },
    });
    expect(call(names.routes, store, DEV, "POST", "/v1/domains", {}, { name: "a.com" }).status).toBe(201);
    expect(refusal(() => call(names.routes, store, OTHER_ORG, "POST", "/v1/domains", {}, { name: "a.com" }))).toEqual({ status: 409, message: "a.com taken" });
  });
});
