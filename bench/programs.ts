/**
 * The benchmark's stacks: N resources of the provider (half integrations, a quarter workflows of
 * three steps, a quarter subscriber credentials), through the dynamic front end and through the
 * native plugin; N of the floor resource that makes no request; and N "wide" floor resources with
 * exactly the same arguments (secrets included) as the real ones, which separates what the engine
 * spends on wide resources from what the provider spends.
 */
import * as pulumi from "@pulumi/pulumi";
import * as notify from "pulumi-notify";
import { FloorResource, WideFloorResource } from "pulumi-notify/dist/provider/resources/floor";
import { RESOURCE_TABLES } from "pulumi-notify/dist/provider/resources/index";
import type { ResourceTable } from "pulumi-notify/dist/provider/resources/fields";

/** The arguments of the i-th resource of each kind. */
const args = {
  integration: (i: number) => ({
    identifier: `bench-int-${i}`, name: `Bench ${i}`, providerId: "sendgrid", channel: "email" as const, active: true,
    credentials: { apiKey: `SG.bench-${i}`, from: "no-reply@example.com" },
  }),
  workflow: (i: number) => ({
    workflowId: `bench-wf-${i}`, name: `Bench ${i}`, active: true,
    steps: [
      { name: "Inbox", type: "in_app" as const, controlValues: { body: `Hello ${i}` } },
      { name: "Wait", type: "delay" as const, controlValues: { type: "regular", amount: 1, unit: "hours" } },
      { name: "Email", type: "email" as const, controlValues: { subject: `Bench ${i}`, body: "<p>Hi</p>", editorType: "html" } },
    ],
  }),
  /** Uses subscribers `bench-sub-<i>` and the `slack-bench` integration. */
  credentials: (i: number) => ({
    subscriberId: `bench-sub-${i}`, providerId: "slack" as const, integrationIdentifier: "slack-bench",
    credentials: { webhookUrl: `https://hooks.slack.example/services/${i}` },
  }),
};

function mix(n: number, make: { integration(i: number): void; workflow(i: number): void; credentials(i: number): void }): void {
  const integrations = Math.floor(n / 2);
  const workflows = Math.floor(n / 4);
  for (let i = 0; i < integrations; i++) make.integration(i);
  for (let i = 0; i < workflows; i++) make.workflow(i);
  for (let i = 0; i < n - integrations - workflows; i++) make.credentials(i);
}

/** N resources of the provider; `adopt` sets adopt: true on each (the recovery after an interrupted up). */
export function scaleProgram(n: number, opts: { adopt?: boolean } = {}): () => Promise<void> {
  const adopt = opts.adopt ? { adopt: true } : {};
  return async () => mix(n, {
    integration: (i) => new notify.Integration(`int-${i}`, { ...args.integration(i), ...adopt }),
    workflow: (i) => new notify.Workflow(`wf-${i}`, { ...args.workflow(i), ...adopt }),
    credentials: (i) => new notify.SubscriberCredentials(`cred-${i}`, { ...args.credentials(i), ...adopt }),
  });
}

/**
 * A resource of the native plugin `pulumi-resource-notify`, registered by type token
 * (`notify:index:<name>`) as a generated SDK registers it: every output of the table, the table's
 * secret fields secret in the inputs and the outputs. The same as the dynamic front end's
 * NotifyResource but for the type and `__provider`.
 */
class NativeResource extends pulumi.CustomResource {
  constructor(table: ResourceTable, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const secret: readonly string[] = table.secretKeys;
    const props: pulumi.Inputs = Object.fromEntries(table.outputKeys.map((k) => [k, undefined]));
    for (const [k, v] of Object.entries(args)) props[k] = v !== undefined && secret.includes(k) ? pulumi.secret(v) : v;
    super(`notify:index:${table.name}`, name, props, secret.length ? { ...opts, additionalSecretOutputs: [...secret] } : opts);
  }
}

/** The same N resources as {@link scaleProgram}, through the native plugin (the project must list it in plugins.providers). */
export function nativeScaleProgram(n: number): () => Promise<void> {
  const table = (name: string) => RESOURCE_TABLES.find((t) => t.name === name)!;
  const [integration, workflow, credentials] = [table("Integration"), table("Workflow"), table("SubscriberCredentials")];
  return async () => mix(n, {
    integration: (i) => new NativeResource(integration, `int-${i}`, args.integration(i)),
    workflow: (i) => new NativeResource(workflow, `wf-${i}`, args.workflow(i)),
    credentials: (i) => new NativeResource(credentials, `cred-${i}`, args.credentials(i)),
  });
}

/** N resources whose provider does no I/O. */
export function floorProgram(n: number): () => Promise<void> {
  return async () => {
    for (let i = 0; i < n; i++) new FloorResource(`floor-${i}`, { value: `v${i}` });
  };
}

/** N request-free resources with the real resources' arguments, credentials secret as in the provider. */
export function wideFloorProgram(n: number): () => Promise<void> {
  const wide = (name: string, a: Record<string, unknown>) => {
    const withSecret = "credentials" in a ? { ...a, credentials: pulumi.secret(a.credentials) } : a;
    new WideFloorResource(name, { value: name, ...withSecret }, { secretOutputs: ["credentials"] });
  };
  return async () => mix(n, {
    integration: (i) => wide(`int-${i}`, args.integration(i)),
    workflow: (i) => wide(`wf-${i}`, args.workflow(i)),
    credentials: (i) => wide(`cred-${i}`, args.credentials(i)),
  });
}
