/**
 * pulumi-notify: Pulumi resources and functions for a notification delivery service.
 *
 * Resources: {@link Integration}, {@link Workflow}, {@link SubscriberCredentials}.
 * Functions: getSubscriber, getSubscribers, getMessages, getEvents, getEvent, getIntegrations,
 * getWorkflows, each with an `*Output` twin.
 * Connection: stack config `notify:apiUrl` and secret `notify:apiKey`, else `NOTIFY_API_URL` and `NOTIFY_API_KEY`.
 */
export { Integration, Workflow, SubscriberCredentials } from "./resources/classes";
export type { IntegrationArgs } from "./resources/integration";
export type { WorkflowArgs, WorkflowStepArgs, WorkflowStepOutput } from "./resources/workflow";
export type { SubscriberCredentialsArgs } from "./resources/subscriberCredentials";
export {
  NotifyClient, NotifyError, NotifyApiError, NotifyNotFoundError, NotifyConflictError, NotifyRateLimitError,
  NotifyValidationError, NotifyConnectionError, NotifyResponseError, NotifyConfigError, type NotifyErrorCode,
  type TransportOptions,
} from "./client";
export * from "./functions";
