/** The SubscriberPreferences kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, strip } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/**
 * The active workflows made once per emulator, each with the channel types of its steps: the
 * service shows a channel only while an active workflow has a step of it, so these make every
 * channel show globally, and each workflow its own.
 */
const WORKFLOWS = { "prefs-everything": ["in_app", "email", "sms", "chat", "push"], "prefs-email": ["email", "in_app"] } as const;
const CHANNELS = WORKFLOWS["prefs-everything"];
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

async function createWorkflows(emu: TestEmulator): Promise<void> {
  for (const [workflowId, types] of Object.entries(WORKFLOWS)) {
    const steps = types.map((type) => ({ name: type, type, controlValues: type === "email" ? { subject: "Hi", body: "Hi" } : { body: "Hi" } }));
    await ok(emu.api("POST", "/v2/workflows", { workflowId, name: workflowId, active: true, steps }), `create ${workflowId}`);
  }
}

/** The channels a preference of `workflowId` (global: undefined) shows. */
const shownChannels = (workflowId: unknown): readonly string[] => (workflowId === undefined ? CHANNELS : WORKFLOWS[workflowId as keyof typeof WORKFLOWS] ?? []);

/** A time of day as the service's schedule writes it, `hh:mm AM`. */
const time = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom("AM", "PM"))
  .map(([h, m, p]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")} ${p}`);
const schedule = fc.record({
  isEnabled: fc.boolean(),
  weeklySchedule: opt(fc.record(Object.fromEntries(WEEKDAYS.map((d) => [d, opt(fc.record({
    isEnabled: fc.boolean(),
    hours: opt(fc.array(fc.record({ start: time, end: time }), { maxLength: 2 })),
  }, { requiredKeys: ["isEnabled"] }))])))),
}, { requiredKeys: ["isEnabled"] });
/** At least one channel, each on or off. */
const channels = fc.record(Object.fromEntries(CHANNELS.map((c) => [c, opt(fc.boolean())]))).map(strip).filter((c) => Object.keys(c).length > 0);

/**
 * Preferences of one of the run's two subscribers (made by `prepare`; never `s-<suffix>`, which
 * credentials use): global, with channels, a schedule or both, or one of the workflows' channels.
 */
export const preferencesInputs = (suffix: string) => fc.record({
  subscriberId: fc.constantFrom(`prefs-${suffix}`, `prefs-other-${suffix}`),
  scope: fc.oneof(
    fc.record({ channels: opt(channels), schedule: opt(schedule) }).filter((g) => g.channels !== undefined || g.schedule !== undefined),
    fc.record({ workflowId: fc.constantFrom(...(Object.keys(WORKFLOWS) as (keyof typeof WORKFLOWS)[])), channels }),
  ),
}).map(({ subscriberId, scope }) => strip({ subscriberId, ...scope }));

const prefs = (over: Obj) => ({ subscriberId: "alice", channels: { email: false }, ...over });
const path = (subscriberId: unknown) => `/v2/subscribers/${encodeURIComponent(String(subscriberId))}/preferences`;

export const subscriberPreferencesKind: KindDescriptor<"SubscriberPreferences"> = {
  kind: "SubscriberPreferences",
  inputs: preferencesInputs,
  setup: createWorkflows,
  prepare: async (emu, inputs) => { await emu.api("POST", "/v2/subscribers", { subscriberId: inputs.subscriberId }); },
  // The subscriber is the path of every call, and a workflow's preferences are another object than
  // the global ones; the schedule is `$set` whole on every write (upsert-preferences.usecase.ts).
  replaceOnChange: ["subscriberId", "workflowId"],
  exact: ["schedule"],
  handEdits: (i, _mode, add) => {
    // A channel the service shows, switched: a global one's switch also clears that channel's
    // per-workflow choices of the subscriber, which no other resource of a stack holds (one per subscriber).
    const declared = (i.channels ?? {}) as Record<string, boolean>;
    const c = Object.keys(declared).find((x) => shownChannels(i.workflowId).includes(x));
    if (c !== undefined) {
      add("channels", `${c} switched`, () => async (emu) =>
        void (await ok(emu.api("PATCH", path(i.subscriberId), strip({ workflowId: i.workflowId, channels: { [c]: !declared[c] } })), "hand edit preferences")));
    }
    const s = i.schedule as Obj | undefined;
    add("schedule", "switched", () => async (emu) => void (await ok(emu.api("PATCH", path(i.subscriberId), { schedule: { ...s, isEnabled: !s!.isEnabled } }), "hand edit schedule")));
  },
  deletePath: (i) => path(i.subscriberId),
  undeletable: "the service has no delete for a subscriber's preferences (a subscriber always has them; they go with the subscriber)",
  // After a destroy the declared choices are given back: global channels on and no schedule on; a workflow's channels as the global ones.
  remains: (state, declared) => declared.flatMap((d) => {
    const sub = state.subscribers!.find((s) => !s.deleted && s.subscriberId === d.subscriberId);
    const records = (state.subscriberPreferences ?? []).filter((p) => sub && p._subscriberId === sub._id);
    const global = records.find((p) => p._templateId === undefined);
    const workflow = state.workflows!.find((w) => w.workflowId === d.workflowId);
    const own = d.workflowId === undefined ? global : records.find((p) => workflow && p._templateId === workflow._id);
    const base = (c: string) => (d.workflowId === undefined ? true : global?.channels[c] ?? true);
    const left = Object.keys((d.channels ?? {}) as Obj).some((c) => shownChannels(d.workflowId).includes(c) && own?.channels[c] !== undefined && own.channels[c] !== base(c));
    return left || (d.schedule !== undefined && own?.schedule?.isEnabled) ? [own] : [];
  }),
  adopt: {
    seed: async (emu) => {
      // The subscriber, and an active workflow with an email step: the service shows the email channel only then.
      await ok(emu.api("POST", "/v2/subscribers", { subscriberId: "alice" }), "seed");
      await ok(emu.api("POST", "/v2/workflows", {
        workflowId: "prefs-adopt-digest", name: "Digest", active: true, steps: [{ name: "Email", type: "email", controlValues: { subject: "Hi", body: "Hi" } }],
      }), "seed");
      await ok(emu.api("PATCH", path("alice"), { channels: { email: false } }), "seed");
    },
    equal: prefs({}),
    reads: ["GET /v2/subscribers/{subscriberId}/preferences"],
    differing: prefs({ channels: { email: true } }),
    writes: ["PATCH /v2/subscribers/{subscriberId}/preferences"],
  },
  // Global: a GET (the choices already made, which a create without adopt refuses) and the PATCH;
  // a workflow's adds a GET of the workflow (it must let subscribers choose) to the create and the
  // update, and its delete reads the global choices it gives back. A read is one GET.
  floor: {
    of: (i) => (i.workflowId === undefined ? { create: 2, read: 1, update: 1, delete: 1 } : { create: 3, read: 1, update: 2, delete: 2 }),
    change: (i) => ({ ...i, channels: { ...(i.channels as Obj | undefined), email: !((i.channels as Obj | undefined)?.email ?? true) } }),
    listing: null,
  },
  badInput: [
    ["preferences that declare nothing", without(prefs({}), "channels"), /channels: declare at least one channel \(in_app, email, sms, chat, push\), or a schedule/],
    ["misspelt channel", prefs({ channels: { emial: false } }), /channels: unknown property "emial": did you mean "email"\?/],
    ["channel choice not a boolean", prefs({ channels: { email: "off" } }), /channels\.email: must be a boolean \(given "off"\)/],
    ["schedule on a workflow's preferences", prefs({ workflowId: "welcome", schedule: { isEnabled: true } }), /schedule: is a subscriber's global setting .*given workflowId "welcome"/],
    ["schedule time in 24-hour form", prefs({ schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "17:00", end: "06:00 PM" }] } } } }),
      /schedule\.weeklySchedule\.monday\.hours\[0\]\.start: must be a time like `09:00 AM`/],
    ["misspelt weekday", prefs({ schedule: { isEnabled: true, weeklySchedule: { mondy: { isEnabled: true } } } }), /schedule\.weeklySchedule: unknown property "mondy": did you mean "monday"\?/],
    ["schedule without isEnabled", prefs({ schedule: { weeklySchedule: {} } }), /schedule\.isEnabled: is required/],
    ["empty workflowId", prefs({ workflowId: "" }), /workflowId: must not be empty/],
    ["preferences without a subscriber", without(prefs({}), "subscriberId"), /subscriberId: is required/],
  ],
  stack: { max: 2, unique: (p) => p.subscriberId },
  exportSoak: { without: "the exporter reads preferences only of the subscribers it is given (--subscriber)" },
  bench: { per: 20, args: (i) => ({ subscriberId: `bench-sub-${i}`, channels: { sms: false, ...(i % 2 ? {} : { push: false }) } }) },
  scenario: { declared: { subscriberId: "scenario-prefs", channels: { email: false, sms: true } } },
  openapiCases: {
    "GET /v2/subscribers/{subscriberId}/preferences": async (c) => {
      await c.api("PATCH", "/v2/subscribers/alice/preferences", { workflowId: c.made.workflowId, channels: { chat: false } });
      await c.call(200, "/v2/subscribers/alice/preferences?criticality=all");
      return c.call(200, "/v2/subscribers/alice/preferences");
    },
    "PATCH /v2/subscribers/{subscriberId}/preferences": async (c) => {
      await c.call(200, "/v2/subscribers/alice/preferences", {
        channels: { email: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } },
      });
      return c.call(200, "/v2/subscribers/alice/preferences", { workflowId: c.made.workflowId, channels: { in_app: false } });
    },
  },
  // Global (channels and schedule) and one workflow's: create, read, update, adopt, delete; getSubscriberPreferences.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const preferences = moduleOf("subscriberPreferences");
      const aliceGlobal = await created(preferences, {
        subscriberId: "alice", channels: { sms: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: "09:00 AM", end: "05:00 PM" }] } } },
      });
      await preferences.provider.read(aliceGlobal.id, aliceGlobal.outs);
      await preferences.provider.update(aliceGlobal.id, aliceGlobal.outs, { ...aliceGlobal.inputs, channels: { sms: true, push: false } });
      const aliceWelcome = await created(preferences, { subscriberId: "alice", workflowId: "welcome", channels: { chat: false } });
      await preferences.provider.read(aliceWelcome.id, aliceWelcome.outs);
      await preferences.provider.update(aliceWelcome.id, aliceWelcome.outs, { ...aliceWelcome.inputs, channels: { chat: true, in_app: false } });
      await client.subscribers.updatePreferences("bob", { channels: { chat: false } });
      const adopted = await created(preferences, { subscriberId: "bob", channels: { chat: false }, adopt: true });
      await fns.getSubscriberPreferences({ subscriberId: "alice", criticality: "all" });
      return async () => {
        for (const r of [aliceWelcome, aliceGlobal, adopted]) await preferences.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
