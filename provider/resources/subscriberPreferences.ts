/**
 * SubscriberPreferences: one subscriber's own choices, global (which channels, and the delivery
 * schedule) or for one workflow (which channels).
 *
 *   check   no request
 *   diff    no request
 *   create  for a workflow, GET /v2/workflows/{workflowId} (it must exist, by its workflowId, and let
 *           subscribers choose); GET /v2/subscribers/{subscriberId}/preferences; choices the
 *           subscriber already made are refused without adopt, and with adopt written only where
 *           they differ; else one PATCH of the declared channels and schedule
 *   read    GET /v2/subscribers/{subscriberId}/preferences (every active workflow: `criticality=all`);
 *           for a workflow it does not list, GET /v2/workflows/{workflowId} (gone, or inactive)
 *   update  one PATCH of what changed (global channels only those that changed: see below)
 *   delete  one PATCH giving back what the resource declared: global channels on and the schedule
 *           off; a workflow's channels as the subscriber's global choice has them
 *
 * What the service shows, and what it does (production-notes.md, fifth pass §6):
 * - it shows a channel only when an active workflow has a step of that channel type (the global
 *   channels: any active workflow's; a workflow's: its own steps'). A declared channel it does not
 *   show cannot be compared: it is carried as declared, and never drift;
 * - a workflow's channels are merged: the workflow's defaults, the subscriber's global choice, then
 *   its choice for that workflow. A workflow whose preferences are read-only ignores the
 *   subscriber's choice: declaring one is refused;
 * - a PATCH changes only the channels it sends, and a global PATCH first clears the channels it sends
 *   from every one of the subscriber's per-workflow choices: so an update of global preferences
 *   sends only the channels whose declared value changed.
 */
import { z } from "zod";
import { clientFor } from "../config";
import { isNotFound } from "../client/errors";
import type { PreferenceChannels, SubscriberPreferences as ApiPreferences } from "../client/subscribers";
import { SafeString } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import { allowedKeysAt, checkWith, unknownKeyMessage, type CheckFailure } from "./check";
import { type DiffResult, declaredKeys, declaredKeysOf, deepEqual, isPlainObject, stripUndefined } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, requestBody, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, failure, gone, readInputs } from "./lifecycle";

/** The channel types a subscriber chooses (ChannelTypeEnum of spec/openapi.json). */
export const PREFERENCE_CHANNELS = ["in_app", "email", "sms", "chat", "push"] as const;
type ChannelType = (typeof PREFERENCE_CHANNELS)[number];
/** The days of a weekly schedule (WeeklyScheduleDto of spec/openapi.json). */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
/** A time of day as the service's schedule writes it (the document's example, `09:00 AM`). */
export const SCHEDULE_TIME = /^(0[1-9]|1[0-2]):[0-5][0-9] (AM|PM)$/;

const time = (which: string) => z.string().regex(SCHEDULE_TIME, { error: "must be a time like `09:00 AM` (hh:mm, then AM or PM, as the service's schedule writes it)" })
  .describe(`The window's ${which} time, \`hh:mm AM\` or \`hh:mm PM\`.`);
const TimeRangeInput = z.strictObject({ start: time("start"), end: time("end") })
  .meta({ id: "PreferenceTimeRange", description: "A window of one day in which messages are delivered." });
const DayInput = z.strictObject({
  isEnabled: z.boolean().describe("Whether messages are delivered on this day."),
  hours: z.array(TimeRangeInput).optional().describe("The windows of the day in which they are."),
}).meta({ id: "PreferenceDaySchedule", description: "One day of a delivery schedule." });
const ScheduleInput = z.strictObject({
  isEnabled: z.boolean().describe("Whether the schedule applies: off, messages are delivered at any time."),
  weeklySchedule: z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, DayInput.optional().describe(`${d[0]!.toUpperCase()}${d.slice(1)}.`)])) as Record<(typeof WEEKDAYS)[number], z.ZodOptional<typeof DayInput>>)
    .optional().describe("The days and their windows."),
}).meta({ id: "PreferenceSchedule", description: "When a subscriber receives messages: the days of the week and their windows, in the subscriber's timezone." });
const ChannelsInput = z.strictObject(Object.fromEntries(PREFERENCE_CHANNELS.map((c) => [c, z.boolean().optional().describe(`Whether the subscriber receives ${c} messages.`)])) as Record<ChannelType, z.ZodOptional<z.ZodBoolean>>);

/** The field table of {@link SubscriberPreferences}. */
export const SUBSCRIBER_PREFERENCES = defineResource({
  name: "SubscriberPreferences",
  module: "subscriberPreferences",
  doc: "One subscriber's own preferences: global (the channels, and the delivery schedule) or for one workflow (its channels). " +
    "Only the channels declared are managed. The service shows a channel only while an active workflow has a step of that channel " +
    "type: a declared channel it does not show is kept as declared. A global write of a channel clears the subscriber's choice of " +
    "that channel for every workflow, so declare a subscriber's per-workflow preferences with `dependsOn` its global ones. " +
    "Deleting the resource gives back what it declared: global channels on and the schedule off, a workflow's channels as the " +
    "global ones. The id, and the import id, is `subscriberId` (global) or `subscriberId/workflowId`.",
  inputs: {
    subscriberId: field(SafeString(200).min(1, { error: "must not be empty" }), "The subscriber (it must exist: pass a Subscriber's `subscriberId` output). " +
      "Changing it replaces the resource.", { replaces: true, path: true }),
    workflowId: field(z.string().min(1, { error: "must not be empty" }).optional(), "The workflow whose preferences these are, by its workflowId " +
      "(pass a Workflow's `workflowId` output); left out, the subscriber's global preferences. Changing it replaces the resource.", { replaces: true }),
    channels: field(ChannelsInput.optional(), "Whether the subscriber receives each channel type's messages (`in_app`, `email`, `sms`, `chat`, `push`); " +
      "only the channels given are managed."),
    schedule: field(ScheduleInput.optional(), "When the subscriber receives messages (global preferences only), compared whole: the service replaces it " +
      "on every write. Left out, it is not managed.", { exact: true }),
    adopt: field(z.boolean().optional(), "Take over choices the subscriber already made (in the dashboard, the inbox or through the API) instead of failing.",
      { control: true }),
  },
  outputs: {},
});

/** Inputs of {@link SubscriberPreferences}. */
export type SubscriberPreferencesArgs = ArgsOf<typeof SUBSCRIBER_PREFERENCES>;
/** The state of {@link SubscriberPreferences}: the choices as read, each declared input as declared. */
export type SubscriberPreferencesState = StateOf<typeof SUBSCRIBER_PREFERENCES>;

type Inputs = z.infer<typeof SUBSCRIBER_PREFERENCES.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;
type Channels = Partial<Record<string, boolean>>;

/** `subscriberId` or `subscriberId/workflowId`, each part URI-encoded so the id splits back exactly. */
export function preferencesId(subscriberId: string, workflowId?: string): string {
  return [subscriberId, ...(workflowId === undefined ? [] : [workflowId])].map(encodeURIComponent).join("/");
}

/** The parts of an id made by {@link preferencesId}. */
export function parsePreferencesId(id: string): { subscriberId: string; workflowId?: string } {
  const parts = id.split("/").map(decodeURIComponent);
  if (parts.length > 2 || !parts[0] || parts[1] === "") {
    throw new Error(`not a SubscriberPreferences id: ${JSON.stringify(id)} (expected subscriberId, or subscriberId/workflowId)`);
  }
  return { subscriberId: parts[0], workflowId: parts[1] };
}

/** What the service shows of one scope's preferences, and whether the subscriber made choices there. */
interface Shown {
  channels: Channels;
  schedule?: unknown;
  /** The subscriber chose something the service did not default to (what a create without adopt refuses). */
  chosen: boolean;
}

const booleans = (c: PreferenceChannels): Channels => Object.fromEntries(Object.entries(c).filter((e): e is [string, boolean] => typeof e[1] === "boolean"));

/**
 * The scope's preferences in the service's answer: global, or the workflow's (undefined when the
 * answer does not list it). Chosen: a global channel off or a schedule on (the defaults are every
 * channel on and no schedule); for a workflow, choices the subscriber made for it (its `updatedAt`)
 * that differ from its global ones.
 */
export function shownOf(p: ApiPreferences, workflowId: string | undefined): Shown | undefined {
  const global = booleans(p.global.channels);
  if (workflowId === undefined) {
    const schedule = p.global.schedule ?? undefined;
    return { channels: global, schedule, chosen: Object.values(global).includes(false) || schedule?.isEnabled === true };
  }
  const entry = p.workflows.find((w) => w.workflow.identifier === workflowId);
  if (!entry) return undefined;
  const channels = booleans(entry.channels);
  return { channels, chosen: entry.updatedAt !== undefined && Object.entries(channels).some(([c, v]) => global[c] !== undefined && global[c] !== v) };
}

/**
 * The state for the declared inputs: each declared channel as the service shows it, or, where it
 * does not show it, as `carried` has it (the value declared or held before); the schedule as
 * stored. An import (nothing declared yet) takes every channel shown and the schedule.
 */
function outputsFor(declared: Props, shown: Shown | undefined, carried: Props, keys: string[]): SubscriberPreferencesState {
  const outs: Props = { subscriberId: declared.subscriberId, workflowId: declared.workflowId };
  const declaredChannels = isPlainObject(declared.channels) ? Object.keys(declared.channels) : undefined;
  if (keys.includes("channels")) {
    const names = declaredChannels ?? Object.keys(shown?.channels ?? {});
    const before = isPlainObject(carried.channels) ? carried.channels : {};
    outs.channels = Object.fromEntries(names.flatMap((c) => {
      const v = shown?.channels[c] ?? before[c];
      return v === undefined ? [] : [[c, v]];
    }));
  }
  if (keys.includes("schedule")) outs.schedule = shown ? shown.schedule : carried.schedule;
  return stripUndefined({ ...outs, ...controlInputs(declared, SUBSCRIBER_PREFERENCES.controlKeys), declaredKeys: keys }) as SubscriberPreferencesState;
}

/** How messages name one resource's preferences. */
const scopeOf = (subscriberId: string, workflowId?: string) =>
  `preferences of subscriber "${subscriberId}"${workflowId === undefined ? "" : ` for workflow "${workflowId}"`}`;

/** What to do about a 404: which of the two (subscriber, workflow) the service does not know. */
function notFoundHint(err: unknown, inputs: { subscriberId: string; workflowId?: string }): string | undefined {
  if (!isNotFound(err)) return undefined;
  return /workflow/i.test(err.serviceMessage)
    ? `Workflow "${inputs.workflowId}" does not exist; declare it and pass its workflowId output (workflowId: workflow.workflowId)`
    : `Subscriber "${inputs.subscriberId}" does not exist; declare it with a Subscriber and pass its subscriberId output (subscriberId: subscriber.subscriberId)`;
}

/**
 * The workflow a per-workflow preference names: it must be named by its workflowId (the service
 * lists preferences by workflowId, while its write also takes an `_id` or slug) and let subscribers
 * choose (a read-only workflow ignores their choices, so a declared one would differ forever).
 */
async function checkWorkflow(workflowId: string): Promise<void> {
  const w = await clientFor().workflows.get(workflowId);
  if (w.workflowId !== workflowId) {
    throw new Error(`workflowId: give the workflow's workflowId "${w.workflowId}", not its _id or slug ("${workflowId}"): the service lists preferences by workflowId`);
  }
  const prefs = w.preferences as { user?: { all?: { readOnly?: boolean } } | null; default?: { all?: { readOnly?: boolean } } | null };
  if (prefs.user?.all?.readOnly ?? prefs.default?.all?.readOnly) {
    throw new Error(`workflow "${workflowId}" has read-only preferences (preferences.all.readOnly), so the service ignores a subscriber's choices for it; ` +
      "let subscribers choose (readOnly: false) or remove this SubscriberPreferences");
  }
}

/** The subscriber's preferences, every active workflow's listed (a read-only one too, so that it is not taken for a missing one). */
const readPreferences = (subscriberId: string, workflowId?: string) => clientFor().subscribers.preferences(subscriberId, workflowId === undefined ? undefined : "all");

/**
 * Writes what differs from `held` (the declared values as the service held them before; nothing
 * when creating): the channels, for global preferences only those that changed (a global write
 * clears the subscriber's choices of the channels it sends for every workflow), and the schedule.
 * Answers the preferences after the write, or undefined when nothing needed writing.
 */
async function write(inputs: Inputs, held?: Props): Promise<ApiPreferences | undefined> {
  const before = isPlainObject(held?.channels) ? held.channels : {};
  const channels = Object.fromEntries(Object.entries(inputs.channels ?? {})
    .filter(([c, v]) => v !== undefined && (held === undefined || inputs.workflowId !== undefined || before[c] !== v)));
  const schedule = inputs.schedule !== undefined && (held === undefined || !deepEqual(held.schedule, inputs.schedule)) ? inputs.schedule : undefined;
  if (!Object.keys(channels).length && schedule === undefined) return undefined;
  const body: RequestBody<"SubscribersController_updateSubscriberPreferences"> = requestBody(SUBSCRIBER_PREFERENCES,
    stripUndefined({ ...inputs, channels: Object.keys(channels).length ? channels : undefined, schedule }), "update");
  return clientFor().subscribers.updatePreferences(inputs.subscriberId, body);
}

/** The state after a write: from its answer (the non-critical workflows), else from a read. */
async function stateAfter(inputs: Inputs, raw: Props, keys: string[], answer: ApiPreferences | undefined): Promise<SubscriberPreferencesState> {
  const live = answer && (inputs.workflowId === undefined || shownOf(answer, inputs.workflowId)) ? answer : await readPreferences(inputs.subscriberId, inputs.workflowId);
  return outputsFor(raw, shownOf(live, inputs.workflowId), raw, keys);
}

/** The check's hint for an unknown key, at the top or inside `channels` or `schedule`: the closest allowed key, and all of them. */
function unknownKeys(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== "unrecognized_keys") return undefined;
  const allowed = issue.path.length ? allowedKeysAt(SUBSCRIBER_PREFERENCES.schema, issue.path) ?? [] : Object.keys(SUBSCRIBER_PREFERENCES.inputs);
  return issue.keys.map((k) => unknownKeyMessage(k, allowed)).join("; ");
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const failures = checkWith(SUBSCRIBER_PREFERENCES.schema, inputs, unknownKeys);
    if (!failures.length && inputs.schedule !== undefined && inputs.workflowId !== undefined) {
      failures.push({
        property: "schedule", reason: "schedule: is a subscriber's global setting (the service keeps one schedule per subscriber and ignores one sent with a " +
          `workflow's preferences); declare it on the SubscriberPreferences without workflowId (given workflowId ${JSON.stringify(inputs.workflowId)})`,
      });
    }
    const channels = isPlainObject(inputs.channels) ? Object.keys(inputs.channels) : [];
    if (!failures.length && !channels.length && inputs.schedule === undefined) {
      failures.push({
        property: "channels", reason: `channels: declare at least one channel (${PREFERENCE_CHANNELS.join(", ")})` +
          `${inputs.workflowId === undefined ? ", or a schedule" : ""}: preferences that declare nothing manage nothing`,
      });
    }
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    return diffOf(SUBSCRIBER_PREFERENCES, olds, news);
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, SUBSCRIBER_PREFERENCES.inputKeys);
    const id = preferencesId(inputs.subscriberId, inputs.workflowId);
    const what = scopeOf(inputs.subscriberId, inputs.workflowId);
    let shown: Shown | undefined;
    try {
      if (inputs.workflowId !== undefined) await checkWorkflow(inputs.workflowId);
      shown = shownOf(await readPreferences(inputs.subscriberId, inputs.workflowId), inputs.workflowId);
    } catch (err) {
      throw failure(`set ${what}`, err, notFoundHint(err, inputs));
    }
    if (shown?.chosen && !inputs.adopt) {
      throw new Error(`Unable to set ${what}: the subscriber has made choices there already ${JSON.stringify(stripUndefined({ channels: shown.channels, schedule: shown.schedule }))}; ` +
        "set adopt: true to manage them with this stack");
    }
    if (inputs.adopt && shown) {
      // Compared as the service shows them: a declared channel it does not show cannot compare equal, and is written.
      return adoptExisting(what, {
        id, compared: outputsFor(raw, shown, {}, keys) as unknown as Props, inputs: raw, diff: provider.diff,
        update: async (olds) => (await provider.update(id, olds, raw)).outs,
      });
    }
    try {
      return { id, outs: await stateAfter(inputs, raw, keys, await write(inputs)) };
    } catch (err) {
      throw failure(`set ${what}`, err, notFoundHint(err, inputs));
    }
  },

  async read(id: string, props: Props) {
    const { subscriberId, workflowId } = parsePreferencesId(id);
    const what = scopeOf(subscriberId, workflowId);
    let live: ApiPreferences;
    try {
      live = await readPreferences(subscriberId, workflowId);
    } catch (err) {
      if (isNotFound(err)) return gone();
      throw failure(`read ${what}`, err);
    }
    const shown = shownOf(live, workflowId);
    if (workflowId !== undefined && !shown) {
      // Not listed: the workflow is gone (its preferences with it) or inactive (shown again once it is active).
      try {
        await clientFor().workflows.get(workflowId);
      } catch (err) {
        if (isNotFound(err)) return gone();
        throw failure(`read ${what}`, err);
      }
    }
    const declared = { ...props, subscriberId, workflowId };
    // An import (no state yet) declares every channel the service shows, and the schedule it holds.
    const keys = declaredKeysOf(props) ?? ["subscriberId", ...(workflowId === undefined ? [] : ["workflowId"]), "channels",
      ...(shown?.schedule !== undefined ? ["schedule"] : [])];
    const outs = outputsFor(declared, shown, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, SUBSCRIBER_PREFERENCES.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, SUBSCRIBER_PREFERENCES.inputKeys);
    const what = scopeOf(inputs.subscriberId, inputs.workflowId);
    try {
      if (inputs.workflowId !== undefined) await checkWorkflow(inputs.workflowId);
      return { outs: await stateAfter(inputs, news, keys, await write(inputs, olds)) };
    } catch (err) {
      throw failure(`update ${what}`, err, notFoundHint(err, inputs));
    }
  },

  async delete(id: string, props: Props) {
    const { subscriberId, workflowId } = parsePreferencesId(id);
    const declared = isPlainObject(props.channels) ? Object.keys(props.channels) : [];
    try {
      if (workflowId === undefined) {
        const body = stripUndefined({
          channels: declared.length ? Object.fromEntries(declared.map((c) => [c, true])) : undefined,
          schedule: props.schedule !== undefined ? { isEnabled: false } : undefined,
        });
        if (Object.keys(body).length) await clientFor().subscribers.updatePreferences(subscriberId, body);
        return;
      }
      // A workflow's channels as its subscriber's global choice has them: the service has no way to remove one workflow's choice alone.
      const live = await readPreferences(subscriberId, workflowId);
      const shown = shownOf(live, workflowId);
      const global = booleans(live.global.channels);
      const back = Object.fromEntries(declared.flatMap((c) => (shown?.channels[c] !== undefined && global[c] !== undefined ? [[c, global[c]]] : [])));
      if (Object.keys(back).length) await clientFor().subscribers.updatePreferences(subscriberId, { workflowId, channels: back });
    } catch (err) {
      // The subscriber or the workflow is gone, and its preferences with it.
      if (isNotFound(err)) return;
      throw failure(`delete ${scopeOf(subscriberId, workflowId)}`, err);
    }
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
