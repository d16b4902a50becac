/**
 * The root of the Node.js SDK's "race" between inline runs in one process (scripts/inlineRuns.ts):
 * a client the SDK opens to an address whose earlier client is stuck reconnecting to a dead CLI
 * must still reach the new server on that address at its first call.
 */
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { nativeRequire } from "../../helpers/pulumi";
import { isolateInlineRuns } from "../../../scripts/inlineRuns";

/** The grpc-js the SDK itself loads, and the SDK's engine service. */
const sdkRequire = createRequire(nativeRequire.resolve("@pulumi/pulumi/package.json"));
const grpc = sdkRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const settings = sdkRequire("./runtime/settings") as { grpcClientOptions: Record<string, unknown> };
const engineRpc = sdkRequire("./proto/engine_grpc_pb") as any;
const engineProto = sdkRequire("./proto/engine_pb") as any;

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
  /** A Run request as the CLI sends one, with no engine or monitor (the SDK then runs the program alone). */
  const request = () => ({
    getArgsList: () => [], getProject: () => "p", getStack: () => "s", getParallel: () => 1, getMonitorAddress: () => "",
    getDryrun: () => true, getOrganization: () => "", getConfigMap: () => new Map(), getConfigsecretkeysList: () => [],
  });
  /** The language server's Run of `program`: its end, and the call (an emitter, as grpc-js's). */
  function startRun(program: () => Promise<void>) {
    isolateInlineRuns(nativeRequire);
    const { LanguageServer } = nativeRequire("@pulumi/pulumi/automation/server") as { LanguageServer: new (p: () => Promise<void>) => { run(call: unknown, cb: (e: unknown) => void): Promise<unknown> } };
    const { EventEmitter } = require("node:events") as typeof import("node:events");
    const call = Object.assign(new EventEmitter(), { request: request() });
    let answered: (e: unknown) => void = () => undefined;
    const answer = new Promise((resolve) => { answered = resolve; });
    const end = new LanguageServer(program).run(call, (e) => answered(e ?? "ok"));
    return { call, end, answer };
  }

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
