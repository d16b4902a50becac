/**
 * The emulated service: routes of spec/api.md and production-notes.md over node:http, with the
 * production behaviours (envelope, hidden credentials, idempotency, rate limits, soft delete)
 * switchable, and test controls under `/__emulator/`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  CreateIntegrationBody, UpdateIntegrationBody, UpdateSubscriberCredentialsBody, PatchSubscriberBody,
  CreateSubscriberBody, CreateWorkflowBody, UpdateWorkflowBody, TriggerBody, CHANNELS, STEP_TYPES,
  SEVERITIES, WORKFLOW_STATUSES, ContextKey,
} from "../provider/schemas";
import { Store, type Json, type Tenant } from "./store";
import { objectId, seededRandom, secretEquals, slugify, stableHash, TokenBucket } from "./util";

/** Which behaviours the emulator shows. */
export interface Behaviour {
  /** Wrap success bodies in `{data}` (production) or not (api.md). */
  envelope: boolean;
  /** Leave integration `credentials` out of responses (production, API-key callers). */
  hideCredentials: boolean;
  /** Honour `idempotency-key` on POST and PATCH (production, where enabled). */
  idempotency: boolean;
  /** Token bucket per key; undefined for no limit. */
  rateLimit?: { rate: number; burst: number };
  /** The subscription plan's history window: the events list starts no earlier than this many days ago. */
  retentionDays: number;
}

/** Faults injected into API routes (never into `/__emulator/`). All off by default. */
export interface Faults {
  latencyMs?: [number, number];
  errorRate?: number;
  rateLimitRate?: number;
  dropRate?: number;
  /** Time a handler takes once a request is admitted (after the idempotency check), in ms. */
  processingMs?: number;
  /** Answers every API request with this hostile body instead (for client robustness tests). */
  hostile?: "html" | "truncated" | "wrong-types" | "missing-fields" | "huge" | "trickle" | "echo-key";
  seed?: number;
}

/** One line of the request log. */
export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  idempotencyKey?: string;
  replay?: boolean;
  fault?: string;
  time: string;
  bytesIn: number;
  bytesOut: number;
}

const FaultsBody = z.strictObject({
  latencyMs: z.tuple([z.number().min(0).max(10_000), z.number().min(0).max(10_000)]).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  rateLimitRate: z.number().min(0).max(1).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  processingMs: z.number().min(0).max(10_000).optional(),
  hostile: z.enum(["html", "truncated", "wrong-types", "missing-fields", "huge", "trickle", "echo-key"]).optional(),
  seed: z.number().int().optional(),
});

class HttpError extends Error {
  constructor(readonly status: number, message: string | string[], readonly extra: Json = {}) {
    super(Array.isArray(message) ? message.join("; ") : message);
    this.body = message;
  }
  readonly body: string | string[];
}

const STATUS_NAMES: Record<number, string> = {
  400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 409: "Conflict", 413: "Payload Too Large",
  415: "Unsupported Media Type", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error",
};

const MAX_BODY = 5 * 1024 * 1024;
const LOG_LIMIT = 200_000;
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const SEARCH_CAP = 50_000;

interface Ctx {
  tenant: Tenant;
  key: string;
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

interface Reply {
  status: number;
  body?: unknown;
  /** Paginated lists carry their own `data` and are never wrapped in the envelope. */
  bare?: boolean;
  headers?: Record<string, string>;
}

type Handler = (ctx: Ctx, params: Record<string, string>) => Reply | Promise<Reply>;

/** The request handler and its state. */
export class EmulatorApp {
  readonly store: Store;
  behaviour: Behaviour;
  private faults: Faults = {};
  private random = Math.random;
  private readonly tenants: Map<string, Tenant>;
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly idempotency = new Map<string, { hash: string; done: boolean; reply?: Reply; at: number }>();
  private log: LoggedRequest[] = [];
  private seq = 0;
  private readonly routes: { method: string; pattern: RegExp; names: string[]; handler: Handler }[] = [];
  private sortCache = new Map<string, { version: number; list: Json[] }>();

  constructor(opts: { keys: Map<string, Tenant>; behaviour: Behaviour; statePath?: string }) {
    this.tenants = opts.keys;
    this.behaviour = opts.behaviour;
    this.store = new Store(opts.statePath);
    this.registerRoutes();
  }

  // ---------------------------------------------------------------- plumbing

  private route(method: string, template: string, handler: Handler): void {
    const names: string[] = [];
    const pattern = new RegExp(
      "^" + template.replace(/\{(\w+)\}/g, (_m, n: string) => { names.push(n); return "([^/]+)"; }) + "$",
    );
    this.routes.push({ method, pattern, names, handler });
  }

  /** node:http entry point. */
  handle = (req: IncomingMessage, res: ServerResponse): void => {
    void this.dispatch(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ statusCode: 500, message: "Internal server error", errorId: randomUUID(), detail: String(err) }));
      }
    });
  };

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const rawUrl = req.url ?? "/";
    const qIndex = rawUrl.indexOf("?");
    const rawPath = qIndex >= 0 ? rawUrl.slice(0, qIndex) : rawUrl;
    const query = new URLSearchParams(qIndex >= 0 ? rawUrl.slice(qIndex + 1) : "");
    const method = (req.method ?? "GET").toUpperCase();
    const control = rawPath.startsWith("/__emulator/");
    const idemKey = headerOf(req, "idempotency-key");
    const entry: LoggedRequest = {
      seq: ++this.seq, method, path: rawPath, query: queryObject(query), status: 0,
      idempotencyKey: idemKey, time: new Date(started).toISOString(), bytesIn: 0, bytesOut: 0,
    };
    const finish = (reply: Reply, extraHeaders: Record<string, string> = {}) => {
      const payload = this.render(reply, rawPath);
      entry.status = reply.status;
      entry.bytesOut = payload.bytes.length;
      if (!control) this.pushLog(entry);
      res.writeHead(reply.status, { ...payload.headers, ...extraHeaders, ...(reply.headers ?? {}) });
      res.end(payload.bytes);
    };

    let bodyText = "";
    try {
      bodyText = await readBody(req);
    } catch (e) {
      return finish(errorReply(e instanceof HttpError ? e : new HttpError(400, "could not read the request body"), rawPath));
    }
    entry.bytesIn = Buffer.byteLength(bodyText);

    // Authentication (constant-time over every configured key).
    const tenantEntry = this.authenticate(headerOf(req, "authorization"));
    if (!tenantEntry) {
      return finish(errorReply(new HttpError(401, "API Key not found"), rawPath));
    }
    const [key, tenant] = tenantEntry;

    if (control) {
      const reply = await this.control(method, rawPath, query, bodyText, tenant);
      return finish({ ...reply, bare: true });
    }

    // Rate limit headers on every response; 429 when the bucket is empty.
    const rl = this.rateLimitHeaders(key);
    if (rl.limited) {
      entry.fault = "rate-limit";
      return finish({ status: 429, body: "API rate limit exceeded", headers: { ...rl.headers, "retry-after": String(rl.retryAfter) } });
    }

    // Injected faults.
    const f = this.faults;
    if (f.latencyMs) {
      const [lo, hi] = f.latencyMs;
      await new Promise((r) => setTimeout(r, lo + this.random() * Math.max(0, hi - lo)));
    }
    // Dropped connections and 5xx come before the work half of the time, and after it (the work
    // is done, the answer is lost) the other half: the case that tests idempotency for real.
    let lostAfterWork: "drop" | "5xx" | undefined;
    if (f.dropRate && this.random() < f.dropRate) {
      if (this.random() < 0.5) {
        entry.fault = "drop";
        entry.status = 0;
        this.pushLog(entry);
        req.socket.destroy();
        return;
      }
      lostAfterWork = "drop";
    }
    if (!lostAfterWork && f.rateLimitRate && this.random() < f.rateLimitRate) {
      entry.fault = "429";
      return finish({ status: 429, body: "API rate limit exceeded", headers: { ...rl.headers, "retry-after": "1" } });
    }
    if (!lostAfterWork && f.errorRate && this.random() < f.errorRate) {
      if (this.random() < 0.5) {
        entry.fault = "5xx";
        const status = this.random() < 0.5 ? 500 : 503;
        return finish(errorReply(new HttpError(status, status === 500 ? "Internal server error" : "Service Unavailable", { errorId: randomUUID() }), rawPath), rl.headers);
      }
      lostAfterWork = "5xx";
    }
    if (f.hostile) {
      entry.fault = `hostile:${f.hostile}`;
      this.pushLog({ ...entry, status: 200 });
      return this.hostile(f.hostile, res, key);
    }

    // Route.
    const match = this.match(method, rawPath);
    if (!match) return finish(errorReply(new HttpError(404, `Cannot ${method} ${rawPath}`), rawPath), rl.headers);

    let body: unknown = undefined;
    if (bodyText) {
      try {
        body = JSON.parse(bodyText);
      } catch {
        return finish(errorReply(new HttpError(400, "Request body is not valid JSON"), rawPath), rl.headers);
      }
    }

    // Idempotency (POST and PATCH only).
    let idemSlot: string | undefined;
    if (this.behaviour.idempotency && idemKey !== undefined && (method === "POST" || method === "PATCH")) {
      if (idemKey.length === 0 || idemKey.length > 255) {
        return finish(errorReply(new HttpError(400, "idempotency-key must be 1 to 255 characters"), rawPath), rl.headers);
      }
      idemSlot = `${key}\u0000${idemKey}`;
      const hash = stableHash({ method, path: rawPath, body: body ?? null });
      const prior = this.idempotency.get(idemSlot);
      if (prior && Date.now() - prior.at < IDEMPOTENCY_TTL_MS) {
        if (prior.hash !== hash) {
          return finish(errorReply(new HttpError(422, `Request with key "${idemKey}" is being reused for a different body`), rawPath), rl.headers);
        }
        if (!prior.done) {
          return finish(errorReply(new HttpError(409, `Request with key "${idemKey}" is currently being processed. Please retry after 1 second`), rawPath), { ...rl.headers, "retry-after": "1" });
        }
        entry.replay = true;
        return finish(prior.reply!, { ...rl.headers, "idempotency-replay": "true", "idempotency-key": idemKey });
      }
      this.idempotency.set(idemSlot, { hash, done: false, at: Date.now() });
    }

    if (f.processingMs) await new Promise((r) => setTimeout(r, f.processingMs));
    let reply: Reply;
    try {
      reply = await match.handler({ tenant, key, method, path: rawPath, query, body }, match.params);
    } catch (e) {
      reply = e instanceof HttpError ? errorReply(e, rawPath) : errorReply(new HttpError(500, "Internal server error", { errorId: randomUUID() }), rawPath);
    }
    if (idemSlot) {
      const slot = this.idempotency.get(idemSlot);
      if (slot) Object.assign(slot, { done: true, reply });
    }
    if (lostAfterWork === "drop") {
      Object.assign(entry, { fault: "drop-after-work", status: 0 });
      this.pushLog(entry);
      req.socket.destroy();
      return;
    }
    if (lostAfterWork === "5xx") {
      entry.fault = "502-after-work";
      return finish(errorReply(new HttpError(502, "Bad Gateway", { errorId: randomUUID() }), rawPath), rl.headers);
    }
    return finish(reply, idemSlot ? { ...rl.headers, "idempotency-key": idemKey! } : rl.headers);
  }

  private match(method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
    for (const r of this.routes) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      try {
        r.names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]!); });
      } catch {
        continue;
      }
      return { handler: r.handler, params };
    }
    return undefined;
  }

  private authenticate(header: string | undefined): [string, Tenant] | undefined {
    const m = header ? /^ApiKey (.+)$/.exec(header) : null;
    let found: [string, Tenant] | undefined;
    const presented = m ? m[1]! : "";
    for (const [k, t] of this.tenants) {
      if (secretEquals(presented, k) && m) found = [k, t];
    }
    return found;
  }

  private rateLimitHeaders(key: string): { headers: Record<string, string>; limited: boolean; retryAfter: number } {
    const cfg = this.behaviour.rateLimit;
    if (!cfg) {
      return {
        headers: { "ratelimit-limit": "1000000", "ratelimit-remaining": "1000000", "ratelimit-reset": "0", "ratelimit-policy": '1000000;w=1;comment="unlimited"' },
        limited: false, retryAfter: 0,
      };
    }
    let b = this.buckets.get(key);
    if (!b) {
      b = new TokenBucket(cfg.rate, cfg.burst);
      this.buckets.set(key, b);
    }
    const ok = b.take();
    const retryAfter = ok ? 0 : Math.max(1, b.secondsUntilToken());
    return {
      headers: {
        "ratelimit-limit": String(cfg.rate),
        "ratelimit-remaining": String(b.remaining()),
        "ratelimit-reset": String(ok ? b.secondsUntilFull() : retryAfter),
        "ratelimit-policy": `${cfg.rate};w=1;burst=${cfg.burst};comment="token bucket";category="global";cost="single"`,
      },
      limited: !ok,
      retryAfter,
    };
  }

  private render(reply: Reply, _path: string): { bytes: Buffer; headers: Record<string, string> } {
    if (reply.body === undefined) return { bytes: Buffer.alloc(0), headers: {} };
    if (typeof reply.body === "string") {
      return { bytes: Buffer.from(reply.body), headers: { "content-type": "text/plain; charset=utf-8" } };
    }
    let body = reply.body;
    const ok = reply.status >= 200 && reply.status < 300;
    if (ok && this.behaviour.envelope && !reply.bare) {
      body = { data: body };
    }
    return { bytes: Buffer.from(JSON.stringify(body)), headers: { "content-type": "application/json; charset=utf-8" } };
  }

  private pushLog(entry: LoggedRequest): void {
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  private hostile(kind: NonNullable<Faults["hostile"]>, res: ServerResponse, key: string): void {
    switch (kind) {
      case "html":
        res.writeHead(502, { "content-type": "text/html" });
        res.end("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>");
        return;
      case "truncated":
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"data":{"_id":"abc","name":"trunc');
        return;
      case "wrong-types":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: { _id: 42, name: ["x"], active: "yes", workflows: "none", data: 5, hasMore: "no" } }));
        return;
      case "missing-fields":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: { unexpected: true } }));
        return;
      case "huge": {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const write = () => {
          while (sent < 64 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return res.once("drain", write);
          }
          res.end();
        };
        write();
        return;
      }
      case "trickle": {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        const timer = setInterval(() => { if (res.destroyed) clearInterval(timer); else res.write(" "); }, 200);
        res.on("close", () => clearInterval(timer));
        return;
      }
      case "echo-key":
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ statusCode: 400, message: `bad key ApiKey ${key}`, error: "Bad Request" }));
        return;
    }
  }

  // ---------------------------------------------------------------- test controls

  private async control(method: string, path: string, query: URLSearchParams, bodyText: string, tenant: Tenant): Promise<Reply> {
    let body: Json = {};
    if (bodyText) {
      try { body = JSON.parse(bodyText) as Json; } catch { return { status: 400, body: { message: "body is not JSON" } }; }
    }
    switch (`${method} ${path}`) {
      case "POST /__emulator/reset":
        this.store.reset();
        this.log = [];
        this.idempotency.clear();
        this.buckets.clear();
        this.faults = {};
        return { status: 200, body: { ok: true } };
      case "POST /__emulator/seed":
        return { status: 200, body: this.seed(body, tenant) };
      case "GET /__emulator/requests": {
        const since = Number(query.get("since") ?? 0);
        return { status: 200, body: { requests: this.log.filter((r) => r.seq > since) } };
      }
      case "DELETE /__emulator/requests":
        this.log = [];
        return { status: 200, body: { ok: true } };
      case "GET /__emulator/faults":
        return { status: 200, body: this.faults };
      case "POST /__emulator/faults": {
        const parsed = FaultsBody.safeParse(body);
        if (!parsed.success) return { status: 400, body: { message: parsed.error.issues.map(issueText) } };
        this.faults = parsed.data;
        this.random = parsed.data.seed !== undefined ? seededRandom(parsed.data.seed) : Math.random;
        return { status: 200, body: this.faults };
      }
      case "POST /__emulator/behaviour": {
        const parsed = z.strictObject({
          envelope: z.boolean().optional(), hideCredentials: z.boolean().optional(), idempotency: z.boolean().optional(),
          retentionDays: z.number().int().min(1).max(3650).optional(),
          rateLimit: z.strictObject({ rate: z.number().positive().max(100_000), burst: z.number().int().positive().max(100_000) }).nullable().optional(),
        }).safeParse(body);
        if (!parsed.success) return { status: 400, body: { message: parsed.error.issues.map(issueText) } };
        const { rateLimit, ...rest } = parsed.data;
        this.behaviour = { ...this.behaviour, ...rest, ...(rateLimit !== undefined ? { rateLimit: rateLimit ?? undefined } : {}) };
        this.buckets.clear();
        return { status: 200, body: this.behaviour };
      }
      case "GET /__emulator/state":
        return { status: 200, body: this.store.data };
      default:
        return { status: 404, body: { message: `no test control ${method} ${path}` } };
    }
  }

  private seed(body: Json, tenant: Tenant): Json {
    const now = Date.now();
    const scope = { _environmentId: tenant.environmentId, _organizationId: tenant.organizationId };
    const counts = { subscribers: 0, messages: 0, events: 0 };
    const gen = body.generate as { subscribers?: number } | undefined;
    const n = Math.min(Math.max(0, Number(gen?.subscribers ?? 0)), 200_000);
    for (let i = 0; i < n; i++) {
      const t = new Date(now - (n - i) * 1000).toISOString();
      this.store.data.subscribers.push(this.newSubscriber({ subscriberId: `seed-${i}`, email: `user${i}@example.com`, firstName: `User`, lastName: `${i}` }, tenant, t));
      counts.subscribers++;
    }
    for (const s of (body.subscribers as Json[] | undefined) ?? []) {
      this.store.data.subscribers.push(this.newSubscriber(s, tenant, typeof s.createdAt === "string" ? s.createdAt : new Date(now).toISOString()));
      counts.subscribers++;
    }
    for (const m of (body.messages as Json[] | undefined) ?? []) {
      this.store.data.messages.push({
        _id: objectId(), ...scope, _notificationId: objectId(), _subscriberId: objectId(), createdAt: new Date(now).toISOString(),
        transactionId: randomUUID(), channel: "in_app", read: false, seen: false, cta: {}, status: "sent", ...m,
      });
      counts.messages++;
    }
    for (const e of (body.events as Json[] | undefined) ?? []) {
      this.store.data.events.push({
        _id: objectId(), ...scope, _subscriberId: objectId(), transactionId: randomUUID(), createdAt: new Date(now).toISOString(),
        updatedAt: new Date(now).toISOString(), channels: [], jobs: [], payload: {}, ...e,
      });
      counts.events++;
    }
    this.store.touch();
    return counts;
  }

  // ---------------------------------------------------------------- records

  private inTenant<T extends Json>(list: T[], t: Tenant): T[] {
    return list.filter((r) => r._environmentId === t.environmentId);
  }

  private integrationOut(i: Json): Json {
    if (!this.behaviour.hideCredentials) return i;
    const { credentials: _c, ...rest } = i;
    return rest;
  }

  private newSubscriber(input: Json, t: Tenant, createdAt: string): Json {
    return {
      _id: objectId(), subscriberId: String(input.subscriberId), firstName: null, lastName: null, email: null, phone: null,
      avatar: null, locale: null, timezone: null, data: null, channels: [], topics: [], isOnline: false, lastOnlineAt: null,
      __v: 0, ...input, _organizationId: t.organizationId, _environmentId: t.environmentId, deleted: false,
      createdAt, updatedAt: createdAt,
    };
  }

  private findSubscriber(t: Tenant, subscriberId: string): Json {
    const s = this.store.data.subscribers.find((x) => x.subscriberId === subscriberId && x._environmentId === t.environmentId && !x.deleted);
    if (!s) throw new HttpError(404, `Subscriber with id ${subscriberId} not found`);
    return s;
  }

  private findWorkflow(t: Tenant, id: string): Json {
    const w = this.store.data.workflows.find((x) => x._environmentId === t.environmentId && (x.workflowId === id || x.slug === id || x._id === id));
    if (!w) throw new HttpError(404, `Workflow cannot be found, workflowId: ${id}`);
    return w;
  }

  private workflowOut(w: Json): Json {
    const steps = (w.steps as Json[]).map((s) => ({
      controls: { values: s.controlValues ?? {}, dataSchema: { type: "object" }, uiSchema: { group: uiGroup(String(s.type)) } },
      controlValues: s.controlValues ?? {},
      variables: { type: "object", properties: {} },
      stepId: s.stepId, _id: s._id, name: s.name, slug: `${s.stepId}_st_${String(s._id).slice(-6)}`, type: s.type,
      origin: w.origin, workflowId: w.workflowId, workflowDatabaseId: w._id,
    }));
    const prefs = (w.preferences ?? {}) as Json;
    return {
      _id: w._id, workflowId: w.workflowId, slug: w.slug, name: w.name, description: w.description ?? "",
      tags: w.tags ?? [], active: w.active, validatePayload: w.validatePayload ?? false, payloadSchema: w.payloadSchema ?? null,
      isTranslationEnabled: w.isTranslationEnabled ?? false, createdAt: w.createdAt, updatedAt: w.updatedAt,
      lastPublishedAt: null, lastTriggeredAt: w.lastTriggeredAt ?? null, steps, origin: w.origin,
      preferences: { user: prefs.user ?? null, default: prefs.workflow ?? DEFAULT_PREFERENCES },
      status: w.active ? "ACTIVE" : "INACTIVE", severity: w.severity ?? "none", payloadExample: null,
      updatedBy: { _id: "api-key" },
    };
  }

  private workflowListItem(w: Json): Json {
    const steps = w.steps as Json[];
    return {
      _id: w._id, workflowId: w.workflowId, slug: w.slug, name: w.name, tags: w.tags ?? [], createdAt: w.createdAt,
      updatedAt: w.updatedAt, lastPublishedAt: null, lastTriggeredAt: w.lastTriggeredAt ?? null,
      status: w.active ? "ACTIVE" : "INACTIVE", origin: w.origin, isTranslationEnabled: w.isTranslationEnabled ?? false,
      stepTypeOverviews: steps.map((s) => s.type), steps: steps.map((s) => ({ slug: s.stepId, type: s.type })),
    };
  }

  private applySteps(w: Json, steps: Json[]): Json[] {
    const existing = new Map(((w.steps as Json[] | undefined) ?? []).map((s) => [String(s._id), s]));
    const taken = new Set<string>();
    const out: Json[] = [];
    // Kept steps keep their stepId; reserve those first so new steps do not take them.
    for (const s of steps) if (s._id && existing.has(String(s._id))) taken.add(String(existing.get(String(s._id))!.stepId));
    for (const s of steps) {
      const prior = s._id ? existing.get(String(s._id)) : undefined;
      if (s._id && !prior) throw new HttpError(400, [`steps: step with _id ${String(s._id)} does not exist in this workflow`]);
      if (prior) {
        out.push({ ...prior, name: s.name, type: s.type, controlValues: withStepDefaults(String(s.type), s.controlValues as Json | undefined) });
        continue;
      }
      let base = s.stepId ? String(s.stepId) : slugify(String(s.name));
      let id = base;
      for (let n = 1; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
      out.push({ _id: objectId(), stepId: id, name: s.name, type: s.type, controlValues: withStepDefaults(String(s.type), s.controlValues as Json | undefined) });
    }
    return out;
  }

  private sortedSubscribers(t: Tenant, orderBy: string, dir: string): Json[] {
    const key = `${t.environmentId}|${orderBy}|${dir}`;
    const hit = this.sortCache.get(key);
    if (hit && hit.version === this.store.version) return hit.list;
    const list = this.store.data.subscribers.filter((s) => s._environmentId === t.environmentId && !s.deleted);
    const sign = dir === "ASC" ? 1 : -1;
    list.sort((a, b) => {
      const av = String(a[orderBy] ?? ""), bv = String(b[orderBy] ?? "");
      if (av !== bv) return av < bv ? -sign : sign;
      const ai = String(a._id), bi = String(b._id);
      return ai < bi ? -sign : ai > bi ? sign : 0;
    });
    this.sortCache.set(key, { version: this.store.version, list });
    return list;
  }

  private trigger(t: Tenant, body: z.infer<typeof TriggerBody>): Json {
    const w = this.store.data.workflows.find((x) => x._environmentId === t.environmentId && x.workflowId === body.name);
    if (!w) throw new HttpError(422, `workflow_not_found: workflow with identifier ${body.name} cannot be found`);
    const recipients = Array.isArray(body.to) ? body.to : [body.to];
    const transactionId = body.transactionId ?? randomUUID();
    const now = new Date().toISOString();
    const scope = { _environmentId: t.environmentId, _organizationId: t.organizationId };
    for (const r of recipients) {
      const to = typeof r === "string" ? { subscriberId: r } : (r as Json);
      if (typeof to.subscriberId !== "string" || !to.subscriberId) throw new HttpError(400, ["to.subscriberId must be a non-empty string"]);
      let sub = this.store.data.subscribers.find((s) => s.subscriberId === to.subscriberId && s._environmentId === t.environmentId && !s.deleted);
      if (!sub) {
        sub = this.newSubscriber(to, t, now);
        this.store.data.subscribers.push(sub);
      }
      const eventId = objectId();
      const steps = w.steps as Json[];
      const jobs = steps.map((s) => {
        const provider = this.providerFor(t, String(s.type));
        return {
          _id: objectId(), type: s.type, status: "completed", providerId: provider, payload: body.payload ?? {}, overrides: body.overrides ?? {},
          updatedAt: now,
          ...(s.type === "digest" ? { digest: { type: "regular", amount: Number((s.controlValues as Json)?.amount ?? 5), unit: (s.controlValues as Json)?.unit ?? "minutes", events: [] } } : {}),
          step: { _id: s._id, active: true, filters: [], _templateId: w._id, name: s.name, _parentId: null },
          executionDetails: [
            { _id: objectId(), createdAt: now, status: "Pending", detail: "Step queued", isRetry: false, isTest: false, providerId: provider, raw: null, source: "Internal" },
            { _id: objectId(), createdAt: now, status: "Success", detail: CHANNELS.includes(s.type as never) ? "Message sent" : "Step completed", isRetry: false, isTest: false, providerId: provider, raw: null, source: "Internal" },
          ],
        };
      });
      const event: Json = {
        _id: eventId, ...scope, _subscriberId: sub._id, transactionId, _templateId: w._id, createdAt: now, updatedAt: now,
        channels: steps.map((s) => s.type),
        subscriber: { _id: sub._id, subscriberId: sub.subscriberId, ...(sub.firstName ? { firstName: sub.firstName } : {}), ...(sub.lastName ? { lastName: sub.lastName } : {}), ...(sub.email ? { email: sub.email } : {}), ...(sub.phone ? { phone: sub.phone } : {}) },
        template: { _id: w._id, name: w.name, origin: w.origin, triggers: [{ type: "event", identifier: w.workflowId, variables: [], subscriberVariables: [] }] },
        jobs, payload: body.payload ?? {}, tags: w.tags ?? [], to, severity: w.severity ?? "none", critical: false,
        contextKeys: body.contextKeys ?? [], topics: [],
      };
      this.store.data.events.push(event);
      for (const s of steps) {
        if (!CHANNELS.includes(s.type as never)) continue;
        const cv = (s.controlValues ?? {}) as Json;
        this.store.data.messages.push({
          _id: objectId(), _templateId: w._id, ...scope, _messageTemplateId: s._id, _notificationId: eventId, _subscriberId: sub._id,
          templateIdentifier: w.workflowId, createdAt: now, deliveredAt: [now], transactionId, channel: s.type,
          content: typeof cv.body === "string" ? cv.body : "", ...(typeof cv.subject === "string" ? { subject: cv.subject } : {}),
          read: false, seen: false, cta: {}, status: "sent", providerId: this.providerFor(t, String(s.type)),
          payload: body.payload ?? {}, contextKeys: body.contextKeys ?? [],
          ...(s.type === "email" && sub.email ? { email: sub.email } : {}), ...(s.type === "sms" && sub.phone ? { phone: sub.phone } : {}),
        });
      }
    }
    w.lastTriggeredAt = now;
    this.store.touch();
    return { acknowledged: true, status: "processed", transactionId };
  }

  private providerFor(t: Tenant, channel: string): string {
    const i = this.store.data.integrations.find((x) => x._environmentId === t.environmentId && x.channel === channel && !x.deleted && x.active);
    return i ? String(i.providerId) : "platform";
  }

  // ---------------------------------------------------------------- routes

  private registerRoutes(): void {
    const data = () => this.store.data;

    // Integrations
    this.route("GET", "/v1/integrations", (c) => ({
      status: 200,
      body: data().integrations.filter((i) => i._organizationId === c.tenant.organizationId && !i.deleted).map((i) => this.integrationOut(i)),
    }));
    this.route("POST", "/v1/integrations", (c) => {
      const b = parse(CreateIntegrationBody, c.body);
      const env = b._environmentId ?? c.tenant.environmentId;
      const identifier = b.identifier ?? `${b.providerId}-${objectId().slice(-6)}`;
      if (data().integrations.some((i) => i._environmentId === env && i.identifier === identifier && !i.deleted)) {
        throw new HttpError(409, "Integration with identifier already exists");
      }
      const now = new Date().toISOString();
      const { check: _check, _environmentId: _e, ...rest } = b;
      const rec: Json = {
        _id: objectId(), _environmentId: env, _organizationId: c.tenant.organizationId, name: b.name ?? b.providerId,
        identifier, providerId: b.providerId, channel: b.channel, credentials: rest.credentials ?? {}, configurations: rest.configurations ?? {},
        active: rest.active ?? false, deleted: false, primary: false, conditions: rest.conditions ?? [], createdAt: now, updatedAt: now,
      };
      data().integrations.push(rec);
      this.store.touch();
      return { status: 201, body: this.integrationOut(rec) };
    });
    const liveIntegration = (c: Ctx, id: string) => {
      const i = data().integrations.find((x) => x._id === id && x._environmentId === c.tenant.environmentId && !x.deleted);
      if (!i) throw new HttpError(404, `Entity with id ${id} not found`);
      return i;
    };
    this.route("PUT", "/v1/integrations/{integrationId}", (c, p) => {
      const i = liveIntegration(c, p.integrationId!);
      const b = parse(UpdateIntegrationBody, c.body ?? {});
      if (b.identifier !== undefined && b.identifier !== i.identifier &&
        data().integrations.some((x) => x._environmentId === i._environmentId && x.identifier === b.identifier && !x.deleted)) {
        throw new HttpError(409, "Integration with identifier already exists");
      }
      const { check: _check, _environmentId: _e, ...rest } = b;
      Object.assign(i, rest, { updatedAt: new Date().toISOString() });
      if (rest.active === false) i.primary = false;
      this.store.touch();
      return { status: 200, body: this.integrationOut(i) };
    });
    this.route("DELETE", "/v1/integrations/{integrationId}", (c, p) => {
      const i = liveIntegration(c, p.integrationId!);
      Object.assign(i, { deleted: true, deletedAt: new Date().toISOString(), deletedBy: "api-key", active: false, primary: false });
      this.store.touch();
      return { status: 200, body: this.inTenant(data().integrations, c.tenant).filter((x) => !x.deleted).map((x) => this.integrationOut(x)) };
    });
    this.route("POST", "/v1/integrations/{integrationId}/set-primary", (c, p) => {
      const i = liveIntegration(c, p.integrationId!);
      for (const x of data().integrations) {
        if (x._environmentId === i._environmentId && x.channel === i.channel && x !== i) x.primary = false;
      }
      Object.assign(i, { primary: true, active: true });
      this.store.touch();
      return { status: 200, body: this.integrationOut(i) };
    });

    // Subscribers
    this.route("POST", "/v2/subscribers", (c) => {
      const b = parse(CreateSubscriberBody, c.body);
      if (data().subscribers.some((s) => s.subscriberId === b.subscriberId && s._environmentId === c.tenant.environmentId && !s.deleted)) {
        throw new HttpError(409, `Subscriber ${b.subscriberId} already exists`);
      }
      const rec = this.newSubscriber(b, c.tenant, new Date().toISOString());
      data().subscribers.push(rec);
      this.store.touch();
      return { status: 201, body: rec };
    });
    this.route("GET", "/v2/subscribers", (c) => this.searchSubscribers(c));
    this.route("GET", "/v2/subscribers/{subscriberId}", (c, p) => ({ status: 200, body: this.findSubscriber(c.tenant, p.subscriberId!) }));
    this.route("PATCH", "/v2/subscribers/{subscriberId}", (c, p) => {
      const s = this.findSubscriber(c.tenant, p.subscriberId!);
      const b = parse(PatchSubscriberBody, c.body ?? {});
      Object.assign(s, b, { updatedAt: new Date().toISOString(), __v: Number(s.__v ?? 0) + 1 });
      this.store.touch();
      return { status: 200, body: s };
    });
    this.route("DELETE", "/v2/subscribers/{subscriberId}", (c, p) => {
      const s = this.findSubscriber(c.tenant, p.subscriberId!);
      s.deleted = true;
      this.store.touch();
      return { status: 200, body: { acknowledged: true, status: "deleted" } };
    });
    const putCredentials = (c: Ctx, p: Record<string, string>, merge: boolean): Reply => {
      const s = this.findSubscriber(c.tenant, p.subscriberId!);
      const b = parse(UpdateSubscriberCredentialsBody, c.body);
      const integration = data().integrations.find((i) => i._environmentId === c.tenant.environmentId && !i.deleted &&
        (b.integrationIdentifier ? i.identifier === b.integrationIdentifier : i.providerId === b.providerId));
      if (!integration) {
        throw new HttpError(404, b.integrationIdentifier
          ? `Integration with identifier ${b.integrationIdentifier} not found`
          : `No ${b.providerId} integration found in this environment`);
      }
      if (integration.providerId !== b.providerId) {
        throw new HttpError(400, [`providerId ${b.providerId} does not match integration ${String(integration.identifier)} (${String(integration.providerId)})`]);
      }
      const channels = (s.channels as Json[]) ?? [];
      const existing = channels.find((ch) => ch.providerId === b.providerId && ch._integrationId === integration._id);
      if (existing) {
        const prev = (existing.credentials ?? {}) as Json;
        const next: Json = merge ? { ...prev, ...b.credentials } : { ...b.credentials };
        if (merge && Array.isArray(prev.deviceTokens) && Array.isArray(b.credentials.deviceTokens)) {
          next.deviceTokens = [...new Set([...(prev.deviceTokens as string[]), ...b.credentials.deviceTokens])];
        }
        existing.credentials = next;
      } else {
        channels.push({ providerId: b.providerId, integrationIdentifier: integration.identifier, credentials: { ...b.credentials }, _integrationId: integration._id });
      }
      s.channels = channels;
      s.updatedAt = new Date().toISOString();
      this.store.touch();
      return { status: 200, body: s };
    };
    this.route("PUT", "/v1/subscribers/{subscriberId}/credentials", (c, p) => putCredentials(c, p, false));
    this.route("PATCH", "/v1/subscribers/{subscriberId}/credentials", (c, p) => putCredentials(c, p, true));
    this.route("DELETE", "/v1/subscribers/{subscriberId}/credentials/{providerId}", (c, p) => {
      const s = this.findSubscriber(c.tenant, p.subscriberId!);
      s.channels = ((s.channels as Json[]) ?? []).filter((ch) => ch.providerId !== p.providerId);
      this.store.touch();
      return { status: 204 };
    });

    // Workflows
    this.route("POST", "/v2/workflows", (c) => {
      const b = parse(CreateWorkflowBody, c.body);
      if (!/^[a-zA-Z0-9][a-zA-Z0-9_-]*$/.test(b.workflowId)) throw new HttpError(400, ["workflowId must be a slug: letters, digits, - and _"]);
      validateStepControls(b.steps);
      if (data().workflows.some((w) => w._environmentId === c.tenant.environmentId && w.workflowId === b.workflowId)) {
        throw new HttpError(409, `Workflow with the same workflowId already exists: ${b.workflowId}`);
      }
      const now = new Date().toISOString();
      const w: Json = {
        _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId,
        workflowId: b.workflowId, slug: `${b.workflowId}_wf_${objectId().slice(-8)}`, name: b.name, description: b.description ?? "",
        tags: b.tags ?? [], active: b.active ?? false, validatePayload: b.validatePayload ?? false, payloadSchema: b.payloadSchema ?? null,
        isTranslationEnabled: b.isTranslationEnabled ?? false, preferences: b.preferences ?? {}, severity: b.severity ?? "none",
        origin: "platform-cloud", createdAt: now, updatedAt: now, steps: [],
      };
      w.steps = this.applySteps(w, b.steps.map(({ _id: _i, ...s }) => s));
      data().workflows.push(w);
      this.store.touch();
      return { status: 201, body: this.workflowOut(w) };
    });
    this.route("GET", "/v2/workflows", (c) => this.listWorkflows(c));
    this.route("GET", "/v2/workflows/{workflowId}", (c, p) => ({ status: 200, body: this.workflowOut(this.findWorkflow(c.tenant, p.workflowId!)) }));
    this.route("PUT", "/v2/workflows/{workflowId}", (c, p) => {
      const w = this.findWorkflow(c.tenant, p.workflowId!);
      const b = parse(UpdateWorkflowBody, c.body);
      validateStepControls(b.steps);
      if (b.workflowId !== undefined && b.workflowId !== w.workflowId) {
        throw new HttpError(400, ["workflowId can be changed only for code-first workflows"]);
      }
      const steps = this.applySteps(w, b.steps);
      Object.assign(w, {
        name: b.name, description: b.description ?? w.description, tags: b.tags ?? w.tags, active: b.active ?? false,
        validatePayload: b.validatePayload ?? w.validatePayload, payloadSchema: b.payloadSchema !== undefined ? b.payloadSchema : w.payloadSchema,
        isTranslationEnabled: b.isTranslationEnabled ?? false, preferences: b.preferences, severity: b.severity ?? w.severity,
        steps, updatedAt: new Date().toISOString(),
      });
      this.store.touch();
      return { status: 200, body: this.workflowOut(w) };
    });
    this.route("DELETE", "/v2/workflows/{workflowId}", (c, p) => {
      const w = this.findWorkflow(c.tenant, p.workflowId!);
      data().workflows = data().workflows.filter((x) => x !== w);
      this.store.touch();
      return { status: 204 };
    });

    // Messages, events, trigger
    this.route("GET", "/v1/messages", (c) => this.listMessages(c));
    this.route("GET", "/v1/notifications", (c) => this.listEvents(c));
    this.route("GET", "/v1/notifications/{notificationId}", (c, p) => {
      const e = data().events.find((x) => x._id === p.notificationId && x._environmentId === c.tenant.environmentId);
      if (!e) throw new HttpError(404, `Notification with id ${p.notificationId} not found`);
      return { status: 200, body: e };
    });
    this.route("POST", "/v1/events/trigger", (c) => ({ status: 201, body: this.trigger(c.tenant, parse(TriggerBody, c.body)) }));
  }

  // ---------------------------------------------------------------- list operations

  private searchSubscribers(c: Ctx): Reply {
    const q = c.query;
    const errors: string[] = [];
    const limit = intParam(q, "limit", 10, 1, 100, errors);
    const dir = enumParam(q, "orderDirection", ["ASC", "DESC"], "DESC", errors);
    const orderBy = enumParam(q, "orderBy", ["_id", "createdAt", "updatedAt", "subscriberId", "email", "firstName", "lastName"], "_id", errors);
    const includeCursor = boolParam(q, "includeCursor", false, errors);
    if (errors.length) throw new HttpError(400, errors);
    const filters = { email: q.get("email"), phone: q.get("phone"), subscriberId: q.get("subscriberId"), name: q.get("name") };
    let list = this.sortedSubscribers(c.tenant, orderBy, dir);
    if (filters.email || filters.phone || filters.subscriberId || filters.name) {
      list = list.filter((s) =>
        (!filters.email || String(s.email ?? "").includes(filters.email)) &&
        (!filters.phone || String(s.phone ?? "").includes(filters.phone)) &&
        (!filters.subscriberId || String(s.subscriberId).includes(filters.subscriberId)) &&
        (!filters.name || `${s.firstName ?? ""} ${s.lastName ?? ""}`.includes(filters.name)));
    }
    const after = q.get("after"), before = q.get("before");
    let start = 0, end = list.length;
    if (after) {
      const i = list.findIndex((s) => s._id === after);
      if (i < 0) throw new HttpError(400, ["after: cursor does not match a subscriber"]);
      start = includeCursor ? i : i + 1;
      end = Math.min(list.length, start + limit);
    } else if (before) {
      const i = list.findIndex((s) => s._id === before);
      if (i < 0) throw new HttpError(400, ["before: cursor does not match a subscriber"]);
      end = includeCursor ? i + 1 : i;
      start = Math.max(0, end - limit);
    } else {
      end = Math.min(list.length, limit);
    }
    const page = list.slice(start, end);
    return {
      status: 200,
      bare: true,
      body: {
        data: page,
        next: end < list.length && page.length ? String(page[page.length - 1]!._id) : null,
        previous: start > 0 && page.length ? String(page[0]!._id) : null,
        totalCount: Math.min(list.length, SEARCH_CAP),
        totalCountCapped: list.length > SEARCH_CAP,
      },
    };
  }

  private listWorkflows(c: Ctx): Reply {
    const q = c.query;
    const errors: string[] = [];
    const limit = intParam(q, "limit", 10, 1, 100, errors);
    const offset = intParam(q, "offset", 0, 0, Number.MAX_SAFE_INTEGER, errors);
    const dir = enumParam(q, "orderDirection", ["ASC", "DESC"], "DESC", errors);
    const orderBy = enumParam(q, "orderBy", ["createdAt", "updatedAt", "name", "lastTriggeredAt"], "createdAt", errors);
    const status = q.getAll("status");
    for (const s of status) if (!WORKFLOW_STATUSES.includes(s as never)) errors.push(`status: must be one of ${WORKFLOW_STATUSES.join(", ")}`);
    if (errors.length) throw new HttpError(400, errors);
    const text = (q.get("query") ?? "").toLowerCase();
    const tags = q.getAll("tags");
    let list = this.inTenant(this.store.data.workflows, c.tenant).filter((w) =>
      (!text || String(w.name).toLowerCase().includes(text) || String(w.workflowId).toLowerCase().includes(text)) &&
      (!tags.length || tags.some((t) => (w.tags as string[]).includes(t))) &&
      (!status.length || status.includes(w.active ? "ACTIVE" : "INACTIVE")));
    const sign = dir === "ASC" ? 1 : -1;
    list = [...list].sort((a, b) => {
      const av = String(a[orderBy] ?? ""), bv = String(b[orderBy] ?? "");
      if (av !== bv) return av < bv ? -sign : sign;
      return String(a._id) < String(b._id) ? -sign : sign;
    });
    return { status: 200, body: { workflows: list.slice(offset, offset + limit).map((w) => this.workflowListItem(w)), totalCount: list.length } };
  }

  private listMessages(c: Ctx): Reply {
    const q = c.query;
    const errors: string[] = [];
    const page = intParam(q, "page", 0, 0, Number.MAX_SAFE_INTEGER, errors);
    const limit = intParam(q, "limit", 10, 1, 1000, errors);
    const channel = q.get("channel");
    if (channel !== null && !CHANNELS.includes(channel as never)) errors.push(`channel: must be one of ${CHANNELS.join(", ")}`);
    const contextKeys = contextKeysParam(q, errors);
    if (errors.length) throw new HttpError(400, errors);
    const subscriberId = q.get("subscriberId");
    const tx = q.getAll("transactionId");
    const subIds = subscriberId ? this.subscriberInternalIds(c.tenant, subscriberId) : undefined;
    const list = this.inTenant(this.store.data.messages, c.tenant).filter((m) =>
      (!channel || m.channel === channel) &&
      (!subIds || subIds.has(String(m._subscriberId))) &&
      (!tx.length || tx.includes(String(m.transactionId))) &&
      (!contextKeys || sameSet(contextKeys, (m.contextKeys as string[]) ?? [])))
      .sort(byCreatedDesc);
    const data = list.slice(page * limit, page * limit + limit);
    return { status: 200, bare: true, body: { data, totalCount: list.length, hasMore: (page + 1) * limit < list.length, pageSize: limit, page } };
  }

  private listEvents(c: Ctx): Reply {
    const q = c.query;
    const errors: string[] = [];
    const page = intParam(q, "page", 0, 0, Number.MAX_SAFE_INTEGER, errors);
    const limit = intParam(q, "limit", 10, 1, 50, errors);
    const channels = q.getAll("channels");
    for (const ch of channels) if (!STEP_TYPES.includes(ch as never)) errors.push(`channels: must be among ${STEP_TYPES.join(", ")}`);
    const severity = q.getAll("severity");
    for (const s of severity) if (!SEVERITIES.includes(s as never)) errors.push(`severity: must be among ${SEVERITIES.join(", ")}`);
    const contextKeys = contextKeysParam(q, errors);
    const requestedAfter = dateParam(q, "after", errors), requestedBefore = dateParam(q, "before", errors);
    if (errors.length) throw new HttpError(400, errors);
    // The window: from the plan's earliest date (or later, when asked) to the request time (or earlier).
    const now = Date.now();
    const earliest = now - this.behaviour.retentionDays * 86_400_000;
    const after = Math.max(earliest, requestedAfter ?? earliest);
    const before = Math.min(now, requestedBefore ?? now);
    const templates = q.getAll("templates"), emails = q.getAll("emails"), subscriberIds = q.getAll("subscriberIds");
    const tx = q.get("transactionId"), topicKey = q.get("topicKey"), search = q.get("search");
    const list = this.inTenant(this.store.data.events, c.tenant).filter((e) => {
      const sub = (e.subscriber ?? {}) as Json;
      const created = Date.parse(String(e.createdAt));
      return (!channels.length || ((e.channels as string[]) ?? []).some((ch) => channels.includes(ch))) &&
        (!templates.length || templates.includes(String(e._templateId))) &&
        (!emails.length || emails.includes(String(sub.email))) &&
        (!subscriberIds.length || subscriberIds.includes(String(sub.subscriberId)) || subscriberIds.includes(String(e._subscriberId))) &&
        (!severity.length || severity.includes(String(e.severity ?? "none"))) &&
        (!tx || e.transactionId === tx) &&
        (!topicKey || ((e.topics as Json[]) ?? []).some((t) => t.topicKey === topicKey)) &&
        (!contextKeys || sameSet(contextKeys, (e.contextKeys as string[]) ?? [])) &&
        (!search || JSON.stringify(sub).includes(search) || String(e.transactionId).includes(search)) &&
        created >= after && created <= before;
    }).sort(byCreatedDesc);
    return { status: 200, bare: true, body: { data: list.slice(page * limit, page * limit + limit), hasMore: (page + 1) * limit < list.length, pageSize: limit, page } };
  }

  private subscriberInternalIds(t: Tenant, subscriberId: string): Set<string> {
    return new Set(this.store.data.subscribers.filter((s) => s._environmentId === t.environmentId && s.subscriberId === subscriberId).map((s) => String(s._id)));
  }
}

const DEFAULT_PREFERENCES = { all: { enabled: true, readOnly: false }, channels: { email: { enabled: true }, sms: { enabled: true }, in_app: { enabled: true }, chat: { enabled: true }, push: { enabled: true } } };

/** Defaults the service fills into control values that the caller left out. */
function withStepDefaults(type: string, cv: Json | undefined): Json {
  const v = { ...(cv ?? {}) };
  if (type === "email" && v.editorType === undefined) v.editorType = "block";
  if (type === "delay" && v.type === undefined) v.type = "regular";
  if (type === "digest" && v.type === undefined) v.type = "regular";
  return v;
}

function validateStepControls(steps: { name: string; type: string; controlValues?: Json }[]): void {
  const errors: string[] = [];
  steps.forEach((s, i) => {
    const cv = s.controlValues ?? {};
    if (s.type === "email" && (typeof cv.subject !== "string" || typeof cv.body !== "string")) {
      errors.push(`steps.${i}.controlValues: an email step requires subject and body`);
    }
    if (s.type === "delay" && cv.unit !== undefined && !["seconds", "minutes", "hours", "days", "weeks", "months"].includes(String(cv.unit))) {
      errors.push(`steps.${i}.controlValues.unit: must be one of seconds, minutes, hours, days, weeks, months`);
    }
  });
  if (errors.length) throw new HttpError(400, errors);
}

function uiGroup(type: string): string {
  return ({ in_app: "IN_APP", email: "EMAIL", digest: "DIGEST", delay: "DELAY", throttle: "THROTTLE", sms: "SMS", chat: "CHAT", push: "PUSH" } as Record<string, string>)[type] ?? "SKIP";
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body);
  if (!r.success) throw new HttpError(400, r.error.issues.map(issueText));
  return r.data;
}

function issueText(i: z.core.$ZodIssue): string {
  return `${i.path.join(".") || "body"}: ${i.message}`;
}

function errorReply(e: HttpError, path: string): Reply {
  return {
    status: e.status,
    body: {
      statusCode: e.status, timestamp: new Date().toISOString(), path, message: e.body,
      ...(e.status < 500 ? { error: STATUS_NAMES[e.status] ?? "Error" } : {}), ...e.extra,
    },
  };
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
        reject(new HttpError(413, `request body larger than ${MAX_BODY} bytes`));
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

function intParam(q: URLSearchParams, name: string, def: number, min: number, max: number, errors: string[]): number {
  const raw = q.get(name);
  if (raw === null) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    errors.push(`${name}: must be an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}`);
    return def;
  }
  return n;
}

function enumParam<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[], def: T, errors: string[]): T {
  const raw = q.get(name);
  if (raw === null) return def;
  if (!allowed.includes(raw as T)) {
    errors.push(`${name}: must be one of ${allowed.join(", ")}`);
    return def;
  }
  return raw as T;
}

function boolParam(q: URLSearchParams, name: string, def: boolean, errors: string[]): boolean {
  const raw = q.get(name);
  if (raw === null) return def;
  if (raw !== "true" && raw !== "false") {
    errors.push(`${name}: must be true or false`);
    return def;
  }
  return raw === "true";
}

function dateParam(q: URLSearchParams, name: string, errors: string[]): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const t = Date.parse(raw);
  if (!Number.isFinite(t)) errors.push(`${name}: must be an ISO 8601 timestamp`);
  return Number.isFinite(t) ? t : undefined;
}

function contextKeysParam(q: URLSearchParams, errors: string[]): string[] | undefined {
  const keys = q.getAll("contextKeys");
  if (!keys.length) return undefined;
  for (const k of keys) if (!ContextKey.safeParse(k).success) errors.push(`contextKeys: ${JSON.stringify(k)} must have the form type:id`);
  return keys;
}

function sameSet(a: string[], b: string[]): boolean {
  const sa = new Set(a), sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

function byCreatedDesc(a: Json, b: Json): number {
  const ac = String(a.createdAt), bc = String(b.createdAt);
  if (ac !== bc) return ac < bc ? 1 : -1;
  return String(a._id) < String(b._id) ? 1 : -1;
}
