/** The Domain kind, as the tests and the bench see it. */
import fc from "fast-check";
import { opt, strip } from "./generate";
import { routeAddress } from "../../provider/resources/domain";
import { ok, type KindDescriptor, type Obj, type OpenapiContext } from "./descriptor";

/** The domain mail.example.com (made once; a second create is a 409) with a webhook route `address` (set-up of an OpenAPI case). */
async function routed(c: OpenapiContext, address: string): Promise<void> {
  await c.api("POST", "/v1/domains", { name: "mail.example.com" });
  await c.api("POST", "/v1/domains/mail.example.com/routes", { address, type: "webhook" });
}

const domainData = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), fc.string({ maxLength: 20 }), { maxKeys: 4 });
const addressArb = fc.oneof(fc.constant("*"), fc.stringMatching(/^[a-z0-9][a-z0-9+_-]{0,10}$/));
/**
 * An address as a program may write it: as the service stores it, or padded and in mixed case
 * (the service trims and lower-cases it, so these must read back as no change).
 */
const spelling = (address: string) => fc.oneof(fc.constant(address), fc.record({
  upper: fc.array(fc.boolean(), { minLength: address.length, maxLength: address.length }),
  left: fc.constantFrom("", " ", "  "),
  right: fc.constantFrom("", " "),
}).map(({ upper, left, right }) => `${left}${[...address].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join("")}${right}`));
/** The agents agent routes point at, made once per emulator (a route names an agent of the environment). */
const ROUTE_AGENTS = ["domain-agent-a", "domain-agent-b"] as const;
const route = fc.oneof(
  fc.record({ type: fc.constant("webhook" as const), data: opt(domainData) }),
  fc.record({ type: fc.constant("agent" as const), agentId: fc.constantFrom(...ROUTE_AGENTS), data: opt(domainData) }),
).map(strip);
/** Up to three routes, each address once as the service sees it (distinct before it is spelt). */
const routes = fc.uniqueArray(addressArb, { maxLength: 3 })
  .chain((addresses) => fc.tuple(...addresses.map((a) => fc.tuple(spelling(a), route))))
  .map((entries) => Object.fromEntries(entries));

/** A domain under the suffix (names are claimed once on the service), with data and webhook routes or none. */
export const domainInputs = (suffix: string) => fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/).map((s) => `${s}.${suffix.toLowerCase()}.example.com`),
  data: opt(domainData),
  routes: opt(routes),
}, { requiredKeys: ["name"] }).map(strip);

const dom = (over: Obj) => ({ name: "mail.example.com", ...over });
const path = (id: string) => `/v1/domains/${encodeURIComponent(id)}`;

export const domain: KindDescriptor<"Domain"> = {
  kind: "Domain",
  inputs: domainInputs,
  setup: async (emu) => {
    for (const identifier of ROUTE_AGENTS) await ok(emu.api("POST", "/v1/agents", { identifier, name: identifier }), `create agent ${identifier}`);
  },
  prepare: null,
  // The service's PATCH takes only data (UpdateDomainDto); routes have their own calls.
  replaceOnChange: ["name"],
  exact: ["data", "routes"],
  handEdits: (i, _mode, add) => {
    add("data", "one more key", () => (emu, id) => ok(emu.api("PATCH", path(id), { data: { ...(i.data as Record<string, string>), edited: "by hand" } }), "hand edit patch domain"));
    // Declared addresses compared as the service holds them; the one added by hand is typed padded
    // and in mixed case, which the service stores trimmed and lower-cased.
    const routes = Object.keys((i.routes ?? {}) as Obj).map(routeAddress);
    const extra = [" Edited-By-Hand ", "*"].find((a) => !routes.includes(routeAddress(a)))!;
    add("routes", `${extra.trim()} routed`, () => (emu, id) => ok(emu.api("POST", `${path(id)}/routes`, { address: extra, type: "webhook" }), "hand edit add route"));
    // An agent route pointed at the other agent: the service answers agent ids, which must read back as this change.
    const toAgent = Object.entries((i.routes ?? {}) as Record<string, Obj>).find(([, r]) => r.type === "agent");
    if (toAgent) {
      const other = ROUTE_AGENTS.find((a) => a !== toAgent[1].agentId)!;
      add("routes", `${routeAddress(toAgent[0])} sent to agent ${other}`, () => (emu, id) =>
        ok(emu.api("PATCH", `${path(id)}/routes/${encodeURIComponent(routeAddress(toAgent[0]))}`, { agentId: other }), "hand edit re-point route"));
    }
  },
  deletePath: (_i, id) => path(id),
  undeletable: null,
  remains: (state, declared) => (state.domains ?? []).filter((x) => !x.deleted && declared.some((d) => d.name === x.name)),
  adopt: {
    seed: async (emu) => {
      const d = await ok(emu.api("POST", "/v1/domains", { name: "mail.example.com", data: { team: "ops" } }), "seed");
      // DNS set as the domain expects, so it is verified and a read needs no verify.
      await ok(emu.api("POST", "/__emulator/dns", { domain: "mail.example.com", mx: d.expectedDnsRecords[0].content }), "seed");
      await ok(emu.api("POST", "/v1/domains/mail.example.com/verify"), "seed");
      await ok(emu.api("POST", "/v1/domains/mail.example.com/routes", { address: "support", type: "webhook" }), "seed");
    },
    equal: { name: "mail.example.com", data: { team: "ops" }, routes: { support: { type: "webhook" } } },
    reads: ["GET /v1/domains/{domain}", "GET /v1/domains/{domain}/routes"],
    // Only a route added: one POST, the data and the other route left alone.
    differing: { name: "mail.example.com", data: { team: "ops" }, routes: { support: { type: "webhook" }, sales: { type: "webhook" } } },
    writes: ["POST /v1/domains/{domain}/routes"],
  },
  // POST /v1/domains makes it and answers its status and expected records; each route is a POST of
  // its own. A read is the domain (its GET, or for a pending one the verify, which answers it) and
  // a page of routes per 100. A data change is one PATCH; a delete one DELETE, routes included.
  floor: {
    of: (i) => {
      const routes = Object.keys((i.routes ?? {}) as Obj).length;
      return { create: 1 + routes, read: 1 + Math.max(1, Math.ceil(routes / 100)), update: 1, delete: 1 };
    },
    change: (i) => ({ ...i, data: { ...(i.data as Record<string, string> | undefined), changed: "yes" } }),
    listing: null,
  },
  badInput: [
    ["domain name in upper case", dom({ name: "Mail.Example.com" }), /name: write "mail\.example\.com": the service stores domain names in lower case/],
    ["domain name not a domain", dom({ name: "localhost" }), /name: must be a domain name/],
    ["route address with an @", dom({ routes: { "support@example.com": { type: "webhook" } } }), /routes\.support@example\.com: must be an inbox address local part/],
    ["route addresses one to the service", dom({ routes: { Sales: { type: "webhook" }, sales: { type: "webhook" } } }), /routes\.sales: is the address "sales" to the service \(which trims and lower-cases addresses\), as "Sales" is/],
    ["agent route without agentId", dom({ routes: { bot: { type: "agent" } } }), /routes\.bot\.agentId: an agent route needs agentId/],
    ["domain data over 10 keys", dom({ data: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) }), /data: must have at most 10 keys/],
    ["route type unknown", dom({ routes: { support: { type: "email" } } }), /routes\.support\.type: must be one of "webhook", "agent"/],
  ],
  stack: { max: 1 },
  exportSoak: {
    max: 1, unique: (d) => d.name,
    // A domain made in the dashboard is verified once its MX record is set; a pending one is
    // asked to verify again on every read (the provider's read), which is a request of its own.
    made: async (emu, inputs, outs) => {
      await emu.api("POST", "/__emulator/dns", { domain: inputs.name, mx: (outs.expectedDnsRecords as { content: string }[])[0]!.content });
      await emu.api("POST", `/v1/domains/${String(inputs.name)}/verify`);
    },
  },
  bench: {
    per: 100,
    /** Needs a plan above Pro on the service (the emulator's default, Business). */
    args: (i, r) => ({
      name: `bench-${i}-${r.run}.example.com`, data: { owner: "bench" },
      routes: { support: { type: "webhook" }, sales: { type: "webhook", data: { team: `team-${i}` } } },
    }),
  },
  scenario: { declared: { name: "scenario.example.com", data: { team: "ops" }, routes: { support: { type: "webhook" } } } },
  openapiCases: {
    "POST /v1/domains": (c) => c.call(201, "/v1/domains", { name: "case.example.com", data: { team: "ops" } }),
    "GET /v1/domains": async (c) => {
      await c.api("POST", "/v1/domains", { name: "listed.example.com" });
      return c.call(200, "/v1/domains");
    },
    "GET /v1/domains/{domain}": async (c) => {
      await c.api("POST", "/v1/domains", { name: "mail.example.com" });
      return c.call(200, "/v1/domains/mail.example.com");
    },
    "PATCH /v1/domains/{domain}": async (c) => {
      await c.api("POST", "/v1/domains", { name: "mail.example.com" });
      return c.call(200, "/v1/domains/mail.example.com", { data: {} });
    },
    "DELETE /v1/domains/{domain}": async (c) => {
      await c.api("POST", "/v1/domains", { name: "doomed.example.com" });
      return c.call(204, "/v1/domains/doomed.example.com");
    },
    "POST /v1/domains/{domain}/verify": async (c) => {
      await c.api("POST", "/v1/domains", { name: "mail.example.com" });
      return c.call(200, "/v1/domains/mail.example.com/verify");
    },
    // The domain's routes (its `routes` input).
    "POST /v1/domains/{domain}/routes": async (c) => {
      await c.api("POST", "/v1/domains", { name: "mail.example.com" });
      return c.call(201, "/v1/domains/mail.example.com/routes", { address: "support", type: "webhook" });
    },
    "GET /v1/domains/{domain}/routes": async (c) => {
      await routed(c, "listed");
      return c.call(200, "/v1/domains/mail.example.com/routes");
    },
    "GET /v1/domains/{domain}/routes/{address}": async (c) => {
      await routed(c, "read");
      return c.call(200, "/v1/domains/mail.example.com/routes/read");
    },
    "PATCH /v1/domains/{domain}/routes/{address}": async (c) => {
      await routed(c, "patched");
      return c.call(200, "/v1/domains/mail.example.com/routes/patched", { data: { a: "b" } });
    },
    "DELETE /v1/domains/{domain}/routes/{address}": async (c) => {
      await routed(c, "doomed");
      return c.call(204, "/v1/domains/mail.example.com/routes/doomed");
    },
  },
  // Create with routes, read, update (data, a route changed, one removed, one added), adopt, delete; getDomains.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const domain = moduleOf("domain");
      const mail = await created(domain, { name: "mail.example.com", data: { owner: "ops" }, routes: { support: { type: "webhook" }, old: { type: "webhook" } } });
      await domain.provider.read(mail.id, mail.outs);
      await domain.provider.update(mail.id, mail.outs, { ...mail.inputs, data: { owner: "dev" }, routes: { support: { type: "webhook", data: { a: "b" } }, fresh: { type: "webhook" } } });
      await client.domains.create({ name: "existing.example.com" });
      const adopted = await created(domain, { name: "existing.example.com", adopt: true });
      await fns.getDomains({ name: "example", maxResults: 10 });
      return async () => {
        for (const r of [mail, adopted]) await domain.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
