/**
 * Every request the provider sends conforms to the service's contract: the request schemas of
 * spec/openapi.json (the service's published document, which nobody here wrote), never our own
 * zod schemas. The provider runs through every operation it uses, with the implementation modules
 * the engine's plugins call: each resource kind's part (`requests` of test/kinds/<kind>.ts: its
 * check, create, read, update, adopt and delete, its functions), and here the calls of no kind
 * (the client's subscriber and trigger calls the demo uses, the events' and messages' functions).
 * The emulator records each request's body and query, and each is validated against its
 * operation's schema. The operations exercised must cover every route the client can call, so a
 * new client call that no part sends fails the test.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateRequest } from "../../emulator/contract";
import { mixCounts, prepareMix } from "../../bench/programs";
import * as notify from "../../provider";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { ROOT } from "../helpers/pulumi";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { impl } from "../helpers/implementation";
import type { Made, Obj, RequestsHelpers, ResourceModule } from "../kinds/descriptor";
import { floorOf } from "../kinds/floor";
import { KINDS } from "../kinds/index";

/** The implementation module `provider/resources/<module>.ts`, from source. */
const moduleOf = (module: string): ResourceModule => ({ provider: impl(module) });

/**
 * Fields production accepts that spec/openapi.json (older than the live document) does not list:
 * email step controls `from`, `replyTo`, `preheader`, `useProviderDefaults` and the chat step's
 * `editorType` (production-notes.md, Second pass, "Requests production accepts").
 */
const NEWER_THAN_DOCUMENT = [
  /^steps\.\d+\.controlValues\.(from|replyTo|preheader|useProviderDefaults|editorType): must NOT have additional properties$/,
];

/** `METHOD /route` of every call in provider/client: what the provider can send. */
function clientOperations(): string[] {
  const dir = path.join(ROOT, "provider/client");
  const ops = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".ts"))) {
    for (const m of readFileSync(path.join(dir, f), "utf8").matchAll(/method: "([A-Z]+)", route: "([^"]+)"/g)) ops.add(`${m[1]} ${m[2]}`);
  }
  return [...ops].sort();
}

describe.each(["production", "spec"] as const)("the provider's requests conform to openapi.json (%s mode)", (mode) => {
  let emu: TestEmulator;
  let disconnect = () => {};

  beforeAll(async () => {
    emu = await startTestEmulator({ mode });
    disconnect = emu.connectEnvironment();
  });
  afterAll(async () => {
    disconnect();
    await emu?.close();
  });

  /** check (no failure allowed), then create; returns the id and outputs. */
  async function created(mod: ResourceModule, inputs: Obj): Promise<Made> {
    const { inputs: checked, failures } = await mod.provider.check({}, inputs);
    expect(failures).toEqual([]);
    return { inputs: checked, ...(await mod.provider.create(checked)) };
  }

  it("sends only bodies and queries its operation's request schema accepts, over every operation the client has", async () => {
    const client = new notify.NotifyClient({ apiUrl: emu.url, apiKey: emu.key });

    // What every kind's part may use (RequestsHelpers says what): subscribers and a trigger, as
    // the demo makes them (create, patch, trigger with context), a chat integration, a workflow.
    await client.subscribers.create({ subscriberId: "alice", email: "alice@example.com" });
    await client.subscribers.update("alice", { firstName: "Alice", data: { plan: "pro" } });
    await client.subscribers.create({ subscriberId: "bob" });
    await client.integrations.create({ identifier: "slack-main", providerId: "slack", channel: "chat", active: true });
    const welcome = await client.workflows.create({
      workflowId: "welcome", name: "Welcome", severity: "high", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }, { name: "Chat", type: "chat", controlValues: { body: "Hi" } }],
    });
    await client.events.trigger({ name: "welcome", to: "alice", payload: { v: 1 }, transactionId: "tx-1", context: { tenant: "acme", region: { id: "eu" } } });

    // The functions of no kind, with every filter they send.
    const events = await notify.getEvents({
      channels: ["email", "in_app"], templates: [welcome._id], emails: ["alice@example.com"], subscriberIds: ["alice"], severity: ["high"],
      transactionId: "tx-1", contextKeys: ["tenant:acme", "region:eu"], after: new Date(Date.now() - 3_600_000).toISOString(), limit: 10, maxResults: 20,
    });
    await notify.getEvent({ notificationId: events.events[0]!._id! });
    await notify.getMessages({ channel: "email", subscriberId: "alice", transactionIds: ["tx-1"], contextKeys: ["tenant:acme", "region:eu"], limit: 10 });

    // Every kind's part, in the order of registration (a kind after those it refers to), then
    // their deletes in the reverse order (a kind's objects before those they refer to).
    const helpers: RequestsHelpers = { moduleOf, created, client, fns: notify, emu };
    const deletes: [kind: string, run: () => Promise<void>][] = [];
    const named = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (e) {
        throw new Error(`${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    };
    for (const d of KINDS) deletes.push([d.kind, await named(`${d.kind}'s requests part (test/kinds/)`, () => d.requests.run(helpers))]);
    for (const [kind, run] of deletes.reverse()) await named(`${kind}'s deletes`, run);

    const log = await emu.requests();
    // Read closed: a field the document does not list is a mismatch too (the service would
    // ignore it, so sending it means the provider believes in a field production does not have),
    // except those production accepts beyond this document (NEWER_THAN_DOCUMENT).
    const mismatches = log.flatMap((r) => {
      expect(r.route, `${r.method} ${r.path} matched no operation`).toBeDefined();
      expect(r.bodyOmitted, `${r.method} ${r.path}`).toBeUndefined();
      return validateRequest(r.method, r.route!, { body: r.body, query: r.query }, "request-closed")
        .filter((m) => !NEWER_THAN_DOCUMENT.some((re) => re.test(m)))
        .map((m) => `${r.method} ${r.route}: ${m}`);
    });
    expect(mismatches).toEqual([]);
    // Every request succeeded but those the parts say the service refuses: a refused request would
    // leave its operation's later calls unsent. (Adopting looks before it creates, so no create
    // meets an existing object.)
    expect(log.filter((r) => r.status >= 400).map((r) => `${r.method} ${r.path} ${r.status}`).sort())
      .toEqual(KINDS.flatMap((d) => d.requests.refused).sort());
    // The operations sent are those of the client, each difference named: one unsent wants a call
    // in its kind's part (or here, for an operation of no kind).
    const sent = new Set(log.map((r) => `${r.method} ${r.route}`));
    const operations = clientOperations();
    expect({ unsent: operations.filter((o) => !sent.has(o)), notOfTheClient: [...sent].filter((o) => !operations.includes(o)).sort() })
      .toEqual({ unsent: [], notOfTheClient: [] });
  });

  // Each kind's request floor (test/kinds/<kind>.ts, `floor`), on the bench's arguments of its first
  // object: a create, a read, the update of one field and a delete each send exactly that many
  // requests (reads share the listings the floor names, so they are counted together). What the
  // create and the update answer, from the answers of their writes, is what a read then gives.
  it("creates, reads, updates one field of and deletes an object of each kind with exactly the requests of its floor", async () => {
    // bench-sub-0 to bench-sub-3: the first topic's two subscribers, the first topic subscription's,
    // which that topic leaves out, and those of the third topic.
    await prepareMix(emu.api, 4);
    const sent = async () => (await emu.requests()).filter((r) => !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route ?? r.path}`);
    const made: { kind: (typeof KINDS)[number]["kind"]; mod: ResourceModule; id: string; inputs: Obj; outs: Obj }[] = [];
    const refs = {
      counts: mixCounts(100), run: `floor${mode[0]}`,
      output: (kind: string, _i: number, key: string) => made.find((m) => m.kind === kind)!.outs[key],
    };
    const checked = async (mod: ResourceModule, inputs: Obj) => {
      const r = await mod.provider.check({}, inputs);
      expect(r.failures).toEqual([]);
      return r.inputs;
    };
    for (const d of KINDS) {
      const mod = moduleOf(RESOURCE_TABLES.find((t) => t.name === d.kind)!.module);
      // A kind whose reads after the first share a listing (`listedRead`) has three objects, so that
      // two of its reads are answered from one listing page (one request fewer than reading each),
      // and must give what their creates answered.
      for (let i = 0; i < (d.floor.listedRead ? 3 : 1); i++) {
        const inputs = await checked(mod, d.bench.args(i, refs));
        await emu.clearRequests();
        const { id, outs } = await mod.provider.create(inputs);
        expect(await sent(), `${d.kind} create`).toHaveLength(floorOf([{ kind: d.kind, inputs }]).create);
        made.push({ kind: d.kind, mod, id, inputs, outs });
      }
    }
    await emu.clearRequests();
    const reads = [];
    for (const m of made) reads.push(await m.mod.provider.read(m.id, m.outs));
    expect(await sent(), "the reads").toHaveLength(floorOf(made).read);
    made.forEach((m, i) => expect(reads[i]!.props, `${m.kind}: the create's outputs are what a read gives`).toEqual(m.outs));
    for (const m of made) {
      const news = await checked(m.mod, KINDS.find((d) => d.kind === m.kind)!.floor.change(m.inputs));
      await emu.clearRequests();
      const { outs } = await m.mod.provider.update(m.id, m.outs, news);
      expect(await sent(), `${m.kind} update`).toHaveLength(floorOf([{ kind: m.kind, inputs: news }]).update);
      expect((await m.mod.provider.diff(m.id, outs, news)).changed, `${m.kind} update`).toEqual([]);
      expect((await m.mod.provider.read(m.id, outs)).props, `${m.kind}: the update's outputs are what a read gives`).toEqual(outs);
    }
    for (const m of [...made].reverse()) {
      await emu.clearRequests();
      await m.mod.provider.delete(m.id, m.outs);
      expect(await sent(), `${m.kind} delete`).toHaveLength(floorOf([m]).delete);
    }
  });
});
