/**
 * Errors of the notification service client. Every message is redacted of the API key before it
 * is stored, so an error can be logged or shown by the engine without leaking it.
 */

/** What kind of failure an API error is, for callers that branch on it. */
export type NotifyErrorCode =
  | "not_found" | "conflict" | "rate_limited" | "validation" | "unauthorized" | "forbidden"
  | "server" | "client" | "invalid_response";

/** Base of every error this package throws about the service. */
export class NotifyError extends Error {
  override name = "NotifyError";
}

/** Details of a failed API call. */
export interface NotifyApiErrorInit {
  status: number;
  method: string;
  /** The route template, e.g. `/v1/integrations/{integrationId}` (never a filled-in path). */
  path: string;
  /** What the service said, already redacted. */
  serviceMessage: string;
  requestId?: string;
  /** Field-level details the service gave for a validation failure. */
  details?: string[];
  /** How many attempts were made, retries included. */
  attempts: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
  409: "Conflict", 413: "Payload Too Large", 422: "Unprocessable Entity", 429: "Too Many Requests",
  500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
};

/** The service answered with an error status. */
export class NotifyApiError extends NotifyError {
  override name = "NotifyApiError";
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly serviceMessage: string;
  readonly requestId?: string;
  readonly details: string[];
  readonly attempts: number;
  readonly code: NotifyErrorCode;

  constructor(init: NotifyApiErrorInit) {
    const text = STATUS_TEXT[init.status] ?? "";
    const detail = init.details?.length ? ` (${init.details.join("; ")})` : "";
    const rid = init.requestId ? ` [request ${init.requestId}]` : "";
    super(`${init.status}${text ? " " + text : ""}: ${init.serviceMessage}${detail}${rid}`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serviceMessage = init.serviceMessage;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.attempts = init.attempts;
    this.code = codeForStatus(init.status);
  }
}

/** The object does not exist (404). */
export class NotifyNotFoundError extends NotifyApiError {
  override name = "NotifyNotFoundError";
}
/** The object already exists, or an idempotency key is still in flight (409). */
export class NotifyConflictError extends NotifyApiError {
  override name = "NotifyConflictError";
}
/** The service refused for rate (429) after every retry. */
export class NotifyRateLimitError extends NotifyApiError {
  override name = "NotifyRateLimitError";
}
/** The request was invalid (400 or 422). */
export class NotifyValidationError extends NotifyApiError {
  override name = "NotifyValidationError";
}

/** Builds the right subclass for a status. */
export function apiErrorFor(init: NotifyApiErrorInit): NotifyApiError {
  switch (init.status) {
    case 404: return new NotifyNotFoundError(init);
    case 409: return new NotifyConflictError(init);
    case 429: return new NotifyRateLimitError(init);
    case 400: case 422: return new NotifyValidationError(init);
    default: return new NotifyApiError(init);
  }
}

function codeForStatus(status: number): NotifyErrorCode {
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 429) return "rate_limited";
  if (status === 400 || status === 422) return "validation";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status >= 500) return "server";
  return "client";
}

/** The service could not be reached, the connection dropped, or the request timed out. */
export class NotifyConnectionError extends NotifyError {
  override name = "NotifyConnectionError";
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  constructor(message: string, init: { method: string; path: string; attempts: number }) {
    super(message);
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
  }
}

/** The service answered 2xx with a body that is not what the API promises. */
export class NotifyResponseError extends NotifyError {
  override name = "NotifyResponseError";
  readonly code: NotifyErrorCode = "invalid_response";
  readonly operation: string;
  constructor(operation: string, message: string) {
    super(`${operation}: ${message}`);
    this.operation = operation;
  }
}

/** The client was given something it must not send (bad configuration or argument). */
export class NotifyConfigError extends NotifyError {
  override name = "NotifyConfigError";
}

/** Replaces every occurrence of each secret in `text` with `[REDACTED]`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join("[REDACTED]");
  }
  return out;
}

/** True when `err` is a not-found API error. */
export function isNotFound(err: unknown): err is NotifyNotFoundError {
  return err instanceof NotifyApiError && err.status === 404;
}
/** True when `err` is a conflict API error. */
export function isConflict(err: unknown): err is NotifyConflictError {
  return err instanceof NotifyApiError && err.status === 409;
}
