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
import { ENVIRONMENT, type EnvironmentArgs, type EnvironmentState } from "./environment";
import { ENVIRONMENT_VARIABLE, type EnvironmentVariableArgs, type EnvironmentVariableState } from "./environmentVariable";
import { LAYOUT, type LayoutArgs, type LayoutState } from "./layout";
import { CONTEXT, type ContextArgs, type ContextState } from "./context";
import { TRANSLATION, type TranslationArgs, type TranslationState } from "./translation";
import { DOMAIN, type DomainArgs, type DomainState } from "./domain";
import { TOPIC, type TopicArgs, type TopicState } from "./topic";

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

/**
 * An environment of the organisation: a tenant with its own API keys and objects. Its `apiKeys`
 * output (secret) holds the keys that reach it.
 *
 * @example
 * const staging = new notify.Environment("staging", { name: "Staging", color: "#3498db" });
 * export const stagingKey = staging.apiKeys[0];
 */
export interface Environment extends OutputsOf<EnvironmentState> {}
export class Environment extends NotifyResource {
  constructor(name: string, args: EnvironmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(ENVIRONMENT, name, args, opts);
  }
}

/**
 * A variable of the organisation, referenced in workflows as `{{env.KEY}}`, with one value per
 * environment (keyed by environment id). The id is the key. With an API key, only the value of
 * the key's own environment can be written.
 *
 * @example
 * new notify.EnvironmentVariable("base-url", {
 *   key: "BASE_URL", values: { [devEnvironmentId]: "https://dev.example.com" },
 * });
 */
export interface EnvironmentVariable extends OutputsOf<EnvironmentVariableState> {}
export class EnvironmentVariable extends NotifyResource {
  constructor(name: string, args: EnvironmentVariableArgs, opts?: pulumi.CustomResourceOptions) {
    super(ENVIRONMENT_VARIABLE, name, args, opts);
  }
}

/**
 * An email layout of the notification service: the frame an email step's content is rendered
 * into. Its inputs and outputs are the fields of {@link LAYOUT}. The environment's first layout is
 * its default, which the service never deletes: `pulumi destroy` removes it from the stack, leaves
 * it on the service and warns; declare it again with `adopt: true` to manage it.
 *
 * @example
 * const brand = new notify.Layout("brand", {
 *   layoutId: "brand", name: "Brand",
 *   controlValues: { email: { editorType: "html", body: "<html><body><header>ACME</header>{{ content }}</body></html>" } },
 * });
 * new notify.Workflow("welcome", {
 *   workflowId: "welcome", name: "Welcome",
 *   steps: [{ name: "Email", type: "email", controlValues: { subject: "Hi", body: "<p>Hi</p>", editorType: "html", layoutId: brand.layoutId } }],
 * });
 */
export interface Layout extends OutputsOf<LayoutState> {}
export class Layout extends NotifyResource {
  constructor(name: string, args: LayoutArgs, opts?: pulumi.CustomResourceOptions) {
    super(LAYOUT, name, args, opts);
  }
}

/**
 * A topic of the notification service: a key that triggers address, and its subscribers as a set.
 * Its inputs and outputs are the fields of {@link TOPIC}.
 *
 * @example
 * const news = new notify.Topic("news", { key: "news:daily", name: "Daily news", subscribers: ["alice", "bob"] });
 */
export interface Topic extends OutputsOf<TopicState> {}
export class Topic extends NotifyResource {
  constructor(name: string, args: TopicArgs, opts?: pulumi.CustomResourceOptions) {
    super(TOPIC, name, args, opts);
  }
}

/**
 * A context of the notification service: a tenant, app or workspace known by type and id, with
 * custom data. Its inputs and outputs are the fields of {@link CONTEXT}; its id is the key `type:id`.
 *
 * @example
 * const acme = new notify.Context("acme", { type: "tenant", contextId: "acme", data: { plan: "enterprise", region: "eu" } });
 * // acme.key is "tenant:acme", as triggers name it.
 */
export interface Context extends OutputsOf<ContextState> {}
export class Context extends NotifyResource {
  constructor(name: string, args: ContextArgs, opts?: pulumi.CustomResourceOptions) {
    super(CONTEXT, name, args, opts);
  }
}

/**
 * One locale's translation of a workflow or layout whose `isTranslationEnabled` is on. Its inputs
 * and outputs are the fields of {@link TRANSLATION}; its id is `resourceType/resourceId/locale`.
 *
 * @example
 * const welcome = new notify.Workflow("welcome", { workflowId: "welcome", name: "Welcome", isTranslationEnabled: true, steps: [...] });
 * new notify.Translation("welcome-fr", { resourceType: "workflow", resourceId: welcome.workflowId, locale: "fr_FR", content: { hello: "Bonjour" } });
 */
export interface Translation extends OutputsOf<TranslationState> {}
export class Translation extends NotifyResource {
  constructor(name: string, args: TranslationArgs, opts?: pulumi.CustomResourceOptions) {
    super(TRANSLATION, name, args, opts);
  }
}

/**
 * An inbound-email domain with its routed addresses; its expected DNS records and status are
 * outputs. Its inputs and outputs are the fields of {@link DOMAIN}; its id is the domain name.
 *
 * @example
 * const mail = new notify.Domain("mail", { name: "mail.example.com", routes: { support: { type: "webhook" } } });
 * // Declare mail.expectedDnsRecords with your DNS provider; the next refresh shows status "verified".
 */
export interface Domain extends OutputsOf<DomainState> {}
export class Domain extends NotifyResource {
  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(DOMAIN, name, args, opts);
  }
}
