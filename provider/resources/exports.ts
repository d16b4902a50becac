/**
 * The resources a program declares, as `provider/index.ts` exports them whole: per kind its class,
 * whose constructor registers what {@link dynamicResource} makes of its field table and whose
 * outputs are its State's, and its Args type. The JSDoc of each class is what an editor shows on
 * hover.
 */
import * as pulumi from "@pulumi/pulumi";
import { dynamicResource, serviceOutputs } from "./classes";
import type { OutputsOf } from "./fields";
import { INTEGRATION, type IntegrationArgs, type IntegrationState } from "./integration";
import { WORKFLOW, type WorkflowArgs, type WorkflowState } from "./workflow";
import { SUBSCRIBER_CREDENTIALS, type SubscriberCredentialsArgs, type SubscriberCredentialsState } from "./subscriberCredentials";
import { ENVIRONMENT, type EnvironmentArgs, type EnvironmentState } from "./environment";
import { ENVIRONMENT_VARIABLE, type EnvironmentVariableArgs, type EnvironmentVariableState } from "./environmentVariable";
import { LAYOUT, type LayoutArgs, type LayoutState } from "./layout";
import { TOPIC, type TopicArgs, type TopicState } from "./topic";
import { CONTEXT, type ContextArgs, type ContextState } from "./context";
import { TRANSLATION, type TranslationArgs, type TranslationState } from "./translation";
import { DOMAIN, type DomainArgs, type DomainState } from "./domain";
import { AGENT, type AgentArgs, type AgentState } from "./agent";
import { CHANNEL_CONNECTION, type ChannelConnectionArgs, type ChannelConnectionState } from "./channelConnection";
import { CHANNEL_ENDPOINT, type ChannelEndpointArgs, type ChannelEndpointState } from "./channelEndpoint";
import { SUBSCRIBER, type SubscriberArgs, type SubscriberState } from "./subscriber";
import { SUBSCRIBER_PREFERENCES, type SubscriberPreferencesArgs, type SubscriberPreferencesState } from "./subscriberPreferences";
import { TOPIC_SUBSCRIPTION, type TopicSubscriptionArgs, type TopicSubscriptionState } from "./topicSubscription";

export type { IntegrationArgs } from "./integration";
export type { WorkflowArgs, WorkflowStepArgs, WorkflowStepInputs, WorkflowStepOutput } from "./workflow";
export type { SubscriberCredentialsArgs } from "./subscriberCredentials";
export type { EnvironmentArgs } from "./environment";
export type { EnvironmentVariableArgs } from "./environmentVariable";
export type { LayoutArgs } from "./layout";
export type { TopicArgs } from "./topic";
export type { ContextArgs } from "./context";
export type { TranslationArgs } from "./translation";
export type { DomainArgs } from "./domain";
export type { AgentArgs } from "./agent";
export type { ChannelConnectionArgs } from "./channelConnection";
export type { ChannelEndpointArgs } from "./channelEndpoint";
export type { SubscriberArgs } from "./subscriber";
export type { SubscriberPreferencesArgs } from "./subscriberPreferences";
export type { TopicSubscriptionArgs } from "./topicSubscription";

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
export class Integration extends pulumi.CustomResource {
  constructor(name: string, args: IntegrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(INTEGRATION, name, args, opts));
  }
}
export interface Integration extends OutputsOf<IntegrationState> {}

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
export class Workflow extends pulumi.CustomResource {
  constructor(name: string, args: WorkflowArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(WORKFLOW, name, args, opts));
    // The steps gain their ids in the service: unknown in a preview of a write (classes.ts).
    serviceOutputs(this, WORKFLOW);
  }
}
export interface Workflow extends OutputsOf<WorkflowState> {}

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
export class SubscriberCredentials extends pulumi.CustomResource {
  constructor(name: string, args: SubscriberCredentialsArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(SUBSCRIBER_CREDENTIALS, name, args, opts));
  }
}
export interface SubscriberCredentials extends OutputsOf<SubscriberCredentialsState> {}

/**
 * An environment of the organisation: a tenant with its own API keys and objects. Its `apiKeys`
 * output (secret) holds the keys that reach it.
 *
 * @example
 * const staging = new notify.Environment("staging", { name: "Staging", color: "#3498db" });
 * export const stagingKey = staging.apiKeys[0];
 */
export class Environment extends pulumi.CustomResource {
  constructor(name: string, args: EnvironmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(ENVIRONMENT, name, args, opts));
  }
}
export interface Environment extends OutputsOf<EnvironmentState> {}

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
export class EnvironmentVariable extends pulumi.CustomResource {
  constructor(name: string, args: EnvironmentVariableArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(ENVIRONMENT_VARIABLE, name, args, opts));
  }
}
export interface EnvironmentVariable extends OutputsOf<EnvironmentVariableState> {}

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
export class Layout extends pulumi.CustomResource {
  constructor(name: string, args: LayoutArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(LAYOUT, name, args, opts));
  }
}
export interface Layout extends OutputsOf<LayoutState> {}

/**
 * A topic of the notification service: a key that triggers address, and its subscribers as a set.
 * Its inputs and outputs are the fields of {@link TOPIC}.
 *
 * @example
 * const news = new notify.Topic("news", { key: "news:daily", name: "Daily news", subscribers: ["alice", "bob"] });
 */
export class Topic extends pulumi.CustomResource {
  constructor(name: string, args: TopicArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(TOPIC, name, args, opts));
  }
}
export interface Topic extends OutputsOf<TopicState> {}

/**
 * A context of the notification service: a tenant, app or workspace known by type and id, with
 * custom data. Its inputs and outputs are the fields of {@link CONTEXT}; its id is the key `type:id`.
 *
 * @example
 * const acme = new notify.Context("acme", { type: "tenant", contextId: "acme", data: { plan: "enterprise", region: "eu" } });
 * // acme.key is "tenant:acme", as triggers name it.
 */
export class Context extends pulumi.CustomResource {
  constructor(name: string, args: ContextArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(CONTEXT, name, args, opts));
  }
}
export interface Context extends OutputsOf<ContextState> {}

/**
 * One locale's translation of a workflow or layout whose `isTranslationEnabled` is on. Its inputs
 * and outputs are the fields of {@link TRANSLATION}; its id is `resourceType/resourceId/locale`.
 *
 * @example
 * const welcome = new notify.Workflow("welcome", { workflowId: "welcome", name: "Welcome", isTranslationEnabled: true, steps: [...] });
 * new notify.Translation("welcome-fr", { resourceType: "workflow", resourceId: welcome.workflowId, locale: "fr_FR", content: { hello: "Bonjour" } });
 */
export class Translation extends pulumi.CustomResource {
  constructor(name: string, args: TranslationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(TRANSLATION, name, args, opts));
  }
}
export interface Translation extends OutputsOf<TranslationState> {}

/**
 * An inbound-email domain with its routed addresses; its expected DNS records and status are
 * outputs. Its inputs and outputs are the fields of {@link DOMAIN}; its id is the domain name.
 *
 * @example
 * const mail = new notify.Domain("mail", { name: "mail.example.com", routes: { support: { type: "webhook" } } });
 * // Declare mail.expectedDnsRecords with your DNS provider; the next refresh shows status "verified".
 */
export class Domain extends pulumi.CustomResource {
  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(DOMAIN, name, args, opts));
  }
}
export interface Domain extends OutputsOf<DomainState> {}

/**
 * A conversational agent: it answers inbound messages on the integrations linked to it, through
 * its bridge or a managed runtime. Domain routes of type `agent` name it by its identifier.
 *
 * @example
 * const slack = new notify.Integration("slack", { identifier: "slack-support", providerId: "slack", channel: "chat", active: true });
 * const bot = new notify.Agent("support-bot", {
 *   identifier: "support-bot", name: "Support bot", bridgeUrl: "https://bots.example.com/support",
 *   behavior: { subscriberAccess: "restricted" }, integrations: [slack.identifier],
 * });
 */
export class Agent extends pulumi.CustomResource {
  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(AGENT, name, args, opts));
  }
}
export interface Agent extends OutputsOf<AgentState> {}

/**
 * A chat workspace's authorisation for one integration (a Slack or Teams workspace and its access
 * token), belonging to one subscriber or shared by a context; channel endpoints name it. Its
 * inputs and outputs are the fields of {@link CHANNEL_CONNECTION}; its id is its identifier. The
 * token is secret in the state.
 *
 * @example
 * const slack = new notify.Integration("slack", { identifier: "slack-ops", providerId: "slack", channel: "chat", active: true });
 * new notify.ChannelConnection("acme-slack", {
 *   identifier: "acme-slack", integrationIdentifier: slack.identifier, connectionMode: "shared", context: { tenant: "acme" },
 *   workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: cfg.requireSecret("acmeSlackToken") },
 * });
 */
export class ChannelConnection extends pulumi.CustomResource {
  constructor(name: string, args: ChannelConnectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(CHANNEL_CONNECTION, name, args, opts));
  }
}
export interface ChannelConnection extends OutputsOf<ChannelConnectionState> {}

/**
 * Where a subscriber is reached on a chat platform or by phone (a Slack channel or user, a Teams
 * channel or user, a webhook, a phone number, a Telegram chat, a Webex room or person, a LINE
 * user), with exactly the keys its type takes. Its inputs and outputs are the fields of
 * {@link CHANNEL_ENDPOINT}; its id is its identifier.
 *
 * @example
 * new notify.ChannelEndpoint("alice-alerts", {
 *   identifier: "alice-alerts", subscriberId: "alice", integrationIdentifier: slack.identifier,
 *   connectionIdentifier: acmeSlack.identifier, context: { tenant: "acme" },
 *   type: "slack_channel", endpoint: { channelId: "C0123456" },
 * });
 */
export class ChannelEndpoint extends pulumi.CustomResource {
  constructor(name: string, args: ChannelEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(CHANNEL_ENDPOINT, name, args, opts));
  }
}
export interface ChannelEndpoint extends OutputsOf<ChannelEndpointState> {}

/**
 * A subscriber the stack keeps in code (an on-call rota, an ops mailbox, a QA user). Its
 * credentials name it through its `subscriberId` output, so the engine makes it first and deletes
 * it last.
 *
 * @example
 * const oncall = new notify.Subscriber("oncall", {
 *   subscriberId: "ops-oncall", firstName: "On-call", email: "oncall@example.com", timezone: "Europe/Paris", data: { team: "ops" },
 * });
 * new notify.SubscriberCredentials("oncall-slack", {
 *   subscriberId: oncall.subscriberId, providerId: "slack", credentials: { webhookUrl: cfg.requireSecret("opsWebhook") },
 * });
 */
export class Subscriber extends pulumi.CustomResource {
  constructor(name: string, args: SubscriberArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(SUBSCRIBER, name, args, opts));
  }
}
export interface Subscriber extends OutputsOf<SubscriberState> {}

/**
 * One subscriber's own preferences: global (the channels, and the delivery schedule) or one
 * workflow's channels. Only the channels declared are managed.
 *
 * @example
 * const quiet = new notify.SubscriberPreferences("oncall-global", {
 *   subscriberId: oncall.subscriberId, channels: { sms: false },
 *   schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } },
 * });
 * new notify.SubscriberPreferences("oncall-incidents", {
 *   subscriberId: oncall.subscriberId, workflowId: incidents.workflowId, channels: { sms: true },
 * }, { dependsOn: [quiet] });
 */
export class SubscriberPreferences extends pulumi.CustomResource {
  constructor(name: string, args: SubscriberPreferencesArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(SUBSCRIBER_PREFERENCES, name, args, opts));
  }
}
export interface SubscriberPreferences extends OutputsOf<SubscriberPreferencesState> {}

/**
 * One subscription of a subscriber to a topic, with an identifier of its own, a name, and
 * per-workflow preferences whose JSON Logic conditions the service evaluates when a trigger fans
 * out to the topic. A `Topic`'s `subscribers` holds plain memberships; declare each subscriber of a
 * topic one way. The import id is `<topic key>/<identifier>`.
 *
 * @example
 * const incidents = new notify.Topic("incidents", { key: "incidents" });
 * new notify.TopicSubscription("oncall-critical", {
 *   topic: incidents.key, subscriber: "oncall", identifier: "oncall-critical", name: "On-call, critical only",
 *   preferences: [{ workflowId: "incident-alert", condition: { "==": [{ var: "payload.severity" }, "critical"] } }],
 * });
 */
export class TopicSubscription extends pulumi.CustomResource {
  constructor(name: string, args: TopicSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicResource(TOPIC_SUBSCRIPTION, name, args, opts));
  }
}
export interface TopicSubscription extends OutputsOf<TopicSubscriptionState> {}
