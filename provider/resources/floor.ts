/**
 * A trivial dynamic resource that makes no request: the floor that benchmarks and the smoke test
 * compare against. Not part of the public surface.
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULES, serializableProvider } from "./dynamic";

/** Inputs of {@link FloorResource}. */
export interface FloorResourceArgs {
  value: pulumi.Input<string>;
}

/** Outputs: the inputs as given (so a wide floor carries as much state as a real resource), plus `length`. */
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
    if (process.env.NOTIFY_FLOOR_FAIL === "1") throw new Error("floor create failed on purpose");
    return { id: `floor-${String(inputs.value)}`, outs: echo(inputs) };
  },
  async read(id: string, props: Record<string, unknown>) {
    const { length: _l, ...inputs } = props;
    return { id, props, inputs };
  },
  async update(_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { outs: echo(news) };
  },
  async delete() {},
};

const floorProvider = serializableProvider(`${RESOURCE_MODULES}floor`);

/** A dynamic resource whose operations do no I/O. */
export class FloorResource extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  declare readonly length: pulumi.Output<number>;
  constructor(name: string, args: FloorResourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(floorProvider, name, { value: args.value, length: undefined }, opts, "notify", "Floor");
  }
}

/**
 * A floor resource with arbitrary extra properties, secrets included: the engine's cost of a
 * resource as wide as a real one, still without any request.
 */
export class WideFloorResource extends pulumi.dynamic.Resource {
  constructor(name: string, args: { value: pulumi.Input<string> } & Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions & { secretOutputs?: string[] }) {
    const { secretOutputs, ...rest } = opts ?? {};
    super(floorProvider, name, { length: undefined, ...args }, { ...rest, additionalSecretOutputs: secretOutputs }, "notify", "WideFloor");
  }
}
