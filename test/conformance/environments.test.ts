/**
 * The emulator's environments and environment variables behave as production
 * (spec/production-notes.md, Third pass §1 and §2, and the service's public source where said).
 * One test per behaviour, each citing the service file the fact was read from (paths as in the
 * service's repository).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const MASK = "\u2022".repeat(8);

describe.each(["production", "spec"] as const)("environments and environment variables as production has them (%s mode)", (mode) => {
  let emu: TestEmulator;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  /** A raw request with another key. */
  const as = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.url + path, {
      method, headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const list = async () => (await api("GET", "/v1/environments")).body as any[];
  const create = (name: string, color = "#3498db") => api("POST", "/v1/environments", { name, color });
  const behaviour = (b: Record<string, unknown>) => api("POST", "/__emulator/behaviour", b);

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    await behaviour({ plan: "business", environmentLimit: 10, environmentVariableLimit: 10, scopedEnvironmentKeys: false });
  });

  describe("environments (Third pass §1)", () => {
    // apps/api/src/app/organization/usecases/create-organization/create-organization.usecase.ts:
    // every organisation starts with Development and Production, Production's _parentId Development's _id.
    it("starts the organisation with Development and Production, Production the child of Development", async () => {
      const all = await list();
      const dev = all.find((e) => e.name === "Development");
      const prod = all.find((e) => e.name === "Production");
      expect(dev).toMatchObject({ _id: "env_env0", type: "dev" });
      expect(prod).toMatchObject({ type: "prod", _parentId: dev._id });
    });

    // apps/api/src/app/shared/interceptors/product-feature.interceptor.ts; packages/shared/src/consts/feature-tiers-constants.ts:
    // create and delete are gated by "manage environments": 402 "Payment Required" on FREE and PRO.
    it("answers 402 Payment Required to create and delete on the Free and Pro plans", async () => {
      const made = (await create("Staging")).body;
      for (const plan of ["free", "pro"]) {
        await behaviour({ plan });
        const c = await create(`QA-${plan}`);
        expect(c.status).toBe(402);
        expect(c.body).toMatchObject({ statusCode: 402, message: "Payment Required" });
        expect(c.body.ctx).toBeUndefined();
        expect((await api("DELETE", `/v1/environments/${made._id}`)).status).toBe(402);
      }
    });

    // apps/api/src/app/environments-v1/usecases/create-environment/create-environment.usecase.ts: 201,
    // the stored entity: _id, name, _organizationId, identifier (nanoid 12), type, apiKeys with the
    // key as stored (encrypted, `nvsk.`), no colour, slug or timestamps; the name trimmed.
    it("creates with 201 and answers the keys encrypted, which the list gives in clear", async () => {
      const r = await create("  Staging  ");
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(["_id", "_organizationId", "apiKeys", "identifier", "name", "type"]);
      expect(r.body).toMatchObject({ name: "Staging", type: "prod", identifier: expect.stringMatching(/^.{12}$/) });
      expect(r.body.apiKeys[0].key).toMatch(/^nvsk\./);
      const listed = (await list()).find((e) => e._id === r.body._id);
      expect(listed.apiKeys[0].key).toMatch(/^[0-9a-f]{32}$/);
      expect(listed.apiKeys[0].hash).toBe(r.body.apiKeys[0].hash);
      expect(listed.color).toBe("#3498db");
      // get-my-environments.usecase.ts; build-slug.ts: the slug of a custom environment is its name's.
      expect(listed.slug).toMatch(/^staging_env_[0-9a-zA-Z]+$/);
    });

    // Environments are tenants: a key of an environment created through the API authenticates and
    // reaches only that environment's objects (packages/shared/src/types/auth.ts: the key determines
    // environmentId and organizationId).
    it("gives a created environment a key that works and sees only its own objects", async () => {
      const id = (await create("Staging")).body._id;
      const key = (await list()).find((e) => e._id === id).apiKeys[0].key;
      await api("POST", "/v2/subscribers", { subscriberId: "dev-only" });
      expect((await as(key, "GET", "/v2/subscribers/dev-only")).status).toBe(404);
      expect((await as(key, "POST", "/v2/subscribers", { subscriberId: "staging-only" })).status).toBe(201);
      expect((await api("GET", "/v2/subscribers/staging-only")).status).toBe(404);
      const enc = (await create("Other")).body.apiKeys[0].key;
      expect((await as(enc, "GET", "/v2/subscribers/staging-only")).status).toBe(401);
    });

    // create-environment.usecase.ts: the count first (tier validator, 400), counting Development and Production.
    it("refuses a create beyond the organisation's limit with 400", async () => {
      await behaviour({ environmentLimit: 3 });
      expect((await create("One")).status).toBe(201);
      const r = await create("Two");
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Organization cannot have more than 3 environments");
    });

    // create-environment.usecase.ts: "development"/"production" in any case, after trim → 422.
    it("refuses the names Development and Production in any letter case with 422", async () => {
      for (const name of ["development", " PRODUCTION "]) {
        const r = await create(name);
        expect(r.status).toBe(422);
        expect(r.body.message).toBe("Environment name cannot be Development or Production");
      }
    });

    // create-environment.usecase.ts: the duplicate check compares the name as sent → 400, not 409.
    it("refuses a duplicate name with 400 Environment name must be unique", async () => {
      await create("Staging");
      const r = await create("Staging");
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Environment name must be unique");
    });

    // apps/api/src/app/environments-v1/dtos/create-environment-request.dto.ts: color required, hex.
    it("refuses a missing or non-hex colour with 422", async () => {
      expect((await api("POST", "/v1/environments", { name: "NoColour" })).status).toBe(422);
      expect((await create("Bad", "blue")).status).toBe(422);
    });

    // apps/api/src/app/environments-v1/environments-v1.controller.ts: parentId is never passed to the use case.
    it("validates but ignores parentId on create, and stores it on update", async () => {
      const r = await api("POST", "/v1/environments", { name: "Child", color: "#000000", parentId: "env_env0" });
      expect((await list()).find((e) => e._id === r.body._id)._parentId).toBeUndefined();
      await api("PUT", `/v1/environments/${r.body._id}`, { parentId: "env_env0" });
      expect((await list()).find((e) => e._id === r.body._id)._parentId).toBe("env_env0");
    });

    // apps/api/src/app/environments-v1/usecases/update-environment/update-environment.usecase.ts
    // (read at upstream commit 01a76586): it returns `environmentRepository.update(...)`, the
    // repository's `{matched, modified}` counters (libs/dal/src/repositories/base-repository.ts),
    // though the controller documents EnvironmentResponseDto; update-environment.e2e.ts checks only
    // the status and reads the environment back. Production mode answers the counters; spec mode the
    // environment, as openapi.json documents.
    it("answers an update with the update counters in production, the environment in spec mode", async () => {
      const id = (await create("Staging")).body._id;
      const r = await api("PUT", `/v1/environments/${id}`, { color: "#000000" });
      expect(r.status).toBe(200);
      if (mode === "production") expect(r.body).toEqual({ matched: 1, modified: 1 });
      else expect(r.body).toMatchObject({ _id: id, color: "#000000" });
    });

    // update-environment.usecase.ts: only non-empty fields are written (partial update despite PUT).
    it("writes only the fields an update sends", async () => {
      const id = (await create("Staging", "#111111")).body._id;
      await api("PUT", `/v1/environments/${id}`, { name: "" });
      await api("PUT", `/v1/environments/${id}`, { color: "#222222" });
      expect((await list()).find((e) => e._id === id)).toMatchObject({ name: "Staging", color: "#222222" });
    });

    // update-environment.usecase.ts: any non-empty name on Development/Production → 422, even unchanged.
    it("refuses any name on Development or Production with 422, even their own", async () => {
      const r = await api("PUT", "/v1/environments/env_env0", { name: "Development" });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe("Cannot update the name of Development or Production environments");
      expect((await api("PUT", "/v1/environments/env_env0", { color: "#000000" })).status).toBe(200);
    });

    // update-environment.usecase.ts: an unknown environment is an UnauthorizedException → 401.
    it("answers an update of an unknown environment with 401 Environment not found", async () => {
      const r = await api("PUT", "/v1/environments/aaaaaaaaaaaaaaaaaaaaaaaa", { color: "#000000" });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe("Environment not found");
    });

    // apps/api/src/app/environments-v1/usecases/delete-environment/delete-environment.usecase.ts:
    // unknown → 404; Development/Production → 400; success 200 with `{}`; integrations removed.
    it("deletes a custom environment (200, {}) with its integrations, and refuses the protected ones", async () => {
      const id = (await create("Staging")).body._id;
      const key = (await list()).find((e) => e._id === id).apiKeys[0].key;
      await as(key, "POST", "/v1/integrations", { identifier: "sg", providerId: "sendgrid", channel: "email" });
      const raw = await fetch(`${emu.url}/v1/environments/${id}`, { method: "DELETE", headers: { authorization: `ApiKey ${emu.key}` } });
      expect(raw.status).toBe(200);
      expect(await raw.text()).toBe("{}");
      expect((await emu.state()).integrations.filter((i) => i._environmentId === id)).toEqual([]);
      expect((await as(key, "GET", "/v2/workflows")).status).toBe(401);
      const again = await api("DELETE", `/v1/environments/${id}`);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe(`Environment ${id} not found`);
      const dev = await api("DELETE", "/v1/environments/env_env0");
      expect(dev.status).toBe(400);
      expect(dev.body.message).toBe("The Development environment is protected and cannot be deleted. Only custom environments can be deleted.");
    });

    // Newer upstream (apps/api/src/app/environments-v1/e2e/api-key-environments-exposure.e2e.ts,
    // update-environment-api-key-scope.e2e.ts, delete-environment-api-key-scope.e2e.ts): an API key
    // gets only its own environment's keys, none on create, and 403 on changing another environment.
    it("with scopedEnvironmentKeys, shows an API key only its own keys and refuses changes to other environments with 403", async () => {
      await behaviour({ scopedEnvironmentKeys: true });
      const c = await create("Staging");
      expect(c.body.apiKeys).toEqual([]);
      const all = await list();
      expect(all.find((e) => e._id === "env_env0").apiKeys).toHaveLength(1);
      expect(all.filter((e) => e._id !== "env_env0").every((e) => e.apiKeys.length === 0)).toBe(true);
      for (const r of [await api("PUT", `/v1/environments/${c.body._id}`, { color: "#000000" }), await api("DELETE", `/v1/environments/${c.body._id}`)]) {
        expect(r.status).toBe(403);
        expect(r.body.message).toContain("is scoped to a single environment");
      }
    });
  });

  describe("environment variables (Third pass §2)", () => {
    const createVar = (body: Record<string, unknown>) => api("POST", "/v1/environment-variables", body);

    // apps/api/src/app/environment-variables/environment-variables.controller.ts (current, upstream
    // 0e6954db) sets `@HttpCode(HttpStatus.OK)` on create: 200, as openapi.json documents (an older
    // version of that file set none and answered Nest's POST default, 201; the official TypeScript
    // SDK's funcs/environmentVariablesCreate and the Python SDK accept only 200).
    // get-environment-variables.usecase.ts: fields, defaults, `_updatedBy` never shown.
    it("creates with 200 and the variable's fields, type string and isSecret false by default", async () => {
      const r = await createVar({ key: "BASE_URL", values: [{ _environmentId: "env_env0", value: "https://dev" }] });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ key: "BASE_URL", type: "string", isSecret: false, values: [{ _environmentId: "env_env0", value: "https://dev" }] });
      expect(r.body._updatedBy).toBeUndefined();
    });

    // environment-variable-response.dto.ts; get-environment-variables.usecase.ts: a secret's values are
    // each eight U+2022 on every read, create and update answers included.
    it("masks every value of a secret variable with eight bullets on every read", async () => {
      const r = await createVar({ key: "TOKEN", isSecret: true, values: [{ _environmentId: "env_env0", value: "s3cret" }] });
      expect(r.body.values[0].value).toBe(MASK);
      expect((await api("GET", "/v1/environment-variables/TOKEN")).body.values[0].value).toBe(MASK);
      expect((await api("GET", "/v1/environment-variables")).body[0].values[0].value).toBe(MASK);
      // Derived from the code: making it non-secret shows the values again.
      expect((await api("PATCH", "/v1/environment-variables/TOKEN", { isSecret: false })).body.values[0].value).toBe("s3cret");
    });

    // create-environment-variable.usecase.ts: existing key → 409.
    it("answers a duplicate key with 409", async () => {
      await createVar({ key: "DUP" });
      const r = await createVar({ key: "DUP" });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('Environment variable with key "DUP" already exists');
    });

    // create-environment-variable-request.dto.ts: a letter, then letters, digits, underscores; lower case accepted.
    it("refuses a key not starting with a letter with 422 and accepts lower case", async () => {
      expect((await createVar({ key: "1BAD" })).status).toBe(422);
      expect((await createVar({ key: "lower_ok" })).status).toBe(200);
    });

    // libs/application-generic/src/services/resource-validator.service.ts: ≥ N → 400 with currentCount/limit.
    it("refuses a create beyond the organisation's limit with 400 and the counts", async () => {
      await behaviour({ environmentVariableLimit: 1 });
      await createVar({ key: "ONE" });
      const r = await createVar({ key: "TWO" });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: "Environment variables limit exceeded. Maximum allowed variables is 1.", currentCount: 1, limit: 1, ctx: { currentCount: 1, limit: 1 } });
    });

    // apps/api/src/app/environment-variables/e2e/api-key-environment-scope.e2e.ts (newer): an API key
    // writes only its own environment's value, on create and on update → 403.
    it("refuses with 403 another environment's value written with an API key", async () => {
      const prod = (await list()).find((e) => e.name === "Production")._id;
      const c = await createVar({ key: "CROSS", values: [{ _environmentId: prod, value: "p" }] });
      expect(c.status).toBe(403);
      expect(c.body.message).toContain("is scoped to a single environment");
      await createVar({ key: "OWN", values: [{ _environmentId: "env_env0", value: "d" }] });
      expect((await api("PATCH", "/v1/environment-variables/OWN", { values: [{ _environmentId: prod, value: "p" }] })).status).toBe(403);
    });

    // create-environment-variable-request.dto.ts: two entries of one _environmentId on create → 422.
    it("refuses two values of one environment on create with 422", async () => {
      const r = await createVar({ key: "X", values: [{ _environmentId: "env_env0", value: "a" }, { _environmentId: "env_env0", value: "b" }] });
      expect(r.status).toBe(422);
    });

    // update-environment-variable.usecase.ts (newer): values merge by _environmentId.
    it("merges PATCHed values by environment: entries not sent keep their value", async () => {
      const other = (await create("Staging")).body._id;
      const key = (await list()).find((e) => e._id === other).apiKeys[0].key;
      await createVar({ key: "MERGED", values: [{ _environmentId: "env_env0", value: "dev" }] });
      const r = await as(key, "PATCH", "/v1/environment-variables/MERGED", { values: [{ _environmentId: other, value: "staging" }] });
      expect(r.status).toBe(200);
      const values = (await api("GET", "/v1/environment-variables/MERGED")).body.values;
      expect(values).toEqual([{ _environmentId: "env_env0", value: "dev" }, { _environmentId: other, value: "staging" }]);
    });

    // create- and update-environment-variable.usecase.ts (newer): the mask as a value → 400.
    it("refuses the mask itself as a value with 400", async () => {
      const r = await createVar({ key: "M", values: [{ _environmentId: "env_env0", value: MASK }] });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("matches the secret mask placeholder");
    });

    // update-environment-variable.usecase.ts: empty body → 400; unknown key → 404.
    it("refuses an empty PATCH with 400 and an unknown key with 404", async () => {
      await createVar({ key: "E" });
      const empty = await api("PATCH", "/v1/environment-variables/E", {});
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe("At least one field must be provided to update");
      const unknown = await api("PATCH", "/v1/environment-variables/NOPE", { isSecret: true });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Environment variable with key "NOPE" not found');
    });

    // environment-variables.controller.ts: DELETE → 204 empty; delete-environment-variable.usecase.ts: unknown → 404.
    it("deletes with 204 and no body, then answers 404", async () => {
      await createVar({ key: "D" });
      const raw = await fetch(`${emu.url}/v1/environment-variables/D`, { method: "DELETE", headers: { authorization: `ApiKey ${emu.key}` } });
      expect(raw.status).toBe(204);
      expect(await raw.text()).toBe("");
      expect((await api("GET", "/v1/environment-variables/D")).status).toBe(404);
    });

    // Variables are the organisation's (libs/dal/src/repositories/environment-variable/environment-variable.schema.ts):
    // a key of another environment lists the same ones; get-environment-variables.usecase.ts: search is a case-insensitive substring.
    it("lists the organisation's variables to every environment's key, filtered by search", async () => {
      await createVar({ key: "SHARED_URL" });
      await createVar({ key: "OTHER" });
      const id = (await create("Staging")).body._id;
      const key = (await list()).find((e) => e._id === id).apiKeys[0].key;
      const body = (await as(key, "GET", "/v1/environment-variables?search=shared")).body;
      expect((mode === "production" ? body.data : body).map((v: any) => v.key)).toEqual(["SHARED_URL"]);
    });
  });
});
