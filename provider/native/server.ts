/**
 * The native provider plugin `pulumi-resource-notify`: the engine's gRPC ResourceProvider
 * protocol in front of the same implementation modules the dynamic resources use.
 *
 * Every resource operation is the `provider` export of its module in provider/resources (check,
 * diff, create, read, update, delete over plain property maps); every function is an entry of
 * FUNCTIONS. This file only translates: tokens to modules, structs to maps and back (secrets,
 * properties.ts), a diff's changed keys to the engine's detailed diff, an id-only read (import)
 * to a read of every field, and the modules' warnings to the engine's Log on the request's URN. `@pulumi/pulumi`'s own `provider.main()` is not used: it
 * sends no detailed diff, drops Configure's config and cannot read by id alone.
 *
 * The engine starts the plugin with its address as argument and reads the port from the first
 * line of stdout, so nothing else may be written there first: main.ts, the entry point, sends
 * console output to stderr before it loads this file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { CONNECTION_KEYS, setProviderConfig, settingSources, type ConnectionSettings } from "../config";
import { checkConnection } from "../connectionCheck";
import type { FunctionDefinition } from "../functions";
import { engineFailures, type CheckFailure } from "../resources/check";
import { UNKNOWN, stripUndefined, type DiffResult } from "../resources/diff";
import { FRONT_END_KEYS, type ResourceTable } from "../resources/fields";
import { RESOURCE_TABLES } from "../resources/index";
import { onResource, ResourceInitFailure, without } from "../resources/lifecycle";
import { fromStruct, toStruct } from "./properties";
import { installStructCodec } from "./struct";

// Property maps cross the wire through the faster Struct codec (same bytes, same values).
installStructCodec();

/** The package's root: package.json and schema.json (this file compiles to dist/provider/native/). */
export const PACKAGE_ROOT = path.resolve(__dirname, "../../..");

/** The package name of the schema and of every token. */
export const PACKAGE = "notify";

type Props = Record<string, unknown>;

/** What each implementation module exports as `provider`: the dynamic provider's operations. */
export interface ResourceImplementation {
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<{ id: string; outs: object }>;
  read(id: string, props: Props): Promise<{ id: string; props: object; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: object }>;
  delete(id: string, props: Props): Promise<void>;
}

/** A resource the plugin serves: its field table and implementation. */
interface Served {
  table: ResourceTable;
  impl: ResourceImplementation;
}

const served = new Map<string, Served>();

/** The resource of a type token (`notify:index:Integration`); the module is loaded on first use. */
export function resourceOf(token: string): Served {
  let r = served.get(token);
  if (!r) {
    const table = RESOURCE_TABLES.find((t) => `${PACKAGE}:index:${t.name}` === token);
    if (!table) throw new Error(`unknown resource type ${token}`);
    // The modules are provider/resources/<module>.ts, as for the dynamic resources' __provider.
    // Named with the compiled file's extension: the plugin binary's bundle (scripts/plugin-binary.ts)
    // turns this require into a table of that folder's .js files, keyed by file name.
    const impl = (require(`../resources/${table.module}.js`) as { provider: ResourceImplementation }).provider;
    r = { table, impl };
    served.set(token, r);
  }
  return r;
}

/** The type token of a request: its `type` field, else the type part of its URN. */
export function typeOf(req: { getType(): string; getUrn(): string }): string {
  if (req.getType()) return req.getType();
  // urn:pulumi:<stack>::<project>::<parent types$>type::<name>
  const qualified = req.getUrn().split("::")[2] ?? "";
  return qualified.split("$").pop()!;
}

/** The inputs that are not the resource's: a dynamic resource's {@link FRONT_END_KEYS}. */
function withoutEngineKeys(props: Props): Props {
  return without(props, FRONT_END_KEYS);
}

/** Keys to mark secret in what goes back: those the request held secret, and the table's secret fields. */
function secretKeys(table: ResourceTable, ...from: Set<string>[]): Set<string> {
  return new Set([...table.secretKeys, ...from.flatMap((s) => [...s])]);
}

// --- Handlers ---------------------------------------------------------------------------------

/**
 * A file of the package's root, as text: from the package, or, in the single executable that
 * scripts/plugin-binary.ts builds (no package beside it), from the asset of that name it carries.
 */
function packageFile(name: "package.json" | "schema.json"): string {
  const sea = require("node:sea") as { isSea(): boolean; getAsset(key: string, encoding: string): string };
  return sea.isSea() ? sea.getAsset(name, "utf8") : readFileSync(path.join(PACKAGE_ROOT, name), "utf8");
}

/** The plugin's version: package.json's. */
export function pluginVersion(): string {
  return (JSON.parse(packageFile("package.json")) as { version: string }).version;
}

/** The committed schema.json, as text. */
export function schemaText(): string {
  return packageFile("schema.json");
}


/**
 * The connection settings of a Configure request: its `args` (the provider's inputs, from the
 * stack config `notify:*` for the default provider), else its `variables` (`notify:apiUrl`, ...).
 * What neither gives is left to the environment variables, read when a request is made.
 */
export function configSettings(args: Props, variables: ReadonlyMap<string, string>): ConnectionSettings {
  const settings: ConnectionSettings = {};
  for (const k of CONNECTION_KEYS) {
    const v = args[k] ?? variables.get(`${PACKAGE}:${k}`);
    if (v !== undefined && v !== null && v !== "" && v !== UNKNOWN) settings[k] = String(v);
  }
  return settings;
}

const { Kind } = provproto.PropertyDiff;
/** The engine's kind of a changed path, and of one whose change replaces the object. */
const KINDS = {
  add: [Kind.ADD, Kind.ADD_REPLACE],
  delete: [Kind.DELETE, Kind.DELETE_REPLACE],
  update: [Kind.UPDATE, Kind.UPDATE_REPLACE],
} as const;

/**
 * A detailed diff: each path where a value differs (the diff's `paths`, else each changed key
 * whole), added, removed or updated, replacing when its key's change replaces the object. The
 * engine shows a path's values from the old and new inputs (`inputDiff`) and nothing else
 * (pkg/engine/detailedDiff.go, TranslateDetailedDiff).
 */
export function detailedDiff(diff: DiffResult): Map<string, provproto.PropertyDiff> {
  const out = new Map<string, provproto.PropertyDiff>();
  const paths = diff.paths ?? diff.changed.map((k) => ({ path: k, key: k, kind: "update" as const }));
  for (const p of paths) {
    const d = new provproto.PropertyDiff();
    d.setKind(KINDS[p.kind][diff.replaces.includes(p.key) ? 1 : 0]);
    d.setInputdiff(true);
    out.set(p.path, d);
  }
  return out;
}

/**
 * The outputs a preview shows before the service is asked: the inputs; what the service fills in
 * is unknown on create, and kept from the old outputs on update (output-only fields) or unknown
 * (input fields the program leaves out). A field the service adds to (a workflow's steps gain
 * their ids: the table's `output` fact) is unknown too, unless an update leaves it unchanged
 * (`changed`, the diff's changed keys): then the old outputs hold what the service will.
 */
export function previewOutputs(table: ResourceTable, news: Props, olds?: Props, changed: readonly string[] = []): Props {
  const inputKeys: readonly string[] = table.inputKeys;
  const outs: Props = { ...news };
  for (const k of inputKeys) {
    if (table.inputs[k]?.output === undefined || outs[k] === undefined) continue;
    outs[k] = olds && olds[k] !== undefined && !changed.includes(k) ? olds[k] : UNKNOWN;
  }
  for (const k of table.outputKeys) {
    if (outs[k] !== undefined) continue;
    outs[k] = olds && !inputKeys.includes(k) && olds[k] !== undefined ? olds[k] : UNKNOWN;
  }
  return outs;
}

/**
 * An id-only read (import, or `pulumi refresh` of state without properties): the object's fields
 * become its inputs. The module reads with every input key declared, then again from those
 * outputs with the keys the service returned declared, so the inputs are exactly the object's
 * fields in the shape the module gives a program's declared values.
 */
async function readById(impl: ResourceImplementation, table: ResourceTable, id: string) {
  const first = await impl.read(id, { declaredKeys: [...table.inputKeys] });
  if (!first.id) return first;
  const outs = first.props as Props;
  const present = table.inputKeys.filter((k) => outs[k] !== undefined);
  return impl.read(id, { ...outs, declaredKeys: present });
}

type Handler<Req, Res> = (req: Req) => Promise<Res>;

/**
 * A gRPC unary handler of an async function, run as an operation on its request's resource
 * ({@link onResource}: the warnings within are that resource's; an invoke has none); a thrown
 * error becomes the call's error, with its message.
 */
function unary<Req, Res>(fn: Handler<Req, Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const req = call.request as { getUrn?: () => string };
    const urn = typeof req.getUrn === "function" ? req.getUrn() : "";
    onResource(urn, () => fn(call.request)).then((res) => callback(null, res), (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      const metadata = err instanceof InitFailed ? err.metadata : undefined;
      callback({ code: grpc.status.UNKNOWN, details: message, message, ...(metadata ? { metadata } : {}) } as grpc.ServiceError, null);
    });
  };
}

/**
 * A {@link ResourceInitFailure} as the engine reads it: an ErrorResourceInitFailed detail (id,
 * state, reasons) in the status the trailer `grpc-status-details-bin` carries, as the
 * dynamic-provider plugin sends it, so that the engine records the object written.
 */
class InitFailed extends Error {
  readonly metadata = new grpc.Metadata();
  constructor(failure: ResourceInitFailure, properties: Struct) {
    super(failure.message);
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(failure.id);
    detail.setProperties(properties);
    detail.setReasonsList(failure.reasons);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(failure.message);
    status.addDetails(any);
    this.metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
}

/** Runs a create or update; a {@link ResourceInitFailure} becomes {@link InitFailed}, its state marked secret as `secret` says. */
async function writing<T>(op: () => Promise<T>, secret: Set<string>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof ResourceInitFailure) throw new InitFailed(err, toStruct(err.properties, secret));
    throw err;
  }
}

/** The failures of a check, as the engine's CheckFailure messages. */
function checkFailures(failures: readonly CheckFailure[]): provproto.CheckFailure[] {
  return failures.map((f) => {
    const m = new provproto.CheckFailure();
    m.setProperty(f.property);
    m.setReason(f.reason);
    return m;
  });
}

/** The handlers of the ResourceProvider service. Methods left out answer UNIMPLEMENTED. */
export function handlers(): Partial<provrpc.IResourceProviderServer> {
  return {
    getPluginInfo: unary(async () => {
      const info = new plugproto.PluginInfo();
      info.setVersion(pluginVersion());
      return info;
    }),

    getSchema: unary(async (req: provproto.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      const res = new provproto.GetSchemaResponse();
      res.setSchema(schemaText());
      return res;
    }),

    // The settings are optional (each has an environment variable), so every config checks; the
    // connection is resolved, and a missing one reported naming both sources, on the first request.
    // A configured connection is checked here (connectionCheck.ts): the engine checks a provider's
    // configuration before any step, so a refused key or a wrong address fails the run before the
    // provider is stored with it. (A failed Configure within the provider's update step does not:
    // the engine then records the new configuration all the same.)
    checkConfig: unary(async (req: provproto.CheckRequest) => {
      await checkConnection(configSettings(fromStruct(req.getNews()).props, new Map()), `${settingSources("apiKey")} (or the provider's apiKey)`);
      const res = new provproto.CheckResponse();
      res.setInputs(req.getNews());
      return res;
    }),

    diffConfig: unary(async (req: provproto.DiffRequest) => {
      const olds = fromStruct(req.getOlds()).props;
      const news = fromStruct(req.getNews()).props;
      const changed = CONNECTION_KEYS.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      const res = new provproto.DiffResponse();
      res.setChanges(changed.length ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
      res.setDiffsList(changed);
      res.setHasdetaileddiff(true);
      for (const [k, d] of detailedDiff({ changes: changed.length > 0, changed, replaces: [] })) res.getDetaileddiffMap().set(k, d);
      return res;
    }),

    configure: unary(async (req: provproto.ConfigureRequest) => {
      const variables = new Map(req.getVariablesMap().toArray());
      const settings = configSettings(fromStruct(req.getArgs()).props, variables);
      setProviderConfig(settings);
      const res = new provproto.ConfigureResponse();
      res.setAcceptsecrets(true);
      res.setSupportspreview(true);
      return res;
    }),

    check: unary(async (req: provproto.CheckRequest) => {
      const { table, impl } = resourceOf(typeOf(req));
      const news = fromStruct(req.getNews());
      const result = await impl.check(withoutEngineKeys(fromStruct(req.getOlds()).props), withoutEngineKeys(news.props));
      const res = new provproto.CheckResponse();
      res.setInputs(toStruct(result.inputs, secretKeys(table, news.secrets)));
      res.setFailuresList(checkFailures(engineFailures(result.failures, news.props)));
      return res;
    }),

    diff: unary(async (req: provproto.DiffRequest) => {
      const { impl } = resourceOf(typeOf(req));
      const diff = await impl.diff(req.getId(), fromStruct(req.getOlds()).props, withoutEngineKeys(fromStruct(req.getNews()).props));
      const res = new provproto.DiffResponse();
      res.setChanges(diff.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
      res.setReplacesList(diff.replaces);
      res.setDeletebeforereplace(diff.deleteBeforeReplace ?? false);
      res.setDiffsList(diff.changed);
      res.setHasdetaileddiff(true);
      for (const [k, d] of detailedDiff(diff)) res.getDetaileddiffMap().set(k, d);
      return res;
    }),

    create: unary(async (req: provproto.CreateRequest) => {
      const { table, impl } = resourceOf(typeOf(req));
      const inputs = fromStruct(req.getProperties());
      const props = withoutEngineKeys(inputs.props);
      const res = new provproto.CreateResponse();
      if (req.getPreview()) {
        res.setProperties(toStruct(previewOutputs(table, props), secretKeys(table, inputs.secrets)));
        return res;
      }
      const created = await writing(() => impl.create(props), secretKeys(table, inputs.secrets));
      res.setId(created.id);
      res.setProperties(toStruct(created.outs as Props, secretKeys(table, inputs.secrets)));
      return res;
    }),

    read: unary(async (req: provproto.ReadRequest) => {
      const { table, impl } = resourceOf(typeOf(req));
      const props = fromStruct(req.getProperties());
      const inputs = fromStruct(req.getInputs());
      const idOnly = Object.keys(props.props).length === 0 && Object.keys(inputs.props).length === 0;
      const result = idOnly ? await readById(impl, table, req.getId()) : await impl.read(req.getId(), withoutEngineKeys(props.props));
      const secret = secretKeys(table, props.secrets, inputs.secrets);
      const res = new provproto.ReadResponse();
      res.setId(result.id);
      if (!result.id) return res;
      res.setProperties(toStruct(result.props as Props, secret));
      if (result.inputs) res.setInputs(toStruct(result.inputs, secret));
      return res;
    }),

    update: unary(async (req: provproto.UpdateRequest) => {
      const { table, impl } = resourceOf(typeOf(req));
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const declared = withoutEngineKeys(news.props);
      const secret = secretKeys(table, news.secrets);
      const res = new provproto.UpdateResponse();
      if (req.getPreview()) {
        const { changed } = await impl.diff(req.getId(), olds.props, declared);
        res.setProperties(toStruct(previewOutputs(table, declared, olds.props, changed), secret));
        return res;
      }
      const updated = await writing(() => impl.update(req.getId(), olds.props, declared), secret);
      res.setProperties(toStruct(updated.outs as Props, secret));
      return res;
    }),

    delete: unary(async (req: provproto.DeleteRequest) => {
      const { impl } = resourceOf(typeOf(req));
      await impl.delete(req.getId(), fromStruct(req.getProperties()).props);
      return new Empty();
    }),

    invoke: unary(async (req: provproto.InvokeRequest) => {
      const fn = functionOf(req.getTok());
      const result = await fn.fn(fromStruct(req.getArgs()).props as never);
      const res = new provproto.InvokeResponse();
      res.setReturn(toStruct(stripUndefined(result) as Props, fn.secretResults ?? []));
      return res;
    }),

    cancel: unary(async () => new Empty()),

    // The engine attaches to a plugin it did not start (PULUMI_DEBUG_PROVIDERS); nothing to keep.
    attach: unary(async () => new Empty()),

    getMapping: unary(async () => new provproto.GetMappingResponse()),
    getMappings: unary(async () => new provproto.GetMappingsResponse()),
  };
}

/** The function of an invoke token (`notify:index:getSubscriber`). */
function functionOf(token: string): FunctionDefinition {
  const { FUNCTIONS } = require("../functions") as typeof import("../functions");
  const fn = FUNCTIONS.find((f) => `${PACKAGE}:index:${f.name}` === token);
  if (!fn) throw new Error(`unknown function ${token}`);
  return fn;
}

/**
 * Starts the plugin: the gRPC server on a free loopback port, then the port alone on stdout (the
 * engine's handshake). Every warning of the implementation modules goes to the engine, whose
 * address is the plugin's last argument, as a warning diagnostic on the resource of the request
 * that gave it (lifecycle.ts `warn`). Resolves with the server and its port.
 */
export async function serve(): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, handlers() as provrpc.IResourceProviderServer);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  process.stdout.write(`${port}\n`);
  return { server, port };
}
