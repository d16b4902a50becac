/**
 * The benchmark's stacks: N resources of the provider (every kind, in the proportions of
 * {@link mixCounts}, each with the arguments of its descriptor in test/kinds), through the dynamic
 * front end and through the native plugin; N of the baseline resource that makes no request; and N
 * "wide" baseline resources with exactly the same arguments (secrets included) as the real ones,
 * which separates what the engine spends on wide resources from what the provider spends.
 */
import { randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";
import { BaselineResource, WideBaselineResource } from "./baseline";
import { RESOURCE_TABLES } from "pulumi-notify/dist/provider/resources/index";
import { registration } from "pulumi-notify/dist/provider/resources/classes";
import type { ResourceTable } from "pulumi-notify/dist/provider/resources/fields";
import type { ResourceKind } from "pulumi-notify/dist/provider/resources/index";
import type { BenchRefs, Obj, RequestCounts } from "../test/kinds/descriptor";
import { floorOf, readsOf } from "../test/kinds/floor";
import { DESCRIPTORS, KINDS } from "../test/kinds/index";

/**
 * A tag of this process's run, in the name of every domain of the mix: a domain name is claimed
 * once across the whole service, so two runs against one service never ask for the same name.
 * The same in every stack of the run (the notify, native and wide baseline stacks carry the same
 * bytes), and in an interrupted up and its recovery (which adopt what the first one made).
 */
export const RUN_TAG = randomBytes(4).toString("hex");

type Kind = ResourceKind;

/**
 * How many of each kind N resources hold: each kind's share of its descriptor (test/kinds/<kind>.ts:
 * one in `per`, rounded down), the rest of the kind whose share is the rest (for N = 500: 170
 * integrations, 100 workflows, 100 credentials, 25 layouts, topics, contexts, variables and
 * translations, 5 environments and domains). The emulator the bench runs against allows that many
 * environments and variables. Every registered kind is here, in the registration's order (which
 * puts a kind after those it refers to: a translation after its workflow).
 */
export function mixCounts(n: number): Record<Kind, number> {
  const counts = Object.fromEntries(KINDS.map((k) => [k.kind, k.bench.per === "rest" ? 0 : Math.floor(n / k.bench.per)])) as Record<Kind, number>;
  const rest = KINDS.filter((k) => k.bench.per === "rest");
  if (rest.length !== 1) throw new Error(`the bench mix needs exactly one kind whose share is the rest, not ${rest.map((k) => k.kind).join(", ") || "none"}`);
  counts[rest[0]!.kind] = n - Object.values(counts).reduce((a, b) => a + b, 0);
  return counts;
}

/** Options of the mix's programs. */
export interface MixOptions {
  /** The tag in the domain names (default {@link RUN_TAG}). */
  run?: string;
  /**
   * Whether each resource is declared with its kind's one-field change (its floor's `change`), read
   * each time the program runs: the bench's update runs the same stack again with it on.
   */
  changed?: () => boolean;
}

/**
 * The N resources' kinds, names and arguments, each kind after those it refers to (the order of
 * {@link mixCounts}), the names the same in every stack of a run; `output` gives what one refers
 * to of one made before it.
 */
function* mixArgs(n: number, opts: MixOptions, output: BenchRefs["output"]): Generator<{ kind: Kind; name: string; args: Obj }> {
  const counts = mixCounts(n);
  const refs: BenchRefs = { counts, run: opts.run ?? RUN_TAG, output };
  const changed = opts.changed?.() ?? false;
  for (const kind of Object.keys(counts) as Kind[]) {
    const d = DESCRIPTORS[kind];
    for (let i = 0; i < counts[kind]; i++) {
      const args = d.bench.args(i, refs);
      yield { kind, name: `${kind}-${i}`, args: changed ? d.floor.change(args) : args };
    }
  }
}

/** Registers N resources, `make(kind, name, args, index)` for each (see {@link mixArgs}). */
function mix(n: number, opts: MixOptions, make: (kind: Kind, name: string, a: Record<string, unknown>, index: number) => pulumi.Resource): void {
  const made = new Map<string, pulumi.Resource>();
  const output: BenchRefs["output"] = (kind, i, key) => {
    const res = made.get(`${kind}-${i}`);
    if (!res) throw new Error(`the mix refers to ${kind}-${i}, which it has not registered`);
    return (res as unknown as Record<string, pulumi.Output<string>>)[key]!;
  };
  let index = 0;
  for (const { kind, name, args } of mixArgs(n, opts, output)) made.set(name, make(kind, name, args, index++));
}

/**
 * The request floor of the N resources of the mix (test/kinds/floor.ts): what `up` (create),
 * `preview --refresh` (read), the update of {@link MixOptions.changed} and `destroy` (delete) can
 * at least cost. The floors read no reference between resources, so none is resolved.
 */
export function mixFloor(n: number): RequestCounts {
  return floorOf(mixObjects(n));
}

/** The requests of each read of the N resources of the mix in its floor, in the mix's order (test/kinds/floor.ts readsOf). */
export function mixReads(n: number): number[] {
  return readsOf(mixObjects(n));
}

/** The N resources of the mix as the floor takes them: each kind and its declared inputs. */
function mixObjects(n: number): { kind: Kind; inputs: Obj }[] {
  return [...mixArgs(n, {}, () => "(a reference)")].map(({ kind, args }) => ({ kind, inputs: args }));
}

/**
 * What the mix needs on the service before an `up`: `subscribers` subscribers `bench-sub-<i>` (a
 * topic's, a subscriber's credentials') and the active Slack integration `slack-bench` (the
 * credentials'). `api` calls the service (its test controls included).
 */
export async function prepareMix(api: (method: string, path: string, body?: unknown) => Promise<unknown>, subscribers: number): Promise<void> {
  await api("POST", "/__emulator/seed", { subscribers: Array.from({ length: subscribers }, (_, i) => ({ subscriberId: `bench-sub-${i}` })) });
  await api("POST", "/v1/integrations", { identifier: "slack-bench", providerId: "slack", channel: "chat", name: "Slack", active: true });
}

const tableOf = (kind: Kind): ResourceTable => RESOURCE_TABLES.find((t) => t.name === kind)!;

/** N resources of the provider; `adopt` sets adopt: true on each (the recovery after an interrupted up). */
export function scaleProgram(n: number, opts: MixOptions & { adopt?: boolean } = {}): () => Promise<void> {
  const adopt = opts.adopt ? { adopt: true } : {};
  const classes = notify as unknown as Record<Kind, new (name: string, a: object) => pulumi.CustomResource>;
  return async () => mix(n, opts, (kind, name, a) => new classes[kind](name, { ...a, ...adopt }));
}

/**
 * A resource of the native plugin `pulumi-resource-notify`, registered by type token
 * (`notify:index:<name>`) with what the dynamic front end's classes register (classes.ts dynamicResource)
 * ({@link registration}) but `__provider` and `__urn`.
 */
class NativeResource extends pulumi.CustomResource {
  constructor(table: ResourceTable, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const r = registration(table, args, opts);
    super(`notify:index:${table.name}`, name, r.props, r.opts);
  }
}

/** The same N resources as {@link scaleProgram}, through the native plugin (the project must list it in plugins.providers). */
export function nativeScaleProgram(n: number, opts: MixOptions = {}): () => Promise<void> {
  return async () => mix(n, opts, (kind, name, a) => new NativeResource(tableOf(kind), name, a));
}

/** N resources whose provider does no I/O; `changed` as in {@link MixOptions}, a change of every value. */
export function baselineProgram(n: number, opts: Pick<MixOptions, "changed"> = {}): () => Promise<void> {
  return async () => {
    const suffix = opts.changed?.() ? "-changed" : "";
    for (let i = 0; i < n; i++) new BaselineResource(`baseline-${i}`, { value: `v${i}${suffix}` });
  };
}

/**
 * N request-free resources with the real resources' arguments, each table's secret inputs secret
 * as in the provider, and the same references between them (a translation waits for its workflow).
 */
export function wideBaselineProgram(n: number, opts: MixOptions = {}): () => Promise<void> {
  const reads = mixReads(n);
  return async () => mix(n, opts, (kind, name, a, i) => {
    const secret = tableOf(kind).secretKeys.filter((k) => k in a);
    const withSecret = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, secret.includes(k) ? pulumi.secret(v) : v]));
    // The baseline compares `value` alone: it changes with the arguments, so the update updates each.
    const value = opts.changed?.() ? `${name}-changed` : name;
    // What the resource's read costs in the floor: the waiting baseline (READ_WAIT_ENV) waits for it.
    return new WideBaselineResource(name, { value, readRequests: reads[i]!, ...withSecret }, { secretOutputs: secret });
  });
}
