/**
 * provider/resources/domain.ts: a route's address as the service stores it. Production trims and
 * lower-cases the address before it validates, looks up and stores it (novuhq/novu,
 * apps/api/src/app/domains/dtos/domain-route.dto.ts and
 * usecases/create-domain-route/create-domain-route.command.ts: `value.trim().toLowerCase()`;
 * e2e/domain-routes.e2e-ee.ts "should trim route addresses before duplicate validation"), and
 * reads it back so. `check` does the same, so the state holds what the service holds and a
 * declared `Sales` is no diff against the `sales` read back; two keys that the service would make
 * one are refused, naming the field.
 */
import { describe, expect, it } from "vitest";
import { provider } from "../../../../provider/resources/domain";

const NAME = "mail.example.com";

describe("Domain check: route addresses", () => {
  it("trims and lower-cases each address, keeping its route", async () => {
    const { inputs, failures } = await provider.check({}, {
      name: NAME, routes: { " Sales ": { type: "webhook", data: { team: "emea" } }, Support: { type: "webhook" }, "*": { type: "webhook" } },
    });
    expect(failures).toEqual([]);
    expect(inputs.routes).toEqual({ sales: { type: "webhook", data: { team: "emea" } }, support: { type: "webhook" }, "*": { type: "webhook" } });
  });

  it("validates the address as normalised: padding is no error, inner spaces and an @ are", async () => {
    const reasons = async (address: string) => (await provider.check({}, { name: NAME, routes: { [address]: { type: "webhook" } } })).failures.map((f) => f.reason);
    expect(await reasons("  ok  ")).toEqual([]);
    expect(await reasons("a b")).toEqual([expect.stringMatching(/^routes\.a b: must be an inbox address local part/)]);
    expect(await reasons(" x@example.com ")).toEqual([expect.stringMatching(/^routes\. x@example\.com : must be an inbox address local part/)]);
    expect(await reasons("   ")).toEqual([expect.stringMatching(/must be an inbox address local part/)]);
    expect(await reasons(` ${"a".repeat(64)} `)).toEqual([]);
  });

  it("refuses two addresses the service would make one, naming both", async () => {
    const { failures } = await provider.check({}, { name: NAME, routes: { Sales: { type: "webhook" }, " sales": { type: "webhook" } } });
    expect(failures).toEqual([{
      property: "routes. sales",
      reason: 'routes. sales: is the address "sales" to the service (which trims and lower-cases addresses), as "Sales" is: declare it once',
    }]);
  });

  it("leaves the inputs as given when they fail", async () => {
    const { inputs } = await provider.check({}, { name: NAME, routes: { Sales: { type: "email" } } });
    expect(Object.keys(inputs.routes as object)).toEqual(["Sales"]);
  });

  it("diffs a declared mixed-case, padded address against the one read back as no change", async () => {
    const { inputs } = await provider.check({}, { name: NAME, routes: { " Sales ": { type: "webhook" } } });
    const state = { name: NAME, routes: { sales: { type: "webhook" } }, status: "pending", declaredKeys: ["name", "routes"] };
    expect(await provider.diff(NAME, state, inputs)).toMatchObject({ changes: false, replaces: [] });
  });
});
