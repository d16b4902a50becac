/**
 * A subscriber's preferences: `/v2/subscribers/{subscriberId}/preferences` (get, patch), as the
 * service's apps/api/src/app/subscribers-v2/ does it (production-notes.md, fifth pass §6), in both
 * modes:
 *
 * - GET answers `{global, workflows}`. Only **active** workflows are listed, each with the channel
 *   types of its steps only; a workflow whose merged preferences are read-only counts as critical,
 *   and `criticality` (default `nonCritical`, else `critical` or `all`) picks which are listed. The
 *   global channels are the stored ones over all-true defaults, shown only for the channel types
 *   the active workflows use (get-subscriber-global-preference.usecase.ts); `enabled` is always
 *   true; `schedule` only once one was stored.
 * - A workflow's channels merge, in order, the workflow's `preferences.workflow`, its
 *   `preferences.user`, the subscriber's global choices and the subscriber's choices for that
 *   workflow; a read-only workflow ignores the subscriber's (merge-preferences.usecase.ts). Its
 *   `updatedAt` is there only once the subscriber chose something for it (the document's words).
 * - PATCH with `workflowId` (the workflowId, `_id` or slug; unknown: 404) writes that workflow's
 *   choices, without it the global ones; only the channels sent change (deepMerge of
 *   upsert-preferences.usecase.ts). A global write first removes the channels it sends from every
 *   one of the subscriber's per-workflow choices (`deleteSubscriberWorkflowChannelPreferences`).
 *   `schedule` is stored with the global choices only, replaced whole when sent and kept when not.
 *   The answer is the GET body (non-critical).
 * - The subscriber's delete removes its preferences (routes/subscribers.ts).
 */
import { notFound } from "../errors";
import { emulatorKind, list } from "../kind";
import { ParamReader } from "../params";
import type { JsonObject, Scoped, SubscriberRecord, WorkflowRecord } from "../records";
import { DEFAULT_WORKFLOW_PREFERENCES } from "../shared";
import { ofTenant } from "../store";
import type { RequestContext, Route } from "../types";
import { bodyOf, objectId } from "../util";
import { liveSubscriber } from "./subscribers";
import { findWorkflow } from "./workflows";

/**
 * A subscriber's own preferences (production's preferences of type SUBSCRIBER_GLOBAL, or
 * SUBSCRIBER_WORKFLOW for one workflow): the channels the subscriber chose, and (global only) the
 * delivery schedule. Only what was chosen is stored; the rest comes from the workflow's defaults.
 */
export interface SubscriberPreferenceRecord extends Scoped {
  /** The subscriber's database `_id`. */
  _subscriberId: string;
  /** The workflow's database `_id`; absent for the global preferences. */
  _templateId?: string;
  channels: Record<string, boolean>;
  schedule?: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** The channel types a subscriber chooses (ChannelTypeEnum of spec/openapi.json). */
const CHANNEL_TYPES = ["in_app", "email", "sms", "chat", "push"] as const;
const CRITICALITIES = ["nonCritical", "critical", "all"] as const;

/** One layer of workflow preferences (`{ all: { enabled, readOnly }, channels: { email: { enabled } } }`). */
interface PreferenceLayer {
  all?: { enabled?: boolean; readOnly?: boolean };
  channels?: Record<string, { enabled?: boolean } | undefined>;
}

function subscriberOf(c: RequestContext, message: (id: string) => string): SubscriberRecord {
  const s = liveSubscriber(c.store, c.tenant, c.params.subscriberId!);
  if (!s) throw notFound(message(c.params.subscriberId!));
  return s;
}

/** The subscriber's own choices: global (no workflow) or one workflow's. */
function ownPreference(c: RequestContext, s: SubscriberRecord, templateId?: string): SubscriberPreferenceRecord | undefined {
  return ofTenant(c.store.data.subscriberPreferences, c.tenant).find((p) => p._subscriberId === s._id && p._templateId === templateId);
}

/** The channel types of a workflow's steps, in the order the document lists them. */
const channelsOf = (w: WorkflowRecord) => CHANNEL_TYPES.filter((t) => w.steps.some((s) => s.type === t && s.active !== false));

/** A workflow's own preferences merged over the defaults: whether it is on, read-only, and each channel. */
function workflowPreferences(w: WorkflowRecord) {
  const layers = [DEFAULT_WORKFLOW_PREFERENCES, w.preferences?.workflow, w.preferences?.user].filter(Boolean) as PreferenceLayer[];
  let enabled = true, readOnly = false;
  const channels: Record<string, boolean> = {};
  for (const l of layers) {
    if (typeof l.all?.enabled === "boolean") enabled = l.all.enabled;
    if (typeof l.all?.readOnly === "boolean") readOnly = l.all.readOnly;
    for (const t of CHANNEL_TYPES) {
      const v = l.channels?.[t]?.enabled;
      if (typeof v === "boolean") channels[t] = v;
    }
  }
  return { enabled, readOnly, channels };
}

/** The subscriber's preferences as GET answers them, the workflows of `criticality`. */
export function preferencesOf(c: RequestContext, s: SubscriberRecord, criticality: (typeof CRITICALITIES)[number]): JsonObject {
  const active = ofTenant(c.store.data.workflows, c.tenant).filter((w) => w.active);
  const global = ownPreference(c, s);
  const inUse = new Set(active.flatMap(channelsOf));
  const workflows = active.flatMap((w) => {
    const merged = workflowPreferences(w);
    if ((criticality === "nonCritical" && merged.readOnly) || (criticality === "critical" && !merged.readOnly)) return [];
    const own = ownPreference(c, s, w._id);
    const channels: Record<string, boolean> = {};
    const bySubscriber: string[] = [];
    for (const t of channelsOf(w)) {
      const chosen = merged.readOnly ? undefined : own?.channels[t] ?? global?.channels[t];
      channels[t] = chosen ?? merged.channels[t] ?? true;
      if (chosen !== undefined) bySubscriber.push(t);
    }
    return [{
      enabled: merged.enabled, channels, overrides: bySubscriber.map((t) => ({ channel: t, source: "subscriber" })),
      workflow: { slug: w.slug, identifier: w.workflowId, name: w.name, updatedAt: w.updatedAt },
      ...(own ? { updatedAt: own.updatedAt } : {}),
    }];
  });
  return {
    global: {
      enabled: true,
      channels: Object.fromEntries(CHANNEL_TYPES.filter((t) => inUse.has(t)).map((t) => [t, global?.channels[t] ?? true])),
      ...(global?.schedule ? { schedule: global.schedule } : {}),
    },
    workflows,
  };
}

/** Writes the subscriber's choices (global, or of workflow `templateId`): the channels sent over those stored, the schedule when sent. */
function store(c: RequestContext, s: SubscriberRecord, templateId: string | undefined, channels: Record<string, boolean>, schedule: JsonObject | undefined): void {
  const now = new Date().toISOString();
  let own = ownPreference(c, s, templateId);
  if (!own) {
    own = { _id: objectId(), _environmentId: c.tenant.environmentId, _organizationId: c.tenant.organizationId, _subscriberId: s._id, channels: {}, createdAt: now, updatedAt: now };
    if (templateId !== undefined) own._templateId = templateId;
    c.store.data.subscriberPreferences.push(own);
  }
  own.channels = { ...own.channels, ...channels };
  if (templateId === undefined && schedule !== undefined) own.schedule = schedule;
  own.updatedAt = now;
}

const subscriberPreferenceRoutes: Route[] = [
  {
    method: "GET", path: "/v2/subscribers/{subscriberId}/preferences",
    handler: (c) => {
      const p = new ParamReader(c.query);
      const criticality = p.oneOf("criticality", CRITICALITIES, "nonCritical");
      p.contextKeys();
      p.done();
      const s = subscriberOf(c, (id) => `Subscriber with id: ${id} not found`);
      return { status: 200, body: preferencesOf(c, s, criticality) };
    },
  },
  {
    method: "PATCH", path: "/v2/subscribers/{subscriberId}/preferences",
    handler: (c) => {
      const b = bodyOf(c, "SubscribersController_updateSubscriberPreferences") ?? {};
      // The workflow is looked up first (update-subscriber-preferences.usecase.ts), then the subscriber (update-preferences.usecase.ts).
      const w = b.workflowId !== undefined ? findWorkflow(c, b.workflowId) : undefined;
      const s = subscriberOf(c, (id) => `Subscriber with id: ${id} is not found`);
      const channels = Object.fromEntries(Object.entries(b.channels ?? {}).filter((e): e is [string, boolean] => typeof e[1] === "boolean"));
      if (!w && Object.keys(channels).length) {
        for (const own of ofTenant(c.store.data.subscriberPreferences, c.tenant)) {
          if (own._subscriberId === s._id && own._templateId !== undefined) own.channels = Object.fromEntries(Object.entries(own.channels).filter(([t]) => !(t in channels)));
        }
      }
      store(c, s, w?._id, channels, b.schedule as JsonObject | undefined);
      c.store.touch();
      return { status: 200, body: preferencesOf(c, s, "nonCritical") };
    },
  },
];

/** The store's lists of this kind, each typed by its record. */
const lists = () => ({ subscriberPreferences: list<SubscriberPreferenceRecord>() });
declare module "../records" {
  interface StoredLists extends ReturnType<typeof lists> {}
}

/** Subscribers' preferences: a kind of the emulator, registered in ./index.ts. */
export const kind = emulatorKind({ lists, routes: subscriberPreferenceRoutes });
