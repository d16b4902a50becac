/**
 * Test controls under `/__emulator/`: reset, seed, the request log, faults, behaviour flags, API
 * keys, DNS and the raw state. Never rate limited, faulted or logged; the key still has to be valid.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { EventRecord, IntegrationRecord, JsonObject, MessageRecord, StepRecord, WorkflowRecord } from "./records";
import { newApiKey } from "./environments";
import { EMULATOR_ORIGIN, newSubscriber } from "./shared";
import type { Store, Tenant } from "./store";
import { HOSTILE_KINDS, PLANS, ROUTE_GATES, type Behaviour, type Faults, type LoggedRequest, type Reply } from "./types";
import { objectId, slugify } from "./util";

/** What the controls act on: implemented by the emulator app. */
export interface ControlTarget {
  readonly store: Store;
  behaviour: Behaviour;
  readonly faults: Faults;
  /** Empties the store, the log, idempotency records and rate-limit buckets; clears faults. */
  reset(): void;
  requestsSince(seq: number): LoggedRequest[];
  clearRequests(): void;
  setFaults(f: Faults): void;
  /** Applies behaviour changes and empties the rate-limit buckets. */
  setBehaviour(b: Partial<Behaviour>): void;
}

const FaultsBody = z.strictObject({
  latencyMs: z.tuple([z.number().min(0).max(10_000), z.number().min(0).max(10_000)]).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  rateLimitRate: z.number().min(0).max(1).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  processingMs: z.number().min(0).max(10_000).optional(),
  hostile: z.enum(HOSTILE_KINDS).optional(),
  stopAfter: z.strictObject({ method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]), route: z.string().startsWith("/") }).optional(),
  loseAnswer: z.strictObject({ method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]), route: z.string().startsWith("/") }).optional(),
  seed: z.number().int().optional(),
});

const BehaviourBody = z.strictObject({
  envelope: z.boolean().optional(), hideCredentials: z.boolean().optional(), encryptCredentialAnswers: z.boolean().optional(), idempotency: z.boolean().optional(),
  retentionDays: z.number().int().min(1).max(3650).optional(),
  plan: z.enum(PLANS).nullable().optional(), environmentLimit: z.number().int().min(0).max(1000).optional(),
  environmentVariableLimit: z.number().int().min(0).max(1000).optional(), scopedEnvironmentKeys: z.boolean().optional(), suffixDuplicateAgents: z.boolean().optional(),
  contextPreferences: z.boolean().optional(), suffixDuplicateWorkflows: z.boolean().optional(), bareSubscribeAnswers: z.boolean().optional(),
  version: z.string().regex(/^\d+\.\d+\.\d+/).optional(),
  routeGates: z.array(z.strictObject({ prefix: z.string().startsWith("/"), as: z.enum(ROUTE_GATES) })).max(50).optional(),
  rateLimit: z.strictObject({ rate: z.number().positive().max(100_000), burst: z.number().int().positive().max(100_000) }).nullable().optional(),
});

const records = z.array(z.record(z.string(), z.unknown())).optional();

/**
 * The seed body. `integrations` and `workflows` are raw records as production might hold them
 * (a step kind this emulator does not know, an integration without a channel, origins and
 * provider ids spelt with the service's real name); what they leave out gets the usual defaults.
 */
const SeedBody = z.object({
  generate: z.object({ subscribers: z.number().int().min(0).max(200_000).optional() }).optional(),
  subscribers: records, messages: records, events: records, integrations: records, workflows: records,
});

const issues = (e: z.ZodError) => e.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);

function seedIntegration(raw: JsonObject, t: Tenant, now: string): IntegrationRecord {
  const providerId = String(raw.providerId ?? "unknown");
  return {
    name: providerId, identifier: `${providerId}-${objectId().slice(-6)}`, credentials: {}, configurations: {},
    active: false, deleted: false, primary: false, conditions: [], createdAt: now, updatedAt: now,
    ...raw, providerId, _id: typeof raw._id === "string" ? raw._id : objectId(), _environmentId: t.environmentId, _organizationId: t.organizationId,
  };
}

function seedWorkflow(raw: JsonObject, t: Tenant, now: string): WorkflowRecord {
  const workflowId = String(raw.workflowId ?? `seeded-${objectId().slice(-6)}`);
  const steps: StepRecord[] = ((raw.steps as JsonObject[] | undefined) ?? []).map((s) => ({
    controlValues: {}, ...s,
    _id: typeof s._id === "string" ? s._id : objectId(), stepId: String(s.stepId ?? slugify(String(s.name ?? s.type))),
    name: String(s.name ?? s.type), type: String(s.type),
  }));
  return {
    name: workflowId, description: "", tags: [], active: false, validatePayload: false, payloadSchema: null, isTranslationEnabled: false,
    preferences: {}, severity: "none", origin: EMULATOR_ORIGIN, createdAt: now, updatedAt: now, slug: `${workflowId}_wf_${objectId().slice(-8)}`,
    ...raw, workflowId, steps, _id: typeof raw._id === "string" ? raw._id : objectId(), _environmentId: t.environmentId, _organizationId: t.organizationId,
  };
}

function seed(target: ControlTarget, body: z.infer<typeof SeedBody>, tenant: Tenant): JsonObject {
  const data = target.store.data;
  const now = Date.now();
  const iso = new Date(now).toISOString();
  const scope = { _environmentId: tenant.environmentId, _organizationId: tenant.organizationId };
  const n = body.generate?.subscribers ?? 0;
  for (let i = 0; i < n; i++) {
    data.subscribers.push(newSubscriber({ subscriberId: `seed-${i}`, email: `user${i}@example.com`, firstName: "User", lastName: `${i}` }, tenant, new Date(now - (n - i) * 1000).toISOString()));
  }
  const subscribers = (body.subscribers ?? []).map((s) => newSubscriber(s, tenant, typeof s.createdAt === "string" ? s.createdAt : iso));
  const messages = (body.messages ?? []).map((m): MessageRecord => ({
    _id: objectId(), ...scope, _notificationId: objectId(), _subscriberId: objectId(), createdAt: iso,
    transactionId: randomUUID(), channel: "in_app", read: false, seen: false, cta: {}, status: "sent", ...m,
  }));
  const events = (body.events ?? []).map((e): EventRecord => ({
    _id: objectId(), ...scope, _subscriberId: objectId(), transactionId: randomUUID(), createdAt: iso,
    updatedAt: iso, channels: [], jobs: [], payload: {}, ...e,
  }));
  const integrations = (body.integrations ?? []).map((i) => seedIntegration(i, tenant, iso));
  const workflows = (body.workflows ?? []).map((w) => seedWorkflow(w, tenant, iso));
  data.subscribers.push(...subscribers);
  data.messages.push(...messages);
  data.events.push(...events);
  data.integrations.push(...integrations);
  data.workflows.push(...workflows);
  target.store.touch();
  const ids = (list: { _id: string }[]) => list.map((r) => r._id);
  return {
    subscribers: n + subscribers.length, messages: messages.length, events: events.length,
    integrations: integrations.length, workflows: workflows.length,
    ids: { subscribers: ids(subscribers), messages: ids(messages), events: ids(events), integrations: ids(integrations), workflows: ids(workflows) },
  };
}

/** The body of `POST /__emulator/dns`. */
const DnsBody = z.strictObject({ domain: z.string().min(1).max(253), mx: z.string().min(1).max(253).nullable() });

/** The body of `POST /__emulator/keys`: the environment (its `_id` or its name) and the key, random when left out. */
const AddKeyBody = z.strictObject({
  environment: z.string().min(1).max(200),
  key: z.string().regex(/^\S{1,255}$/, "must be 1 to 255 characters without spaces").optional(),
});
/** The body of `DELETE /__emulator/keys`. */
const RevokeKeyBody = z.strictObject({ key: z.string().min(1).max(255) });

const named = (e: { _id: string; name: string }) => `"${e.name}" (${e._id})`;

/**
 * Adds an API key to an environment of the caller's organisation, as a key made in the dashboard:
 * it authenticates at once and reaches that environment's objects.
 */
function addKey(store: Store, tenant: Tenant, body: z.infer<typeof AddKeyBody>): Reply {
  const envs = store.data.environments.filter((e) => e._organizationId === tenant.organizationId);
  const byId = envs.find((e) => e._id === body.environment);
  const byName = envs.filter((e) => e.name === body.environment);
  if (!byId && byName.length > 1) {
    return { status: 400, body: { message: `environment: ${byName.length} environments are named "${body.environment}"; give one's _id: ${byName.map(named).join(", ")}` } };
  }
  const env = byId ?? byName[0];
  if (!env) {
    return { status: 404, body: { message: `environment: no environment "${body.environment}" (an _id or a name); there are ${envs.map(named).join(", ")}` } };
  }
  if (body.key !== undefined) {
    const holder = store.data.environments.find((e) => e.apiKeys.some((k) => k.key === body.key));
    if (holder) return { status: 409, body: { message: `key: already a key of environment ${named(holder)}` } };
  }
  const record = newApiKey(body.key);
  env.apiKeys.push(record);
  store.touch();
  return { status: 201, body: { key: record.key, environmentId: env._id, environmentName: env.name } };
}

/** Revokes a key of the caller's organisation: from then on it is a key the service does not know (401). */
function revokeKey(store: Store, tenant: Tenant, key: string): Reply {
  const env = store.data.environments.find((e) => e._organizationId === tenant.organizationId && e.apiKeys.some((k) => k.key === key));
  // The key is a secret: the answer names the field, not the value.
  if (!env) return { status: 404, body: { message: "key: no environment of this organisation holds the key given" } };
  env.apiKeys = env.apiKeys.filter((k) => k.key !== key);
  store.touch();
  return { status: 200, body: { revoked: key, environmentId: env._id, environmentName: env.name } };
}

/** Answers one test control request. */
export function control(target: ControlTarget, method: string, path: string, query: URLSearchParams, bodyText: string, tenant: Tenant): Reply {
  let body: unknown = {};
  if (bodyText) {
    try { body = JSON.parse(bodyText); } catch { return { status: 400, body: { message: "body is not JSON" } }; }
  }
  switch (`${method} ${path}`) {
    case "POST /__emulator/reset":
      target.reset();
      return { status: 200, body: { ok: true } };
    case "POST /__emulator/seed": {
      const parsed = SeedBody.safeParse(body);
      if (!parsed.success) return { status: 400, body: { message: issues(parsed.error) } };
      return { status: 200, body: seed(target, parsed.data, tenant) };
    }
    case "GET /__emulator/requests":
      return { status: 200, body: { requests: target.requestsSince(Number(query.get("since") ?? 0)) } };
    case "DELETE /__emulator/requests":
      target.clearRequests();
      return { status: 200, body: { ok: true } };
    case "GET /__emulator/faults":
      return { status: 200, body: target.faults };
    case "POST /__emulator/faults": {
      const parsed = FaultsBody.safeParse(body);
      if (!parsed.success) return { status: 400, body: { message: issues(parsed.error) } };
      target.setFaults(parsed.data);
      return { status: 200, body: target.faults };
    }
    case "POST /__emulator/behaviour": {
      const parsed = BehaviourBody.safeParse(body);
      if (!parsed.success) return { status: 400, body: { message: issues(parsed.error) } };
      const { rateLimit, plan, ...rest } = parsed.data;
      target.setBehaviour({
        ...rest, ...(rateLimit !== undefined ? { rateLimit: rateLimit ?? undefined } : {}), ...(plan !== undefined ? { plan: plan ?? undefined } : {}),
      });
      return { status: 200, body: target.behaviour };
    }
    case "POST /__emulator/dns": {
      // The emulator's public DNS: `{ domain, mx }` points a name's MX at a host (null removes it),
      // so that a test can make `POST /v1/domains/{domain}/verify` find the record it expects.
      const parsed = DnsBody.safeParse(body);
      if (!parsed.success) return { status: 400, body: { message: issues(parsed.error) } };
      const name = parsed.data.domain.toLowerCase();
      if (parsed.data.mx === null) delete target.store.data.dnsMx[name];
      else target.store.data.dnsMx[name] = parsed.data.mx;
      target.store.touch();
      return { status: 200, body: { dnsMx: target.store.data.dnsMx } };
    }
    case "POST /__emulator/keys": {
      const parsed = AddKeyBody.safeParse(body);
      if (!parsed.success) return { status: 400, body: { message: issues(parsed.error) } };
      return addKey(target.store, tenant, parsed.data);
    }
    case "DELETE /__emulator/keys": {
      const parsed = RevokeKeyBody.safeParse(body);
      if (!parsed.success) return { status: 400, body: { message: issues(parsed.error) } };
      return revokeKey(target.store, tenant, parsed.data.key);
    }
    case "GET /__emulator/state":
      return { status: 200, body: target.store.data };
    default:
      return { status: 404, body: { message: `no test control ${method} ${path}` } };
  }
}
