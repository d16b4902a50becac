/** The Environment kind, as the tests and the bench see it. */
import fc from "fast-check";
import { opt, strip } from "./generate";
import { ok, without, type Apply, type KindDescriptor, type Obj } from "./descriptor";

const hexColor = fc.tuple(fc.constantFrom(3, 6), fc.boolean()).chain(([n, hash]) =>
  fc.stringMatching(n === 3 ? /^[0-9a-fA-F]{3}$/ : /^[0-9a-fA-F]{6}$/).map((h) => (hash ? `#${h}` : `#${h.toLowerCase()}`)));

/** Environment inputs: a name unique to the run (never Development or Production), a colour, the first key's environment as parent. */
export const environmentInputs = (suffix: string) => fc.record({
  name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _-]{0,20}$/).map((n) => `${n}-${suffix}`),
  color: hexColor,
  parentId: opt(fc.constant("env_env0")),
}, { requiredKeys: ["name", "color"] }).map(strip);

const envr = (over: Obj) => ({ name: "Staging", color: "#3498db", ...over });

export const environment: KindDescriptor<"Environment"> = {
  kind: "Environment",
  inputs: environmentInputs,
  setup: null,
  prepare: null,
  // An environment's name, colour and parent all change in place (UpdateEnvironmentRequestDto).
  replaceOnChange: [],
  exact: [],
  handEdits: (i, _mode, add) => {
    const put = (body: Obj): Apply => (emu, id) => ok(emu.api("PUT", `/v1/environments/${id}`, body), "hand edit put environment");
    add("name", "renamed", () => put({ name: `${String(i.name)} edited` }));
    add("color", "recoloured", () => put({ color: String(i.color).toLowerCase() === "#000000" ? "#ffffff" : "#000000" }));
  },
  deletePath: (_i, id) => `/v1/environments/${id}`,
  undeletable: null,
  remains: (state, declared) => state.environments!.filter((x) => !x.deleted && declared.some((d) => d.name === x.name)),
  adopt: {
    seed: async (emu) => { await ok(emu.api("POST", "/v1/environments", { name: "Staging", color: "#3498db" }), "seed"); },
    equal: { name: "Staging", color: "#3498db" },
    reads: ["GET /v1/environments"],
    differing: { name: "Staging", color: "#222222" },
    writes: ["PUT /v1/environments/{environmentId}"],
  },
  // POST /v1/environments answers no colour or slug and its keys encrypted (production-notes.md,
  // Third pass §1), so a create reads the list back (and PUTs parentId, which the create ignores);
  // the list is the only read, one for every environment; a colour change is one PUT (it writes
  // only what it is sent); a delete one DELETE.
  floor: {
    of: (i) => ({ create: i.parentId !== undefined ? 3 : 2, read: 0, update: 1, delete: 1 }),
    change: (i) => ({ ...i, color: i.color === "#000000" ? "#ffffff" : "#000000" }),
    listing: "GET /v1/environments",
  },
  badInput: [
    ["environment colour that is not hex", envr({ color: "blue" }), /color: must be a hex colour such as #3498db/],
    ["environment without a colour", without(envr({}), "color"), /color: is required to create an environment/],
    ["environment named Development without adopt", envr({ name: "Development" }), /name: the Development environment always exists and cannot be created; set adopt: true/],
    ["environment named production in lower case", envr({ name: "production" }), /name: the service reserves Development and Production/],
    ["environment name with surrounding spaces", envr({ name: " Staging " }), /name: must not start or end with whitespace/],
  ],
  stack: { max: 1 },
  exportSoak: { without: "the exporter lists environments only when asked (--environments), and an API key writes only its own" },
  bench: { per: 100, args: (i) => ({ name: `Bench ${i}`, color: "#3498db" }) },
  scenario: { declared: { name: "Scenario QA", color: "#8e44ad" } },
  openapiCases: {
    "GET /v1/environments": (c) => c.call(200, "/v1/environments"),
    "POST /v1/environments": (c) => c.call(201, "/v1/environments", { name: "Staging", color: "#3498db" }),
    "PUT /v1/environments/{environmentId}": async (c) => {
      const e = (await c.api("POST", "/v1/environments", { name: "Renamed", color: "#000000" })).body;
      if (c.mode === "spec") return c.call(200, `/v1/environments/${e._id}`, { color: "#222222" });
      // Production answers the database's update counters, not the environment the document
      // describes (apps/api/src/app/environments-v1/usecases/update-environment/update-environment.usecase.ts).
      const r = await c.api("PUT", `/v1/environments/${e._id}`, { color: "#222222" });
      c.expect(r.status).toBe(200);
      c.expect(Object.keys(r.body).sort()).toEqual(["matched", "modified"]);
    },
    "DELETE /v1/environments/{environmentId}": async (c) => {
      const e = (await c.api("POST", "/v1/environments", { name: "Doomed", color: "#000000" })).body;
      return c.call(200, `/v1/environments/${e._id}`);
    },
  },
  // Create (with parentId), read, update, adopt, delete; getEnvironments.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const environment = moduleOf("environment");
      const staging = await created(environment, { name: "Staging", color: "#3498db", parentId: "env_env0" });
      await environment.provider.read(staging.id, staging.outs);
      await environment.provider.update(staging.id, staging.outs, { ...staging.inputs, name: "Stage", color: "#000000" });
      await client.environments.create({ name: "Existing", color: "#111111" });
      const adopted = await created(environment, { name: "Existing", color: "#222222", adopt: true });
      await fns.getEnvironments({ name: "Development" });
      return async () => {
        for (const r of [staging, adopted]) await environment.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
