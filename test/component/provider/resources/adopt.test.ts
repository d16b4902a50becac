/**
 * Adoption that writes nothing: each resource's implementation module (from source), given
 * `adopt: true` and an object the service already holds, against an emulator in
 * this process. An object as declared is taken over with reads alone (the exact requests are
 * asserted); a differing one gets exactly the writes of what differs; the state answered then
 * diffs empty against the declared inputs, and so does a read of it. Without adopt, the same
 * object is refused with a message naming adopt: true, and no write succeeds. The cases are the
 * kinds' (test/kinds/<kind>.ts).
 *
 * Production hides an integration's credentials from API-key callers and shows a secret
 * variable's values masked (spec/production-notes.md): such a declared value cannot be compared,
 * so adopting writes it, once; the values it does return (subscriber webhook URLs, plain
 * variable values, integration configurations) are compared like any other field.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../helpers/emulator";
import { impl, type Obj, type Provider } from "../../../helpers/implementation";
import { RESOURCE_TABLES } from "../../../../provider/resources/index";
import { KINDS } from "../../../kinds/index";

const ok = async (p: Promise<{ status: number; body: any }>) => {
  const r = await p;
  if (r.status >= 300) throw new Error(`seed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** Each kind's adoption case, from its descriptor (test/kinds/<kind>.ts), with its implementation module. */
const CASES = Object.fromEntries(KINDS.map((k) => [k.kind, { ...k.adopt, module: RESOURCE_TABLES.find((t) => t.name === k.kind)!.module }]));

describe.each(["production", "spec"] as const)("adoption that writes nothing (%s mode)", (mode) => {
  let emu: TestEmulator;
  let disconnect = () => {};
  const requests = async () => (await emu.requests()).filter((r) => !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);
  const checked = async (p: Provider, inputs: Obj) => {
    const r = await p.check({}, inputs);
    expect(r.failures).toEqual([]);
    return r.inputs;
  };

  // An emulator per test, so that each test has a new client, as each engine operation's provider
  // process has (a client shares one integration listing between its reads).
  beforeEach(async () => {
    emu = await startTestEmulator({ mode });
    disconnect = emu.connectEnvironment();
    for (const subscriberId of ["alice", "bob", "carol"]) await emu.api("POST", "/v2/subscribers", { subscriberId });
  });
  afterEach(async () => {
    disconnect();
    await emu?.close();
  });

  it("every resource kind has a case", () => {
    expect(Object.keys(CASES).sort()).toEqual(RESOURCE_TABLES.filter((t) => t.controlKeys.includes("adopt")).map((t) => t.name).sort());
  });

  describe.each(Object.entries(CASES))("%s", (_name, c) => {
    const p = impl(c.module);

    it("adopts an object as declared with reads alone, and its state diffs empty, before and after a read", async () => {
      await c.seed(emu);
      await emu.clearRequests();
      const inputs = await checked(p, { ...c.equal, adopt: true });
      const { id, outs } = await p.create(inputs);
      expect(await requests()).toEqual(c.reads);
      expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
      const read = await p.read(id, outs);
      expect((await p.diff(id, read.props, inputs)).changed).toEqual([]);
    });

    // Either the service refuses the create (its 409) or, where its write would overwrite (a
    // subscriber's credentials, a translation's document), the provider reads first and stops.
    it("refuses the object without adopt, naming adopt: true, and no write succeeds", async () => {
      await c.seed(emu);
      await emu.clearRequests();
      const inputs = await checked(p, c.equal);
      await expect(p.create(inputs)).rejects.toThrow(/adopt: true/);
      const writes = (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"));
      expect(writes.filter((r) => r.status < 400).map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([]);
    });

    it("adopts a differing object with exactly the writes of what differs, then diffs empty", async () => {
      await c.seed(emu);
      await emu.clearRequests();
      const inputs = await checked(p, { ...c.differing, adopt: true });
      const { id, outs } = await p.create(inputs);
      expect((await requests()).filter((r) => !r.startsWith("GET "))).toEqual(c.writes);
      expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
      const read = await p.read(id, outs);
      expect((await p.diff(id, read.props, inputs)).changed).toEqual([]);
    });
  });

  // Values the service does not give back cannot be compared: declared, they are written once.
  it("writes an integration's credentials only where the service hides them", async () => {
    const p = impl("integration");
    await CASES.Integration!.seed(emu);
    await emu.api("PUT", `/v1/integrations/${(await emu.api("GET", "/v1/integrations")).body[0]._id}`, { credentials: { apiKey: "SG.key" }, check: false });
    await emu.clearRequests();
    const inputs = await checked(p, { ...CASES.Integration!.equal, credentials: { apiKey: "SG.key" }, adopt: true });
    const { id, outs } = await p.create(inputs);
    const writes = (await requests()).filter((r) => !r.startsWith("GET "));
    expect(writes).toEqual(mode === "production" ? ["PUT /v1/integrations/{integrationId}"] : []);
    expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
  });

  it("does not take over an integration of another environment with the same identifier: creates its own", async () => {
    const p = impl("integration");
    const production = (await emu.api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Production");
    await ok(emu.api("POST", "/v1/integrations", { identifier: "sg-main", providerId: "sendgrid", channel: "email", active: true, check: false, _environmentId: production._id }));
    await emu.clearRequests();
    const { id, outs } = await p.create(await checked(p, { ...CASES.Integration!.equal, adopt: true }));
    expect((await requests()).filter((r) => !r.startsWith("GET "))).toEqual(["POST /v1/integrations"]);
    expect(outs.environmentId).not.toBe(production._id);
    const all = (await emu.api("GET", "/v1/integrations")).body.filter((i: { identifier: string; deleted: boolean }) => i.identifier === "sg-main" && !i.deleted);
    expect(all.map((i: { _id: string }) => i._id).sort()).toEqual([id, all.find((i: { _environmentId: string }) => i._environmentId === production._id)._id].sort());
  });

  it("writes a secret variable's value, which reads back masked, and only that value", async () => {
    const p = impl("environmentVariable");
    await ok(emu.api("POST", "/v1/environment-variables", { key: "TOKEN", type: "string", isSecret: true, values: [{ _environmentId: "env_env0", value: "s3cret" }] }));
    await emu.clearRequests();
    const inputs = await checked(p, { key: "TOKEN", isSecret: true, values: { env_env0: "s3cret" }, adopt: true });
    const { id, outs } = await p.create(inputs);
    const log = (await emu.requests()).filter((r) => r.method !== "GET");
    expect(log.map((r) => `${r.method} ${r.route}`)).toEqual(["PATCH /v1/environment-variables/{variableKey}"]);
    expect(log[0]!.body).toEqual({ values: [{ _environmentId: "env_env0", value: "s3cret" }] });
    expect((await p.diff(id, outs, inputs)).changed).toEqual([]);
  });

  it("takes over Development with reads alone when its colour is as declared", async () => {
    const p = impl("environment");
    const dev = (await emu.api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Development");
    await emu.clearRequests();
    const inputs = await checked(p, { name: "Development", color: dev.color, adopt: true });
    const { id } = await p.create(inputs);
    expect(id).toBe(dev._id);
    expect(await requests()).toEqual(["GET /v1/environments"]);
  });
});
