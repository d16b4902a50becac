/** The shapes the request pipeline, the routes and the test controls share. */
import type { Store, Tenant } from "./store";

/** Which behaviours the emulator shows. */
export interface Behaviour {
  /** Wrap success bodies in `{data}` (production) or not (api.md). */
  envelope: boolean;
  /** Leave integration `credentials` out of responses (production, API-key callers): `{}` in lists, none in write answers. */
  hideCredentials: boolean;
  /**
   * With credentials shown: answer a write with each secret credential field encrypted
   * (`nvsk.<hex>`, new on every write) and lists in clear, as the 2.0 server did. Off by default.
   */
  encryptCredentialAnswers: boolean;
  /** Honour `idempotency-key` on POST and PATCH (production, where enabled). */
  idempotency: boolean;
  /** Token bucket per key; undefined for no limit. */
  rateLimit?: { rate: number; burst: number };
  /** The subscription plan's history window: the events list starts no earlier than this many days ago. */
  retentionDays: number;
  /**
   * The organisation's plan, for the "manage environments" feature gate of environment create and
   * delete: `free` and `pro` answer 402, the others allow (production-notes.md, Third pass §1); and
   * for the layout limit: `free` one v2 layout per environment, the others 100 (§3). Undefined (set
   * through the test controls) is a self-hosted install without a plan gate.
   */
  plan?: Plan;
  /** Most environments an organisation may have, Development and Production included (production's flag default 10). */
  environmentLimit: number;
  /** Most environment variables an organisation may have (production's flag default 10). */
  environmentVariableLimit: number;
  /**
   * API keys scoped to their own environment for environment routes, as the newer upstream has it:
   * the list shows only the caller's own keys, a create answers none, and updating or deleting
   * another environment answers 403. Off by default (the notes' 2026-04 reading).
   */
  scopedEnvironmentKeys: boolean;
  /**
   * A second agent of an identifier is stored as `<identifier>-<shortId>` rather than refused with
   * a 409, as the newer upstream's create-agent use case does (production-notes.md, fifth pass
   * §4). Off by default (3.15's 409).
   */
  suffixDuplicateAgents: boolean;
  /**
   * The organisation's context preferences (the service's feature flag
   * `IS_CONTEXT_PREFERENCES_ENABLED`, default off): on, a topic subscription takes the subscribe's
   * `context`; off, the context is ignored and a trailing `:ctx_…` is cut off an identifier looked up.
   */
  contextPreferences: boolean;
  /**
   * A second workflow of a `workflowId` is stored as `<workflowId>-wf-<4 characters>` and answered
   * 201, rather than refused with a 409: what the real 3.15.0 server answered
   * (production-notes.md, seventh pass). Off by default: a 409.
   */
  suffixDuplicateWorkflows: boolean;
  /**
   * A subscribe answers each subscription as the real 3.15.0 server did: empty `createdAt` and
   * `updatedAt`, no `contextKeys`, no subscriber `avatar` (production-notes.md, seventh pass). Off by
   * default (the answer whole, as the reads give it).
   */
  bareSubscribeAnswers: boolean;
  /** The version the health check answers (`GET /v1/health-check`: `info.apiVersion.version`). */
  version: string;
  /**
   * Routes this server lacks or gates, by path prefix, as real builds do (production-notes.md,
   * sixth and seventh passes): `absent` answers NestJS's 404 `Cannot <METHOD> <path>` (an older
   * version, or a build without the module), `feature-off` 404 `Feature not enabled` (a feature
   * flag), `session-only` 401 `API endpoint not accessible` (a route that takes no API key).
   */
  routeGates: RouteGate[];
}

/**
 * The version of the service the emulator answers as by default, in its health check: the
 * open-source release its seventh pass was checked against (production-notes.md).
 */
export const EMULATED_VERSION = "3.15.0";

/** What a server without a route, or with it gated, answers (Behaviour.routeGates). */
export const ROUTE_GATES = ["absent", "feature-off", "session-only"] as const;

/** One gated path prefix (`/v1/agents`, `/v2/translations`). */
export interface RouteGate {
  prefix: string;
  as: (typeof ROUTE_GATES)[number];
}

/** The service's plans (packages/shared/src/consts/feature-tiers-constants.ts of the service). */
export const PLANS = ["free", "pro", "business", "enterprise", "unlimited"] as const;
export type Plan = (typeof PLANS)[number];

/** The hostile bodies a client robustness test can ask for. */
export const HOSTILE_KINDS = ["html", "truncated", "wrong-types", "missing-fields", "huge", "trickle", "echo-key"] as const;

/** Faults injected into API routes (never into `/__emulator/`). All off by default. */
export interface Faults {
  latencyMs?: [number, number];
  errorRate?: number;
  rateLimitRate?: number;
  dropRate?: number;
  /** Time a handler takes once a request is admitted (after the idempotency check), in ms. */
  processingMs?: number;
  /** Answers every API request with this hostile body instead (for client robustness tests). */
  hostile?: (typeof HOSTILE_KINDS)[number];
  /**
   * The server stops after it answers the first request of this method and path template with
   * success: every API request after it loses its connection, as when the process is stopped,
   * until the faults are set again. What tests a write whose later step never reaches the service.
   */
  stopAfter?: { method: string; route: string };
  /**
   * The first request of this method and path template is done and its answer lost: a 502 in its
   * place, as a gateway gives when the service's answer does not reach it. Once, until the faults
   * are set again.
   */
  loseAnswer?: { method: string; route: string };
  seed?: number;
}

/** One line of the request log. */
export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  /** The path template of the operation the request matched, as `spec/openapi.json` writes it. */
  route?: string;
  query: Record<string, string | string[]>;
  /**
   * The parsed JSON request body; absent when there was none, when it was not JSON, or when it
   * was larger than the log keeps (then `bodyOmitted` says so).
   */
  body?: unknown;
  bodyOmitted?: "too-large" | "not-json";
  status: number;
  idempotencyKey?: string;
  replay?: boolean;
  fault?: string;
  time: string;
  /**
   * How many of the service's requests the emulator was answering when this one arrived, itself
   * included (its latency counts as answering): the greatest over a run is the most the client
   * had in flight at once.
   */
  inFlight: number;
  bytesIn: number;
  bytesOut: number;
}

/** What a handler answers. */
export interface Reply {
  status: number;
  body?: unknown;
  /** Paginated lists carry their own `data` and are never wrapped in the envelope. */
  bare?: boolean;
  headers?: Record<string, string>;
}

/** One admitted API request, as a handler sees it. */
export interface RequestContext {
  tenant: Tenant;
  key: string;
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The path template's parameters, decoded. */
  params: Record<string, string>;
  store: Store;
  behaviour: Behaviour;
}

/** One operation: a method, a path template as `spec/openapi.json` writes it, and its handler. */
export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  handler: (c: RequestContext) => Reply | Promise<Reply>;
}
