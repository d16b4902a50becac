/** The Subscriber kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { jsonObject, opt, strip, text } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/**
 * A subscriberId by the service's rule, carrying the run's suffix: a plain id or an email address
 * (both are ids the service takes). Never `s-<suffix>`, the subscriber other kinds' objects hang on.
 */
const subscriberId = (suffix: string) => fc.oneof(
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((s) => `sub-${s}-${suffix}`),
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((s) => `${s}.${suffix}@example.com`),
);

/** A subscriber: its id, and any of its profile fields and data. */
export const subscriberInputs = (suffix: string) => fc.record({
  subscriberId: subscriberId(suffix),
  firstName: opt(text(1, 30)),
  lastName: opt(text(1, 30)),
  email: opt(fc.stringMatching(/^[a-z0-9]{1,10}$/).map((s) => `${s}@example.com`)),
  phone: opt(fc.stringMatching(/^\+[1-9][0-9]{6,12}$/)),
  avatar: opt(fc.stringMatching(/^[a-z0-9]{1,8}$/).map((s) => `https://cdn.example.com/avatars/${s}.png`)),
  locale: opt(fc.constantFrom("en", "en-US", "fr_FR", "de-DE", "pt-BR")),
  timezone: opt(fc.constantFrom("Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC")),
  data: opt(jsonObject),
}, { requiredKeys: ["subscriberId"] }).map(strip);

const subscriber = (over: Obj) => ({ subscriberId: "ops-oncall", ...over });
const path = (id: string) => `/v2/subscribers/${encodeURIComponent(id)}`;

export const subscriberKind: KindDescriptor<"Subscriber"> = {
  kind: "Subscriber",
  inputs: subscriberInputs,
  setup: null,
  prepare: null,
  // Every call but the create addresses the subscriber by subscriberId (PatchSubscriberRequestDto
  // has none); the service replaces data whole on every write (update-subscriber.usecase.ts, `$set`).
  replaceOnChange: ["subscriberId"],
  exact: ["data"],
  handEdits: (i, _mode, add) => {
    const patch = (body: Obj) => () => async (emu: TestEmulator, id: string) => void (await ok(emu.api("PATCH", path(id), body), "hand edit patch subscriber"));
    add("firstName", "renamed", patch({ firstName: `${String(i.firstName)} (edited)` }));
    add("lastName", "renamed", patch({ lastName: `${String(i.lastName)} (edited)` }));
    add("email", "address changed", patch({ email: `edited-by-hand.${String(i.email)}` }));
    add("phone", "number changed", patch({ phone: `${String(i.phone)}9` }));
    add("avatar", "picture changed", patch({ avatar: "https://cdn.example.com/avatars/edited-by-hand.png" }));
    add("locale", "language switched", patch({ locale: i.locale === "it-IT" ? "es-ES" : "it-IT" }));
    add("timezone", "moved", patch({ timezone: i.timezone === "Australia/Sydney" ? "Africa/Cairo" : "Australia/Sydney" }));
    // The dashboard's edit replaces the data whole, as every write does.
    add("data", "one more key", patch({ data: { ...(i.data as Obj), editedByHand: true } }));
  },
  deletePath: (_i, id) => path(id),
  undeletable: null,
  remains: (state, declared) => state.subscribers!.filter((s) => !s.deleted && declared.some((d) => d.subscriberId === s.subscriberId)),
  adopt: {
    seed: async (emu) => void (await ok(emu.api("POST", "/v2/subscribers", subscriber({ firstName: "On-call", email: "oncall@example.com", data: { team: "ops" } })), "seed")),
    equal: subscriber({ firstName: "On-call", email: "oncall@example.com", data: { team: "ops" } }),
    reads: ["GET /v2/subscribers/{subscriberId}"],
    differing: subscriber({ firstName: "On call", email: "oncall@example.com", data: { team: "sre" } }),
    writes: ["PATCH /v2/subscribers/{subscriberId}"],
  },
  // One request each: the create (an upsert, asked for its 409 with failIfExists), the GET, the PATCH, the DELETE.
  floor: {
    of: () => ({ create: 1, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, firstName: `${String(i.firstName ?? "Someone")} (renamed)` }),
    listing: null,
  },
  badInput: [
    ["subscriberId with a space", subscriber({ subscriberId: "ops oncall" }), /subscriberId: must be letters, digits, _, :, \. and - \(e\.g\. `ops-oncall`\), or an email address/],
    ["subscriberId with a surrounding space", subscriber({ subscriberId: "ops-oncall " }), /subscriberId: must be letters, digits/],
    ["missing subscriberId", without(subscriber({}), "subscriberId"), /subscriberId: is required/],
    ["empty first name", subscriber({ firstName: "" }), /firstName: must not be empty \(the service's create ignores an empty first name: leave the field out\)/],
    ["email that is not an address", subscriber({ email: "oncall.example.com" }), /email: must be an email address/],
    ["unknown time zone", subscriber({ timezone: "Europe/Pariss" }), /timezone: must be an IANA time zone such as `Europe\/Paris`/],
    ["locale that is a word", subscriber({ locale: "english!" }), /locale: must be a locale such as `en`, `en-US` or `fr_FR`/],
    ["subscriber data not an object", subscriber({ data: "team=ops" }), /data: must be a record/],
    ["channels on a subscriber", subscriber({ channels: [{ providerId: "slack" }] }), /unknown property "channels": a subscriber's chat and push credentials are SubscriberCredentials resources/],
    ["misspelt subscriber field", subscriber({ firstname: "On-call" }), /firstname.*did you mean "firstName"/],
  ],
  stack: { max: 2, unique: (s) => s.subscriberId },
  exportSoak: { without: "the exporter reads only the subscribers it is given (--subscriber), not the environment's users" },
  bench: { per: 20, args: (i) => ({ subscriberId: `bench-person-${i}`, firstName: `Person ${i}`, email: `person-${i}@example.com`, data: { rota: i % 7 } }) },
  scenario: { declared: { subscriberId: "scenario-person", firstName: "Scenario", email: "scenario@example.com", timezone: "Europe/Paris", data: { team: "ops" } } },
  openapiCases: {
    "POST /v2/subscribers": async (c) => {
      await c.call(201, "/v2/subscribers", { subscriberId: "bob", email: "b@example.com" });
      await c.call(201, "/v2/subscribers", { subscriberId: "bob", lastName: "B" });
      return c.call(409, "/v2/subscribers?failIfExists=true", { subscriberId: "bob" });
    },
    "GET /v2/subscribers": (c) => c.call(200, "/v2/subscribers?limit=5"),
    "GET /v2/subscribers/{subscriberId}": (c) => c.call(200, "/v2/subscribers/alice"),
    "PATCH /v2/subscribers/{subscriberId}": (c) => c.call(200, "/v2/subscribers/alice", { firstName: "Alice" }),
    "DELETE /v2/subscribers/{subscriberId}": async (c) => {
      await c.api("POST", "/v2/subscribers", { subscriberId: "doomed" });
      return c.call(200, "/v2/subscribers/doomed");
    },
  },
  // Create (failIfExists), read, update, adopt, delete; getSubscriber and getSubscribers.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const subscriber = moduleOf("subscriber");
      const oncall = await created(subscriber, { subscriberId: "ops-oncall", firstName: "On-call", email: "oncall@example.com", locale: "en-US", timezone: "Europe/Paris", data: { team: "ops" } });
      await subscriber.provider.read(oncall.id, oncall.outs);
      await subscriber.provider.update(oncall.id, oncall.outs, { ...oncall.inputs, lastName: "Desk", data: { team: "sre" } });
      await client.subscribers.create({ subscriberId: "existing-subscriber", firstName: "Existing" });
      const adopted = await created(subscriber, { subscriberId: "existing-subscriber", firstName: "Adopted", adopt: true });
      await fns.getSubscriber({ subscriberId: "alice" });
      await fns.getSubscribers({ email: "alice@example.com", orderBy: "createdAt", orderDirection: "ASC", limit: 10, maxResults: 10 });
      return async () => {
        for (const r of [oncall, adopted]) await subscriber.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
