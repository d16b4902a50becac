/**
 * The engine's `Log` RPC (pulumirpc.Engine), through which a provider's warning becomes a warning
 * diagnostic the user sees. The engine starts every resource plugin, the Node.js dynamic-provider
 * plugin included, with the address of its Engine service as its last argument; what a plugin
 * writes on stderr instead reaches only the engine's debug log (a plugin of a package, the native
 * one) or shows as plain output of the stack (the dynamic-provider plugin):
 * pulumi/pulumi v3.276.0 (as in v3.259.0), sdk/go/common/resource/plugin/plugin.go, newPlugin's runtrace.
 */
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";

/**
 * The engine's address among a plugin's arguments (`process.argv`), or undefined when there is
 * none. The engine starts a plugin with logging and tracing flags first, if any, and its address
 * (`127.0.0.1:<port>`) last (sdk/go/common/resource/plugin/plugin.go, buildPluginArguments).
 */
export function engineAddress(args: readonly string[]): string | undefined {
  const last = args[args.length - 1];
  return last !== undefined && /^[\w.-]+:\d+$/.test(last) ? last : undefined;
}

/**
 * Where a warning goes (lifecycle.ts `warn` picks one per process): `urn` is the resource's the
 * warning is on, empty for none. Resolves once the warning is delivered; never rejects.
 */
export type WarningSink = (message: string, urn: string) => Promise<void>;

/**
 * The warning sink of a plugin, either front end's: each warning goes to the engine at `address`
 * as a diagnostic of severity warning on the resource whose URN it is given (empty: the stack's),
 * the one place a user of any language reads it (a plugin's stderr reaches only the engine's debug
 * log). A warning the engine does not take is kept and told before the next one, on a new
 * connection; only a plugin the engine has gone from for good keeps it untold.
 *
 * The engine is told a warning once per resource: the engine starts a plugin for one operation,
 * and within it the same text on the same resource is one fact told twice (`up --refresh` reads a
 * workflow whose step has an issue, then writes it, and the service reports the issue on both
 * answers). The same text on another resource is still told.
 */
export function engineWarnings(address: string): WarningSink {
  let client: engrpc.EngineClient | undefined;
  const told = new Set<string>();
  /** Warnings the engine did not take, by key, in the order they came. */
  const untold = new Map<string, { message: string; urn: string }>();
  const tell = (message: string, urn: string) => new Promise<boolean>((resolve) => {
    client ??= new engrpc.EngineClient(address, grpc.credentials.createInsecure());
    const req = new engproto.LogRequest();
    req.setSeverity(engproto.LogSeverity.WARNING);
    req.setMessage(message);
    req.setUrn(urn);
    client.log(req, (err) => resolve(!err));
  });
  return async (message, urn) => {
    untold.set(`${urn}\n${message}`, { message, urn });
    for (const [key, w] of [...untold]) {
      untold.delete(key);
      if (told.has(key)) continue;
      told.add(key);
      if (await tell(w.message, w.urn)) continue;
      // Not taken: kept for the next warning, which tries again on a new connection.
      told.delete(key);
      untold.set(key, w);
      client?.close();
      client = undefined;
      return;
    }
  };
}
