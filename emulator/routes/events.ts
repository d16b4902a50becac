/**
 * Events: `POST /v1/events/trigger` (one event per recipient, one job per step, one message per
 * channel step) and the notifications list and item under `/v1/notifications`.
 */
import { randomUUID } from "node:crypto";
import { enumValues } from "../contract";
import { notFound, unprocessable, validationFailed } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader, byCreatedDesc, sameSet } from "../params";
import type { EventRecord, JobRecord, JsonObject, MessageRecord, SubscriberRecord } from "../records";
import { newSubscriber } from "../shared";
import { ofTenant, type Tenant } from "../store";
import type { RequestContext, Route } from "../types";
import type { RequestBody } from "../../spec/operations";
import { bodyOf, objectId } from "../util";
import { messageChannels } from "./messages";
import { liveSubscriber } from "./subscribers";


/** The job provider of a step kind without an integration (production: the service's own name). */
const INTERNAL_PROVIDER = "platform";

function providerFor(c: RequestContext, channel: string): string {
  const i = ofTenant(c.store.data.integrations, c.tenant).find((x) => x.channel === channel && !x.deleted && x.active);
  return i ? i.providerId : INTERNAL_PROVIDER;
}

/** The context keys (`type:id`) of a trigger's `context`. */
export function contextKeysOf(context: RequestBody<"EventsController_trigger">["context"]): string[] {
  return Object.entries(context ?? {}).map(([type, v]) => `${type}:${typeof v === "string" ? v : v.id}`);
}

function recipient(c: RequestContext, to: string | JsonObject, now: string): SubscriberRecord {
  const input = typeof to === "string" ? { subscriberId: to } : to;
  if (typeof input.subscriberId !== "string" || !input.subscriberId) throw validationFailed(["to.subscriberId: must be a non-empty string"]);
  let sub = liveSubscriber(c.store, c.tenant, input.subscriberId);
  if (!sub) {
    sub = newSubscriber(input, c.tenant, now);
    c.store.data.subscribers.push(sub);
  }
  return sub;
}

function trigger(c: RequestContext) {
  const body = bodyOf(c, "EventsController_trigger");
  const t: Tenant = c.tenant;
  const w = ofTenant(c.store.data.workflows, t).find((x) => x.workflowId === body.name);
  if (!w) throw unprocessable(`workflow_not_found: workflow with identifier ${body.name} cannot be found`);
  const recipients = Array.isArray(body.to) ? body.to : [body.to];
  const transactionId = body.transactionId ?? randomUUID();
  const now = new Date().toISOString();
  const scope = { _environmentId: t.environmentId, _organizationId: t.organizationId };
  const contextKeys = contextKeysOf(body.context);
  const channels = messageChannels();
  // An actor object is a subscriber the service creates when it does not exist yet.
  if (body.actor && typeof body.actor === "object") recipient(c, body.actor, now);
  for (const r of recipients) {
    const sub = recipient(c, r, now);
    const eventId = objectId();
    const jobs: JobRecord[] = w.steps.map((s) => {
      const provider = providerFor(c, s.type);
      return {
        _id: objectId(), type: s.type, status: "completed", providerId: provider, payload: body.payload ?? {}, overrides: body.overrides ?? {},
        updatedAt: now,
        ...(s.type === "digest" ? { digest: { type: "regular", amount: Number(s.controlValues.amount ?? 5), unit: s.controlValues.unit ?? "minutes", events: [] } } : {}),
        step: { _id: s._id, active: true, filters: [], _templateId: w._id, name: s.name, _parentId: null },
        executionDetails: [
          { _id: objectId(), createdAt: now, status: "Pending", detail: "Step queued", isRetry: false, isTest: false, providerId: provider, raw: null, source: "Internal" },
          { _id: objectId(), createdAt: now, status: "Success", detail: channels.includes(s.type) ? "Message sent" : "Step completed", isRetry: false, isTest: false, providerId: provider, raw: null, source: "Internal" },
        ],
      };
    });
    const event: EventRecord = {
      _id: eventId, ...scope, _subscriberId: sub._id, transactionId, _templateId: w._id, createdAt: now, updatedAt: now,
      channels: w.steps.map((s) => s.type),
      subscriber: { _id: sub._id, subscriberId: sub.subscriberId, ...(sub.firstName ? { firstName: sub.firstName } : {}), ...(sub.lastName ? { lastName: sub.lastName } : {}), ...(sub.email ? { email: sub.email } : {}), ...(sub.phone ? { phone: sub.phone } : {}) },
      template: { _id: w._id, name: w.name, origin: w.origin, triggers: [{ type: "event", identifier: w.workflowId, variables: [], subscriberVariables: [] }] },
      jobs, payload: body.payload ?? {}, tags: w.tags ?? [], to: typeof r === "string" ? { subscriberId: r } : r, severity: w.severity ?? "none", critical: false,
      contextKeys, topics: [],
    };
    c.store.data.events.push(event);
    for (const s of w.steps) {
      if (!channels.includes(s.type)) continue;
      const cv = s.controlValues ?? {};
      const message: MessageRecord = {
        _id: objectId(), _templateId: w._id, ...scope, _messageTemplateId: s._id, _notificationId: eventId, _subscriberId: sub._id,
        templateIdentifier: w.workflowId, createdAt: now, deliveredAt: [now], transactionId, channel: s.type,
        content: typeof cv.body === "string" ? cv.body : "", ...(typeof cv.subject === "string" ? { subject: cv.subject } : {}),
        read: false, seen: false, cta: {}, status: "sent", providerId: providerFor(c, s.type),
        payload: body.payload ?? {}, contextKeys,
        ...(s.type === "email" && sub.email ? { email: sub.email } : {}), ...(s.type === "sms" && sub.phone ? { phone: sub.phone } : {}),
      };
      c.store.data.messages.push(message);
    }
  }
  w.lastTriggeredAt = now;
  c.store.touch();
  return { status: 201, body: { acknowledged: true, status: "processed", transactionId } };
}

function listEvents(c: RequestContext) {
  const q = c.query;
  const p = new ParamReader(q);
  const page = p.int("page", 0, 0);
  const limit = p.int("limit", 10, 1, 50);
  const severity = p.allOf("severity", enumValues("SeverityLevelEnum"));
  const contextKeys = p.contextKeys();
  const requestedAfter = p.date("after"), requestedBefore = p.date("before");
  p.done();
  // The window: from the plan's earliest date (or later, when asked) to the request time (or earlier).
  const now = Date.now();
  const earliest = now - c.behaviour.retentionDays * 86_400_000;
  const after = Math.max(earliest, requestedAfter ?? earliest);
  const before = Math.min(now, requestedBefore ?? now);
  const channels = q.getAll("channels");
  const templates = q.getAll("templates"), emails = q.getAll("emails"), subscriberIds = q.getAll("subscriberIds");
  const tx = q.get("transactionId"), topicKey = q.get("topicKey"), search = q.get("search");
  const list = ofTenant(c.store.data.events, c.tenant).filter((e) => {
    const sub = e.subscriber ?? {};
    const created = Date.parse(e.createdAt);
    return (!channels.length || (e.channels ?? []).some((ch) => channels.includes(ch))) &&
      (!templates.length || templates.includes(String(e._templateId))) &&
      (!emails.length || emails.includes(String(sub.email))) &&
      (!subscriberIds.length || subscriberIds.includes(String(sub.subscriberId)) || subscriberIds.includes(e._subscriberId)) &&
      (!severity.length || severity.includes(e.severity ?? "none")) &&
      (!tx || e.transactionId === tx) &&
      (!topicKey || (e.topics ?? []).some((t) => t.topicKey === topicKey)) &&
      (!contextKeys || sameSet(contextKeys, e.contextKeys ?? [])) &&
      (!search || JSON.stringify(sub).includes(search) || e.transactionId.includes(search)) &&
      created >= after && created <= before;
  }).sort(byCreatedDesc);
  return { status: 200, bare: true, body: { data: list.slice(page * limit, page * limit + limit), hasMore: (page + 1) * limit < list.length, pageSize: limit, page } };
}

const eventRoutes: Route[] = [
  { method: "POST", path: "/v1/events/trigger", handler: trigger },
  { method: "GET", path: "/v1/notifications", handler: listEvents },
  {
    method: "GET", path: "/v1/notifications/{notificationId}",
    handler: (c) => {
      const e = ofTenant(c.store.data.events, c.tenant).find((x) => x._id === c.params.notificationId);
      if (!e) throw notFound(`Notification with id ${c.params.notificationId} not found`);
      return { status: 200, body: e };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ events: list<EventRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Events: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: eventRoutes });
