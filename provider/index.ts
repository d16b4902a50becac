/**
 * pulumi-notify: Pulumi resources and functions for a notification delivery service.
 *
 * Resources: {@link Integration}, {@link Workflow}, {@link SubscriberCredentials}, {@link Environment},
 * {@link EnvironmentVariable}, {@link Layout}, {@link Topic}, {@link Context}, {@link Translation}, {@link Domain}.
 * Functions: getSubscriber, getSubscribers, getMessages, getEvents, getEvent, getIntegrations,
 * getWorkflows, getEnvironments, getLayouts, getTopics, getContexts, getTranslations, getDomains, each with an `*Output` twin.
 * Connection: stack config `notify:apiUrl` and secret `notify:apiKey`, else `NOTIFY_API_URL` and `NOTIFY_API_KEY`.
 */
export { Integration, Workflow, SubscriberCredentials, Environment, EnvironmentVariable, Layout, Topic, Context, Translation, Domain } from "./resources/classes";
export type { IntegrationArgs } from "./resources/integration";
export type { WorkflowArgs, WorkflowStepArgs, WorkflowStepInputs, WorkflowStepOutput } from "./resources/workflow";
export type { SubscriberCredentialsArgs } from "./resources/subscriberCredentials";
export type { EnvironmentArgs } from "./resources/environment";
export type { EnvironmentVariableArgs } from "./resources/environmentVariable";
export type { LayoutArgs } from "./resources/layout";
export type { TopicArgs } from "./resources/topic";
export type { ContextArgs } from "./resources/context";
export type { TranslationArgs } from "./resources/translation";
export type { DomainArgs } from "./resources/domain";
export {
  NotifyClient, NotifyError, NotifyApiError, NotifyNotFoundError, NotifyConflictError, NotifyRateLimitError,
  NotifyValidationError, NotifyConnectionError, NotifyResponseError, NotifyConfigError, type NotifyErrorCode,
  type TransportOptions,
} from "./client";
export * from "./functions";
