/**
 * Environment variables: `/v1/environment-variables` (list, create) and `/{variableKey}` (get,
 * patch, delete), as production-notes.md (Third pass §2) reads the service, with the newer
 * upstream where the notes mark it: PATCH merges values by environment, the mask is refused as a
 * value, values must name environments of the organisation, and an API key writes only its own
 * environment's value (403 otherwise).
 */
import { defineCollection } from "../collection";
import { HttpError, badRequest, forbidden, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import type { JsonObject } from "../records";
import type { RequestContext } from "../types";
import { byCreatedDesc } from "../params";

/** A variable of the organisation, with one value per environment (stored in clear here). */
export interface EnvironmentVariableRecord {
  _id: string;
  _organizationId: string;
  key: string;
  type: string;
  isSecret: boolean;
  values: { _environmentId: string; value: string }[];
  createdAt: string;
  updatedAt: string;
  _updatedBy?: string;
}

/** What every read shows instead of a secret value: eight U+2022 (the service's SECRET_MASK). */
export const SECRET_MASK = "\u2022".repeat(8);

type Values = { _environmentId: string; value: string }[];

/** A variable as every response shows it: secret values masked, `_updatedBy` never. */
function shown(v: EnvironmentVariableRecord): JsonObject {
  const { _updatedBy: _u, ...rest } = v;
  return { ...rest, values: v.values.map((x) => ({ _environmentId: x._environmentId, value: v.isSecret ? SECRET_MASK : x.value })) };
}

/**
 * The checks of values before the use case: an API key writes only its own environment's value
 * (403, apps/api/src/app/environment-variables/e2e/api-key-environment-scope.e2e.ts), and each
 * environment must be one of the organisation's (404, usecases/validate-environment-variable-values.ts).
 */
function checkValues(c: RequestContext, values: Values | undefined): void {
  for (const v of values ?? []) {
    if (v._environmentId !== c.tenant.environmentId) {
      throw forbidden(`This API key is scoped to a single environment (${c.tenant.environmentId}); it cannot write the value of environment ${v._environmentId}`);
    }
  }
  for (const id of new Set((values ?? []).map((v) => v._environmentId))) {
    if (!c.store.data.environments.some((e) => e._id === id && e._organizationId === c.tenant.organizationId)) {
      throw notFound(`Environment with id ${id} not found`);
    }
  }
}

const maskRefused = (values: Values | undefined, tail: string) => {
  if ((values ?? []).some((v) => v.value === SECRET_MASK)) throw badRequest(`Submitted value matches the secret mask placeholder; ${tail}`);
};

/** Environment variables, declared (see ../collection.ts): one per key in the organisation. */
const environmentVariables = defineCollection({
  store: "environmentVariables",
  path: "/v1/environment-variables",
  item: "/v1/environment-variables/{variableKey}",
  key: { variableKey: "key" },
  scope: "organization",
  notFound: (k) => `Environment variable with key "${k.variableKey}" not found`,
  conflict: (k) => `Environment variable with key "${k.variableKey}" already exists`,
  out: shown,
  list: {
    style: "all",
    filter: (c) => {
      const search = c.query.get("search")?.toLowerCase();
      return (v) => !search || v.key.toLowerCase().includes(search);
    },
    order: byCreatedDesc,
  },
  create: {
    // create-environment-variable.usecase.ts: the limit, then the key (the collection's 409), then the mask.
    check: (c, b) => {
      const envIds = (b.values ?? []).map((v) => v._environmentId);
      if (new Set(envIds).size !== envIds.length) throw validationFailed(["values must not hold two entries of one _environmentId"]);
      checkValues(c, b.values);
      const count = environmentVariables.all(c).length;
      const limit = c.behaviour.environmentVariableLimit;
      if (count >= limit) {
        throw new HttpError(400, `Environment variables limit exceeded. Maximum allowed variables is ${limit}.`, { ctx: { currentCount: count, limit } });
      }
    },
    build: (c, b) => {
      maskRefused(b.values, "provide the real value or omit the entry.");
      return {
        type: b.type ?? "string", isSecret: b.isSecret ?? false,
        values: (b.values ?? []).map((v) => ({ _environmentId: v._environmentId, value: v.value })), _updatedBy: c.tenant.environmentId,
      };
    },
    // 200, not the framework's POST default: the current controller sets `@HttpCode(HttpStatus.OK)`
    // on create (apps/api/src/app/environment-variables/environment-variables.controller.ts), as
    // openapi.json documents; the service's official clients accept only 200 here.
    status: 200,
  },
  update: {
    check: (c, b) => checkValues(c, b?.values),
    apply: (c, v, body) => {
      const b = body ?? {};
      const set: Partial<EnvironmentVariableRecord> = {};
      if (b.key !== undefined) set.key = b.key;
      if (b.type !== undefined) set.type = b.type;
      if (b.isSecret !== undefined) set.isSecret = b.isSecret;
      if (b.values !== undefined) {
        maskRefused(b.values, "provide the real value or omit the entry to keep the existing one.");
        // Merged by environment: entries not in the request keep their value; new ones are appended.
        const incoming = new Map(b.values.map((x) => [x._environmentId, x.value]));
        const merged = v.values.map((x) => (incoming.has(x._environmentId) ? { ...x, value: incoming.get(x._environmentId)! } : x));
        for (const [id, value] of incoming) if (!v.values.some((x) => x._environmentId === id)) merged.push({ _environmentId: id, value });
        set.values = merged;
      }
      if (!Object.keys(set).length) throw badRequest("At least one field must be provided to update");
      return { ...set, _updatedBy: c.tenant.environmentId };
    },
  },
  remove: true,
});

const environmentVariableRoutes = environmentVariables.routes;

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ environmentVariables: list<EnvironmentVariableRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Environment variables: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: environmentVariableRoutes });
