/**
 * pulumi-notify: Pulumi resources and functions for a notification delivery service.
 *
 * Resources: one class per field table of `RESOURCE_TABLES` (resources/exports.ts), with its Args type.
 * Functions: one per entry of `FUNCTIONS` (functions/index.ts), each with an `*Output` twin.
 * Connection: stack config `notify:apiUrl` and secret `notify:apiKey`, else `NOTIFY_API_URL` and `NOTIFY_API_KEY`.
 */
export * from "./resources/exports";
export {
  NotifyClient, NotifyError, NotifyApiError, NotifyNotFoundError, NotifyConflictError, NotifyRateLimitError,
  NotifyValidationError, NotifyConnectionError, NotifyResponseError, NotifyConfigError, type NotifyErrorCode,
  type TransportOptions,
} from "./client";
export * from "./functions";
