/** The Context kind, as the tests and the bench see it. */
import fc from "fast-check";
import { opt, strip, jsonObject } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

const contextPart = fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/);

/** A context: type and id by the service's rule (the id carries the run's suffix), data a JSON object or none. */
export const contextInputs = (suffix: string) => fc.record({
  type: contextPart,
  contextId: contextPart.map((s) => `${s}-${suffix}`),
  data: opt(jsonObject),
}, { requiredKeys: ["type", "contextId"] }).map(strip);

const ctx = (over: Obj) => ({ type: "tenant", contextId: "bad", ...over });
// The id is `type:id`, the path `type/id`.
const path = (id: string) => `/v2/contexts/${id.split(":").map(encodeURIComponent).join("/")}`;

export const context: KindDescriptor<"Context"> = {
  kind: "Context",
  inputs: contextInputs,
  setup: null,
  prepare: null,
  // A context is addressed by type and id (the path of every call); its update takes only the
  // data, which the service replaces whole (update-context.usecase.ts, `$set: { data }`).
  replaceOnChange: ["type", "contextId"],
  exact: ["data"],
  handEdits: (i, _mode, add) => {
    // The dashboard's edit replaces the data whole, as every update does.
    add("data", "one more key", () => (emu, id) => ok(emu.api("PATCH", path(id), { data: { ...(i.data as Obj), editedByHand: true } }), "hand edit patch context"));
  },
  deletePath: (_i, id) => path(id),
  undeletable: null,
  // A context is its type and id together: a channel connection's context of another type with the
  // same id (which the service makes, and which outlives the connection) is not this kind's.
  remains: (state, declared) => state.contexts!.filter((x) => !x.deleted && declared.some((d) => d.type === x.type && d.contextId === x.id)),
  adopt: {
    seed: async (emu) => void (await ok(emu.api("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { plan: "pro" } }), "seed")),
    equal: { type: "tenant", contextId: "acme", data: { plan: "pro" } },
    reads: ["GET /v2/contexts/{type}/{id}"],
    // The service replaces data whole: one PATCH.
    differing: { type: "tenant", contextId: "acme", data: { plan: "enterprise" } },
    writes: ["PATCH /v2/contexts/{type}/{id}"],
  },
  // POST makes it and answers it whole (409 for one it holds: no upsert); GET one reads it; PATCH
  // replaces its data; a delete is one DELETE.
  floor: {
    of: () => ({ create: 1, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, data: { ...(i.data as Obj | undefined), changed: "yes" } }),
    listing: null,
    // The list maps a context as GET one does (dto.mapper.ts), newest first, 100 a page.
    listedRead: "GET /v2/contexts",
  },
  badInput: [
    ["context type with a colon", ctx({ type: "tenant:eu" }), /type: must contain only letters, digits, _ and -/],
    ["missing context id", without(ctx({}), "contextId"), /contextId: is required/],
    ["context id over 100 characters", ctx({ contextId: "c".repeat(101) }), /contextId: must be at most 100 characters/],
    ["context data not an object", ctx({ data: "plan=pro" }), /data: must be a record/],
    ["context data over 64 KiB", ctx({ data: { blob: "x".repeat(64 * 1024) } }), /data: must be at most 64 KiB as JSON/],
    ["misspelt context field", ctx({ contextID: "x" }), /contextID/],
  ],
  stack: { max: 1 },
  exportSoak: { max: 2, unique: (c) => `${String(c.type)}:${String(c.contextId)}` },
  bench: { per: 20, args: (i) => ({ type: "tenant", contextId: `bench-${i}`, data: { name: `Tenant ${i}`, plan: i % 2 ? "pro" : "free" } }) },
  scenario: { declared: { type: "tenant", contextId: "scenario", data: { plan: "pro" } } },
  openapiCases: {
    "POST /v2/contexts": async (c) => {
      await c.call(201, "/v2/contexts", { type: "tenant", id: "bare" });
      return c.call(201, "/v2/contexts", { type: "tenant", id: "case", data: { plan: "pro" } });
    },
    "GET /v2/contexts": async (c) => {
      await c.api("POST", "/v2/contexts", { type: "tenant", id: "listed" });
      return c.call(200, "/v2/contexts?limit=1");
    },
    "GET /v2/contexts/{type}/{id}": async (c) => {
      await c.api("POST", "/v2/contexts", { type: "tenant", id: "acme", data: { plan: "pro" } });
      return c.call(200, "/v2/contexts/tenant/acme");
    },
    "PATCH /v2/contexts/{type}/{id}": async (c) => {
      await c.api("POST", "/v2/contexts", { type: "tenant", id: "patched" });
      return c.call(200, "/v2/contexts/tenant/patched", { data: { plan: "enterprise" } });
    },
    "DELETE /v2/contexts/{type}/{id}": async (c) => {
      await c.api("POST", "/v2/contexts", { type: "tenant", id: "doomed" });
      return c.call(204, "/v2/contexts/tenant/doomed");
    },
  },
  // Create, read, update, adopt, delete; getContexts.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const context = moduleOf("context");
      const acme = await created(context, { type: "tenant", contextId: "acme", data: { plan: "pro" } });
      await context.provider.read(acme.id, acme.outs);
      await context.provider.update(acme.id, acme.outs, { ...acme.inputs, data: { plan: "enterprise" } });
      await client.contexts.create({ type: "tenant", id: "existing" });
      const adopted = await created(context, { type: "tenant", contextId: "existing", data: {}, adopt: true });
      await fns.getContexts({ contextId: "acme", search: "tenant:", orderDirection: "ASC", maxResults: 10 });
      return async () => {
        for (const r of [acme, adopted]) await context.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
