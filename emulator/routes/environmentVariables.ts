/**
 * Environment variables: `/v1/environment-variables` (list, create) and `/{variableKey}` (get,
 * patch, delete), as production-notes.md (Third pass §2) reads the service, with the newer
 * upstream where the notes mark it: PATCH merges values by environment, the mask is refused as a
 * value, values must name environments of the organisation, and an API key writes only its own
 * environment's value (403 otherwise).
 */
import { HttpError, badRequest, conflict, forbidden, notFound, validationFailed } from "../errors";
import type { EnvironmentVariableRecord, JsonObject } from "../records";
import type { RequestContext, Route } from "../types";
import { byCreatedDesc } from "../params";
import { bodyOf, objectId } from "../util";

/** What every read shows instead of a secret value: eight U+2022 (the service's SECRET_MASK). */
export const SECRET_MASK = "\u2022".repeat(8);

type Values = { _environmentId: string; value: string }[];

const ofOrganization = (c: RequestContext) => c.store.data.environmentVariables.filter((v) => v._organizationId === c.tenant.organizationId);

/** A variable as every response shows it: secret values masked, `_updatedBy` never. */
function shown(v: EnvironmentVariableRecord): JsonObject {
  const { _updatedBy: _u, ...rest } = v;
  return { ...rest, values: v.values.map((x) => ({ _environmentId: x._environmentId, value: v.isSecret ? SECRET_MASK : x.value })) };
}

function variable(c: RequestContext): EnvironmentVariableRecord {
  const key = c.params.variableKey!;
  const v = ofOrganization(c).find((x) => x.key === key);
  if (!v) throw notFound(`Environment variable with key "${key}" not found`);
  return v;
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

export const environmentVariableRoutes: Route[] = [
  {
    method: "GET", path: "/v1/environment-variables",
    handler: (c) => {
      const search = c.query.get("search")?.toLowerCase();
      const list = ofOrganization(c).filter((v) => !search || v.key.toLowerCase().includes(search)).sort(byCreatedDesc);
      return { status: 200, body: list.map(shown) };
    },
  },
  {
    method: "POST", path: "/v1/environment-variables",
    handler: (c) => {
      const b = bodyOf(c, "EnvironmentVariablesController_createEnvironmentVariable");
      const envIds = (b.values ?? []).map((v) => v._environmentId);
      if (new Set(envIds).size !== envIds.length) throw validationFailed(["values must not hold two entries of one _environmentId"]);
      checkValues(c, b.values);
      // create-environment-variable.usecase.ts: the limit, then the key, then the mask.
      const all = ofOrganization(c);
      const limit = c.behaviour.environmentVariableLimit;
      if (all.length >= limit) {
        throw new HttpError(400, `Environment variables limit exceeded. Maximum allowed variables is ${limit}.`, { ctx: { currentCount: all.length, limit } });
      }
      if (all.some((v) => v.key === b.key)) throw conflict(`Environment variable with key "${b.key}" already exists`);
      maskRefused(b.values, "provide the real value or omit the entry.");
      const now = new Date().toISOString();
      const rec: EnvironmentVariableRecord = {
        _id: objectId(), _organizationId: c.tenant.organizationId, key: b.key, type: b.type ?? "string", isSecret: b.isSecret ?? false,
        values: (b.values ?? []).map((v) => ({ _environmentId: v._environmentId, value: v.value })), createdAt: now, updatedAt: now,
        _updatedBy: c.tenant.environmentId,
      };
      c.store.data.environmentVariables.push(rec);
      c.store.touch();
      // 200, not the framework's POST default: the current controller sets `@HttpCode(HttpStatus.OK)`
      // on create (apps/api/src/app/environment-variables/environment-variables.controller.ts), as
      // openapi.json documents; the service's official clients accept only 200 here.
      return { status: 200, body: shown(rec) };
    },
  },
  {
    method: "GET", path: "/v1/environment-variables/{variableKey}",
    handler: (c) => ({ status: 200, body: shown(variable(c)) }),
  },
  {
    method: "PATCH", path: "/v1/environment-variables/{variableKey}",
    handler: (c) => {
      const b = bodyOf(c, "EnvironmentVariablesController_updateEnvironmentVariable") ?? {};
      checkValues(c, b.values);
      const v = variable(c);
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
      Object.assign(v, set, { updatedAt: new Date().toISOString(), _updatedBy: c.tenant.environmentId });
      c.store.touch();
      return { status: 200, body: shown(v) };
    },
  },
  {
    method: "DELETE", path: "/v1/environment-variables/{variableKey}",
    handler: (c) => {
      const v = variable(c);
      c.store.data.environmentVariables = c.store.data.environmentVariables.filter((x) => x !== v);
      c.store.touch();
      return { status: 204 };
    },
  },
];
