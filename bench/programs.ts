/**
 * The benchmark's stacks: N resources of the provider (every kind, in the proportions of
 * {@link mixCounts}), through the dynamic front end and through the
 * native plugin; N of the floor resource that makes no request; and N "wide" floor resources with
 * exactly the same arguments (secrets included) as the real ones, which separates what the engine
 * spends on wide resources from what the provider spends.
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";
import { FloorResource, WideFloorResource } from "pulumi-notify/dist/provider/resources/floor";
import { RESOURCE_TABLES } from "pulumi-notify/dist/provider/resources/index";
import { registration } from "pulumi-notify/dist/provider/resources/classes";
import type { ResourceTable } from "pulumi-notify/dist/provider/resources/fields";

/** The arguments of the i-th resource of each kind. */
const args = {
  Integration: (i: number) => ({
    identifier: `bench-int-${i}`, name: `Bench ${i}`, providerId: "sendgrid", channel: "email" as const, active: true,
    credentials: { apiKey: `SG.bench-${i}`, from: "no-reply@example.com" },
  }),
  Workflow: (i: number) => ({
    workflowId: `bench-wf-${i}`, name: `Bench ${i}`, active: true,
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
};
type Kind = keyof typeof args;

/**
 * The resource kinds the mix leaves out, and why: each resource of the mix stands alone (made in
 * any order, N of one kind at once), and these need another resource first.
 */
export const LEFT_OUT_OF_MIX: Readonly<Record<string, string>> = {
  Translation: "needs its workflow or layout, with translation on, to exist first",
  Domain: "a name is claimed once across the service and needs a plan above Pro; its routes need the domain",
};

/**
 * How many of each kind N resources hold: a twentieth each of layouts, topics, contexts and
 * environment variables, a hundredth environments, a fifth each of workflows and subscriber
 * credentials, the rest integrations (N = 500: 195 integrations, 100 workflows, 100 credentials,
 * 25 layouts, 25 topics, 25 contexts, 25 variables, 5 environments). The emulator the bench runs against allows that many
 * environments and variables.
 */
export function mixCounts(n: number): Record<Kind, number> {
  const counts = {
    Workflow: Math.floor(n / 5), SubscriberCredentials: Math.floor(n / 5),
    Layout: Math.floor(n / 20), Topic: Math.floor(n / 20), Context: Math.floor(n / 20), EnvironmentVariable: Math.floor(n / 20), Environment: Math.floor(n / 100),
  };
  return { Integration: n - Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
}

/** Registers N resources, `make(kind, name, args)` for each; the names are the same in every stack. */
function mix(n: number, make: (kind: Kind, name: string, a: Record<string, unknown>) => void): void {
  for (const [kind, count] of Object.entries(mixCounts(n)) as [Kind, number][]) {
    for (let i = 0; i < count; i++) make(kind, `${kind}-${i}`, args[kind](i));
  }
}

const tableOf = (kind: Kind): ResourceTable => RESOURCE_TABLES.find((t) => t.name === kind)!;

/** N resources of the provider; `adopt` sets adopt: true on each (the recovery after an interrupted up). */
export function scaleProgram(n: number, opts: { adopt?: boolean } = {}): () => Promise<void> {
  const adopt = opts.adopt ? { adopt: true } : {};
  const classes = notify as unknown as Record<Kind, new (name: string, a: object) => pulumi.CustomResource>;
  return async () => mix(n, (kind, name, a) => new classes[kind](name, { ...a, ...adopt }));
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
export function nativeScaleProgram(n: number): () => Promise<void> {
  return async () => mix(n, (kind, name, a) => new NativeResource(tableOf(kind), name, a));
}

/** N resources whose provider does no I/O. */
export function floorProgram(n: number): () => Promise<void> {
  return async () => {
    for (let i = 0; i < n; i++) new FloorResource(`floor-${i}`, { value: `v${i}` });
  };
}

/** N request-free resources with the real resources' arguments, each table's secret inputs secret as in the provider. */
export function wideFloorProgram(n: number): () => Promise<void> {
  return async () => mix(n, (kind, name, a) => {
    const secret = tableOf(kind).secretKeys.filter((k) => k in a);
    const withSecret = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, secret.includes(k) ? pulumi.secret(v) : v]));
    new WideFloorResource(name, { value: name, ...withSecret }, { secretOutputs: secret });
  });
}
