/**
 * The live service as the descriptors of test/kinds see an emulator ({@link TestEmulator}): raw
 * requests with the key, renamed through the run's {@link Namespace}, paced as the provider's
 * client paces (its {@link Pacer}: the rate-limit headers, a 429's wait), counted, and guarded:
 *
 * - an emulator control (`/__emulator/...`) is never sent: it throws {@link EmulatorOnly}, and
 *   what needed it is reported emulator-only;
 * - a write is sent only to an object of the run: every identity in its path, and the identity a
 *   create's body gives, must carry the run prefix or be an id the run's own creates answered;
 *   anything else throws {@link NotOurs} before a byte is sent.
 *
 * Every answer is kept (method, path, status, body) so that a failure can show the exchange.
 */
import { Agent, fetch } from "undici";
import { Pacer, readRateLimitHeaders, unwrapEnvelope } from "../../provider/client/index";
import { ROUTES } from "../../emulator/server";
import { connectProcessTo, type TestEmulator } from "../helpers/emulator";
import type { Namespace } from "./namespace";

/** What a scenario or probe needed of the emulator itself: reported emulator-only, never sent. */
export class EmulatorOnly extends Error {
  override name = "EmulatorOnly";
}

/** A write the guard refused: it would touch an object without the run's prefix. */
export class NotOurs extends Error {
  override name = "NotOurs";
}

/** One request of the suite and its answer. */
export interface Exchange {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

/** Route parameters that name no object of their own (a kind, a locale, a step of an object named before). */
const NOT_IDENTITIES = new Set(["type", "resourceType", "locale", "stepId", "providerId", "address", "agentIntegrationId", "notificationId"]);

/** The body field that names the object a create (or a trigger) makes or uses, by route. */
const CREATE_IDENTITY: Readonly<Record<string, string>> = {
  "/v1/agents": "identifier",
  "/v1/channel-connections": "identifier",
  "/v1/channel-endpoints": "identifier",
  "/v2/contexts": "id",
  "/v1/domains": "name",
  "/v1/environment-variables": "key",
  "/v1/environments": "name",
  "/v1/events/trigger": "name",
  "/v1/integrations": "identifier",
  "/v2/layouts": "layoutId",
  "/v2/subscribers": "subscriberId",
  "/v2/topics": "key",
  "/v2/translations": "resourceId",
  "/v2/workflows": "workflowId",
};

const COMPILED = ROUTES.map((r) => ({
  method: r.method,
  names: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  pattern: new RegExp(`^${r.path.replace(/\{\w+\}/g, "([^/]+)")}$`),
  path: r.path,
}));

/** The route of `method path` in the service's route table, with its parameters, or undefined. */
export function routeOf(method: string, path: string): { route: string; params: Record<string, string> } | undefined {
  const bare = path.split("?")[0]!;
  for (const r of COMPILED) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(bare);
    if (m) return { route: r.path, params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return undefined;
}

/**
 * The objects a write names: each identity in its path, and the identity a create's body gives
 * (`name` is the parameter or field); undefined for a path of no known route.
 */
export function identitiesOf(method: string, path: string, body: unknown): { name: string; value: unknown }[] | undefined {
  const r = routeOf(method, path);
  if (!r) return undefined;
  const out = Object.entries(r.params).filter(([name]) => !NOT_IDENTITIES.has(name)).map(([name, value]) => ({ name, value: value as unknown }));
  const field = Object.keys(r.params).length === 0 ? CREATE_IDENTITY[r.route] : undefined;
  const value = field && body && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
  if (field && value !== undefined) out.push({ name: field, value });
  return out;
}

/** One connection per request, as the tests' emulator helper does (test/helpers/emulator.ts says why). */
const ONE_CONNECTION_EACH = new Agent({ pipelining: 0 });

export interface LiveServiceOptions {
  url: string;
  key: string;
  ns: Namespace;
  /** Keys of other environments the suite may use (`apiAs`). */
  otherKeys?: readonly string[];
  /** Whether the guard and the controls' refusal apply (false: the emulator the answers are compared with). */
  live: boolean;
}

/** The service, as a {@link TestEmulator} over the run's names, with its request count and exchanges. */
export interface LiveService extends TestEmulator {
  /** Requests sent, 429s waited out included. */
  readonly sent: () => number;
  /** The exchanges so far (the newest last). */
  readonly exchanges: Exchange[];
  /** Ids the run's own creates were answered with. */
  readonly ownIds: Set<string>;
}

export function liveService(o: LiveServiceOptions): LiveService {
  const pacer = new Pacer();
  const ownIds = new Set<string>();
  const exchanges: Exchange[] = [];
  let sent = 0;
  const mine = (v: unknown) => typeof v === "string" && (o.ns.ours(v) || ownIds.has(v));

  const guard = (method: string, path: string, body: unknown) => {
    if (!o.live || method === "GET") return;
    const named = identitiesOf(method, path, body);
    if (!named) throw new NotOurs(`${method} ${path} is not a route of the service's API the suite knows (emulator/server.ts ROUTES): not sent`);
    for (const { name, value } of named) {
      if (!mine(value)) throw new NotOurs(`${method} ${path}: ${name} ${JSON.stringify(value)} carries neither the run prefix ${o.ns.prefix} nor an id of the run's creates: not sent`);
    }
  };

  const apiAs = async (key: string, method: string, emulatorPath: string, emulatorBody?: unknown) => {
    if (emulatorPath.startsWith("/__emulator")) {
      if (o.live) throw new EmulatorOnly(`${method} ${emulatorPath} is a control of the emulator, which a live service does not have`);
    }
    const path = o.ns.pathToLive(emulatorPath);
    const body = emulatorBody === undefined ? undefined : o.ns.toLive(emulatorBody);
    guard(method, path, body);
    let res;
    let text = "";
    for (let attempt = 0; ; attempt++) {
      await pacer.acquire();
      sent++;
      res = await fetch(o.url.replace(/\/+$/, "") + path, {
        dispatcher: ONE_CONNECTION_EACH,
        method,
        headers: { authorization: `ApiKey ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await res.text();
      const get = (n: string) => res!.headers.get(n) ?? undefined;
      pacer.observe(readRateLimitHeaders(get));
      if (res.status !== 429 || attempt >= 5) break;
      const wait = Number(get("retry-after") ?? 1) * 1000;
      pacer.backOff(Number.isFinite(wait) ? wait : 1000);
    }
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* plain text */
    }
    const answer = unwrapEnvelope(parsed);
    exchanges.push({ method, path, ...(body !== undefined ? { body } : {}), status: res.status, answer });
    if (exchanges.length > 200) exchanges.shift();
    if (method === "POST" && res.status < 300 && answer && typeof answer === "object" && !Array.isArray(answer)) {
      const id = (answer as { _id?: unknown })._id;
      if (typeof id === "string") ownIds.add(id);
    }
    return { status: res.status, body: o.ns.fromLive(answer) as any };
  };
  const emulatorOnly = (what: string) => async (): Promise<never> => {
    throw new EmulatorOnly(`${what} is the emulator's, which a live service does not have`);
  };

  return {
    url: o.url,
    key: o.key,
    close: async () => undefined,
    api: (method, path, body) => apiAs(o.key, method, path, body),
    apiAs: (key, method, path, body) => apiAs(key, method, path, body),
    requests: emulatorOnly("the request log"),
    operationRequests: emulatorOnly("the request log"),
    clearRequests: emulatorOnly("the request log"),
    state: emulatorOnly("the store's state"),
    stackConfig: (extra = {}) => ({
      "notify:apiUrl": { value: o.url },
      "notify:apiKey": { value: o.key, secret: true },
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { value: v }])),
    }),
    connectEnvironment: () => connectProcessTo(o.url, o.key),
    sent: () => sent,
    exchanges,
    ownIds,
  };
}
