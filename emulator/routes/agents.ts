/**
 * Agents: `/v1/agents` (create, list), `/v1/agents/{identifier}` (get, patch, delete) and their
 * links to integrations, `/v1/agents/{identifier}/integrations[/{agentIntegrationId}]`, as the
 * service's apps/api/src/app/agents/ does it (production-notes.md, fifth pass §4), in both modes:
 *
 * - addressed by `identifier`, never `_id`; unknown → 404 'Agent with identifier "<id>" was not found.';
 *   a second create of an identifier → 409 (3.15's create-agent.usecase.ts), or, with the
 *   behaviour `suffixDuplicateAgents`, the newer build's duplicate stored as `<identifier>-<shortId>`;
 * - `identifier` a slug (packages/shared/src/consts/slug-identifier.ts), `name` at most 60
 *   characters, `active` true unless given (create-agent-request.dto.ts);
 * - `runtime: "managed"` needs `managedRuntime` (422); the response carries the agent's linked
 *   integrations (agent-response.mapper.ts, 3.18.1);
 * - an update with an empty body → 400; a dev bridge in an environment of type `prod` (Production
 *   and every custom environment) → 403; a bridge URL on a loopback or private address → 400
 *   (update-agent.usecase.ts);
 * - links are made by the integration's `identifier`; the same pair twice → 409; in a `prod`-type
 *   environment adding or removing a link → 403 (add-agent-integration.usecase.ts); a delete of the
 *   agent removes its links (delete-agent.usecase.ts).
 */
import { randomBytes } from "node:crypto";
import { cursorPage, defineCollection } from "../collection";
import { badRequest, conflict, forbidden, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import type { AgentRecord, JsonObject, Scoped } from "../records";
import { ofTenant } from "../store";
import type { RequestContext, Route } from "../types";
import { objectId } from "../util";

/** A link of an agent to an integration of its environment (`/v1/agents/{identifier}/integrations`). */
export interface AgentLinkRecord extends Scoped {
  _agentId: string;
  _integrationId: string;
  connectedAt: null;
  createdAt: string;
  updatedAt: string;
}

/** The slug rule of an identifier (packages/shared/src/consts/slug-identifier.ts). */
const SLUG = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/;
/** The providers a managed runtime may name (ManagedRuntimeDto of spec/openapi.json). */
const MANAGED_PROVIDERS = ["anthropic", "platform-anthropic", "anthropic-aws"];

/** A short random suffix of lower-case letters and digits, as the newer service appends to a duplicate identifier. */
const shortId = () => Array.from(randomBytes(6), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");

/** Whether the caller's environment is of type `prod`: Production and every custom environment. */
function inProdEnvironment(c: RequestContext): boolean {
  return c.store.data.environments.find((e) => e._id === c.tenant.environmentId)?.type !== "dev";
}

/** A host the service refuses as a bridge: loopback, private and link-local addresses, and `localhost`. */
function internalHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^(127|10|0)\./.test(host) ||
    /^192\.168\./.test(host) || /^169\.254\./.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host);
}

function checkBridge(field: string, url: unknown): void {
  if (typeof url !== "string" || url === "") return;
  try {
    const u = new URL(url);
    if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error();
  } catch {
    throw badRequest(`${field}: must be a valid http or https URL`);
  }
  if (internalHost(url)) throw badRequest(`${field}: must not point to a loopback, private or internal address`);
}

/** The integrations linked to an agent, as its answer summarises them (deleted integrations left out). */
function linkedIntegrations(c: RequestContext, a: AgentRecord): JsonObject[] {
  return ofTenant(c.store.data.agentLinks, c.tenant).filter((l) => l._agentId === a._id).flatMap((l) => {
    const i = c.store.data.integrations.find((x) => x._id === l._integrationId && !x.deleted);
    return i ? [{ integrationId: i._id, providerId: i.providerId, name: i.name, identifier: i.identifier, ...(i.channel ? { channel: i.channel } : {}), active: i.active }] : [];
  });
}

function agentOut(a: AgentRecord, c: RequestContext): JsonObject {
  return {
    _id: a._id, name: a.name, identifier: a.identifier, ...(a.description !== undefined ? { description: a.description } : {}),
    ...(a.behavior ? { behavior: a.behavior } : {}), active: a.active,
    ...(a.bridgeUrl !== undefined ? { bridgeUrl: a.bridgeUrl } : {}), ...(a.devBridgeUrl !== undefined ? { devBridgeUrl: a.devBridgeUrl } : {}),
    ...(a.devBridgeActive !== undefined ? { devBridgeActive: a.devBridgeActive } : {}),
    runtime: a.runtime, visibility: "public", ...(a.managedRuntime ? { managedRuntime: a.managedRuntime } : {}),
    _environmentId: a._environmentId, _organizationId: a._organizationId, createdAt: a.createdAt, updatedAt: a.updatedAt,
    integrations: linkedIntegrations(c, a),
  };
}

/** The class-validator checks of CreateAgentRequestDto and UpdateAgentRequestDto, as 422s. */
function checkFields(b: { name?: unknown; identifier?: unknown; description?: unknown; active?: unknown }, create: boolean): void {
  const errors: string[] = [];
  if (create || b.name !== undefined) {
    if (typeof b.name !== "string" || b.name === "") errors.push("name should not be empty", "name must be a string");
    else if (b.name.length > 60) errors.push("name must be shorter than or equal to 60 characters");
  }
  if (create && (typeof b.identifier !== "string" || !SLUG.test(b.identifier))) {
    errors.push("identifier must be a valid slug format (letters, numbers, hyphens, dot and underscores only)");
  }
  if (b.description !== undefined && typeof b.description !== "string") errors.push("description must be a string");
  if (b.active !== undefined && typeof b.active !== "boolean") errors.push("active must be a boolean value");
  if (errors.length) throw validationFailed(errors);
}

/** Agents, declared (see ../collection.ts). */
const agents = defineCollection({
  store: "agents",
  path: "/v1/agents",
  item: "/v1/agents/{identifier}",
  key: { identifier: "identifier" },
  notFound: (k) => `Agent with identifier "${k.identifier}" was not found.`,
  conflict: (k) => `An agent with identifier "${k.identifier}" already exists in this environment.`,
  out: agentOut,
  list: {
    style: "cursor",
    filter: (c) => {
      const identifier = c.query.get("identifier");
      return (a) => !identifier || a.identifier === identifier;
    },
  },
  create: {
    check: (_c, b) => {
      checkFields(b, true);
      if (b.runtime === "managed") {
        const m = b.managedRuntime;
        if (!m) throw validationFailed(['managedRuntime is required when runtime is "managed".']);
        if (!MANAGED_PROVIDERS.includes(m.providerId)) throw validationFailed([`managedRuntime.providerId must be one of the following values: ${MANAGED_PROVIDERS.join(", ")}`]);
      }
    },
    onTaken: (c, key) => (c.behaviour.suffixDuplicateAgents ? { identifier: `${key.identifier}-${shortId()}` } : undefined),
    build: (_c, b) => ({
      name: b.name, active: b.active ?? true, runtime: b.runtime ?? "self-hosted",
      ...(b.description !== undefined ? { description: b.description } : {}),
      ...(b.runtime === "managed" && b.managedRuntime ? { managedRuntime: { ...b.managedRuntime } } : {}),
    }),
  },
  update: {
    check: (_c, b) => {
      if (!b || Object.values(b).every((v) => v === undefined)) throw badRequest("At least one field must be provided.");
      checkFields(b, false);
    },
    apply: (c, _a, b) => {
      if (b.devBridgeActive === true && inProdEnvironment(c)) throw forbidden("Dev bridge cannot be activated on production environments.");
      checkBridge("bridgeUrl", b.bridgeUrl);
      checkBridge("devBridgeUrl", b.devBridgeUrl);
      const changes: Partial<AgentRecord> = {};
      for (const k of ["name", "description", "active", "bridgeUrl", "devBridgeUrl", "devBridgeActive"] as const) {
        if (b[k] !== undefined) (changes as Record<string, unknown>)[k] = b[k];
      }
      if (b.behavior !== undefined) changes.behavior = { ...b.behavior };
      return changes;
    },
  },
  remove: {
    cascade: (c, a) => {
      c.store.data.agentLinks = c.store.data.agentLinks.filter((l) => l._agentId !== a._id);
    },
  },
});

function linkOut(c: RequestContext, l: AgentLinkRecord): JsonObject {
  const i = c.store.data.integrations.find((x) => x._id === l._integrationId);
  return {
    _id: l._id, _agentId: l._agentId,
    integration: i ? { _id: i._id, identifier: i.identifier, name: i.name, providerId: i.providerId, ...(i.channel ? { channel: i.channel } : {}), active: i.active } : {},
    _environmentId: l._environmentId, _organizationId: l._organizationId, connectedAt: l.connectedAt, createdAt: l.createdAt, updatedAt: l.updatedAt,
  };
}

/** The integration of the caller's environment with this identifier, or the service's 404. */
function integrationOf(c: RequestContext, identifier: unknown) {
  const i = ofTenant(c.store.data.integrations, c.tenant).find((x) => x.identifier === identifier && !x.deleted);
  if (!i) throw notFound(`Integration with identifier "${String(identifier)}" was not found.`);
  return i;
}

function findLink(c: RequestContext, a: AgentRecord): AgentLinkRecord {
  const l = ofTenant(c.store.data.agentLinks, c.tenant).find((x) => x._id === c.params.agentIntegrationId && x._agentId === a._id);
  if (!l) throw notFound(`Agent integration with id "${c.params.agentIntegrationId}" was not found.`);
  return l;
}

const LINKS = "/v1/agents/{identifier}/integrations";
const LINK = "/v1/agents/{identifier}/integrations/{agentIntegrationId}";

const linkRoutes: Route[] = [
  {
    method: "POST", path: LINKS,
    handler: (c) => {
      const a = agents.find(c);
      const b = (c.body ?? {}) as { integrationIdentifier?: string; providerId?: string };
      if ((b.integrationIdentifier === undefined) === (b.providerId === undefined)) throw badRequest("Exactly one of integrationIdentifier or providerId must be provided.");
      if (b.providerId !== undefined) throw badRequest(`providerId: the emulator does not provision the platform's own agent integrations (given "${b.providerId}"); link an integration by integrationIdentifier`);
      if (inProdEnvironment(c)) throw forbidden("Agent integrations cannot be added in production environments.");
      const i = integrationOf(c, b.integrationIdentifier);
      const links = ofTenant(c.store.data.agentLinks, c.tenant);
      if (links.some((l) => l._agentId === a._id && l._integrationId === i._id)) throw conflict("This integration is already linked to the agent.");
      const now = new Date().toISOString();
      const link: AgentLinkRecord = {
        _id: objectId(), _agentId: a._id, _integrationId: i._id, _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId,
        connectedAt: null, createdAt: now, updatedAt: now,
      };
      c.store.data.agentLinks.push(link);
      c.store.touch();
      return { status: 201, body: linkOut(c, link) };
    },
  },
  {
    method: "GET", path: LINKS,
    handler: (c) => {
      const a = agents.find(c);
      const only = c.query.get("integrationIdentifier");
      const links = ofTenant(c.store.data.agentLinks, c.tenant).filter((l) => l._agentId === a._id)
        .filter((l) => !only || c.store.data.integrations.some((i) => i._id === l._integrationId && i.identifier === only));
      return cursorPage(c, links, (l) => linkOut(c, l));
    },
  },
  {
    method: "PATCH", path: LINK,
    handler: (c) => {
      const l = findLink(c, agents.find(c));
      const b = (c.body ?? {}) as { integrationIdentifier?: string };
      l._integrationId = integrationOf(c, b.integrationIdentifier)._id;
      l.updatedAt = new Date().toISOString();
      c.store.touch();
      return { status: 200, body: linkOut(c, l) };
    },
  },
  {
    method: "DELETE", path: LINK,
    handler: (c) => {
      const l = findLink(c, agents.find(c));
      if (inProdEnvironment(c)) throw forbidden("Agent integrations cannot be removed in production environments.");
      c.store.data.agentLinks = c.store.data.agentLinks.filter((x) => x !== l);
      c.store.touch();
      return { status: 204 };
    },
  },
];

/** The agent of an identifier in the caller's environment, for the rules of other kinds (a domain's agent routes). */
export const findAgent = (c: RequestContext, identifier: string): AgentRecord | undefined =>
  agents.all(c).find((a) => a.identifier === identifier);

const agentRoutes: Route[] = [...agents.routes, ...linkRoutes];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ agents: list<AgentRecord>(), agentLinks: list<AgentLinkRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Agents and their integration links: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: agentRoutes });
