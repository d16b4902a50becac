/**
 * The provider's resource classes, what a program declares: each registers its table's type with
 * the dynamic front end (`pulumi-nodejs:dynamic/notify:<name>`, {@link providerModule} as
 * `__provider`). They live apart from the implementation modules (integration.ts, workflow.ts,
 * subscriberCredentials.ts: field table, operations, `dynamicProvider`) because a class extends
 * `pulumi.CustomResource`, and defining one loads all of `@pulumi/pulumi`: the native plugin and
 * the dynamic provider's `__provider` line load only the implementation modules, so the plugin
 * starts without it.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerModule, RESOURCE_MODULES } from "./dynamic";
import type { ResourceTable, OutputsOf } from "./fields";
import { INTEGRATION, type IntegrationArgs, type IntegrationState } from "./integration";
import { SUBSCRIBER_CREDENTIALS, type SubscriberCredentialsArgs, type SubscriberCredentialsState } from "./subscriberCredentials";
import { WORKFLOW, type WorkflowArgs, type WorkflowState } from "./workflow";

/**
 * Base class of the provider's resources: type `pulumi-nodejs:dynamic/notify:<name>`, exactly what
 * `pulumi.dynamic.Resource` registers, with {@link providerModule} of the table's implementation
 * module (in {@link RESOURCE_MODULES}, exporting `dynamicProvider`) as `__provider`. Every output
 * of the table is registered; the table's secret fields are secret in the inputs and the outputs.
 */
export abstract class NotifyResource extends pulumi.CustomResource {
  protected constructor(table: ResourceTable, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const secret: readonly string[] = table.secretKeys;
    const props: pulumi.Inputs = Object.fromEntries(table.outputKeys.map((k) => [k, undefined]));
    for (const [k, v] of Object.entries(args)) props[k] = v !== undefined && secret.includes(k) ? pulumi.secret(v) : v;
    props.__provider = providerModule(RESOURCE_MODULES + table.module);
    super(`pulumi-nodejs:dynamic/notify:${table.name}`, name, props, secret.length
      ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secret] }
      : opts);
  }
}

/**
 * An integration of the notification service: a delivery provider (SendGrid, Twilio, Slack, FCM,
 * ...) connected to an environment for one channel, with its credentials. Its inputs and outputs
 * are the fields of {@link INTEGRATION}.
 *
 * @example
 * const email = new notify.Integration("sendgrid", {
 *   identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email",
 *   credentials: { apiKey: cfg.requireSecret("sendgridKey"), from: "no-reply@example.com" },
 *   active: true,
 * });
 */
export interface Integration extends OutputsOf<IntegrationState> {}
export class Integration extends NotifyResource {
  constructor(name: string, args: IntegrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(INTEGRATION, name, args, opts);
  }
}

/**
 * A workflow of the notification service: the steps (in-app, email, SMS, chat, push, delay,
 * digest, throttle, custom, HTTP request) run when it is triggered. Its inputs and outputs are the
 * fields of {@link WORKFLOW}.
 *
 * @example
 * const welcome = new notify.Workflow("welcome", {
 *   workflowId: "welcome", name: "Welcome",
 *   steps: [
 *     { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } },
 *     { name: "Email", type: "email", controlValues: { subject: "Welcome", body: "<p>Hi</p>", editorType: "html" } },
 *   ],
 * });
 */
export interface Workflow extends OutputsOf<WorkflowState> {}
export class Workflow extends NotifyResource {
  constructor(name: string, args: WorkflowArgs, opts?: pulumi.CustomResourceOptions) {
    super(WORKFLOW, name, args, opts);
  }
}

/**
 * A subscriber's credentials for one chat or push provider: a Slack webhook URL, FCM device
 * tokens, and so on. The id is `subscriberId/providerId/integrationIdentifier`.
 *
 * The service needs an active integration of the provider in the environment: declare it in the
 * same stack and pass its `identifier` (the engine then creates it first). Production keeps only
 * `webhookUrl`, `deviceTokens` and `channel` of the credentials; the other fields are sent, not
 * stored, and never show as drift.
 *
 * @example
 * const slack = new notify.Integration("slack", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true });
 * new notify.SubscriberCredentials("alice-slack", {
 *   subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier,
 *   credentials: { webhookUrl: cfg.requireSecret("aliceSlackHook") },
 * });
 */
export interface SubscriberCredentials extends OutputsOf<SubscriberCredentialsState> {}
export class SubscriberCredentials extends NotifyResource {
  constructor(name: string, args: SubscriberCredentialsArgs, opts?: pulumi.CustomResourceOptions) {
    super(SUBSCRIBER_CREDENTIALS, name, args, opts);
  }
}
