/**
 * A trivial dynamic resource that makes no request: the floor that benchmarks and the smoke test
 * compare against. Not part of the public surface.
 */
import * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "./dynamic";

/** Inputs of {@link FloorResource}. */
export interface FloorResourceArgs {
  value: pulumi.Input<string>;
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
    return { id: `floor-${String(inputs.value)}`, outs: { value: inputs.value, length: String(inputs.value).length } };
  },
  async read(id: string, props: Record<string, unknown>) {
    return { id, props, inputs: { value: props.value } };
  },
  async update(_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { outs: { value: news.value, length: String(news.value).length } };
  },
  async delete() {},
};

const floorProvider = serializableProvider("pulumi-notify/dist/provider/resources/floor");

/** A dynamic resource whose operations do no I/O. */
export class FloorResource extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  declare readonly length: pulumi.Output<number>;
  constructor(name: string, args: FloorResourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(floorProvider, name, { value: args.value, length: undefined }, opts, "notify", "Floor");
  }
}
