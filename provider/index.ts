/**
 * pulumi-notify: Pulumi resources and functions for a notification delivery service.
 *
 * Resources: {@link Integration}, {@link Workflow}, {@link SubscriberCredentials}, {@link Environment},
 * {@link EnvironmentVariable}, {@link Layout}, {@link Topic}.
 * Functions: getSubscriber, getSubscribers, getMessages, getEvents, getEvent, getIntegrations,
 * getWorkflows, getEnvironments, getLayouts, getTopics, each with an `*Output` twin.
 * Connection: stack config `notify:apiUrl` and secret `notify:apiKey`, else `NOTIFY_API_URL` and `NOTIFY_API_KEY`.
 */
export { Integration, type IntegrationArgs } from "./resources/integration";
export { Workflow, type WorkflowArgs, type WorkflowStepArgs, type WorkflowStepOutput } from "./resources/workflow";
export { SubscriberCredentials, type SubscriberCredentialsArgs } from "./resources/subscriberCredentials";
export { Environment, type EnvironmentArgs } from "./resources/environment";
export { EnvironmentVariable, type EnvironmentVariableArgs } from "./resources/environmentVariable";
export { Layout, type LayoutArgs } from "./resources/layout";
export { Topic, type TopicArgs } from "./resources/topic";
export {
  NotifyClient, NotifyError, NotifyApiError, NotifyNotFoundError, NotifyConflictError, NotifyRateLimitError,
  NotifyValidationError, NotifyConnectionError, NotifyResponseError, NotifyConfigError, type NotifyErrorCode,
  type TransportOptions,
} from "./client";
export * from "./functions";
