/**
 * Inbound-email domains: `/v1/domains` (create, list), `/v1/domains/{domain}` (get, patch, delete),
 * `/v1/domains/{domain}/verify` and `/v1/domains/{domain}/routes[/{address}]`, as the service's
 * apps/api/src/app/domains/ does it, in both modes (api.md does not describe them):
 * - a domain is named once across the whole service, lower-cased; a second create is a 409
 *   (usecases/create-domain/create-domain.usecase.ts); Free and Pro plans answer 402;
 * - it starts `pending` with `mxRecordConfigured: false` and one expected MX record pointing at the
 *   service's mail server (utils/dns-records.ts); `verify` looks the MX up and sets `verified` or
 *   back to `pending` (usecases/verify-domain/verify-domain.usecase.ts). The emulator's DNS is the
 *   test control `POST /__emulator/dns`;
 * - deleting a domain deletes its routes (usecases/delete-domain/delete-domain.usecase.ts);
 * - a route's address is trimmed and lower-cased first (the @Transform of dtos/domain-route.dto.ts
 *   and create-domain-route.command.ts), then must be an e-mail local part or `*`
 *   (validators/email-local-part.validator.ts), once per domain (409); an agent route needs an
 *   existing agent, named by its identifier and kept as its `_id` (domain-route.utils.ts), and so
 *   does the routes list filtered by `agentId`
 *   (usecases/list-domain-routes/list-domain-routes.usecase.ts);
 * - `data` is a string map of at most 10 keys and 500 characters (validators/bounded-record.validator.ts).
 */
import { cursorPage, defineCollection } from "../collection";
import { HttpError, badRequest, conflict, notFound, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import type { JsonObject, Scoped } from "../records";
import { agentByIdentifier } from "../shared";
import { ofTenant } from "../store";
import type { Reply, RequestContext, Route } from "../types";
import { objectId } from "../util";

/** An inbound-email domain (`/v1/domains`): unique by name across the whole service, per environment. */
export interface DomainRecord extends Scoped {
  /** Lower-cased. */
  name: string;
  status: "pending" | "verified";
  mxRecordConfigured: boolean;
  data?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** An address of a domain routed to a webhook or an agent. */
export interface DomainRouteRecord extends Scoped {
  _domainId: string;
  address: string;
  type: "agent" | "webhook";
  agentId?: string;
  data?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** The host the expected MX record names (the service's MAIL_SERVER_DOMAIN setting). */
export const EMULATOR_MAIL_SERVER = "inbound.notify-emulator.test";

const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;

function checkData(data: unknown): void {
  if (data === undefined || data === null) return;
  const entries = Object.entries(data as Record<string, unknown>);
  const total = entries.reduce((n, [k, v]) => n + k.length + String(v).length, 0);
  if (entries.length > 10 || total > 500 || entries.some(([, v]) => typeof v !== "string")) {
    throw validationFailed(["data must be an object with at most 10 string keys and string values, with combined key+value length at most 500 characters."]);
  }
}

function checkAddress(address: string): void {
  if (address === "*") return;
  if (!address || address.length > 64 || address !== address.trim() || address.includes("@") || !LOCAL_PART.test(address)) {
    throw validationFailed([`address must be a valid inbox address local part, for example "hello" or "sales+vip".`]);
  }
}

const expectedDnsRecords = (name: string) => [{ type: "MX", name, content: EMULATOR_MAIL_SERVER, ttl: "Auto", priority: 10 }];

const domainOut = (d: DomainRecord): JsonObject => ({
  _id: d._id, name: d.name, status: d.status, mxRecordConfigured: d.mxRecordConfigured, _environmentId: d._environmentId, _organizationId: d._organizationId,
  createdAt: d.createdAt, updatedAt: d.updatedAt, expectedDnsRecords: expectedDnsRecords(d.name), ...(d.data ? { data: d.data } : {}),
});

/** Domains, declared (see ../collection.ts); their verify and their routes are code below. */
const domains = defineCollection({
  store: "domains",
  path: "/v1/domains",
  item: "/v1/domains/{domain}",
  // The service's lookup (domain-route.utils.ts `resolveDomainName`): by lower-cased name in the caller's environment.
  key: { domain: "name" },
  normalize: (name) => name.toLowerCase(),
  // findByName looks across every organisation: a name is claimed once on the service.
  unique: "service",
  notFound: (k) => `Domain "${k.domain}" not found.`,
  conflict: (k) => `A domain with name "${k.domain}" already exists.`,
  out: domainOut,
  list: {
    style: "cursor",
    filter: (c) => {
      const name = (c.query.get("name") ?? "").toLowerCase();
      return (d) => !name || d.name.includes(name);
    },
  },
  create: {
    check: (c, b) => {
      // The CUSTOM_DOMAINS product feature blocks Free and Pro (create-domain.usecase.ts).
      if (c.behaviour.plan === "free" || c.behaviour.plan === "pro") throw new HttpError(402, "Payment Required");
      checkData(b.data);
    },
    build: (_c, b) => ({ status: "pending" as const, mxRecordConfigured: false, ...(b.data !== undefined ? { data: b.data } : {}) }),
  },
  update: {
    apply: (_c, _d, b) => {
      checkData(b.data);
      // UpdateDomainDto: "Replaces domain metadata when provided".
      return b.data !== undefined ? { data: b.data } : undefined;
    },
  },
  // delete-domain.usecase.ts deletes the domain's routes with it.
  remove: {
    cascade: (c, d) => {
      c.store.data.domainRoutes = c.store.data.domainRoutes.filter((r) => r._domainId !== d._id);
    },
  },
});

const routeOut = (r: DomainRouteRecord): JsonObject => ({
  _id: r._id, _domainId: r._domainId, address: r.address, type: r.type, ...(r.agentId ? { agentId: r.agentId } : {}),
  _environmentId: r._environmentId, _organizationId: r._organizationId, createdAt: r.createdAt, updatedAt: r.updatedAt, ...(r.data ? { data: r.data } : {}),
});

const routesOf = (c: RequestContext, d: DomainRecord) => ofTenant(c.store.data.domainRoutes, c.tenant).filter((r) => r._domainId === d._id);

function findRoute(c: RequestContext): DomainRouteRecord {
  const d = domains.find(c);
  const r = routesOf(c, d).find((x) => x.address === c.params.address);
  if (!r) throw notFound(`Route for address "${c.params.address}" not found on domain "${d.name}".`);
  return r;
}

/**
 * The agent `_id` an agent route stores for the identifier it is given (domain-route.utils.ts
 * `resolveAgentIdentifier`: the request names the agent's identifier, the route keeps and answers
 * its `_id`); undefined for a webhook route. An agent route needs an agent of the environment.
 */
function agentOf(c: RequestContext, type: string, identifier: string | undefined): string | undefined {
  if (type !== "agent") return undefined;
  if (!identifier) throw badRequest("agentId is required for agent routes.");
  const agent = agentByIdentifier(c, identifier);
  if (!agent) throw notFound(`Agent with identifier "${identifier}" not found.`);
  return agent._id;
}

/** The routes list: the domain, then the agent of `agentId` when given, whose routes alone are listed. */
function listRoutes(c: RequestContext): Reply {
  const routes = routesOf(c, domains.find(c));
  const agentId = c.query.get("agentId");
  const agent = agentId ? agentOf(c, "agent", agentId) : undefined;
  return cursorPage(c, agent === undefined ? routes : routes.filter((r) => r.agentId === agent), routeOut);
}

function verifyDomain(c: RequestContext): Reply {
  const d = domains.find(c);
  const mx = (c.store.data.dnsMx[d.name] ?? "").toLowerCase() === EMULATOR_MAIL_SERVER;
  if (mx !== d.mxRecordConfigured || (mx && d.status !== "verified")) {
    Object.assign(d, { mxRecordConfigured: mx, status: mx ? "verified" : "pending", updatedAt: new Date().toISOString() });
    c.store.touch();
  }
  return { status: 200, body: domainOut(d) };
}

function createRoute(c: RequestContext): Reply {
  const d = domains.find(c);
  const b = c.body as { address: string; type: "agent" | "webhook"; agentId?: string; data?: Record<string, string> };
  const address = b.address.trim().toLowerCase();
  checkAddress(address);
  checkData(b.data);
  const agentId = agentOf(c, b.type, b.agentId);
  if (routesOf(c, d).some((x) => x.address === address)) throw conflict(`A ${b.type} route for address "${address}" already exists.`);
  const now = new Date().toISOString();
  const r: DomainRouteRecord = {
    _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, _domainId: d._id, address,
    type: b.type, ...(agentId ? { agentId } : {}), ...(b.data !== undefined ? { data: b.data } : {}), createdAt: now, updatedAt: now,
  };
  c.store.data.domainRoutes.push(r);
  c.store.touch();
  return { status: 201, body: routeOut(r) };
}

const domainRoutes: Route[] = [
  ...domains.routes,
  { method: "POST", path: "/v1/domains/{domain}/verify", handler: verifyDomain },
  { method: "POST", path: "/v1/domains/{domain}/routes", handler: createRoute },
  { method: "GET", path: "/v1/domains/{domain}/routes", handler: listRoutes },
  { method: "GET", path: "/v1/domains/{domain}/routes/{address}", handler: (c) => ({ status: 200, body: routeOut(findRoute(c)) }) },
  {
    method: "PATCH", path: "/v1/domains/{domain}/routes/{address}",
    handler: (c) => {
      const r = findRoute(c);
      const b = c.body as { type?: "agent" | "webhook"; agentId?: string; data?: Record<string, string> };
      checkData(b.data);
      const type = b.type ?? r.type;
      // A route kept as an agent route keeps its agent unless another is named; a webhook route has none.
      let agentId: string | undefined;
      if (b.agentId !== undefined) agentId = agentOf(c, type, b.agentId);
      else if (type === "agent") {
        if (!r.agentId) throw badRequest("agentId is required for agent routes.");
        agentId = r.agentId;
      }
      Object.assign(r, { type, agentId, ...(b.data !== undefined ? { data: b.data } : {}), updatedAt: new Date().toISOString() });
      if (r.agentId === undefined) delete r.agentId;
      c.store.touch();
      return { status: 200, body: routeOut(r) };
    },
  },
  {
    method: "DELETE", path: "/v1/domains/{domain}/routes/{address}",
    handler: (c) => {
      const r = findRoute(c);
      c.store.data.domainRoutes = c.store.data.domainRoutes.filter((x) => x !== r);
      c.store.touch();
      return { status: 204 };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ domains: list<DomainRecord>(), domainRoutes: list<DomainRouteRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Domains and their routes: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: domainRoutes });
