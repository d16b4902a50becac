/**
 * What a resource class registers, from its field table ({@link dynamicResource}): its table's
 * type with the dynamic front end (`pulumi-nodejs:dynamic/notify:<name>`, {@link providerModule}
 * as `__provider`); the classes themselves are in exports.ts. They live apart from the
 * implementation modules (integration.ts, workflow.ts, ...: field table, operations,
 * `dynamicProvider`) because a class extends `pulumi.CustomResource`, and defining one loads all
 * of `@pulumi/pulumi`: the native plugin and the dynamic provider's `__provider` line load only
 * the implementation modules, so the plugin starts without it.
 */
import * as pulumi from "@pulumi/pulumi";
import { programConnectionChecked } from "../programConnection";
import { providerModule, RESOURCE_MODULES } from "./dynamic";
import type { ArgsOf, ResourceTable } from "./fields";

/**
 * What a resource of `table` registers, whichever front end serves it: every output of the table
 * (as a generated SDK registers them), the table's secret fields secret in the inputs and, through
 * `additionalSecretOutputs`, in the outputs.
 */
export function registration(table: ResourceTable, args: object, opts?: pulumi.CustomResourceOptions): { props: pulumi.Inputs; opts?: pulumi.CustomResourceOptions } {
  const secret: readonly string[] = table.secretKeys;
  const props: pulumi.Inputs = Object.fromEntries(table.outputKeys.map((k) => [k, undefined]));
  for (const [k, v] of Object.entries(args)) props[k] = v !== undefined && secret.includes(k) ? pulumi.secret(v) : v;
  return { props, opts: secret.length ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secret] } : opts };
}

/**
 * The arguments of `pulumi.CustomResource`'s constructor for a resource of `table`: type
 * `pulumi-nodejs:dynamic/notify:<name>`, exactly what `pulumi.dynamic.Resource` registers, with
 * {@link providerModule} of the table's implementation module (in {@link RESOURCE_MODULES},
 * exporting `dynamicProvider`) as `__provider`; every output of the table registered, and the
 * table's secret fields secret in the inputs and the outputs.
 *
 * Each class in exports.ts extends `pulumi.CustomResource` itself and passes these to `super`:
 * the engine records where a resource is declared as the frame after the class's constructor
 * (`Resource.stackTrace(4)` in @pulumi/pulumi's resource.js counts Resource, CustomResource and
 * one class), so a base class of our own in between would place every resource in this package
 * rather than in the program.
 */
export function dynamicResource<T extends ResourceTable>(table: T, name: string, args: ArgsOf<T>, opts?: pulumi.CustomResourceOptions): [string, string, pulumi.Inputs, pulumi.CustomResourceOptions | undefined] {
  const type = `pulumi-nodejs:dynamic/notify:${table.name}`;
  const r = registration(table, args, opts);
  r.props.__provider = providerModule(RESOURCE_MODULES + table.module);
  // The registration waits for the connection check (connectionCheck.ts): a refused key or a wrong
  // address fails the program before the engine stores anything with the provider's configuration.
  r.props.__urn = pulumi.all([urnOf(type, name, opts?.parent), programConnectionChecked()]).apply(([urn]) => urn);
  return [type, name, r.props, r.opts];
}

/**
 * The URN the engine gives the resource `name` of `type` under `parent`, for `__urn`: the engine's
 * dynamic-provider plugin gives an operation no URN, and the resource's warnings need it
 * (dynamic.ts). `pulumi.createUrn` computes it as the engine does; the parent's URN goes in as a
 * promise, which carries no dependency: an output of the parent would make the resource depend on
 * its parent, and on a component parent's other children, which could wait on each other.
 */
function urnOf(type: string, name: string, parent: pulumi.Resource | undefined): pulumi.Output<string> {
  const parentUrn = parent && new Promise<string>((resolve) => parent.urn.apply(resolve));
  return pulumi.createUrn(name, type, parentUrn);
}

/**
 * Makes each output of `resource` that the service adds to (a field of `table` with the `output`
 * fact: a workflow's steps gain their ids) wait for the `declaredKeys` output, which every answer
 * of the service's object holds and no input does.
 *
 * The engine's dynamic-provider plugin supports no previews, so the outputs a preview of a create
 * or an update gives the program are the inputs (pkg/resource/plugin/provider_plugin.go, Update:
 * `Properties: req.NewInputs`): a workflow's steps without the ids the service gives them, so an
 * output made of them showed `"inbox (in_app)" => "undefined (in_app)"` in a `preview --refresh`
 * that plans the workflow's update, as if the steps lost their ids. Waiting on `declaredKeys` makes
 * them unknown there, as the native plugin gives them when the update changes them (native/server.ts
 * `previewOutputs`: it also knows when it does not and keeps them, which a preview of a dynamic
 * resource cannot); everywhere else (an `up`, a preview that leaves the resource as it is) they
 * are the service's.
 */
export function serviceOutputs(resource: pulumi.CustomResource, table: ResourceTable): void {
  const outputs = resource as unknown as Record<string, pulumi.Output<unknown>>;
  for (const [k, f] of Object.entries(table.inputs)) {
    if (f.output !== undefined) outputs[k] = pulumi.all([outputs[k], outputs.declaredKeys]).apply(([v]) => v);
  }
}
