/**
 * The bench's baseline: a trivial dynamic resource that makes no request, so an operation on N of
 * them costs what the engine and the Node.js dynamic-provider plugin alone spend. The scale bench
 * and the smoke test compare against it. It lives here, outside the package (which ships
 * dist/provider, not dist/bench): the plugin requires it by package path, which resolves in a
 * checkout, where the bench and the tests run.
 */
import * as pulumi from "@pulumi/pulumi";

/** Package path of this module, as the plugin requires it. */
const BASELINE_MODULE = "pulumi-notify/dist/bench/baseline";

/**
 * A provider object as `pulumi.dynamic.Resource` expects one, for the implementation exported as
 * `provider` by the module at `implPath`: what a dynamic resource written the usual way looks
 * like (Pulumi's closure serializer turns it into the resource's `__provider`). The baseline uses
 * it, so the baseline is a plain `pulumi.dynamic.Resource`; test/e2e/upgrade.test.ts writes with
 * it the state the provider's resources wrote before they carried a one-line `__provider`.
 */
export function serializableProvider(implPath: string): pulumi.dynamic.ResourceProvider {
  const p = () => require(implPath).provider;
  return {
    configure: (r) => require("pulumi-notify/dist/provider/config").configureFromStack(r),
    check: (o, n) => p().check(o, n),
    diff: (i, o, n) => p().diff(i, o, n),
    create: (n) => p().create(n),
    read: (i, o) => p().read(i, o),
    update: (i, o, n) => p().update(i, o, n),
    delete: (i, o) => p().delete(i, o),
  };
}

/** Inputs of {@link BaselineResource}. */
export interface BaselineResourceArgs {
  value: pulumi.Input<string>;
}

/**
 * The environment variable that makes the baseline's reads wait (ms): each read of a resource whose
 * input `readRequests` is above 0 waits that long once, as a provider's read waits for its requests
 * at one latency (those it makes at once wait together). The bench sets it for its waiting baseline.
 */
export const READ_WAIT_ENV = "NOTIFY_BASELINE_READ_WAIT_MS";

/** Outputs: the inputs as given (so a wide baseline carries as much state as a real resource), plus `length`. */
function echo(inputs: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _p, ...rest } = inputs;
  return { ...rest, length: String(inputs.value).length };
}

/** The provider implementation. */
export const provider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { inputs: news, failures: [] };
  },
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { changes: olds.value !== news.value };
  },
  async create(inputs: Record<string, unknown>) {
    if (process.env.NOTIFY_BASELINE_FAIL === "1") throw new Error("baseline create failed on purpose");
    return { id: `baseline-${String(inputs.value)}`, outs: echo(inputs) };
  },
  async read(id: string, props: Record<string, unknown>) {
    const { length: _l, ...inputs } = props;
    // The waiting baseline: a read that makes requests in the floor waits one request's latency.
    const wait = Number(process.env[READ_WAIT_ENV] ?? 0);
    if (wait > 0 && Number(props.readRequests) > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return { id, props, inputs };
  },
  async update(_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { outs: echo(news) };
  },
  async delete() {},
};

const baselineProvider = serializableProvider(BASELINE_MODULE);

/** A dynamic resource whose operations do no I/O. */
export class BaselineResource extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  declare readonly length: pulumi.Output<number>;
  constructor(name: string, args: BaselineResourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(baselineProvider, name, { value: args.value, length: undefined }, opts, "notify", "Baseline");
  }
}

/**
 * A baseline resource with arbitrary extra properties, secrets included: the engine's cost of a
 * resource as wide as a real one, still without any request.
 */
export class WideBaselineResource extends pulumi.dynamic.Resource {
  constructor(name: string, args: { value: pulumi.Input<string> } & Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions & { secretOutputs?: string[] }) {
    const { secretOutputs, ...rest } = opts ?? {};
    super(baselineProvider, name, { length: undefined, ...args }, { ...rest, additionalSecretOutputs: secretOutputs }, "notify", "WideBaseline");
  }
}
