/**
 * Domain: an inbound-email domain of the environment, with the addresses routed from it, its
 * expected DNS records and its verification status.
 *
 *   check   no request
 *   diff    no request
 *   create  with adopt, the read below first: a domain of this environment is compared, and its
 *           data and routes written only where they differ; else POST /v1/domains (409 when the
 *           name is claimed anywhere on the service), then POST each declared route; a domain
 *           made whose routes failed is kept in the stack without them (the next up writes them),
 *           and a create whose answer was lost looks the name up before it is sent again
 *   read    GET /v1/domains/{domain}, or for a domain the state has pending POST .../verify, which
 *           checks the DNS again and answers the domain (so a refresh after the DNS change shows
 *           `verified`; still pending, a warning names the records to add); GET .../routes (every page)
 *   update  PATCH /v1/domains/{domain} when the data changes; the routes added, changed and
 *           removed since the state (only those)
 *   delete  DELETE /v1/domains/{domain} (the service deletes its routes with it; a 404 counts as done)
 *
 * A create and an update take the outputs from the answers: the create and the PATCH answer the
 * domain with its status and expected records, a route's POST and PATCH the route as stored
 * (DomainResponseDto, DomainRouteResponseDto of spec/openapi.json).
 *
 * One resource, routes included: a route has no life without its domain (the service deletes
 * routes with the domain), an address is unique only within it, and a user reads "mail to
 * support@ goes to this webhook" as part of the domain's configuration, beside its DNS records.
 */
import { z } from "zod";
import { NotifyApiError, isConflict, isNotFound } from "../client/errors";
import type { NotifyClient } from "../client";
import { clientFor } from "../config";
import { ExpectedDnsRecord, type Domain as ApiDomain, type DomainRoute as ApiRoute } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, deepEqual, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs, warn } from "./lifecycle";

/** A domain name as the service stores it: lower case, dot-separated labels (the service lower-cases what it is given). */
export const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;
/** An inbox address local part, or `*` for every address (the service's validators/email-local-part.validator.ts). */
export const ROUTE_ADDRESS = /^(?:\*|[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)$/i;
/**
 * A route address as the service stores it: trimmed and lower-cased before it is validated and
 * stored (its dtos/domain-route.dto.ts), so `Sales` reads back as `sales`.
 */
export const routeAddress = (address: string): string => address.trim().toLowerCase();

/** The service's bound on a domain's or route's data (validators/bounded-record.validator.ts): 10 keys, 500 characters in all. */
const BoundedData = z.record(z.string(), z.string()).refine((d) => Object.keys(d).length <= 10, { error: "must have at most 10 keys" })
  .refine((d) => Object.entries(d).reduce((n, [k, v]) => n + k.length + v.length, 0) <= 500, { error: "must be at most 500 characters, keys and values together" });

const name = z.string().superRefine((v, ctx) => {
  if (v === UNKNOWN || DOMAIN_NAME.test(v)) return;
  ctx.addIssue({
    code: "custom",
    message: DOMAIN_NAME.test(v.toLowerCase()) ? `write ${JSON.stringify(v.toLowerCase())}: the service stores domain names in lower case`
      : "must be a domain name (e.g. mail.example.com)",
  });
});

const Route = z.strictObject({
  type: z.enum(["webhook", "agent"]).describe("`webhook` (the environment's inbound webhook) or `agent`."),
  agentId: z.string().min(1).optional().describe("The agent's identifier; required for an `agent` route."),
  data: BoundedData.optional().describe("String metadata of the route (at most 10 keys, 500 characters)."),
}).refine((r) => r.type !== "agent" || r.agentId !== undefined, { error: "an agent route needs agentId", path: ["agentId"] });

const Routes = z.record(z.string(), Route).superRefine((routes, ctx) => {
  const seen = new Map<string, string>();
  for (const declared of Object.keys(routes)) {
    const address = routeAddress(declared);
    if (address.length > 64 || address.includes("@") || !ROUTE_ADDRESS.test(address)) {
      ctx.addIssue({ code: "custom", path: [declared], message: "must be an inbox address local part (e.g. support, sales+vip) or * for every address" });
      continue;
    }
    const first = seen.get(address);
    if (first !== undefined) {
      ctx.addIssue({ code: "custom", path: [declared], message: `is the address ${JSON.stringify(address)} to the service (which trims and lower-cases addresses), as ${JSON.stringify(first)} is: declare it once` });
    } else seen.set(address, declared);
  }
});

/** The field table of a {@link Domain}. */
export const DOMAIN = defineResource({
  name: "Domain",
  module: "domain",
  doc: "An inbound-email domain of the environment: its name, the addresses routed from it (to the inbound webhook or an agent), " +
    "the DNS records the service expects (declare them with your DNS provider from `expectedDnsRecords`) and its verification " +
    "status. The id, and the import id, is the domain name.",
  inputs: {
    name: field(name, "The domain name, lower case (`mail.example.com`); claimed once on the whole service. Changing it replaces the domain.", { createOnly: true }),
    data: field(BoundedData.optional(), "String metadata (at most 10 keys, 500 characters), compared whole. Left out, it is not managed.", { exact: true }),
    routes: field(Routes.optional(),
      "The routed addresses: a map from an inbox local part (`support`, or `*` for every address; trimmed and lower-cased, as the service stores it) to `{ type, agentId?, data? }`, compared whole " +
      "(an address added or removed in the dashboard is drift). Left out, the routes are not managed; `{}` removes them all.", { exact: true, local: true }),
    adopt: field(z.boolean().optional(), "Take over an existing domain of this environment with the same name instead of failing.", { control: true }),
  },
  outputs: {
    status: output(z.string(), "`pending` until the service has found the MX record, then `verified` (checked on every refresh while pending)."),
    mxRecordConfigured: output(z.boolean(), "Whether the MX record was found at the last check."),
    expectedDnsRecords: output(z.array(ExpectedDnsRecord), "The DNS records the service expects (an MX record to its mail server)."),
    databaseId: output(z.string(), "The service's `_id` of the domain."),
    createdAt: output(z.string().optional(), "When the domain was created (ISO 8601)."),
  },
});

/** Inputs of a {@link Domain}. */
export type DomainArgs = ArgsOf<typeof DOMAIN>;
/** The state of a {@link Domain}: the service's view, each declared input as declared. */
export type DomainState = StateOf<typeof DOMAIN>;

type Inputs = z.infer<typeof DOMAIN.schema>;
type RouteInput = z.infer<typeof Route>;
type UpdateBody = RequestBody<"DomainsController_updateDomain">;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;

/** Routes a domain may hold here: bounded so a read stays a bounded number of pages. */
const MAX_ROUTES = 1000;

/**
 * The live routes as the input map, each agent route's `agentId` the agent's identifier
 * ({@link liveRoutes} resolves the `_id` the service answers); where that could not be resolved
 * (a service without the agents API), the declared identifier is kept.
 */
function routeMap(live: LiveRoutes, declared: Record<string, RouteInput> | undefined): Record<string, RouteInput> {
  const out: Record<string, RouteInput> = {};
  for (const r of live.routes) {
    const agentId = r.type === "agent" ? (live.agentsResolved ? r.agentId : declared?.[r.address]?.agentId ?? r.agentId) : undefined;
    // The service holds no data and `{}` alike; a declared `{}` reads back as declared.
    const empty = declared?.[r.address]?.data !== undefined && Object.keys(declared[r.address]!.data!).length === 0 ? {} : undefined;
    out[r.address] = stripUndefined({ type: r.type as RouteInput["type"], agentId, data: r.data && Object.keys(r.data).length ? r.data : empty }) as RouteInput;
  }
  return out;
}

/**
 * A domain's routes, and whether each agent route's `agentId` was mapped to the agent's identifier
 * (false for routes as a write answers them, with the agent's `_id`).
 */
interface LiveRoutes { routes: readonly ApiRoute[]; agentsResolved: boolean }

/** Routes as the service's writes answer them: agent routes name the agent by its `_id`. */
const asWritten = (routes: readonly ApiRoute[]): LiveRoutes => ({ routes, agentsResolved: false });

/**
 * Each agent route's `agentId` as the agent's identifier: the service writes a route with the
 * identifier and answers the agent's `_id`, so one list of the agents maps them back, and a route
 * pointed at another agent in the dashboard shows as a change. Sent only for a domain with agent
 * routes; a service without the agents API (404) leaves the ids as they are.
 */
async function withAgentIdentifiers(client: NotifyClient, routes: ApiRoute[]): Promise<LiveRoutes> {
  if (!routes.some((r) => r.type === "agent" && r.agentId)) return asWritten(routes);
  let agents: { _id: string; identifier: string }[];
  try {
    agents = await client.agents.list();
  } catch (err) {
    if (err instanceof NotifyApiError && err.status === 404) return asWritten(routes);
    throw err;
  }
  const identifierOf = new Map(agents.map((a) => [a._id, a.identifier]));
  // An id no agent has (the agent deleted) stays as it is: unlike any identifier, it shows as a change.
  const mapped = routes.map((r) => (r.type === "agent" && r.agentId && identifierOf.has(r.agentId) ? { ...r, agentId: identifierOf.get(r.agentId) } : r));
  return { routes: mapped, agentsResolved: true };
}

async function liveRoutes(client: NotifyClient, domain: string): Promise<LiveRoutes> {
  const routes: ApiRoute[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < MAX_ROUTES / 100; pages++) {
    const page = await client.domains.listRoutes(domain, { limit: 100, after });
    routes.push(...page.data);
    if (!page.next || page.data.length === 0) break;
    after = page.next;
  }
  return withAgentIdentifiers(client, routes);
}

/** Maps the service's domain and its routes (read by calls of their own) to outputs; no data and `{}` are alike. */
export function toDomainOutputs(d: ApiDomain, routes: Record<string, RouteInput>): Props {
  return stripUndefined({
    ...serviceFields(DOMAIN, d), data: d.data && Object.keys(d.data).length ? d.data : undefined, routes, status: d.status, mxRecordConfigured: d.mxRecordConfigured,
    expectedDnsRecords: d.expectedDnsRecords ?? [], databaseId: d._id, createdAt: d.createdAt,
  });
}

function outputsFor(d: ApiDomain, live: LiveRoutes, declared: Props, keys: string[]): DomainState {
  const out: Props = { ...toDomainOutputs(d, routeMap(live, declared.routes as Record<string, RouteInput> | undefined)), ...controlInputs(declared, DOMAIN.controlKeys), declaredKeys: keys };
  // An undeclared data reads as {} when the service holds none, so a declared {} is no change.
  if (keys.includes("data") && out.data === undefined) out.data = {};
  return stripUndefined(out) as DomainState;
}

/** Key order is not a difference (the engine hands maps over in its own order). */
const sameRoute = (a: RouteInput, b: RouteInput) => deepEqual(stripUndefined({ ...a }), stripUndefined({ ...b }));

/** A route of the input map as the service's route (what an unchanged route still is). */
const asRoute = (address: string, r: RouteInput): ApiRoute => stripUndefined({ address, type: r.type, agentId: r.agentId, data: r.data }) as ApiRoute;

/**
 * Brings the routes from `live` to `wanted`: each added, changed or removed address, nothing else;
 * answers the routes the domain then holds (the answers of the writes, the others as they were).
 * `live` may be the state, older than the service: a route gone since is made again, one made
 * since is updated, one to remove that is gone already is done.
 */
async function syncRoutes(client: NotifyClient, domain: string, live: Record<string, RouteInput>, wanted: Record<string, RouteInput>): Promise<ApiRoute[]> {
  const api = client.domains;
  const held: ApiRoute[] = [];
  const update = (address: string, r: RouteInput) => api.updateRoute(domain, address, { ...r, data: r.data ?? {} });
  for (const [address, r] of Object.entries(wanted)) {
    const have = live[address];
    if (have && sameRoute(have, r)) held.push(asRoute(address, r));
    else if (have) held.push(await update(address, r).catch((e: unknown) => (isNotFound(e) ? api.createRoute(domain, address, r) : Promise.reject(e))));
    else held.push(await api.createRoute(domain, address, r).catch((e: unknown) => (e instanceof NotifyApiError && e.status === 409 ? update(address, r) : Promise.reject(e))));
  }
  for (const address of Object.keys(live)) if (!(address in wanted)) await deleteIfPresentQuietly(() => api.deleteRoute(domain, address));
  return held;
}

/** A delete whose 404 counts as done; any other failure is thrown as is. */
async function deleteIfPresentQuietly(remove: () => Promise<void>): Promise<void> {
  await remove().catch((e: unknown) => { if (!isNotFound(e)) throw e; });
}

/** The warning for a domain the service still could not verify: what to add to its DNS, from the records the service expects. */
export function pendingWarning(d: ApiDomain): string {
  const records = (d.expectedDnsRecords ?? []).map((r) => `${r.type} ${r.name} ${r.content}${r.priority !== undefined ? ` (priority ${r.priority})` : ""}`);
  return `domain "${d.name}" is ${d.status}: the service has not found its DNS records yet; ` +
    `add ${records.length ? records.join(", ") : "the records of expectedDnsRecords"} with your DNS provider, and a refresh after that shows it verified`;
}

/** Warns about a domain the service still has not verified, since until the records exist no mail reaches it. */
async function warnPending(d: ApiDomain): Promise<void> {
  if (d.status !== "verified") await warn(pendingWarning(d));
}

/**
 * Reads the domain, verifying it while it is pending, and its routes. The verify answers the
 * domain as its GET does, after checking the DNS again: a domain the state (`status`) has pending
 * is verified instead of read, one verified or not known yet is read, and verified when the read
 * finds it pending. A domain still not verified gets a warning.
 */
async function readDomain(client: NotifyClient, domain: string, status?: unknown): Promise<{ d: ApiDomain; routes: LiveRoutes }> {
  const pending = status !== undefined && status !== "verified";
  const look = async () => {
    const d = pending ? await client.domains.verify(domain) : await client.domains.get(domain);
    return !pending && d.status !== "verified" ? client.domains.verify(domain) : d;
  };
  // The domain and its routes at once: neither request needs the other's answer.
  const [d, routes] = await Promise.all([look(), liveRoutes(client, domain)]);
  await warnPending(d);
  return { d, routes };
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const failures = checkWith(DOMAIN.schema, inputs, topLevel(unknownKeyHint(Object.keys(DOMAIN.inputs))));
    // The addresses as the service will store them, so that the state holds what a read gives back
    // and a declared `Sales` is no diff against the `sales` read (nor a replace of it on update).
    const routes = inputs.routes;
    if (!failures.length && routes && typeof routes === "object") {
      inputs.routes = Object.fromEntries(Object.entries(routes).map(([address, route]) => [routeAddress(address), route]));
    }
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(DOMAIN, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, DOMAIN.inputKeys);
    const client = clientFor();
    const what = `domain "${inputs.name}"`;
    const claimed = "Set adopt: true to manage a domain of this environment with this stack (a name claimed by another environment or organisation cannot be taken over)";
    return createOrAdopt({
      what, adopt: inputs.adopt, refuse: claimed,
      // A domain of another environment or organisation reads as not found here: a 409 with
      // nothing to take over is a name claimed elsewhere.
      hint: (err) => (isConflict(err) ? "The name is claimed by another environment or organisation" : undefined),
      find: () => findIfPresent(() => readDomain(client, inputs.name)),
      takeOver: (existing) => adoptExisting(what, {
        id: existing.d.name, compared: outputsFor(existing.d, existing.routes, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
        update: async (olds) => {
          try {
            return (await provider.update(existing.d.name, olds, raw)).outs;
          } catch (e) {
            throw failure(`adopt ${what}`, e);
          }
        },
      }),
      create: () => client.domains.create(requestBody(DOMAIN, inputs, "create")),
      created: async (made) => {
        let routes: ApiRoute[] = [];
        try {
          if (inputs.routes !== undefined) routes = await syncRoutes(client, inputs.name, {}, inputs.routes);
        } catch (err) {
          throw failure(`create ${what}`, err);
        }
        // The create's answer and the routes' are the domain as it is.
        await warnPending(made);
        return { id: made.name, outs: outputsFor(made, asWritten(routes), raw, keys) };
      },
      // Made, its routes not (all) written: kept with none, so the next up's update writes each
      // declared route (one the failed create did write is updated in place).
      partial: (made) => ({ id: made.name, outs: outputsFor(made, asWritten([]), raw, keys) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const live = await readIfPresent(`read domain ${id}`, () => readDomain(clientFor(), id, props.status));
    if (!live) return gone();
    const outs = outputsFor(live.d, live.routes, props, keys);
    return { id: live.d.name, props: outs, inputs: readInputs(props, outs, keys, DOMAIN.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, DOMAIN.inputKeys);
    const client = clientFor();
    try {
      // The PATCH only when a field it sends differs (the routes have calls of their own).
      const body: UpdateBody = requestBody(DOMAIN, inputs, "update");
      const patched = Object.entries(body).some(([k, v]) => !deepEqual(v, olds[k])) ? await client.domains.update(id, body) : undefined;
      // The routes the state holds (a refresh brings hand edits in first): only the difference is sent.
      const held = (olds.routes ?? {}) as Record<string, RouteInput>;
      const routes = inputs.routes !== undefined ? await syncRoutes(client, id, held, inputs.routes) : Object.entries(held).map(([a, r]) => asRoute(a, r));
      const d = patched ?? {
        _id: String(olds.databaseId), name: id, status: String(olds.status), mxRecordConfigured: olds.mxRecordConfigured === true,
        expectedDnsRecords: olds.expectedDnsRecords as ApiDomain["expectedDnsRecords"], data: olds.data as ApiDomain["data"], createdAt: olds.createdAt as string | undefined,
      };
      await warnPending(d);
      return { outs: outputsFor(d, asWritten(routes), news, keys) };
    } catch (err) {
      throw failure(`update domain "${id}"`, err);
    }
  },

  async delete(id: string) {
    await deleteIfPresent(`delete domain "${id}"`, () => clientFor().domains.delete(id));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
