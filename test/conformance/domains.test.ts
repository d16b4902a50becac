/**
 * The emulator's inbound-email domains and their routes (`/v1/domains`) behave as production, in
 * both modes (api.md does not describe them). Sources: the service's public repository,
 * apps/api/src/app/domains/ (cited per test). One test per behaviour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const MAIL_SERVER = "inbound.notify-emulator.test";

describe.each(["production", "spec"] as const)("domains behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const create = (name: string, data?: Record<string, string>) => api("POST", "/v1/domains", { name, ...(data ? { data } : {}) });
  const route = (domain: string, body: Record<string, unknown>) => api("POST", `/v1/domains/${domain}/routes`, body);

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await api("POST", "/__emulator/behaviour", { plan: null });
  });

  // usecases/create-domain/create-domain.usecase.ts: the name lower-cased, `pending`,
  // `mxRecordConfigured: false`; utils/dns-records.ts: one MX record at the mail server, ttl Auto, priority 10.
  it("creates a domain with 201, pending, and the one MX record it expects", async () => {
    const r = await create("Mail.Example.com", { team: "support" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: "mail.example.com", status: "pending", mxRecordConfigured: false, data: { team: "support" },
      expectedDnsRecords: [{ type: "MX", name: "mail.example.com", content: MAIL_SERVER, ttl: "Auto", priority: 10 }],
    });
  });

  // create-domain.usecase.ts: `findByName` (any organisation) then ConflictException.
  it("answers a second create of the same name (in any case) with 409", async () => {
    await create("mail.example.com");
    const r = await create("MAIL.example.com");
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('A domain with name "mail.example.com" already exists.');
  });

  // create-domain.usecase.ts: `domainRepository.findByName(name)` is given the name alone, no
  // environment or organisation, so a name another environment holds is taken as well.
  it("answers a create of a name another environment holds with 409", async () => {
    const production = (await api("POST", "/__emulator/keys", { environment: "Production" })).body.key as string;
    expect((await emu.apiAs(production, "POST", "/v1/domains", { name: "mail.example.com" })).status).toBe(201);
    const r = await create("Mail.Example.com");
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('A domain with name "mail.example.com" already exists.');
    expect((await api("GET", "/v1/domains/mail.example.com")).status).toBe(404);
  });

  // create-domain.usecase.ts: the CUSTOM_DOMAINS product feature "blocks Free/Pro entirely".
  it("answers 402 on the Free and Pro plans", async () => {
    await api("POST", "/__emulator/behaviour", { plan: "pro" });
    expect((await create("mail.example.com")).status).toBe(402);
  });

  // usecases/verify-domain/verify-domain.usecase.ts: verify resolves the MX; verified when it names
  // the mail server, pending again when it no longer does.
  it("stays pending until the MX record points at the mail server, then verify sets verified, and pending again when it goes", async () => {
    await create("mail.example.com");
    expect((await api("POST", "/v1/domains/mail.example.com/verify")).body).toMatchObject({ status: "pending", mxRecordConfigured: false });
    await api("POST", "/__emulator/dns", { domain: "mail.example.com", mx: "elsewhere.example.net" });
    expect((await api("POST", "/v1/domains/mail.example.com/verify")).body.status).toBe("pending");
    await api("POST", "/__emulator/dns", { domain: "mail.example.com", mx: MAIL_SERVER });
    const v = await api("POST", "/v1/domains/mail.example.com/verify");
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ status: "verified", mxRecordConfigured: true });
    expect((await api("GET", "/v1/domains/mail.example.com")).body.status).toBe("verified");
    await api("POST", "/__emulator/dns", { domain: "mail.example.com", mx: null });
    expect((await api("POST", "/v1/domains/mail.example.com/verify")).body).toMatchObject({ status: "pending", mxRecordConfigured: false });
  });

  // validators/bounded-record.validator.ts: at most 10 string keys, 500 characters in all; UpdateDomainDto replaces the data.
  it("bounds data to 10 string keys and 500 characters, and replaces it on update", async () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"]));
    expect((await create("a.example.com", eleven)).status).toBe(422);
    expect((await create("b.example.com", { k: "v".repeat(500) })).status).toBe(422);
    await create("c.example.com", { a: "1", b: "2" });
    expect((await api("PATCH", "/v1/domains/c.example.com", { data: { b: "3" } })).body.data).toEqual({ b: "3" });
  });

  // usecases/create-domain-route: 201; domain-route.utils.ts toDuplicateRouteConflict; validators/email-local-part.validator.ts.
  it("routes an address local part or * once per domain, refusing a malformed address", async () => {
    await create("mail.example.com");
    const r = await route("mail.example.com", { address: "support", type: "webhook" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ address: "support", type: "webhook" });
    expect((await route("mail.example.com", { address: "*", type: "webhook" })).status).toBe(201);
    const dup = await route("mail.example.com", { address: "support", type: "webhook" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A webhook route for address "support" already exists.');
    expect((await route("mail.example.com", { address: "a@b", type: "webhook" })).status).toBe(422);
    expect((await route("other.example.com", { address: "x", type: "webhook" })).status).toBe(404);
  });

  // domain-route.utils.ts: assertAgentDestination (400 without agentId), resolveAgentIdentifier (404 for an unknown agent).
  it("refuses an agent route without an agentId (400) and with an unknown agent (404)", async () => {
    await create("mail.example.com");
    expect((await route("mail.example.com", { address: "bot", type: "agent" })).status).toBe(400);
    expect((await route("mail.example.com", { address: "bot", type: "agent", agentId: "nobody" })).status).toBe(404);
  });

  // The address is trimmed and lower-cased before it is validated, looked up and stored: a
  // class-transformer @Transform (`value.trim().toLowerCase()`) ahead of @IsEmailLocalPart on the
  // request body and on the use case's command (dtos/domain-route.dto.ts;
  // usecases/create-domain-route/create-domain-route.command.ts), and e2e/domain-routes.e2e-ee.ts
  // "should trim route addresses before duplicate validation" (' test ' is a 409 once `test` exists).
  it("trims and lower-cases a route's address before validating and storing it", async () => {
    await create("mail.example.com");
    const sales = await route("mail.example.com", { address: " Sales ", type: "webhook" });
    expect(sales.status).toBe(201);
    expect(sales.body.address).toBe("sales");
    expect((await api("GET", "/v1/domains/mail.example.com/routes/sales")).body.address).toBe("sales");
    expect((await route("mail.example.com", { address: "test", type: "webhook" })).status).toBe(201);
    const padded = await route("mail.example.com", { address: " test ", type: "webhook" });
    expect(padded.status).toBe(409);
    expect(padded.body.message).toBe('A webhook route for address "test" already exists.');
    expect((await route("mail.example.com", { address: "SALES", type: "webhook" })).status).toBe(409);
    expect((await route("mail.example.com", { address: "   ", type: "webhook" })).status).toBe(422);
    const s = await emu.state() as unknown as { domainRoutes: { address: string }[] };
    expect(s.domainRoutes.map((r) => r.address).sort()).toEqual(["sales", "test"]);
  });

  // usecases/list-domain-routes/list-domain-routes.usecase.ts: with `agentId` the agent is resolved
  // (domain-route.utils.ts resolveAgentIdentifier: 404 'Agent with identifier "<id>" not found.')
  // after the domain and before the listing, whose filter is the agent's _id; e2e/domain-routes.e2e-ee.ts
  // "should return 404 when listing routes with unknown agent identifier". The emulator serves no
  // agents, so every agent identifier is unknown to it.
  it("answers a routes list filtered by an unknown agent with 404, after the domain's own 404", async () => {
    await create("mail.example.com");
    await route("mail.example.com", { address: "support", type: "webhook" });
    const r = await api("GET", "/v1/domains/mail.example.com/routes?agentId=nobody");
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Agent with identifier "nobody" not found.');
    const noDomain = await api("GET", "/v1/domains/other.example.com/routes?agentId=nobody");
    expect(noDomain.status).toBe(404);
    expect(noDomain.body.message).toBe('Domain "other.example.com" not found.');
    const all = await api("GET", "/v1/domains/mail.example.com/routes");
    expect(all.body.data.map((x: { address: string }) => x.address)).toEqual(["support"]);
  });

  // usecases/delete-domain/delete-domain.usecase.ts: the domain, then its routes.
  it("deletes a domain with 204 and its routes with it", async () => {
    await create("mail.example.com");
    await route("mail.example.com", { address: "support", type: "webhook" });
    expect((await api("DELETE", "/v1/domains/mail.example.com")).status).toBe(204);
    expect((await api("GET", "/v1/domains/mail.example.com")).status).toBe(404);
    const s = await emu.state() as unknown as { domains: unknown[]; domainRoutes: unknown[] };
    expect(s.domains).toEqual([]);
    expect(s.domainRoutes).toEqual([]);
  });
});
