/**
 * The emulated service over node:http: a request pipeline of small steps (read body,
 * authenticate, test controls, rate limit, faults, route match, JSON parse, contract validation,
 * idempotency, handler) in front of the route tables of `routes/`, then render and log. The
 * production behaviours (envelope, hidden credentials, idempotency, rate limits) are switchable.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { validateRequest } from "./contract";
import { control, type ControlTarget } from "./control";
import {
  HttpError, RATE_LIMIT_BODY, badRequest, conflict, errorBody, notFound, payloadTooLarge, serverError, unauthorized, unprocessable,
  validationFailed,
} from "./errors";
import { decideFault, sendHostile, type FaultDecision } from "./faults";
import { seedEnvironments, startingEnvironments, tenantOfKey } from "./environments";
import { emptyLists, ROUTES } from "./kinds";
import type { EnvironmentRecord } from "./records";
import { Store, type Tenant } from "./store";
import type { Behaviour, Faults, LoggedRequest, Reply, Route } from "./types";
import { seededRandom, stableHash, TokenBucket } from "./util";

export type { Behaviour, Faults, LoggedRequest } from "./types";

const MAX_BODY = 5 * 1024 * 1024;
const LOG_LIMIT = 200_000;
/** Bodies larger than this are logged without their content (`bodyOmitted: "too-large"`). */
const LOG_BODY_LIMIT = 64 * 1024;
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** Every API operation the emulator serves (kinds.ts, from the registry routes/index.ts). */
export { ROUTES };

interface CompiledRoute { route: Route; pattern: RegExp; names: string[] }

const COMPILED: CompiledRoute[] = ROUTES.map((route) => {
  const names: string[] = [];
  const pattern = new RegExp(
    "^" + route.path.replace(/\{(\w+)\}/g, (_m, n: string) => { names.push(n); return "([^/]+)"; }) + "$",
  );
  return { route, pattern, names };
});

/** One request on its way through the pipeline. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  entry: LoggedRequest;
  idempotencyKey?: string;
  bodyText: string;
  body?: unknown;
  key?: string;
  tenant?: Tenant;
  route?: Route;
  params: Record<string, string>;
  /** Headers every answer of this request carries (rate limit, idempotency). */
  headers: Record<string, string>;
  fault: FaultDecision;
  idempotencySlot?: string;
}

/** How a pipeline step ends the request: an answer, a dropped connection, or a hostile body. */
type End = { reply: Reply } | { drop: true } | { hostile: NonNullable<Faults["hostile"]> };
type Step = (x: Exchange) => Promise<End | undefined> | End | undefined;

/** The environment of the caller's key (the service's environments controller, `GET /v1/environments/me`). */
const ENVIRONMENT_OF_KEY = "/v1/environments/me";

const answer = (reply: Reply): End => ({ reply });
const failure = (e: HttpError, x: Exchange): End => answer({ status: e.status, body: errorBody(e, x.path) });

/** The request handler and its state. */
export class EmulatorApp implements ControlTarget {
  readonly store: Store;
  behaviour: Behaviour;
  faults: Faults = {};
  private random = Math.random;
  /** The environments of the configured keys, put back on every reset (environments.ts). */
  private readonly startingEnvironments: EnvironmentRecord[];
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly idempotency = new Map<string, { hash: string; done: boolean; reply?: Reply; at: number }>();
  private log: LoggedRequest[] = [];
  private seq = 0;
  /** The request after which the `stopAfter` fault stopped the server (it answers nothing since). */
  private stoppedAt?: number;
  /** Whether the `loseAnswer` fault has lost its answer (it does once). */
  private answerLost = false;
  /** The service's requests being answered now (each log entry's `inFlight` is this on its arrival). */
  private inFlight = 0;

  constructor(opts: { apiKeys: string[]; behaviour: Behaviour; statePath?: string }) {
    this.behaviour = opts.behaviour;
    this.store = new Store(emptyLists, opts.statePath);
    this.startingEnvironments = startingEnvironments(opts.apiKeys);
    seedEnvironments(this.store, this.startingEnvironments);
  }

  /** node:http entry point. */
  handle = (req: IncomingMessage, res: ServerResponse): void => {
    void this.dispatch(req, res).catch(() => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify(errorBody(serverError(), req.url ?? "/")));
      }
    });
  };

  // ---------------------------------------------------------------- the pipeline

  private readonly pipeline: Step[] = [
    (x) => this.readBody(x),
    (x) => this.stopped(x),
    (x) => this.healthCheck(x),
    (x) => this.gateRoute(x),
    (x) => this.authenticate(x),
    (x) => this.testControls(x),
    (x) => this.environmentOfKey(x),
    (x) => this.rateLimit(x),
    (x) => this.injectFaults(x),
    (x) => this.matchRoute(x),
    (x) => this.parseJson(x),
    (x) => this.validateContract(x),
    (x) => this.checkIdempotency(x),
    (x) => this.runHandler(x),
  ];

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? "/";
    const qIndex = rawUrl.indexOf("?");
    const path = qIndex >= 0 ? rawUrl.slice(0, qIndex) : rawUrl;
    const query = new URLSearchParams(qIndex >= 0 ? rawUrl.slice(qIndex + 1) : "");
    const method = (req.method ?? "GET").toUpperCase();
    const idempotencyKey = headerOf(req, "idempotency-key");
    // The test controls are not the service's requests: they neither count nor are counted.
    const counted = !path.startsWith("/__emulator/");
    if (counted) this.inFlight++;
    const x: Exchange = {
      req, res, method, path, query, idempotencyKey, bodyText: "", params: {}, headers: {}, fault: { kind: "none" },
      entry: {
        seq: ++this.seq, method, path, query: queryObject(query), status: 0, idempotencyKey,
        time: new Date().toISOString(), inFlight: this.inFlight, bytesIn: 0, bytesOut: 0,
      },
    };
    try {
      for (const step of this.pipeline) {
        const end = await step(x);
        if (end) return this.finish(x, end);
      }
    } finally {
      if (counted) this.inFlight--;
    }
  }

  private finish(x: Exchange, end: End): void {
    const control = x.path.startsWith("/__emulator/");
    if ("drop" in end) {
      x.entry.status = 0;
      this.pushLog(x.entry);
      x.req.socket.destroy();
      return;
    }
    if ("hostile" in end) {
      this.pushLog({ ...x.entry, status: 200 });
      sendHostile(end.hostile, x.res, x.key ?? "");
      return;
    }
    const payload = this.render(end.reply, control);
    x.entry.status = end.reply.status;
    x.entry.bytesOut = payload.bytes.length;
    if (!control) this.pushLog(x.entry);
    x.res.writeHead(end.reply.status, { ...payload.headers, ...x.headers, ...(end.reply.headers ?? {}) });
    x.res.end(payload.bytes);
  }

  /** Reads the whole body (up to MAX_BODY). */
  private async readBody(x: Exchange): Promise<End | undefined> {
    try {
      x.bodyText = await readBody(x.req);
    } catch (e) {
      return failure(e instanceof HttpError ? e : badRequest("could not read the request body"), x);
    }
    x.entry.bytesIn = Buffer.byteLength(x.bodyText);
    return undefined;
  }

  /** A server stopped by the `stopAfter` fault answers nothing: every API request loses its connection. */
  private stopped(x: Exchange): End | undefined {
    if (!this.stoppedAt || x.path.startsWith("/__emulator/")) return undefined;
    x.entry.fault = "stopped";
    return { drop: true };
  }

  /**
   * `GET /v1/health-check`, which takes no key (the service's health controller): its status and
   * `info.apiVersion.version`, the version this emulator answers as (Behaviour.version).
   */
  private healthCheck(x: Exchange): End | undefined {
    if (x.method !== "GET" || x.path !== "/v1/health-check") return undefined;
    const up = { status: "up" };
    const info = { db: up, workflowQueue: up, apiVersion: { version: this.behaviour.version, status: "up" } };
    return answer({ status: 200, body: { status: "ok", info, error: {}, details: info } });
  }

  /**
   * A route this server lacks or gates (Behaviour.routeGates), answered before the key is looked at
   * as the service's router and guards do; and an unknown route, NestJS's 404 whatever the key.
   */
  private gateRoute(x: Exchange): End | undefined {
    if (x.path.startsWith("/__emulator/")) return undefined;
    const gate = this.behaviour.routeGates.find((g) => x.path === g.prefix || x.path.startsWith(`${g.prefix.replace(/\/+$/, "")}/`));
    switch (gate?.as) {
      case "absent": return failure(notFound(`Cannot ${x.method} ${x.path}`), x);
      case "feature-off": return failure(notFound("Feature not enabled"), x);
      case "session-only": return failure(new HttpError(401, "API endpoint not accessible"), x);
    }
    if (x.method === "GET" && x.path === ENVIRONMENT_OF_KEY) return undefined;
    return COMPILED.some((r) => r.route.method === x.method && r.pattern.test(x.path)) ? undefined : failure(notFound(`Cannot ${x.method} ${x.path}`), x);
  }

  /** `GET /v1/environments/me`: the environment of the caller's key, as the environment list shows it. */
  private environmentOfKey(x: Exchange): End | undefined {
    if (x.method !== "GET" || x.path !== ENVIRONMENT_OF_KEY) return undefined;
    const env = this.store.data.environments.find((e) => e._id === x.tenant!.environmentId);
    if (!env) return failure(notFound(`Environment ${x.tenant!.environmentId} not found`), x);
    const { apiKeys: _keys, ...rest } = env;
    return answer({ status: 200, body: rest });
  }

  /**
   * `Authorization: ApiKey <key>`, compared in constant time with every key of every environment
   * the store holds: the configured ones and those of environments created through the API.
   */
  private authenticate(x: Exchange): End | undefined {
    const header = headerOf(x.req, "authorization");
    const m = header ? /^ApiKey (.+)$/.exec(header) : null;
    const found = tenantOfKey(this.store, m ? m[1]! : "");
    if (m && found) [x.key, x.tenant] = [found.key, found.tenant];
    return x.tenant ? undefined : failure(unauthorized(), x);
  }

  private testControls(x: Exchange): End | undefined {
    if (!x.path.startsWith("/__emulator/")) return undefined;
    return answer({ ...control(this, x.method, x.path, x.query, x.bodyText, x.tenant!), bare: true });
  }

  /** Rate-limit headers on every response; 429 when the key's bucket is empty. */
  private rateLimit(x: Exchange): End | undefined {
    const cfg = this.behaviour.rateLimit;
    if (!cfg) {
      x.headers = { "ratelimit-limit": "1000000", "ratelimit-remaining": "1000000", "ratelimit-reset": "0", "ratelimit-policy": '1000000;w=1;comment="unlimited"' };
      return undefined;
    }
    let b = this.buckets.get(x.key!);
    if (!b) {
      b = new TokenBucket(cfg.rate, cfg.burst);
      this.buckets.set(x.key!, b);
    }
    const ok = b.take();
    const retryAfter = ok ? 0 : Math.max(1, b.secondsUntilToken());
    x.headers = {
      "ratelimit-limit": String(cfg.rate),
      "ratelimit-remaining": String(b.remaining()),
      "ratelimit-reset": String(ok ? b.secondsUntilFull() : retryAfter),
      "ratelimit-policy": `${cfg.rate};w=1;burst=${cfg.burst};comment="token bucket";category="global";cost="single"`,
    };
    if (ok) return undefined;
    x.entry.fault = "rate-limit";
    return answer({ status: 429, body: RATE_LIMIT_BODY, headers: { "retry-after": String(retryAfter) } });
  }

  /** Latency, then the dice: drops, 429s, 5xx and hostile bodies before the work. */
  private async injectFaults(x: Exchange): Promise<End | undefined> {
    const f = this.faults;
    if (f.latencyMs) {
      const [lo, hi] = f.latencyMs;
      await new Promise((r) => setTimeout(r, lo + this.random() * Math.max(0, hi - lo)));
    }
    x.fault = decideFault(f, this.random);
    switch (x.fault.kind) {
      case "drop":
        x.entry.fault = "drop";
        return { drop: true };
      case "rate-limit":
        x.entry.fault = "429";
        return answer({ status: 429, body: RATE_LIMIT_BODY, headers: { "retry-after": "1" } });
      case "error":
        x.entry.fault = "5xx";
        return failure(serverError(x.fault.status), x);
      case "hostile":
        x.entry.fault = `hostile:${x.fault.hostile}`;
        return { hostile: x.fault.hostile };
      default:
        return undefined;
    }
  }

  private matchRoute(x: Exchange): End | undefined {
    for (const r of COMPILED) {
      if (r.route.method !== x.method) continue;
      const m = r.pattern.exec(x.path);
      if (!m) continue;
      try {
        x.params = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
      } catch {
        continue;
      }
      x.route = r.route;
      x.entry.route = r.route.path;
      return undefined;
    }
    return failure(notFound(`Cannot ${x.method} ${x.path}`), x);
  }

  /** Parses a JSON body, and records it in the log entry (bounded). */
  private parseJson(x: Exchange): End | undefined {
    if (!x.bodyText) return undefined;
    try {
      x.body = JSON.parse(x.bodyText);
    } catch {
      x.entry.bodyOmitted = "not-json";
      return failure(badRequest("Request body is not valid JSON"), x);
    }
    if (x.entry.bytesIn > LOG_BODY_LIMIT) x.entry.bodyOmitted = "too-large";
    else x.entry.body = structuredClone(x.body);
    return undefined;
  }

  /** The body and query against spec/openapi.json; 422 with the validator's messages. */
  private validateContract(x: Exchange): End | undefined {
    const messages = validateRequest(x.method, x.route!.path, { body: x.body, query: x.query });
    return messages.length ? failure(validationFailed(messages), x) : undefined;
  }

  /** `idempotency-key` on POST and PATCH: replay, 409 while in flight, 422 for another body. */
  private checkIdempotency(x: Exchange): End | undefined {
    const key = x.idempotencyKey;
    if (!this.behaviour.idempotency || key === undefined || (x.method !== "POST" && x.method !== "PATCH")) return undefined;
    if (key.length === 0 || key.length > 255) return failure(badRequest("idempotency-key must be 1 to 255 characters"), x);
    const slot = `${x.key}\u0000${key}`;
    const hash = stableHash({ method: x.method, path: x.path, body: x.body ?? null });
    const prior = this.idempotency.get(slot);
    if (prior && Date.now() - prior.at < IDEMPOTENCY_TTL_MS) {
      if (prior.hash !== hash) return failure(unprocessable(`Request with key "${key}" is being reused for a different body`), x);
      if (!prior.done) {
        x.headers["retry-after"] = "1";
        return failure(conflict(`Request with key "${key}" is currently being processed. Please retry after 1 second`), x);
      }
      x.entry.replay = true;
      Object.assign(x.headers, { "idempotency-replay": "true", "idempotency-key": key });
      return answer(prior.reply!);
    }
    this.idempotency.set(slot, { hash, done: false, at: Date.now() });
    x.idempotencySlot = slot;
    x.headers["idempotency-key"] = key;
    return undefined;
  }

  /** The route's handler; then a fault decided earlier may lose the answer. */
  private async runHandler(x: Exchange): Promise<End> {
    if (this.faults.processingMs) await new Promise((r) => setTimeout(r, this.faults.processingMs));
    let reply: Reply;
    try {
      reply = await x.route!.handler({
        tenant: x.tenant!, key: x.key!, method: x.method, path: x.path, query: x.query, body: x.body, params: x.params,
        store: this.store, behaviour: this.behaviour,
      });
    } catch (e) {
      reply = { status: e instanceof HttpError ? e.status : 500, body: errorBody(e instanceof HttpError ? e : serverError(), x.path) };
    }
    if (x.idempotencySlot) Object.assign(this.idempotency.get(x.idempotencySlot) ?? {}, { done: true, reply });
    const stop = this.faults.stopAfter;
    if (stop && !this.stoppedAt && stop.method === x.method && stop.route === x.route!.path && reply.status < 400) this.stoppedAt = x.entry.seq;
    const lose = this.faults.loseAnswer;
    if (lose && !this.answerLost && lose.method === x.method && lose.route === x.route!.path) {
      this.answerLost = true;
      x.fault = { kind: "lost-after-work", as: "5xx" };
    }
    if (x.fault.kind === "lost-after-work") {
      if (x.fault.as === "drop") {
        x.entry.fault = "drop-after-work";
        return { drop: true };
      }
      x.entry.fault = "502-after-work";
      delete x.headers["idempotency-key"];
      return failure(serverError(502), x);
    }
    return answer(reply);
  }

  // ---------------------------------------------------------------- render and log

  private render(reply: Reply, control: boolean): { bytes: Buffer; headers: Record<string, string> } {
    if (reply.body === undefined) return { bytes: Buffer.alloc(0), headers: {} };
    if (typeof reply.body === "string") {
      return { bytes: Buffer.from(reply.body), headers: { "content-type": "text/plain; charset=utf-8" } };
    }
    const ok = reply.status >= 200 && reply.status < 300;
    const body = ok && this.behaviour.envelope && !reply.bare && !control ? { data: reply.body } : reply.body;
    return { bytes: Buffer.from(JSON.stringify(body)), headers: { "content-type": "application/json; charset=utf-8" } };
  }

  private pushLog(entry: LoggedRequest): void {
    if (entry.path.startsWith("/__emulator/")) return;
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  // ---------------------------------------------------------------- what the test controls act on

  reset(): void {
    this.store.reset();
    seedEnvironments(this.store, this.startingEnvironments);
    this.log = [];
    this.idempotency.clear();
    this.buckets.clear();
    this.setFaults({});
  }

  requestsSince(seq: number): LoggedRequest[] {
    return this.log.filter((r) => r.seq > seq);
  }

  clearRequests(): void {
    this.log = [];
  }

  setFaults(f: Faults): void {
    this.faults = f;
    this.stoppedAt = undefined;
    this.answerLost = false;
    this.random = f.seed !== undefined ? seededRandom(f.seed) : Math.random;
  }

  setBehaviour(b: Partial<Behaviour>): void {
    this.behaviour = { ...this.behaviour, ...b };
    this.buckets.clear();
  }
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(payloadTooLarge(MAX_BODY));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function queryObject(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of new Set(q.keys())) {
    const all = q.getAll(k);
    out[k] = all.length === 1 ? all[0]! : all;
  }
  return out;
}
