/**
 * How a resource class is made from its field table ({@link resourceClass}): each registers its
 * table's type with the dynamic front end (`pulumi-nodejs:dynamic/notify:<name>`,
 * {@link providerModule} as `__provider`); the classes themselves are one line each in
 * exports.ts. They live apart from the implementation modules (integration.ts, workflow.ts, ...:
 * field table, operations, `dynamicProvider`) because a class extends `pulumi.CustomResource`,
 * and defining one loads all of `@pulumi/pulumi`: the native plugin and the dynamic provider's
 * `__provider` line load only the implementation modules, so the plugin starts without it.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerModule, RESOURCE_MODULES } from "./dynamic";
import type { ArgsOf, OutputsOf, ResourceTable, StateOf } from "./fields";

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
 * Base class of the provider's resources: type `pulumi-nodejs:dynamic/notify:<name>`, exactly what
 * `pulumi.dynamic.Resource` registers, with {@link providerModule} of the table's implementation
 * module (in {@link RESOURCE_MODULES}, exporting `dynamicProvider`) as `__provider`. Every output
 * of the table is registered; the table's secret fields are secret in the inputs and the outputs.
 */
export abstract class NotifyResource extends pulumi.CustomResource {
  protected constructor(table: ResourceTable, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const r = registration(table, args, opts);
    r.props.__provider = providerModule(RESOURCE_MODULES + table.module);
    super(`pulumi-nodejs:dynamic/notify:${table.name}`, name, r.props, r.opts);
  }
}

/**
 * A resource class as {@link resourceClass} makes it: constructed from a name, the kind's Args
 * and options, its instances carry every output of the kind's State as a `pulumi.Output`, and it
 * keeps the statics of `pulumi.CustomResource` (`isInstance`).
 */
export type ResourceClass<Args, State> = Omit<typeof NotifyResource, "prototype"> &
  (new (name: string, args: Args, opts?: pulumi.CustomResourceOptions) => NotifyResource & OutputsOf<State>);

/**
 * The class of the resource `table` describes, to extend in one line, named by its Args and State:
 * `export class Topic extends (resourceClass(TOPIC) as ResourceClass<TopicArgs, TopicState>) {}`.
 * The assertion is how the declaration files name those types (a call's type is written out
 * field by field, and compile errors and hovers then show no `TopicArgs`); the compiler refuses it
 * unless the named types fit the table's, and it lets a kind give its own Args (a workflow's
 * steps, per step kind).
 */
export function resourceClass<T extends ResourceTable>(table: T): ResourceClass<ArgsOf<T>, StateOf<T>> {
  return class extends NotifyResource {
    constructor(name: string, args: ArgsOf<T>, opts?: pulumi.CustomResourceOptions) {
      super(table, name, args, opts);
    }
  } as unknown as ResourceClass<ArgsOf<T>, StateOf<T>>;
}
