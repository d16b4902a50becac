/**
 * The root of the Node.js SDK's "race" between inline runs in one process (scripts/inlineRuns.ts):
 * a client the SDK opens to an address whose earlier client is stuck reconnecting to a dead CLI
 * must still reach the new server on that address at its first call.
 */
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { nativeRequire } from "../../helpers/pulumi";
import { isolateInlineRuns } from "../../../scripts/inlineRuns";

/** The grpc-js the SDK itself loads, and the SDK's engine and resource monitor services. */
const sdkRequire = createRequire(nativeRequire.resolve("@pulumi/pulumi/package.json"));
const grpc = sdkRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const settings = sdkRequire("./runtime/settings") as { grpcClientOptions: Record<string, unknown> };
const engineRpc = sdkRequire("./proto/engine_grpc_pb") as any;
const engineProto = sdkRequire("./proto/engine_pb") as any;
const resourceRpc = sdkRequire("./proto/resource_grpc_pb") as any;
const resourceProto = sdkRequire("./proto/resource_pb") as any;
const emptyProto = sdkRequire("google-protobuf/google/protobuf/empty_pb") as any;

/** An engine that accepts setRootResource, on `port` (0: any free port). */
function engineServer(port: number): Promise<{ server: import("@grpc/grpc-js").Server; port: number }> {
  const server = new grpc.Server();
  server.addService(engineRpc.EngineService, {
    setRootResource: (_call: unknown, cb: (e: null, r: unknown) => void) => cb(null, new engineProto.SetRootResourceResponse()),
  });
  return new Promise((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve({ server, port: p }))));
}

/** A client as the SDK makes one for a run's engine (its options, read at creation). */
const engineClient = (port: number) => new engineRpc.EngineClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), settings.grpcClientOptions);

/** The SDK's first engine call of a run: "ok", or the gRPC status it failed with. */
function setRootResource(client: any): Promise<string> {
  const req = new engineProto.SetRootResourceRequest();
  req.setUrn("urn:pulumi:test::p::pulumi:pulumi:Stack::p-test");
  return new Promise((resolve) => client.setRootResource(req, (err: { code: number; details: string } | null) => resolve(err ? `${err.code} ${err.details}` : "ok")));
}

describe("inline runs in one process", () => {
  const closers: (() => void)[] = [];
  afterEach(() => { for (const c of closers.splice(0)) c(); });

  it("a run's engine client reaches its engine although an orphaned run's client to a dead engine on the same port is still retrying", async () => {
    isolateInlineRuns(nativeRequire);
    const first = await engineServer(0);
    const orphan = engineClient(first.port);
    closers.push(() => orphan.close());
    expect(await setRootResource(orphan)).toBe("ok");
    // The first run's CLI exits while its program still calls the engine: the call fails and the
    // client (which the SDK never closes) keeps reconnecting to the dead address.
    first.server.forceShutdown();
    expect(await setRootResource(orphan)).toMatch(/^14 /);
    // A later CLI's engine gets the same port.
    const second = await engineServer(first.port);
    closers.push(() => second.server.forceShutdown());
    const next = engineClient(first.port);
    closers.push(() => next.close());
    expect(await setRootResource(next)).toBe("ok");
  });
});

describe("orphaned runs", () => {
  /** A Run request as the CLI sends one, with no engine, and no monitor unless given (the SDK then runs the program alone). */
  const request = (monitor = "") => ({
    getArgsList: () => [], getProject: () => "p", getStack: () => "s", getParallel: () => 1, getMonitorAddress: () => monitor,
    getDryrun: () => true, getOrganization: () => "", getConfigMap: () => new Map(), getConfigsecretkeysList: () => [],
  });
  /** The language server's Run of `program`: its end, and the call (an emitter, as grpc-js's). */
  function startRun(program: () => Promise<unknown>, monitor = "") {
    isolateInlineRuns(nativeRequire);
    const { LanguageServer } = nativeRequire("@pulumi/pulumi/automation/server") as { LanguageServer: new (p: () => Promise<unknown>) => { run(call: unknown, cb: (e: unknown) => void): Promise<unknown> } };
    const { EventEmitter } = require("node:events") as typeof import("node:events");
    const call = Object.assign(new EventEmitter(), { request: request(monitor) });
    let answered: (e: unknown) => void = () => undefined;
    const answer = new Promise((resolve) => { answered = resolve; });
    const end = new LanguageServer(program).run(call, (e) => answered(e ?? "ok"));
    return { call, end, answer };
  }

  const closers: (() => void)[] = [];
  afterEach(() => { for (const c of closers.splice(0)) c(); });

  /**
   * A resource monitor as the engine runs one: it registers the stack, and answers the
   * registration of a resource of type `refusedType` with UNAVAILABLE, as the engine's monitor does
   * with the registrations still on the way when the deployment fails (a refused create).
   */
  async function monitorServer(refusedType: string) {
    const server = new grpc.Server();
    let refused: () => void = () => undefined;
    const refusal = new Promise<void>((r) => { refused = r; });
    server.addService(resourceRpc.ResourceMonitorService, {
      registerResource: (call: any, cb: (e: unknown, r?: unknown) => void) => {
        const req = call.request;
        if (req.getType() === refusedType) {
          cb({ code: grpc.status.UNAVAILABLE, details: "the deployment failed" });
          refused();
          return;
        }
        const resp = new resourceProto.RegisterResourceResponse();
        resp.setUrn(`urn:pulumi:s::p::${req.getType()}::${req.getName()}`);
        if (req.getCustom()) resp.setId(`${req.getName()}-id`);
        resp.setObject(req.getObject());
        cb(null, resp);
      },
      registerResourceOutputs: (_call: unknown, cb: (e: null, r: unknown) => void) => cb(null, new emptyProto.Empty()),
    });
    const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    closers.push(() => server.forceShutdown());
    return { address: `127.0.0.1:${port}`, refusal };
  }

  /** Lets every callback already due run (promise jobs, then one turn of the event loop), with no timer. */
  const turn = () => new Promise((r) => setImmediate(r));

  it("a run whose CLI went away ends at once, although the SDK never settles the outputs of a registration that failed with UNAVAILABLE, and the next run is not touched by it", async () => {
    const pulumi = nativeRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    const state = nativeRequire("@pulumi/pulumi/runtime/state") as { getStore(): { terminated?: boolean } };
    const listeners = () => process.listenerCount("unhandledRejection") + process.listenerCount("uncaughtException");
    const before = listeners();
    const monitor = await monitorServer("test:index:Refused");
    let store: { terminated?: boolean } | undefined;
    // A stack output naming the resource's id: the program awaits it, as a program returning `{ id: r.id }` does.
    const orphan = startRun(async () => {
      store = state.getStore();
      const r = new pulumi.CustomResource("test:index:Refused", "r", {});
      return { id: await r.id.promise() };
    }, monitor.address);
    await monitor.refusal;
    // The SDK has taken the refusal: it marks the run's monitor terminated and leaves r's outputs unsettled.
    while (!store?.terminated) await turn();
    let ended = false;
    void orphan.end.finally(() => { ended = true; });
    orphan.call.emit("cancelled"); // its CLI exited
    for (let i = 0; i < 5 && !ended; i++) await turn();
    expect(ended).toBe(true);
    expect(String(await orphan.answer)).toMatch(/CLI of this run exited/);
    expect(listeners()).toBe(before);
    // The next run, on its own monitor, registers and ends as if alone.
    const next = await monitorServer("none");
    const run = startRun(async () => {
      const r = new pulumi.CustomResource("test:index:Thing", "t", {});
      return { id: await r.id.promise() };
    }, next.address);
    await run.end;
    expect(await run.answer).toBe("ok");
    expect(listeners()).toBe(before);
  });

  it("a run whose CLI went away while it waited for an orphan never starts its program", async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => { release = r; });
    const orphan = startRun(async () => { order.push("orphan started"); await held; order.push("orphan finished"); });
    await turn();
    orphan.call.emit("cancelled");
    const next = startRun(async () => { order.push("next started"); });
    await turn();
    next.call.emit("cancelled");
    release();
    await Promise.all([orphan.end, next.end]);
    expect(order).toEqual(["orphan started", "orphan finished"]);
    expect(String(await next.answer)).toMatch(/CLI of this run exited before its program started/);
  });

  it("a run starts its program only after a run whose CLI went away has finished", async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => { release = r; });
    const orphan = startRun(async () => { order.push("orphan started"); await held; order.push("orphan finished"); });
    await new Promise((r) => setTimeout(r, 50));
    orphan.call.emit("cancelled"); // its CLI exited
    const next = startRun(async () => { order.push("next started"); });
    await new Promise((r) => setTimeout(r, 200));
    expect(order).toEqual(["orphan started"]);
    release();
    await Promise.all([orphan.end, next.end]);
    expect(order).toEqual(["orphan started", "orphan finished", "next started"]);
  });

  it("runs whose CLI is alive run side by side", async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => { release = r; });
    const first = startRun(async () => { order.push("first started"); await held; order.push("first finished"); });
    await new Promise((r) => setTimeout(r, 50));
    const second = startRun(async () => { order.push("second started"); });
    await second.end;
    expect(order).toEqual(["first started", "second started"]);
    release();
    await first.end;
  });
});
