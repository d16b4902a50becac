/**
 * Every error the emulator answers, as named templates producing production's error body
 * (production-notes.md, Third pass §0; the service's exception filter): `statusCode`,
 * `timestamp` (ISO), `path`, `message`; `error` (the status name) on 4xx; `errorId` and a
 * generic message on 5xx; the keys of a `ctx` also copied to the top level. Request validation
 * failures are 422 "Validation Error" with the validator's messages under `errors.general`.
 */
import { randomUUID } from "node:crypto";

const STATUS_NAMES: Record<number, string> = {
  400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 413: "Payload Too Large",
  415: "Unsupported Media Type", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error",
  502: "Bad Gateway", 503: "Service Unavailable",
};

/** The body of a 429: production answers a plain string there, not JSON. */
export const RATE_LIMIT_BODY = "API rate limit exceeded";

/** What an error adds to the common fields. */
interface ErrorExtras {
  /** Copied to the top level and kept under `ctx` (the exception filter's "flattening"). */
  ctx?: Record<string, unknown>;
  /** Top-level fields as they are (validation detail). */
  fields?: Record<string, unknown>;
  /** Leave out the `error` status name (validation errors have none). */
  noStatusName?: boolean;
  /** Leave out `ctx` (the plan gate's 402, which conformance/environments.test.ts reads without one). */
  noCtx?: boolean;
}

/** An error a pipeline step or a handler throws; rendered by {@link errorBody}. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly detail: string | string[], readonly extras: ErrorExtras = {}) {
    super(Array.isArray(detail) ? detail.join("; ") : detail);
  }
}

/** The JSON body of an error for the request path `path`. */
export function errorBody(e: HttpError, path: string): Record<string, unknown> {
  const server = e.status >= 500;
  return {
    statusCode: e.status,
    timestamp: new Date().toISOString(),
    path,
    message: e.detail,
    ...(!server && !e.extras.noStatusName ? { error: STATUS_NAMES[e.status] ?? "Error" } : {}),
    ...(server ? { errorId: randomUUID() } : {}),
    // Every error body of the real 3.15.0 server carries `ctx`, empty when the error has none
    // (production-notes.md, seventh pass).
    ...(e.extras.ctx ? { ...e.extras.ctx, ctx: e.extras.ctx } : e.extras.noCtx ? {} : { ctx: {} }),
    ...(e.extras.fields ?? {}),
  };
}

/** 400: a request the service understood and refuses (messages of its use cases). */
export const badRequest = (message: string | string[]) => new HttpError(400, message);

/** 401: no key, or a key the service does not know. */
export const unauthorized = () => new HttpError(401, "API Key not found");

/** 402 "Payment Required": the plan's product-feature gate (apps/api/src/app/shared/interceptors/product-feature.interceptor.ts). */
export const paymentRequired = () => new HttpError(402, "Payment Required", { noCtx: true });

/** 403 with the service's wording (an API key writing outside its own environment). */
export const forbidden = (message: string) => new HttpError(403, message);

/** 404 with the service's wording for the resource. */
export const notFound = (message: string) => new HttpError(404, message);

/** 409; `ctx` is what the conflict is with (flattened to the top level, and kept under `ctx`). */
export const conflict = (message: string, ctx?: Record<string, unknown>) => new HttpError(409, message, { ctx });

/** 413: the body is larger than the emulator reads. */
export const payloadTooLarge = (limit: number) => new HttpError(413, `request body larger than ${limit} bytes`);

/** 422 other than validation (idempotency key reuse, unknown workflow on trigger). */
export const unprocessable = (message: string) => new HttpError(422, message);

/**
 * 422 "Validation Error": the global validation pipe's answer to a request whose body or query
 * breaks its DTO (production answers 422 here, not 400).
 */
export const validationFailed = (messages: string[]) => new HttpError(422, "Validation Error", {
  noStatusName: true,
  fields: { errors: { general: { messages, value: "No Value Recorded" } } },
});

/** 5xx with the generic message production gives (the detail stays in its logs). */
export const serverError = (status: 500 | 502 | 503 = 500) =>
  new HttpError(status, status === 500 ? "Internal server error" : STATUS_NAMES[status]!);
