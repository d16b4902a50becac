/**
 * HTTP transport of the notification service: one undici Pool per connection, a timeout on every
 * request, the `{data}` envelope unwrapped, zod-parsed bodies, retries with backoff, pacing and
 * idempotency keys. Knows nothing of Pulumi.
 */
import { randomUUID } from "node:crypto";
import { Pool, type Dispatcher } from "undici";
import type { z } from "zod";
import {
  NotifyConfigError, NotifyConnectionError, NotifyResponseError, apiErrorFor, isApiKeyNotAccepted, notFoundKind, redact,
  type NotifyApiError, type NotifyErrorCode,
} from "./errors";
import { DEFAULT_RETRY_POLICY, backoffDelay, isRetryableStatus, parseRetryAfter, type RetryPolicy } from "./retry";
import { readRateLimitHeaders, sharedPacer, type Pacer } from "./pacing";
import { REQUEST_TIMEOUT } from "./settings";

/** What the request hook sees of each attempt; never the API key or a body. */
export interface RequestLogEntry {
  method: string;
  /** Route template, e.g. `/v1/integrations/{integrationId}`. */
  route: string;
  status?: number;
  attempt: number;
  durationMs: number;
  error?: string;
}

/** Options of a connection to the service. */
export interface TransportOptions {
  /** Base address, e.g. `https://api.example.com` or `http://127.0.0.1:4000`. */
  apiUrl: string;
  apiKey: string;
  /** Per-attempt timeout in ms, body included (default REQUEST_TIMEOUT.default). */
  timeoutMs?: number;
  /** Largest response body accepted, in bytes (default 32 MiB). */
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  /** Pacer to use; by default the process-wide one of this address and key. */
  pacer?: Pacer;
  /** Called after each attempt, for debug logging. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Replaces the connection pool (tests use undici's MockAgent). */
  dispatcher?: Dispatcher;
  /** Allow `http://` to a host other than loopback (default false). */
  allowInsecureHttp?: boolean;
  /** Connections kept open to the service (default 16). */
  connections?: number;
}

/** One logical API call. */
export interface RequestSpec<S extends z.ZodType | undefined> {
  /** Human name of the operation for messages, e.g. `update integration`. */
  operation: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Route template with `{name}` placeholders. */
  route: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  body?: unknown;
  /** Schema of the (unwrapped) success body; undefined for no body. */
  schema: S;
  /**
   * The request makes an object (a create with a natural key). After an answer lost in a way that
   * may follow the work (a 5xx, a dropped connection), it is sent again only where the server has
   * shown it honours `Idempotency-Key`; elsewhere the error is thrown `maybeWritten`, for the
   * caller to look the object up first (a server with idempotency off takes a retried POST as a
   * second object: production-notes.md, sixth pass).
   */
  creates?: boolean;
  /**
   * A 204 answers undefined rather than a body to parse: the operation says "none" that way (a
   * topic subscription's GET answers 204 for one that does not exist, where other reads say 404).
   */
  noContent?: boolean;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Encodes one path segment so that `/`, `?`, `#`, `%` and dot segments stay inside it. */
export function encodeSegment(value: string): string {
  const enc = encodeURIComponent(value);
  return enc === "." || enc === ".." ? enc.replace(/\./g, "%2E") : enc;
}

/** Fills a route template; each parameter becomes exactly one encoded segment. */
export function buildPath(route: string, params: Record<string, string> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === "") throw new NotifyConfigError(`missing path parameter ${name} for ${route}`);
    return encodeSegment(String(v));
  });
}

/** Builds a query string; arrays become repeated parameters. */
export function buildQuery(query: RequestSpec<undefined>["query"] = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
}

/** Unwraps the production envelope: a body whose only key is `data`. */
export function unwrapEnvelope(body: unknown): unknown {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === "data") return (body as { data: unknown }).data;
  }
  return body;
}

/** The service's health check, which answers its version without a session. */
const HEALTH_CHECK = "/v1/health-check";

/** What a right `notify:apiUrl` looks like, for answers that show the address is not the API's. */
export const API_URL_HINT =
  "notify:apiUrl (or NOTIFY_API_URL) must be the base address of the service's API, the one under which /v1/health-check answers, " +
  "with a gateway's path prefix if there is one (e.g. https://notify.example.com/api), not a dashboard's address";

/**
 * What is known of the servers that have a route (production-notes.md, sixth and seventh passes:
 * the open-source 2.0.0 and 3.15.0 servers run from public source): `lacks`, the newest version
 * seen without the routes, and `has`, the oldest seen with them; the least version that has them
 * lies after `lacks`. A module open-source builds leave out has no version. Routes not listed: no
 * version seen without them. The live acceptance suite (test/live) reports a kind or a probe of
 * these routes unsupported on a server of version `lacks` or older.
 */
export const ROUTES_SINCE: readonly { prefix: string; lacks?: string; has?: string; note: string }[] = [
  ...["/v2/subscribers", "/v2/topics", "/v2/contexts", "/v1/agents", "/v1/channel-connections", "/v1/channel-endpoints"].map((prefix) => afterVersion(prefix, "2.0.0", "3.15.0")),
  { prefix: "/v2/translations", note: "translations are an enterprise module of the service, which open-source builds lack (3.15.0's did)" },
];

/** An entry of {@link ROUTES_SINCE}: routes `lacks` has not and `has` has. */
function afterVersion(prefix: string, lacks: string, has: string) {
  return { prefix, lacks, has, note: `these routes came after version ${lacks} of the service (${lacks} lacks them, ${has} has them); use a newer server` };
}

/** What {@link ROUTES_SINCE} knows of the route `path` (a template or a path), or undefined. */
export function routeSince(path: string): (typeof ROUTES_SINCE)[number] | undefined {
  return ROUTES_SINCE.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`) || path.startsWith(`${r.prefix}?`));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The transport every client method goes through. */
export class HttpTransport {
  readonly origin: string;
  private readonly basePath: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly retry: RetryPolicy;
  private readonly pacer: Pacer;
  private readonly dispatcher: Dispatcher;
  private readonly onRequest?: (entry: RequestLogEntry) => void;
  private version?: Promise<string | undefined>;
  /** Whether the server has answered a write with the idempotency key it was sent: it honours them. */
  private honoursIdempotency = false;

  constructor(opts: TransportOptions) {
    let url: URL;
    try {
      url = new URL(opts.apiUrl);
    } catch {
      throw new NotifyConfigError(`notify:apiUrl is not a valid URL: ${JSON.stringify(opts.apiUrl)}`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new NotifyConfigError(`notify:apiUrl must use https:// (or http:// to loopback), got ${url.protocol}`);
    }
    if (url.protocol === "http:" && !LOOPBACK.test(url.hostname) && !opts.allowInsecureHttp) {
      throw new NotifyConfigError(
        `notify:apiUrl uses http:// to ${url.hostname}, which would send the API key unencrypted; ` +
        `use https://, or set notify:allowInsecureHttp to true if you really mean it`,
      );
    }
    if (!opts.apiKey) throw new NotifyConfigError("the API key is empty (notify:apiKey or NOTIFY_API_KEY)");
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.apiKey = opts.apiKey;
    this.timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT.default;
    this.maxResponseBytes = opts.maxResponseBytes ?? 32 * 1024 * 1024;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    this.pacer = opts.pacer ?? sharedPacer(`${url.origin}${this.basePath} ${hashKey(opts.apiKey)}`);
    this.dispatcher = opts.dispatcher ?? new Pool(url.origin, {
      connections: opts.connections ?? 16,
      keepAliveTimeout: 10_000,
      pipelining: 1,
    });
    this.onRequest = opts.onRequest;
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** Performs one logical request with retries; returns the parsed body. */
  async request<S extends z.ZodType | undefined>(
    spec: RequestSpec<S>,
  ): Promise<S extends z.ZodType ? z.infer<S> : undefined> {
    const path = this.basePath + buildPath(spec.route, spec.params) + buildQuery(spec.query);
    const headers: Record<string, string> = {
      authorization: `ApiKey ${this.apiKey}`,
      accept: "application/json",
    };
    let payload: string | undefined;
    if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    // One key per logical request, the same on every retry of it.
    if (spec.method === "POST" || spec.method === "PATCH") headers["idempotency-key"] = randomUUID();

    const started = Date.now();
    let lastError: Error | undefined;
    // What each failed attempt got, for the message of the error given up on.
    const outcomes: string[] = [];
    for (let attempt = 1; ; attempt++) {
      await this.pacer.acquire();
      const t0 = Date.now();
      let status: number | undefined;
      let waitMs: number | undefined;
      try {
        const res = await this.send(spec, path, headers, payload);
        status = res.status;
        const get = (n: string) => headerValue(res.headers[n]);
        // The service's idempotency interceptor answers the key it took (apps/api/src/app/shared/
        // framework/idempotency.interceptor.ts: `Idempotency-Key`, and `Idempotency-Replay` on a replay).
        if (headers["idempotency-key"] && (get("idempotency-key") === headers["idempotency-key"] || get("idempotency-replay") === "true")) this.honoursIdempotency = true;
        this.pacer.observe(readRateLimitHeaders(get));
        this.onRequest?.({ method: spec.method, route: spec.route, status, attempt, durationMs: Date.now() - t0 });
        if (status === 204 && spec.noContent) return undefined as never;
        if (status >= 200 && status < 300) return this.parse(spec, res.text, get("content-type"), path) as never;
        const retryAfter = parseRetryAfter(get("retry-after"));
        const err = await this.apiError(spec, status, res.text, get, attempt, path);
        if (!isRetryableStatus(status, retryAfter !== undefined)) throw err;
        if ((status >= 500 || status === 408) && this.mustNotRepeat(spec)) throw maybeWritten(err);
        lastError = err;
        outcomes.push(String(status));
        if (status === 429) {
          const reset = readRateLimitHeaders(get).resetMs;
          waitMs = retryAfter ?? reset;
          this.pacer.backOff(waitMs ?? this.retry.baseDelayMs);
        } else {
          waitMs = retryAfter;
        }
      } catch (e) {
        if (status !== undefined) throw e;
        this.pacer.observe({});
        if (e instanceof NotifyResponseError) throw e;
        const msg = redact(connectionMessage(e, this.timeoutMs), [this.apiKey]);
        outcomes.push(connectionCode(e));
        this.onRequest?.({ method: spec.method, route: spec.route, attempt, durationMs: Date.now() - t0, error: msg });
        lastError = new NotifyConnectionError(
          `${spec.method} ${spec.route} failed: ${msg}`, { method: spec.method, path: spec.route, attempts: attempt },
        );
        // A connection refused carried nothing; any other loss may follow the work.
        if (errorCode(e as { code?: string }) !== "ECONNREFUSED" && this.mustNotRepeat(spec)) throw maybeWritten(lastError);
      }
      const delay = backoffDelay(this.retry, attempt, waitMs);
      if (attempt >= this.retry.maxAttempts || Date.now() + delay - started > this.retry.maxElapsedMs) {
        throw gaveUp(lastError!, attempt, outcomes, Date.now() - started);
      }
      await sleep(delay);
    }
  }

  private async send(
    spec: RequestSpec<z.ZodType | undefined>, path: string, headers: Record<string, string>, payload?: string,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const res = await this.dispatcher.request({
      origin: this.origin, path, method: spec.method, headers, body: payload, signal,
      headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > this.maxResponseBytes) {
        res.body.destroy();
        throw new NotifyResponseError(spec.operation, `response body larger than ${this.maxResponseBytes} bytes; refused`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") };
  }

  private parse(spec: RequestSpec<z.ZodType | undefined>, text: string, contentType: string | undefined, path: string): unknown {
    if (!spec.schema) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const kind = contentType && !contentType.includes("json") ? ` (${contentType.split(";")[0]})` : "";
      // A page for every path is a dashboard's or a gateway's: the address is not the API's.
      const hint = /^\s*</.test(text) ? `; ${this.address(spec.method, path)} is not the service's API: ${API_URL_HINT}` : "";
      throw new NotifyResponseError(spec.operation, `the service answered with a body that is not JSON${kind}: ${snippet(text, this.apiKey)}${hint}`);
    }
    const result = spec.schema.safeParse(unwrapEnvelope(json));
    if (!result.success) {
      const first = result.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
      throw new NotifyResponseError(spec.operation, `unexpected response shape: ${first.join("; ")}`);
    }
    return result.data;
  }

  /** Whether a lost answer to `spec` must not be followed by the same request: a create, on a server not known to honour its key. */
  private mustNotRepeat(spec: RequestSpec<z.ZodType | undefined>): boolean {
    return spec.creates === true && !this.honoursIdempotency;
  }

  /** `GET https://host/prefix/v2/...`: the address a request asked, for messages (it never holds the key). */
  private address(method: string, path: string): string {
    return `${method} ${this.origin}${path}`;
  }

  /**
   * The version the server says it is (`GET /v1/health-check`, which takes no session:
   * `info.apiVersion.version`), asked once per connection and only when an answer needs it: a
   * route the server lacks or refuses an API key on. Undefined when nothing at the address
   * answers it, which says the address is not the service's API.
   */
  serverVersion(): Promise<string | undefined> {
    this.version ??= (async () => {
      try {
        const res = await this.send({ operation: "read the server's version", method: "GET", route: HEALTH_CHECK, schema: undefined }, this.basePath + HEALTH_CHECK, { accept: "application/json" });
        if (res.status !== 200) return undefined;
        const body = unwrapEnvelope(JSON.parse(res.text)) as { info?: { apiVersion?: { version?: unknown } }; details?: { apiVersion?: { version?: unknown } } };
        const v = body?.info?.apiVersion?.version ?? body?.details?.apiVersion?.version;
        return typeof v === "string" && v ? v : undefined;
      } catch {
        return undefined;
      }
    })();
    return this.version;
  }

  /** What an answer that is not about the object means (a route the server lacks, a foreign page), with what to do. */
  private async meaning(
    spec: RequestSpec<z.ZodType | undefined>, status: number, body: unknown, path: string,
  ): Promise<{ code: NotifyErrorCode; hint: string } | undefined> {
    const asked = this.address(spec.method, path);
    if (status === 401 && isApiKeyNotAccepted(body)) {
      const version = await this.serverVersion();
      return {
        code: "api_key_not_accepted",
        hint: `The server ${version ? `(version ${version}) ` : ""}takes no API key on ${spec.method} ${spec.route}, only a dashboard session: ` +
          `the key is not the problem, the server cannot ${spec.operation} for an API key; use a version of the service whose API accepts API keys there, or manage this in the dashboard`,
      };
    }
    if (status !== 404) return undefined;
    const kind = notFoundKind(body);
    if (kind === "object") return undefined;
    if (kind === "feature") {
      return { code: "feature_disabled", hint: `The server has ${spec.method} ${spec.route} but keeps the feature off (a feature flag of the service or of its plan): enable it on the server, or leave this kind out of the program` };
    }
    const version = await this.serverVersion();
    if (kind === "route" && version) {
      const since = routeSince(spec.route);
      const why = since ? since.note : "it is older than the service this needs, or built without it";
      return { code: "no_route", hint: `The server at ${this.origin}${this.basePath} (version ${version}) has no route ${spec.method} ${spec.route}: ${why} (${asked})` };
    }
    return { code: "no_route", hint: `${asked} is not a route of the service's API${version ? ` (the server says it is version ${version})` : ""}: ${API_URL_HINT}` };
  }

  private async apiError(
    spec: RequestSpec<z.ZodType | undefined>, status: number, text: string,
    get: (n: string) => string | undefined, attempts: number, path: string,
  ): Promise<NotifyApiError> {
    let message = "";
    let details: string[] = [];
    let requestId = get("x-request-id") ?? get("request-id");
    let parsed: unknown;
    try {
      const body = JSON.parse(text) as Record<string, unknown> | string;
      parsed = body;
      if (typeof body === "string") message = body;
      else if (body && typeof body === "object") {
        const m = body.message;
        if (typeof m === "string") message = m;
        else if (Array.isArray(m)) details = m.map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
        else if (m && typeof m === "object") details = Object.entries(m).map(([k, v]) => `${k}: ${fmt(v)}`);
        if (Array.isArray(body.errors)) details.push(...body.errors.map(fmt));
        else if (body.errors && typeof body.errors === "object") {
          // Production's validation failures (422 "Validation Error") list the validator's
          // messages under errors.general.messages (its exception filter); other keys name a field.
          for (const [k, v] of Object.entries(body.errors)) {
            const messages = v && typeof v === "object" ? (v as { messages?: unknown }).messages : undefined;
            if (Array.isArray(messages)) details.push(...messages.map((x) => (k === "general" ? fmt(x) : `${k}: ${fmt(x)}`)));
            else details.push(`${k}: ${fmt(v)}`);
          }
        }
        if (!message) message = typeof body.error === "string" ? body.error : details.length ? "validation failed" : "";
        if (!requestId && typeof body.errorId === "string") requestId = body.errorId;
      }
    } catch {
      message = text.trim().startsWith("<") ? "the service answered with an HTML page" : text.trim();
    }
    if (!message) message = `${spec.operation} failed`;
    const key = this.apiKey;
    const meaning = await this.meaning(spec, status, parsed, path);
    return apiErrorFor({
      status, method: spec.method, path: spec.route, attempts, code: meaning?.code, hint: meaning ? redact(meaning.hint, [key]) : undefined,
      serviceMessage: redact(truncate(message, 500), [key]),
      details: details.slice(0, 20).map((d) => redact(truncate(d, 300), [key])),
      requestId: requestId ? truncate(requestId, 100) : undefined,
    });
  }
}

/**
 * The last attempt's error, told how many attempts were made; after retries its message ends with
 * what every attempt got and how long they took, so a failure after retries reads as one.
 */
function gaveUp(err: Error, attempts: number, outcomes: string[], elapsedMs: number): Error {
  if ("attempts" in err) (err as { attempts: number }).attempts = attempts;
  if (attempts > 1) err.message += ` (after ${attempts} attempts in ${(elapsedMs / 1000).toFixed(1)} s: ${outcomes.join(", ")})`;
  return err;
}

/** `err`, marked as the lost answer of a create that may have made its object ({@link NotifyError.maybeWritten}). */
function maybeWritten<E extends Error>(err: E): E {
  (err as E & { maybeWritten: boolean }).maybeWritten = true;
  err.message += " (the answer was lost and the server has not shown it honours Idempotency-Key, so the create was not sent again blindly)";
  return err;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function fmt(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(fmt).join(", ");
  return JSON.stringify(v);
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function snippet(text: string, key: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f]+/g, " ").trim();
  return clean ? JSON.stringify(redact(truncate(clean, 120), [key])) : "(empty body)";
}

function connectionMessage(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (isTimeout(err)) return `no complete answer within ${timeoutMs} ms`;
  const code = errorCode(err);
  const msg = err?.message ?? String(e);
  return code ? `${code}: ${msg}` : msg;
}

/** A failed attempt without an answer, in a word: its error code, or `timeout`. */
function connectionCode(e: unknown): string {
  const err = e as { name?: string; code?: string; cause?: { code?: string } };
  if (isTimeout(err)) return "timeout";
  return errorCode(err) ?? err?.name ?? "error";
}

/** The code of a connection error, or of its cause (undici wraps some in a TypeError). */
function errorCode(err: { code?: string; cause?: { code?: string } }): string | undefined {
  return err?.code ?? err?.cause?.code;
}

/** The attempt's own timeout, or undici's for the headers or the body. */
function isTimeout(err: { name?: string; code?: string }): boolean {
  return err?.name === "TimeoutError" || err?.code === "UND_ERR_HEADERS_TIMEOUT" || err?.code === "UND_ERR_BODY_TIMEOUT";
}

function hashKey(key: string): string {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}
