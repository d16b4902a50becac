/** provider/resources/engineLog.ts: the engine's address among a plugin's arguments, and warnings sent to its Log RPC. */
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { engineAddress, engineWarnings } from "../../../../provider/resources/engineLog";
import { onResource, setWarningSink, warn } from "../../../../provider/resources/lifecycle";

describe("engineAddress", () => {
  it("is the last argument, the engine's address, behind any logging or tracing flags", () => {
    expect(engineAddress(["127.0.0.1:40123"])).toBe("127.0.0.1:40123");
    expect(engineAddress(["--logtostderr", "-v=9", "127.0.0.1:40123"])).toBe("127.0.0.1:40123");
    expect(engineAddress(["--tracing", "127.0.0.1:9411", "127.0.0.1:40123"])).toBe("127.0.0.1:40123");
  });

  it("is undefined without one (a process the engine did not start)", () => {
    expect(engineAddress([])).toBeUndefined();
    expect(engineAddress(["--run", "test/unit"])).toBeUndefined();
  });
});

describe("engineWarnings", () => {
  let server: grpc.Server;
  let address: string;
  const received: { severity: number; urn: string; message: string }[] = [];

  beforeAll(async () => {
    // An Engine service that records what it is told, as the engine's host server would show it.
    server = new grpc.Server();
    server.addService(engrpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engproto.LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
        received.push({ severity: call.request.getSeverity(), urn: call.request.getUrn(), message: call.request.getMessage() });
        callback(null, new Empty());
      },
    } as unknown as engrpc.IEngineServer);
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
    });
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => {
    server?.forceShutdown();
  });

  it("sends each warning to the engine as a diagnostic of severity warning on the URN it is given, and resolves once it is there", async () => {
    const sink = engineWarnings(address);
    await sink("kept on the service", "urn:pulumi:test::p::notify:index:Layout::frame");
    await sink("of the stack", "");
    expect(received).toEqual([
      { severity: engproto.LogSeverity.WARNING, urn: "urn:pulumi:test::p::notify:index:Layout::frame", message: "kept on the service" },
      { severity: engproto.LogSeverity.WARNING, urn: "", message: "of the stack" },
    ]);
  });

  it("tells the engine a warning once per resource: the same text again on the same URN is not sent, on another URN it is", async () => {
    received.length = 0;
    const sink = engineWarnings(address);
    // up --refresh: the refresh's read and the update's write of one workflow report one step issue.
    await sink("step issue", "urn:pulumi:test::p::notify:index:Workflow::welcome");
    await sink("step issue", "urn:pulumi:test::p::notify:index:Workflow::welcome");
    await sink("step issue", "urn:pulumi:test::p::notify:index:Workflow::welcome-eu");
    expect(received.map((r) => r.urn)).toEqual(["urn:pulumi:test::p::notify:index:Workflow::welcome", "urn:pulumi:test::p::notify:index:Workflow::welcome-eu"]);
  });

  it("never rejects: a warning the engine did not take is kept, and told before the next one once the engine takes them", async () => {
    // An engine that refuses its first Log (busy, or restarting its server), then takes them.
    const told: string[] = [];
    let refuse = 1;
    const flaky = new grpc.Server();
    flaky.addService(engrpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engproto.LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
        if (refuse-- > 0) return callback({ code: grpc.status.UNAVAILABLE, details: "not now" } as grpc.ServiceError, null);
        told.push(call.request.getMessage());
        callback(null, new Empty());
      },
    } as unknown as engrpc.IEngineServer);
    const port = await new Promise<number>((resolve, reject) => {
      flaky.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
    });
    try {
      const sink = engineWarnings(`127.0.0.1:${port}`);
      await sink("first", "urn:a");
      expect(told).toEqual([]);
      await sink("second", "urn:b");
      expect(told).toEqual(["first", "second"]);
      // Told once: neither again.
      await sink("first", "urn:a");
      expect(told).toEqual(["first", "second"]);
    } finally {
      flaky.forceShutdown();
    }
  });

  it("resolves when the engine cannot be reached at all (it is gone, and with it every reader)", async () => {
    const closed = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) => {
      closed.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
    });
    closed.forceShutdown();
    await expect(engineWarnings(`127.0.0.1:${port}`)("lost", "")).resolves.toBeUndefined();
  });

  it("warn(), with no setup: a process whose last argument is the engine's address warns through it, on the operation's resource; any other on stderr", async () => {
    // The sink a process chooses at its first warning, from its arguments: undefined starts over.
    const own = setWarningSink(undefined);
    const argv = process.argv;
    const stderr = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      received.length = 0;
      process.argv = [...argv.slice(0, 2), "--logtostderr", "-v=9", address];
      await onResource("urn:pulumi:test::p::notify:index:Domain::mail", () => warn("records to add"));
      await warn("of no resource");
      // Chosen once: arguments changed afterwards change nothing.
      process.argv = [...argv.slice(0, 2), "127.0.0.1:9"];
      await warn("still to the engine");
      expect(received).toEqual([
        { severity: engproto.LogSeverity.WARNING, urn: "urn:pulumi:test::p::notify:index:Domain::mail", message: "records to add" },
        { severity: engproto.LogSeverity.WARNING, urn: "", message: "of no resource" },
        { severity: engproto.LogSeverity.WARNING, urn: "", message: "still to the engine" },
      ]);
      expect(stderr).not.toHaveBeenCalled();

      setWarningSink(undefined);
      process.argv = [...argv.slice(0, 2), "--run", "test/unit"];
      await onResource("urn:pulumi:test::p::notify:index:Domain::mail", () => warn("records to add"));
      expect(stderr).toHaveBeenCalledWith("warning: urn:pulumi:test::p::notify:index:Domain::mail: records to add");
      expect(received).toHaveLength(3);
    } finally {
      process.argv = argv;
      stderr.mockRestore();
      setWarningSink(own);
    }
  });
});
