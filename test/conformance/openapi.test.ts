/**
 * The emulator's response bodies, unwrapped from the envelope, validate against the response
 * schemas of spec/openapi.json (the service's published document, which nobody here wrote): for
 * every route of the emulator's route table (emulator/server.ts's ROUTES), a case calls it and
 * validates what it answers. The case of an operation of a resource kind's API is its
 * descriptor's (`openapiCases` of test/kinds/<kind>.ts); those of no kind are CASES of test/kinds/openapi.ts. A route
 * without a case fails, and so does an operation with two, each naming the operation.
 *
 * Where api.md and openapi.json disagree we follow api.md (the spec we were given):
 * - api.md lists Integration `credentials` as required; production hides them from API-key
 *   callers, so in production mode they are absent and the schema's requirement is relaxed.
 * - Workflow step responses: the emulator returns the common fields api.md lists; the kind-specific
 *   `controls.values` shapes are those of api.md.
 */
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../emulator/server";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { OpenapiContext } from "../kinds/descriptor";
import { ALL_CASES as ALL, makeMade, PRODUCTION_RELAXED, TWICE, validatorFor } from "../kinds/openapi";

const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

it("every case is a route of the emulator", () => {
  expect([...ALL].filter(([k]) => !ROUTES.some((r) => routeKey(r) === k)).map(([k, { where }]) => `${k} (${where})`)).toEqual([]);
});

it("no operation has two cases", () => {
  expect(TWICE).toEqual([]);
});

describe.each(["production", "spec"] as const)("emulator responses conform to openapi.json in %s mode", (mode) => {
  let emu: TestEmulator;
  let made: OpenapiContext["made"];
  const check = validatorFor(mode === "production" ? PRODUCTION_RELAXED : {});

  beforeAll(async () => {
    emu = await startTestEmulator({ mode });
    // A self-hosted install without a plan gate: environments can be made and deleted.
    await emu.api("POST", "/__emulator/behaviour", { plan: null });
    made = await makeMade(emu.api);
  });
  afterAll(async () => { await emu?.close(); });

  it.each(ROUTES.map((r) => [r.method, r.path] as const))("%s %s: its body validates", async (method, route) => {
    const run = ALL.get(`${method} ${route}`)?.run;
    expect(run, `no case for ${method} ${route}: add one to its kind's descriptor (openapiCases, test/kinds/<kind>.ts), or to CASES of test/kinds/openapi.ts for an operation of no kind`).toBeDefined();
    await run!({
      mode,
      api: (...a) => emu.api(...a),
      made,
      expect: (actual, message) => expect(actual, message),
      call: async (status, p, body) => {
        const r = await emu.api(method, p, body);
        expect(r.status, JSON.stringify(r.body)).toBe(status);
        expect(check(method, route, status, r.body)).toEqual([]);
        return r.body;
      },
    });
  });

});
