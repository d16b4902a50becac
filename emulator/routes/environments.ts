/**
 * Environments: `/v1/environments` (list, create) and `/{environmentId}` (update, delete), as
 * production-notes.md (Third pass §1) reads the service. Environments belong to the organisation:
 * any key of it lists, updates and deletes any of them, unless `scopedEnvironmentKeys` is on (the
 * newer upstream, where an API key only sees and changes its own environment).
 */
import { HttpError, badRequest, forbidden, notFound, paymentRequired, unprocessable, validationFailed } from "../errors";
import { encryptedKey, environmentSlug, isProtected, newApiKey, newIdentifier } from "../environments";
import { emulatorKind, list } from "../kind";
import type { EnvironmentRecord, JsonObject } from "../records";
import type { RequestContext, Route } from "../types";
import { bodyOf, objectId } from "../util";

/** class-validator's IsHexColor, which the DTOs use. */
const HEX_COLOR = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** Names the service refuses for custom environments, in any letter case. */
const isSystemName = (name: string) => ["development", "production"].includes(name.trim().toLowerCase());

/**
 * The "manage environments" product feature of create and delete: FREE and PRO plans answer 402
 * before anything else (apps/api/src/app/shared/interceptors/product-feature.interceptor.ts).
 */
function planGate(c: RequestContext): void {
  if (c.behaviour.plan === "free" || c.behaviour.plan === "pro") throw paymentRequired();
}

/** The org's environments. */
const ofOrganization = (c: RequestContext) => c.store.data.environments.filter((e) => e._organizationId === c.tenant.organizationId);

/**
 * A parent id as the DTO checks it (IsMongoId). The emulator's configured environments have
 * readable ids (`env_env0`), so an id of one of the org's environments passes too.
 */
function checkParentId(c: RequestContext, parentId: string | undefined): void {
  if (parentId !== undefined && !OBJECT_ID.test(parentId) && !ofOrganization(c).some((e) => e._id === parentId)) {
    throw validationFailed(["parentId must be a mongodb id"]);
  }
}

/** An environment as the list shows it: the stored document, the slug, and the keys in clear where the caller may read them. */
function listed(e: EnvironmentRecord, c: RequestContext): JsonObject {
  const keysVisible = !c.behaviour.scopedEnvironmentKeys || e._id === c.tenant.environmentId;
  return { ...e, apiKeys: keysVisible ? e.apiKeys.map((k) => ({ ...k })) : [], slug: environmentSlug(e) };
}

/** A key of the org may change any environment of it; with scoped keys only its own (403 otherwise). */
function scopeCheck(c: RequestContext, environmentId: string): void {
  if (c.behaviour.scopedEnvironmentKeys && environmentId !== c.tenant.environmentId) {
    throw forbidden(`This API key is scoped to a single environment (${c.tenant.environmentId}) and cannot change environment ${environmentId}`);
  }
}

const environmentRoutes: Route[] = [
  {
    method: "GET", path: "/v1/environments",
    handler: (c) => {
      const all = ofOrganization(c);
      if (!all.length) throw notFound(`No environments were found for organization ${c.tenant.organizationId}`);
      return { status: 200, body: all.map((e) => listed(e, c)) };
    },
  },
  {
    method: "POST", path: "/v1/environments",
    handler: (c) => {
      planGate(c);
      const b = bodyOf(c, "EnvironmentsControllerV1_createEnvironment");
      const messages = [
        ...(HEX_COLOR.test(b.color) ? [] : ["color must be a hexadecimal color"]),
      ];
      if (messages.length) throw validationFailed(messages);
      checkParentId(c, b.parentId);
      // create-environment.usecase.ts: the count, then the name rules, then uniqueness.
      const all = ofOrganization(c);
      const limit = c.behaviour.environmentLimit;
      if (all.length >= limit) throw badRequest(`Organization cannot have more than ${limit} environments`);
      if (isSystemName(b.name)) throw unprocessable("Environment name cannot be Development or Production");
      // The duplicate check compares the name as sent (untrimmed, case-sensitive); the name stored is trimmed.
      if (all.some((e) => e.name === b.name)) throw badRequest("Environment name must be unique");
      const now = new Date().toISOString();
      const key = newApiKey();
      // parentId is validated, never passed on: API-created environments have no parent.
      const env: EnvironmentRecord = {
        _id: objectId(), _organizationId: c.tenant.organizationId, name: b.name.trim(), identifier: newIdentifier(),
        type: "prod", color: b.color, apiKeys: [key], createdAt: now, updatedAt: now,
      };
      c.store.data.environments.push(env);
      c.store.touch();
      // The create response: no colour, slug or timestamps, and the keys as stored (encrypted).
      const apiKeys = c.behaviour.scopedEnvironmentKeys ? [] : [{ key: encryptedKey(key.key), hash: key.hash, _userId: key._userId }];
      return { status: 201, body: { _id: env._id, name: env.name, _organizationId: env._organizationId, identifier: env.identifier, type: env.type, apiKeys } };
    },
  },
  {
    method: "PUT", path: "/v1/environments/{environmentId}",
    handler: (c) => {
      const id = c.params.environmentId!;
      const b = bodyOf(c, "EnvironmentsControllerV1_updateMyEnvironment") ?? {};
      const env = ofOrganization(c).find((e) => e._id === id);
      if (!env) {
        if (!OBJECT_ID.test(id)) throw validationFailed(["environmentId must be a mongodb id"]);
        throw new HttpError(401, "Environment not found");
      }
      scopeCheck(c, id);
      const invalid = [
        ...(b.color !== undefined && !HEX_COLOR.test(b.color) ? ["color must be a hexadecimal color"] : []),
      ];
      if (invalid.length) throw validationFailed(invalid);
      checkParentId(c, b.parentId);
      // update-environment.usecase.ts: only non-empty fields are written; any name on a protected
      // environment is refused, even its own; identifier and parentId are skipped when name is "".
      if (b.name && isProtected(env)) throw unprocessable("Cannot update the name of Development or Production environments");
      const set: Partial<EnvironmentRecord> = {};
      if (b.name) {
        if (isSystemName(b.name)) throw unprocessable("Environment name cannot be Development or Production");
        set.name = b.name.trim();
      }
      if (b.parentId && b.name !== "") set._parentId = b.parentId;
      if (b.identifier && b.name !== "") set.identifier = b.identifier;
      if (b.color) set.color = b.color;
      if (b.dns?.inboundParseDomain) set.dns = { ...(env.dns as object | undefined), inboundParseDomain: b.dns.inboundParseDomain };
      if (b.bridge) Object.assign(set, { bridge: { url: b.bridge.url ?? "" }, echo: { url: b.bridge.url ?? "" } });
      const modified = Object.entries(set).some(([k, v]) => JSON.stringify(env[k]) !== JSON.stringify(v));
      Object.assign(env, set, modified ? { updatedAt: new Date().toISOString() } : {});
      c.store.touch();
      // Production answers the repository's update counters, not the environment (its use case
      // returns environmentRepository.update(...)); api.md's reading (spec mode) answers the
      // environment as openapi.json documents.
      return { status: 200, body: c.behaviour.envelope ? { matched: 1, modified: modified ? 1 : 0 } : listed(env, c) };
    },
  },
  {
    method: "DELETE", path: "/v1/environments/{environmentId}",
    handler: (c) => {
      planGate(c);
      const id = c.params.environmentId!;
      const env = ofOrganization(c).find((e) => e._id === id);
      if (!env) throw notFound(`Environment ${id} not found`);
      scopeCheck(c, id);
      if (isProtected(env)) {
        throw badRequest(`The ${env.name} environment is protected and cannot be deleted. Only custom environments can be deleted.`);
      }
      // Hard delete, then the environment's integrations; nothing else of it is touched.
      const data = c.store.data;
      data.environments = data.environments.filter((e) => e !== env);
      data.integrations = data.integrations.filter((i) => i._environmentId !== id);
      c.store.touch();
      // The use case returns nothing; the interceptor's wrapper around it serialises as `{}`.
      return { status: 200, body: {}, bare: true };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ environments: list<EnvironmentRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Environments: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: environmentRoutes });
