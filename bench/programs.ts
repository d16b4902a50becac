/**
 * The benchmark's stacks: N resources of the provider (every kind, in the proportions of
 * {@link mixCounts}), through the dynamic front end and through the
 * native plugin; N of the floor resource that makes no request; and N "wide" floor resources with
 * exactly the same arguments (secrets included) as the real ones, which separates what the engine
 * spends on wide resources from what the provider spends.
 */
import { randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";
import { FloorResource, WideFloorResource } from "pulumi-notify/dist/provider/resources/floor";
import { RESOURCE_TABLES } from "pulumi-notify/dist/provider/resources/index";
import { registration } from "pulumi-notify/dist/provider/resources/classes";
import type { ResourceTable } from "pulumi-notify/dist/provider/resources/fields";

/**
 * A tag of this process's run, in the name of every domain of the mix: a domain name is claimed
 * once across the whole service, so two runs against one service never ask for the same name.
 * The same in every stack of the run (the notify, native and wide floor stacks carry the same
 * bytes), and in an interrupted up and its recovery (which adopt what the first one made).
 */
export const RUN_TAG = randomBytes(4).toString("hex");

/** What the arguments of one resource may use beyond its index. */
interface Refs {
  /** How many of each kind the mix holds. */
  counts: Record<Kind, number>;
  /** An output of the i-th resource of a kind registered before (the engine orders the two by it). */
  output(kind: Kind, i: number, key: string): pulumi.Input<string>;
  /** The run's tag ({@link RUN_TAG} unless the caller gives another). */
  run: string;
}

/** The arguments of the i-th resource of each kind ({@link mixCounts} says how many, and in which order they are registered). */
const args = {
  Integration: (i: number) => ({
    identifier: `bench-int-${i}`, name: `Bench ${i}`, providerId: "sendgrid", channel: "email" as const, active: true,
    credentials: { apiKey: `SG.bench-${i}`, from: "no-reply@example.com" },
  }),
  /** The first `counts.Translation` have translation on: each has a translation in the mix. */
  Workflow: (i: number, r: Refs) => ({
    workflowId: `bench-wf-${i}`, name: `Bench ${i}`, active: true,
    ...(i < r.counts.Translation ? { isTranslationEnabled: true } : {}),
    steps: [
      { name: "Inbox", type: "in_app" as const, controlValues: { body: `Hello ${i}` } },
      { name: "Wait", type: "delay" as const, controlValues: { type: "regular", amount: 1, unit: "hours" } },
      { name: "Email", type: "email" as const, controlValues: { subject: `Bench ${i}`, body: "<p>Hi</p>", editorType: "html" } },
    ],
  }),
  /** Uses subscribers `bench-sub-<i>` and the `slack-bench` integration. */
  SubscriberCredentials: (i: number) => ({
    subscriberId: `bench-sub-${i}`, providerId: "slack" as const, integrationIdentifier: "slack-bench",
    credentials: { webhookUrl: `https://hooks.slack.example/services/${i}` },
  }),
  Layout: (i: number) => ({
    layoutId: `bench-layout-${i}`, name: `Bench ${i}`,
    controlValues: { email: { editorType: "html" as const, body: `<html><body><div>Bench ${i}</div>{{content}}</body></html>` } },
  }),
  /** Uses subscribers `bench-sub-<i>` and `bench-sub-<i + 1>`. */
  Topic: (i: number) => ({ key: `bench-topic-${i}`, name: `Bench ${i}`, subscribers: [`bench-sub-${i}`, `bench-sub-${i + 1}`] }),
  /** A value for the bench key's own environment (`env_env0` in the emulator). */
  EnvironmentVariable: (i: number) => ({ key: `BENCH_${i}`, values: { env_env0: `value-${i}` } }),
  Environment: (i: number) => ({ name: `Bench ${i}`, color: "#3498db" }),
  Context: (i: number) => ({ type: "tenant", contextId: `bench-${i}`, data: { name: `Tenant ${i}`, plan: i % 2 ? "pro" : "free" } }),
  /** The French copy of workflow i of the mix, its id taken from the workflow's output. */
  Translation: (i: number, r: Refs) => ({
    resourceType: "workflow" as const, resourceId: r.output("Workflow", i, "workflowId"), locale: "fr_FR",
    content: { hello: `Bonjour ${i}`, subject: `Banc ${i}` },
  }),
  /** Needs a plan above Pro on the service (the emulator's default, Business). */
  Domain: (i: number, r: Refs) => ({
    name: `bench-${i}-${r.run}.example.com`, data: { owner: "bench" },
    routes: { support: { type: "webhook" as const }, sales: { type: "webhook" as const, data: { team: `team-${i}` } } },
  }),
};
type Kind = keyof typeof args;

/**
 * How many of each kind N resources hold: a fifth each of workflows and subscriber credentials; a
 * twentieth each of layouts, topics, contexts, environment variables and translations (one per
 * workflow of the first twentieth, which have translation on); a hundredth each of environments
 * and domains (two routes each); the rest integrations (N = 500: 170 integrations, 100 workflows,
 * 100 credentials, 25 layouts, 25 topics, 25 contexts, 25 variables, 25 translations, 5
 * environments, 5 domains). The emulator the bench runs against allows that many environments
 * and variables. Every kind of RESOURCE_TABLES is here (test/unit/bench/programs.test.ts).
 */
export function mixCounts(n: number): Record<Kind, number> {
  const counts = {
    Workflow: Math.floor(n / 5), SubscriberCredentials: Math.floor(n / 5),
    Layout: Math.floor(n / 20), Topic: Math.floor(n / 20), Context: Math.floor(n / 20), EnvironmentVariable: Math.floor(n / 20),
    Translation: Math.floor(n / 20), Environment: Math.floor(n / 100), Domain: Math.floor(n / 100),
  };
  return { Integration: n - Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
}

/** Options of the mix's programs. */
export interface MixOptions {
  /** The tag in the domain names (default {@link RUN_TAG}). */
  run?: string;
}

/**
 * Registers N resources, `make(kind, name, args)` for each, each kind after those it refers to
 * (the order of {@link mixCounts}); the names are the same in every stack of a run.
 */
function mix(n: number, opts: MixOptions, make: (kind: Kind, name: string, a: Record<string, unknown>) => pulumi.Resource): void {
  const counts = mixCounts(n);
  const made = new Map<string, pulumi.Resource>();
  const refs: Refs = {
    counts,
    run: opts.run ?? RUN_TAG,
    output: (kind, i, key) => {
      const res = made.get(`${kind}-${i}`);
      if (!res) throw new Error(`the mix refers to ${kind}-${i}, which it has not registered`);
      return (res as unknown as Record<string, pulumi.Output<string>>)[key]!;
    },
  };
  for (const kind of Object.keys(counts) as Kind[]) {
    for (let i = 0; i < counts[kind]; i++) made.set(`${kind}-${i}`, make(kind, `${kind}-${i}`, args[kind](i, refs)));
  }
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
 * (`notify:index:<name>`) with what the dynamic front end's NotifyResource registers
 * ({@link registration}) but `__provider`.
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

/** N resources whose provider does no I/O. */
export function floorProgram(n: number): () => Promise<void> {
  return async () => {
    for (let i = 0; i < n; i++) new FloorResource(`floor-${i}`, { value: `v${i}` });
  };
}

/**
 * N request-free resources with the real resources' arguments, each table's secret inputs secret
 * as in the provider, and the same references between them (a translation waits for its workflow).
 */
export function wideFloorProgram(n: number, opts: MixOptions = {}): () => Promise<void> {
  return async () => mix(n, opts, (kind, name, a) => {
    const secret = tableOf(kind).secretKeys.filter((k) => k in a);
    const withSecret = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, secret.includes(k) ? pulumi.secret(v) : v]));
    return new WideFloorResource(name, { value: name, ...withSecret }, { secretOutputs: secret });
  });
}
