/**
 * Domain under the real engine, against the emulator in production and spec mode: up with routes,
 * an empty preview, routes and data changed through the API as drift on `preview --refresh` and
 * its repair (only the changed routes sent), the DNS record set (the emulator's DNS control) and
 * a refresh showing `verified`, getDomains and its Output twin, import through the native plugin,
 * destroy, and adopt.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { exportedState, loadPackage, nativeRequire, previewDiffs, warningsOf } from "../helpers/pulumi";
import { pendingWarning } from "../../provider/resources/domain";
import { declare } from "../helpers/native";
import { EMULATOR_MODES, useStack } from "../helpers/stack";

const MAIL_SERVER = "inbound.notify-emulator.test";

interface Spec {
  routes: Record<string, { type: "webhook" | "agent"; data?: Record<string, string> }>;
  adopt: boolean;
}

const initial = (): Spec => ({ routes: { support: { type: "webhook" }, sales: { type: "webhook", data: { team: "emea" } } }, adopt: false });

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const mail = new notify.Domain("mail", { name: "mail.example.com", data: { owner: "ops" }, routes: spec.routes, adopt: spec.adopt });
    return { id: mail.id, status: mail.status, records: mail.expectedDnsRecords };
  };
}

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

describe.each(EMULATOR_MODES)("domains against the emulator in %s mode", (mode) => {
  const spec = initial();
  const { emu, ts, stack } = useStack({ emulator: { mode }, program: program(spec) });
  const state = async () => (await emu.state()) as unknown as { domains: { name: string; status: string; data?: Record<string, string> }[]; domainRoutes: { address: string; type: string; data?: Record<string, string> }[] };

  it("creates a pending domain with its routes and expected MX record as outputs, and a warning naming the record to add; the next preview is empty", async () => {
    const events: automation.EngineEvent[] = [];
    const up = await ts.stack.up({ onEvent: (e) => events.push(e) });
    const domain = (await emu.api("GET", "/v1/domains/mail.example.com")).body;
    expect(domain.status).toBe("pending");
    // On the domain: the dynamic-provider plugin gives an operation no URN, the domain's __urn gives it.
    const urn = (await exportedState(ts.stack)).resources.find((r) => String(r.urn).endsWith("::mail"))!.urn;
    expect(warningsOf(events)).toContainEqual({ urn, message: pendingWarning(domain) });
    expect(up.outputs.id!.value).toBe("mail.example.com");
    expect(up.outputs.status!.value).toBe("pending");
    expect(up.outputs.records!.value).toEqual([{ type: "MX", name: "mail.example.com", content: MAIL_SERVER, ttl: "Auto", priority: 10 }]);
    expect((await state()).domainRoutes.map((r) => r.address).sort()).toEqual(["sales", "support"]);
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    expect(await emu.operationRequests()).toHaveLength(0);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("shows routes and data changed through the API as drift, and up --refresh sends only what differs", async () => {
    await emu.api("POST", "/v1/domains/mail.example.com/routes", { address: "*", type: "webhook" });
    await emu.api("PATCH", "/v1/domains/mail.example.com", { data: { owner: "someone else" } });
    const { diffs } = await previewDiffs(ts.stack, { refresh: true });
    expect(diffs).toEqual({ mail: { op: "update", keys: ["data", "routes"] } });
    await emu.clearRequests();
    await ts.stack.up({ refresh: true });
    const writes = (await emu.requests()).filter((r) => r.method !== "GET" && !r.route?.endsWith("/verify")).map((r) => `${r.method} ${r.route}`);
    expect(writes.sort()).toEqual(["DELETE /v1/domains/{domain}/routes/{address}", "PATCH /v1/domains/{domain}"]);
    const s = await state();
    expect(s.domainRoutes.map((r) => r.address).sort()).toEqual(["sales", "support"]);
    expect(s.domains[0]!.data).toEqual({ owner: "ops" });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("changes one route in place", async () => {
    spec.routes = { ...spec.routes, sales: { type: "webhook", data: { team: "apac" } } };
    expect((await previewDiffs(ts.stack)).diffs).toEqual({ mail: { op: "update", keys: ["routes"] } });
    await emu.clearRequests();
    await ts.stack.up();
    const writes = (await emu.requests()).filter((r) => r.method !== "GET" && !r.route?.endsWith("/verify")).map((r) => ({ method: r.method, path: r.path }));
    expect(writes).toEqual([{ method: "PATCH", path: "/v1/domains/mail.example.com/routes/sales" }]);
  });

  it("shows verified after the MX record is set and the stack refreshed (an output, not drift), warning no more", async () => {
    await emu.api("POST", "/__emulator/dns", { domain: "mail.example.com", mx: MAIL_SERVER });
    const events: automation.EngineEvent[] = [];
    const up = await ts.stack.up({ refresh: true, onEvent: (e) => events.push(e) });
    expect(up.outputs.status!.value).toBe("verified");
    expect(warningsOf(events).filter((w) => w.message.includes("mail.example.com"))).toEqual([]);
    expect((await state()).domains[0]!.status).toBe("verified");
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("lists domains with getDomains and getDomainsOutput", async () => {
    const fts = await stack({
      program: async () => {
        const notify = loadPackage();
        const all = await notify.getDomains();
        const some = notify.getDomainsOutput({ name: pulumi.output("example"), maxResults: 1 });
        return { names: all.domains.map((d) => d.name), statuses: all.domains.map((d) => d.status), some: some.domains.apply((d) => d.length) };
      },
    });
    const up = await fts.stack.up();
    expect(up.outputs.names!.value).toEqual(["mail.example.com"]);
    expect(up.outputs.statuses!.value).toEqual(["verified"]);
    expect(up.outputs.some!.value).toBe(1);
  });

  it("imports a domain by its name through the native plugin, and the next preview is empty", async () => {
    await emu.api("POST", "/v1/domains", { name: "in.example.org" });
    await emu.api("POST", "/v1/domains/in.example.org/routes", { address: "help", type: "webhook" });
    const its = await stack({
      program: async () => {
        declare("Domain", "imported", { name: "in.example.org", routes: { help: { type: "webhook" } } }, { import: "in.example.org" });
      },
      frontEnd: "native",
    });
    const up = await its.stack.up();
    expect(up.summary.resourceChanges?.import).toBe(1);
    const st = await exportedState(its.stack);
    expect(st.resources.filter((r) => String(r.type).startsWith("notify:")).map((r) => r.id)).toEqual(["in.example.org"]);
    await its.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("destroys the domain and its routes", async () => {
    await ts.stack.destroy();
    const s = await state();
    expect(s.domains.map((d) => d.name)).toEqual(["in.example.org"]);
    expect(s.domainRoutes.map((r) => r.address)).toEqual(["help"]);
  });

  it("refuses an existing domain without adopt, naming adopt, and takes it over with it", async () => {
    await emu.api("POST", "/v1/domains", { name: "mail.example.com", data: { owner: "hand" } });
    await expect(ts.stack.up()).rejects.toThrow(/already exists.*set adopt: true/is);
    spec.adopt = true;
    await ts.stack.up();
    const s = await state();
    expect(s.domains.find((d) => d.name === "mail.example.com")!.data).toEqual({ owner: "ops" });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    await ts.stack.destroy();
    spec.adopt = false;
  });
});

// The service trims and lower-cases a route's address before storing it (novuhq/novu,
// apps/api/src/app/domains/dtos/domain-route.dto.ts; e2e/domain-routes.e2e-ee.ts "should trim route
// addresses before duplicate validation"), so the provider's check does too: an address declared
// padded and in mixed case is stored, and held in the state, as the service reads it back, on
// both front ends.
describe("a route address declared padded and in mixed case", () => {
  const { emu, ts } = useStack({
    program: async () => {
      const notify = loadPackage();
      new notify.Domain("classes", { name: "a.example.com", routes: { " Sales ": { type: "webhook", data: { team: "emea" } } } });
      declare("Domain", "plugin", { name: "b.example.com", routes: { "  Support ": { type: "webhook" } } });
    },
    // The plugin serves the native resource; the dynamic one keeps its own provider.
    frontEnd: "native",
  });

  it("is stored lower-cased and trimmed, and the next preview, refreshed or not, shows no change", async () => {
    await ts.stack.up();
    const s = (await emu.state()) as unknown as { domainRoutes: { address: string }[] };
    expect(s.domainRoutes.map((r) => r.address).sort()).toEqual(["sales", "support"]);
    const st = await exportedState(ts.stack);
    const routesOf = (name: string) => Object.keys((st.resources.find((r) => String(r.urn).endsWith(`::${name}`))!.outputs as { routes: object }).routes);
    expect([routesOf("classes"), routesOf("plugin")]).toEqual([["sales"], ["support"]]);
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    expect(await emu.operationRequests()).toHaveLength(0);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges).not.toHaveProperty("update");
  });
});
