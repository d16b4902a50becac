/**
 * Errors of the notification service client. Every message is redacted of the API key before it
 * is stored, so an error can be logged or shown by the engine without leaking it.
 */

/** What kind of failure an API error is, for callers that branch on it. */
export type NotifyErrorCode =
  | "not_found" | "conflict" | "rate_limited" | "validation" | "unauthorized" | "forbidden"
  | "server" | "client" | "invalid_response"
  /** A 404 that is not an object's not-found: the server has no such route (an older version, or a wrong `apiUrl`). */
  | "no_route"
  /** The server has the route but a feature flag of its keeps it off (404 "Feature not enabled"). */
  | "feature_disabled"
  /** The route takes no API key on this server, only a dashboard session (401 "API endpoint not accessible"). */
  | "api_key_not_accepted";

/** Base of every error this package throws about the service. */
export class NotifyError extends Error {
  override name = "NotifyError";
  /**
   * A create whose answer was lost (a 5xx, a dropped connection) on a server not known to honour
   * `Idempotency-Key`: the object may have been made, so the request was not sent again blindly.
   * The caller looks the object up by its natural key before it tries again (createOrAdopt).
   */
  maybeWritten = false;
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
  /** What the answer means, when the status alone does not say (default: from the status). */
  code?: NotifyErrorCode;
  /** A sentence added after the service's message: what the answer means and what to do. */
  hint?: string;
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
    const hint = init.hint ? `. ${init.hint}` : "";
    super(`${init.status}${text ? " " + text : ""}: ${init.serviceMessage}${detail}${rid}${hint}`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serviceMessage = init.serviceMessage;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.attempts = init.attempts;
    this.code = init.code ?? codeForStatus(init.status);
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

/**
 * An answer that says nothing about the object asked for: a route the server does not have (an
 * older version, or an `apiUrl` missing a gateway's path prefix), a page that is not the service's
 * (a gateway's or a dashboard's), a feature the server keeps off, a route that takes no API key.
 * Never taken for "gone": the object may well exist.
 */
export class NotifyRouteError extends NotifyApiError {
  override name = "NotifyRouteError";
}

/** Builds the right subclass for a status (and a code, where the status alone does not say). */
export function apiErrorFor(init: NotifyApiErrorInit): NotifyApiError {
  if (init.code === "no_route" || init.code === "feature_disabled" || init.code === "api_key_not_accepted") return new NotifyRouteError(init);
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

/**
 * True when `err` is the service's own not-found of the object asked for: the only answer that
 * proves an object gone. A 404 of a route the server lacks, of a page that is not the service's, or
 * of a feature kept off is a {@link NotifyRouteError}, and is not.
 */
export function isNotFound(err: unknown): err is NotifyNotFoundError {
  return err instanceof NotifyApiError && err.code === "not_found";
}

/**
 * What a 404's body says, read as the service writes its errors (its exception filter:
 * `{statusCode, timestamp, path, message, ctx}`): `object` is the service's own not-found of the
 * object (`Subscriber: bob was not found`, `Workflow cannot be found`, ...); `route` is NestJS's
 * answer for a route the server does not have (`Cannot GET /v2/foo`); `feature` a feature flag's
 * refusal (`Feature not enabled`); `foreign` anything else (a gateway's or a dashboard's page, a
 * bare "Not Found", a body that is not the service's JSON).
 */
export function notFoundKind(body: unknown): "object" | "route" | "feature" | "foreign" {
  if (!body || typeof body !== "object" || Array.isArray(body)) return "foreign";
  const b = body as { statusCode?: unknown; message?: unknown };
  if (b.statusCode !== 404 || typeof b.message !== "string") return "foreign";
  const message = b.message.trim();
  if (/^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//.test(message)) return "route";
  if (/^feature (is )?not enabled/i.test(message)) return "feature";
  // A gateway's or a framework's status line says nothing of an object.
  if (/^(not found|404( not found)?)$/i.test(message)) return "foreign";
  return "object";
}

/**
 * Whether a 401's body is the server saying the route takes no API key (only a dashboard session):
 * the service's guard answers `API endpoint not accessible` (3.15.0, its agents routes) or `API
 * endpoint not available` (2.0, its v2 workflow routes), while a refused key is `API Key not found`.
 */
export function isApiKeyNotAccepted(body: unknown): boolean {
  const m = body && typeof body === "object" ? (body as { message?: unknown }).message : undefined;
  return typeof m === "string" && /^API endpoint not (accessible|available)/i.test(m.trim());
}
/** True when `err` is a conflict API error. */
export function isConflict(err: unknown): err is NotifyConflictError {
  return err instanceof NotifyApiError && err.status === 409;
}
