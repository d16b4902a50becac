/**
 * Integrations: `/v1/integrations` (list, create), `/{integrationId}` (update, soft delete),
 * `/{integrationId}/set-primary`, and `/active` (active ones, with a `selected` flag).
 */
import { randomBytes } from "node:crypto";
import { conflict, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import type { IntegrationRecord, JsonObject } from "../records";
import { ofTenant } from "../store";
import type { Behaviour, RequestContext, Route } from "../types";
import { bodyOf, objectId } from "../util";

/** An integration as a response shows it: without credentials for API-key callers in production. */
export function integrationOut(i: IntegrationRecord, behaviour: Behaviour, answer: "list" | "write" = "write"): JsonObject {
  const { credentials, ...rest } = i;
  // The current service never answers an API-key caller credentials: `{}` in its lists, none in
  // its write answers (the integrations controller's canUserAccessCredentials, GHSA-rgr9-mpmj-mpw8,
  // May 2026; its e2e test api-key-credentials-exposure.e2e.ts).
  if (behaviour.hideCredentials) return answer === "list" ? { ...rest, credentials: {} } : rest;
  // Older servers (2.0) answered a write with each secret field encrypted, a new ciphertext every
  // time, and their lists in clear (production-notes.md, issue of the provider's credentials).
  if (behaviour.encryptCredentialAnswers && answer === "write") {
    const encrypted = Object.fromEntries(Object.entries(credentials ?? {}).map(([k, v]) => [k, ENCRYPTED_FIELDS.includes(k) && typeof v === "string" ? `nvsk.${randomBytes(16).toString("hex")}` : v]));
    return { ...rest, credentials: encrypted };
  }
  return i;
}

/** The credential fields the 2.0 server encrypted in its write answers. */
const ENCRYPTED_FIELDS = ["apiKey", "apiToken", "secretKey", "token", "password", "serviceAccount"];

function liveIntegration(c: RequestContext): IntegrationRecord {
  const id = c.params.integrationId!;
  const i = ofTenant(c.store.data.integrations, c.tenant).find((x) => x._id === id && !x.deleted);
  if (!i) throw notFound(`Entity with id ${id} not found`);
  return i;
}

function identifierTaken(c: RequestContext, env: string, identifier: string): boolean {
  return c.store.data.integrations.some((i) => i._environmentId === env && i.identifier === identifier && !i.deleted);
}

/**
 * The integration production would pick per environment and channel (its SelectIntegration):
 * the primary one, else the first active one. Agent integrations have no channel and are never
 * selected. (apps/api/src/app/integrations/usecases/get-active-integration/get-active-integration.usecase.ts
 * marks each active integration `selected` when it is the one selected for its environment and channel.)
 */
function selectedIds(active: IntegrationRecord[]): Set<string> {
  const chosen = new Map<string, IntegrationRecord>();
  for (const i of [...active].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))) {
    if (!i.channel) continue;
    const key = `${i._environmentId}|${i.channel}`;
    const prior = chosen.get(key);
    if (!prior || (i.primary && !prior.primary)) chosen.set(key, i);
  }
  return new Set([...chosen.values()].map((i) => i._id));
}

/** The channels whose integrations have a primary one (the service's CHANNELS_WITH_PRIMARY). */
const CHANNELS_WITH_PRIMARY: readonly string[] = ["email", "sms"];

const integrationRoutes: Route[] = [
  {
    method: "GET", path: "/v1/integrations",
    handler: (c) => ({
      status: 200,
      body: ofTenant(c.store.data.integrations, c.tenant, "organization").filter((i) => !i.deleted).map((i) => integrationOut(i, c.behaviour, "list")),
    }),
  },
  {
    method: "GET", path: "/v1/integrations/active",
    handler: (c) => {
      const active = ofTenant(c.store.data.integrations, c.tenant, "organization").filter((i) => i.active && !i.deleted);
      const selected = selectedIds(active);
      // The operation's description: "credentials field is returned as an empty object".
      return { status: 200, body: active.map((i) => ({ ...i, credentials: {}, selected: selected.has(i._id) })) };
    },
  },
  {
    method: "POST", path: "/v1/integrations",
    handler: (c) => {
      const b = bodyOf(c, "IntegrationsController_createIntegration");
      const missing = [
        ...(b.providerId === undefined ? ["providerId: must have required property 'providerId'"] : []),
        ...(b.channel === undefined && b.kind !== "agent" ? ["channel: must have required property 'channel' (all but agent integrations)"] : []),
      ];
      if (missing.length) throw validationFailed(missing);
      const env = b._environmentId ?? c.tenant.environmentId;
      const identifier = b.identifier ?? `${b.providerId}-${objectId().slice(-6)}`;
      if (identifierTaken(c, env, identifier)) throw conflict("Integration with identifier already exists");
      const now = new Date().toISOString();
      const rec: IntegrationRecord = {
        _id: objectId(), _environmentId: env, _organizationId: c.tenant.organizationId, name: b.name ?? b.providerId!,
        identifier, providerId: b.providerId!, ...(b.channel !== undefined ? { channel: b.channel } : {}), ...(b.kind !== undefined ? { kind: b.kind } : {}),
        credentials: b.credentials ?? {}, configurations: b.configurations ?? {}, active: b.active ?? false, deleted: false, primary: false,
        conditions: b.conditions ?? [], createdAt: now, updatedAt: now,
      };
      // create-integration.usecase.ts (calculatePriorityAndPrimary): an active integration of a
      // channel that has a primary (email, SMS) becomes it when none of its channel in the
      // environment is; the real 3.15.0 server made the first active email integration primary
      // (production-notes.md, seventh pass).
      if (rec.active && rec.channel !== undefined && CHANNELS_WITH_PRIMARY.includes(rec.channel) &&
        !c.store.data.integrations.some((x) => x._environmentId === env && x.channel === rec.channel && !x.deleted && x.primary)) {
        rec.primary = true;
      }
      c.store.data.integrations.push(rec);
      c.store.touch();
      return { status: 201, body: integrationOut(rec, c.behaviour) };
    },
  },
  {
    method: "PUT", path: "/v1/integrations/{integrationId}",
    handler: (c) => {
      const i = liveIntegration(c);
      const { check: _check, _environmentId: _env, ...b } = bodyOf(c, "IntegrationsController_updateIntegrationById") ?? {};
      if (b.identifier !== undefined && b.identifier !== i.identifier && identifierTaken(c, i._environmentId, b.identifier)) {
        throw conflict("Integration with identifier already exists");
      }
      Object.assign(i, b, { updatedAt: new Date().toISOString() });
      if (b.active === false) i.primary = false;
      c.store.touch();
      return { status: 200, body: integrationOut(i, c.behaviour) };
    },
  },
  {
    method: "DELETE", path: "/v1/integrations/{integrationId}",
    handler: (c) => {
      const i = liveIntegration(c);
      Object.assign(i, { deleted: true, deletedAt: new Date().toISOString(), deletedBy: "api-key", active: false, primary: false });
      c.store.touch();
      return { status: 200, body: ofTenant(c.store.data.integrations, c.tenant).filter((x) => !x.deleted).map((x) => integrationOut(x, c.behaviour, "list")) };
    },
  },
  {
    method: "POST", path: "/v1/integrations/{integrationId}/set-primary",
    handler: (c) => {
      const i = liveIntegration(c);
      for (const x of c.store.data.integrations) {
        if (x._environmentId === i._environmentId && x.channel === i.channel && x !== i) x.primary = false;
      }
      Object.assign(i, { primary: true, active: true });
      c.store.touch();
      return { status: 200, body: integrationOut(i, c.behaviour) };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ integrations: list<IntegrationRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Integrations: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: integrationRoutes });
