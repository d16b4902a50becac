/**
 * How the provider's resources reach the engine's Node.js dynamic-provider plugin.
 *
 * A dynamic resource carries the code of its provider in the input `__provider`: the plugin
 * evaluates that text as a module, calls its `handler()` for the provider object (once per
 * distinct text), then calls `configure` with the stack config and the operations on it. Module
 * paths start at the program's directory, so a package path resolves as it does in the program.
 *
 * `pulumi.dynamic.Resource` fills `__provider` by serializing a provider object with Pulumi's
 * closure serializer: at least 2 KB for six one-line methods. The engine stores `__provider` in
 * each resource's inputs and again in its outputs, rewrites the whole checkpoint after every
 * step, and marshals and logs it on every call, so that size is paid many times over. The
 * resources here write the module text themselves ({@link providerModule}): one line that
 * requires the implementation by package path. It holds no secret, and it does not change when
 * the package's code does, so a new version of the package shows no diff. State written before
 * holds a serialized shim (bench/baseline.ts `serializableProvider` writes one) that calls each
 * module's `provider` export: that export stays, so such a resource reads, updates and deletes as
 * before until its next update rewrites it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { configureFromStack } from "../config";
import { engineFailures } from "./check";
import { FRONT_END_KEYS } from "./fields";
import { onResource, ResourceInitFailure } from "./lifecycle";

/** Package path of the directory of the resource implementation modules. */
export const RESOURCE_MODULES = "pulumi-notify/dist/provider/resources/";

/** The `__provider` of the resource whose implementation module is at `implPath` (a package path). */
export function providerModule(implPath: string): string {
  return `exports.handler = () => require(${JSON.stringify(implPath)}).dynamicProvider;\n`;
}

/** The operations of a resource, without `configure`. */
export type ResourceOperations = Required<Omit<pulumi.dynamic.ResourceProvider, "configure">>;

/**
 * The object a `__provider` module hands the plugin: the operations, check's failures as the
 * engine prints them best ({@link engineFailures}), and a `configure` that takes from the stack
 * config only what the connection needs (the key stays in the provider process). Warnings reach
 * the engine as the native plugin's do (lifecycle.ts `warn`).
 *
 * The plugin hands an operation no URN (cmd/dynamic-provider/index.js of @pulumi/pulumi calls
 * `delete(id, props)` from a request that has one), so each resource carries its own as the input
 * `__urn` (classes.ts), and every operation runs on it ({@link onResource}): a warning is on its
 * resource, as the native plugin shows it. The operations that answer with a state keep `__urn`
 * in it, so a read and a delete, which get the state and not the inputs, have it too.
 */
export function dynamicProvider(ops: ResourceOperations): pulumi.dynamic.ResourceProvider {
  return {
    // The failures as the native plugin sends them too, so the engine prints both alike.
    check: (olds, news) => onResource(urnOf(news), async () => {
      const r = await ops.check(olds, news);
      return { ...r, inputs: r.inputs && withUrn(r.inputs, news), failures: r.failures && engineFailures(r.failures, news) };
    }),
    diff: (id, olds, news) => onResource(urnOf(news), async () => engineDiff(await ops.diff(id, olds, news))),
    // A write that then failed keeps the object in the stack: its state needs the `__provider` every
    // dynamic resource's state carries (the plugin adds it to a success's outputs only).
    create: (inputs) => onResource(urnOf(inputs), async () => {
      const r = await ops.create(inputs).catch((e: unknown) => { throw withFrontEndKeys(e, inputs); });
      return { ...r, outs: withUrn(r.outs, inputs) };
    }),
    read: (id, props) => onResource(urnOf(props), async () => {
      const r = await ops.read(id, props);
      // Gone (no id): nothing to keep.
      if (!r.id) return r;
      return { ...r, props: withUrn(r.props, props), ...(r.inputs ? { inputs: withUrn(r.inputs, props) } : {}) };
    }),
    update: (id, olds, news) => onResource(urnOf(news), async () => {
      const r = await ops.update(id, olds, news).catch((e: unknown) => { throw withFrontEndKeys(e, news); });
      return { ...r, outs: withUrn(r.outs, news) };
    }),
    delete: (id, props) => onResource(urnOf(props), () => ops.delete(id, props)),
    configure: async (req) => configureFromStack(req),
  };
}

/**
 * A diff as the plugin is to send it. The plugin (cmd/dynamic-provider/index.js of @pulumi/pulumi,
 * 3.259.0) sends only `changes`, `replaces` and `deleteBeforeReplace`: no changed keys and no
 * detailed diff, whatever the diff holds. The CLI then shows the difference between the old and the
 * new inputs as its events hold them (pkg/backend/display/rows.go, getDiffInfo), where every
 * secret is `[secret]` on both sides, so a secret the service changed (a Slack token rotated by
 * hand) showed as the update alone, with no `[diff: ~auth]`.
 *
 * So a diff that finds a secret key changed answers its changes as unknown: the engine then
 * compares the old and the new inputs itself, unmasked, and keeps the changed keys and the
 * detailed diff of what differs (pkg/resource/deploy/step_generator.go, diffResource), which the
 * CLI shows as the native plugin's: `[diff: ~auth]`, and with `--diff` (Pulumi 3.276.0, down to the
 * key inside) `~ auth: { ~ accessToken: [secret] => [secret] }`. The engine
 * finds every change this diff finds: the old inputs are the program's last ones, whose outputs
 * compare equal to them (the diff after an `up` is empty), or after a refresh the read's inputs,
 * each declared key as the outputs hold it (lifecycle.ts `readInputs`); the replacement and
 * `deleteBeforeReplace` stay this diff's. A diff with no secret change is sent as it is, and the
 * engine's own comparison, which sees the defaults a service fills in, never decides it.
 */
export function engineDiff<D extends { changes?: boolean; secrets?: readonly string[] }>(d: D): D {
  return d.changes === true && d.secrets?.length ? { ...d, changes: undefined } : d;
}

/** The URN a resource's inputs or state carry (classes.ts), or empty for a state written before they did. */
function urnOf(props: Record<string, unknown>): string {
  return typeof props.__urn === "string" ? props.__urn : "";
}

/** `props` with the `__urn` of `from`, when it has one. */
function withUrn(props: Record<string, unknown> | undefined, from: Record<string, unknown>): Record<string, unknown> {
  return from.__urn === undefined ? { ...props } : { ...props, __urn: from.__urn };
}

/** `err`, when a {@link ResourceInitFailure}, with the `__provider` and `__urn` of `inputs` in its state. */
function withFrontEndKeys(err: unknown, inputs: Record<string, unknown>): unknown {
  if (!(err instanceof ResourceInitFailure)) return err;
  const keys = Object.fromEntries(FRONT_END_KEYS.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));
  return new ResourceInitFailure(err.message, err.id, { ...err.properties, ...keys }, err.reasons);
}

