/** The EnvironmentVariable kind, as the tests and the bench see it. */
import fc from "fast-check";
import { opt, text, strip } from "./generate";
import { ok, type Apply, type KindDescriptor, type Obj } from "./descriptor";

/**
 * EnvironmentVariable inputs: the API key's own environment's value only (an API key may write no
 * other), given under its id in `values` or as `value`, never both.
 */
export const environmentVariableInputs = (suffix: string) => fc.record({
  key: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/).map((k) => `${k}_${suffix}`),
  type: opt(fc.constant("string")),
  isSecret: opt(fc.boolean()),
  own: opt(fc.oneof(fc.record({ values: fc.record({ env_env0: text(1, 60) }) }), fc.record({ value: text(1, 60) }))),
}, { requiredKeys: ["key"] }).map(({ own, ...rest }) => strip({ ...rest, ...(own ?? {}) }));

const envVar = (over: Obj) => ({ key: "BASE_URL", values: { env_env0: "https://x" }, ...over });

export const environmentVariable: KindDescriptor<"EnvironmentVariable"> = {
  kind: "EnvironmentVariable",
  inputs: environmentVariableInputs,
  setup: null,
  prepare: null,
  // The key is the variable's identity (the resource id and what workflows reference): a new key is a new variable.
  replaceOnChange: ["key"],
  exact: [],
  handEdits: (i, _mode, add) => {
    const patch = (body: Obj): Apply => (emu, id) => ok(emu.api("PATCH", `/v1/environment-variables/${encodeURIComponent(id)}`, body), "hand edit patch variable");
    add("isSecret", "toggled", () => patch({ isSecret: !i.isSecret }));
    // A secret variable's values read back masked: drift in them cannot be seen.
    if (i.isSecret !== true) add("values", "value replaced", () => patch({ values: [{ _environmentId: "env_env0", value: "edited-by-hand" }] }));
    if (i.isSecret !== true) add("value", "value replaced", () => patch({ values: [{ _environmentId: "env_env0", value: "edited-by-hand" }] }));
  },
  deletePath: (_i, id) => `/v1/environment-variables/${encodeURIComponent(id)}`,
  undeletable: null,
  remains: (state, declared) => state.environmentVariables!.filter((x) => !x.deleted && declared.some((d) => d.key === x.key)),
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/environment-variables", { key: "BASE_URL", type: "string", isSecret: false, values: [{ _environmentId: "env_env0", value: "https://a.example" }] }), "seed");
    },
    equal: { key: "BASE_URL", type: "string", isSecret: false, values: { env_env0: "https://a.example" } },
    reads: ["GET /v1/environment-variables/{variableKey}"],
    differing: { key: "BASE_URL", type: "string", isSecret: false, values: { env_env0: "https://b.example" } },
    writes: ["PATCH /v1/environment-variables/{variableKey}"],
  },
  // POST makes it and answers it whole; GET one reads it; PATCH merges the values sent. A variable is
  // the organisation's, so a delete reads it first (values of environments this resource does not
  // declare keep it), then DELETEs.
  floor: {
    of: () => ({ create: 1, read: 1, update: 1, delete: 2 }),
    change: (i) => ({ ...i, values: Object.fromEntries(Object.entries((i.values ?? {}) as Record<string, string>).map(([e, v]) => [e, `${v}-changed`])) }),
    listing: null,
    // The list is every variable as GET one answers it (get-environment-variables.usecase.ts), unpaginated.
    listedRead: "GET /v1/environment-variables",
  },
  badInput: [
    ["variable key starting with a digit", envVar({ key: "1URL" }), /key: must start with a letter followed by letters, digits or underscores/],
    ["variable value over 256 characters", envVar({ values: { env_env0: "v".repeat(300) } }), /values\.env_env0: must be at most 256 characters/],
    ["variable value that is the mask", envVar({ values: { env_env0: "\u2022".repeat(8) } }), /values\.env_env0: must not be the mask/],
    ["variable of an unknown type", envVar({ type: "number" }), /type: must be one of "string"/],
    ["variable value of the key's environment that is the mask", envVar({ values: undefined, value: "\u2022".repeat(8) }), /value: must not be the mask/],
    ["variable value of the key's environment given twice", envVar({ value: "https://y" }), /value: give the API key's environment's value either as value or under its id in values, not both/],
  ],
  stack: { max: 1 },
  exportSoak: { max: 2, unique: (v) => v.key },
  /** A value for the bench key's own environment (`env_env0` in the emulator). */
  bench: { per: 20, args: (i) => ({ key: `BENCH_${i}`, values: { env_env0: `value-${i}` } }) },
  scenario: { declared: { key: "SCENARIO_URL", values: { env_env0: "https://scenario.example" } } },
  openapiCases: {
    "GET /v1/environment-variables": (c) => c.call(200, "/v1/environment-variables"),
    "POST /v1/environment-variables": (c) => c.call(200, "/v1/environment-variables", { key: "BASE_URL", values: [{ _environmentId: "env_env0", value: "https://x" }] }),
    "GET /v1/environment-variables/{variableKey}": async (c) => {
      await c.api("POST", "/v1/environment-variables", { key: "READ_ME" });
      return c.call(200, "/v1/environment-variables/READ_ME");
    },
    "PATCH /v1/environment-variables/{variableKey}": async (c) => {
      await c.api("POST", "/v1/environment-variables", { key: "PATCH_ME" });
      return c.call(200, "/v1/environment-variables/PATCH_ME", { isSecret: true });
    },
    "DELETE /v1/environment-variables/{variableKey}": async (c) => {
      await c.api("POST", "/v1/environment-variables", { key: "DOOMED" });
      return c.call(204, "/v1/environment-variables/DOOMED");
    },
  },
  // Create, read, update, adopt, delete; the client's list by key.
  requests: {
    run: async ({ moduleOf, created, client }) => {
      const variable = moduleOf("environmentVariable");
      const baseUrl = await created(variable, { key: "BASE_URL", type: "string", isSecret: true, values: { env_env0: "https://dev.example.com" } });
      await variable.provider.read(baseUrl.id, baseUrl.outs);
      await variable.provider.update(baseUrl.id, baseUrl.outs, { ...baseUrl.inputs, isSecret: false, values: { env_env0: "https://dev2.example.com" } });
      await client.environmentVariables.create({ key: "EXISTING" });
      const adopted = await created(variable, { key: "EXISTING", values: { env_env0: "x" }, adopt: true });
      await client.environmentVariables.list("base");
      return async () => {
        for (const r of [baseUrl, adopted]) await variable.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
