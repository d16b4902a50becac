/** The SubscriberCredentials kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, text, strip } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/** The providers credentials are generated for, each with an active integration `int-<provider>`. */
export const CREDENTIAL_PROVIDERS = ["slack", "discord", "msteams", "fcm", "apns", "expo"] as const;
const PUSH_PROVIDERS: readonly string[] = ["fcm", "apns", "expo"];

/** Creates the active integration `int-<provider>` of each of {@link CREDENTIAL_PROVIDERS}, which credentials need. */
export async function createCredentialIntegrations(emu: TestEmulator): Promise<void> {
  for (const providerId of CREDENTIAL_PROVIDERS) {
    const channel = PUSH_PROVIDERS.includes(providerId) ? "push" : "chat";
    const r = await emu.api("POST", "/v1/integrations", { identifier: `int-${providerId}`, providerId, channel, active: true });
    if (r.status !== 201) throw new Error(`creating int-${providerId}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** SubscriberCredentials inputs of the run's own subscriber `s-<suffix>` (the test creates it). */
export const credentialsInputs = (suffix: string) => fc.constantFrom(...CREDENTIAL_PROVIDERS).chain((providerId) => fc.record({
  subscriberId: fc.constant(`s-${suffix}`),
  providerId: fc.constant(providerId),
  integrationIdentifier: fc.constant(`int-${providerId}`),
  credentials: PUSH_PROVIDERS.includes(providerId)
    ? fc.record({ deviceTokens: fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9:_-]{1,40}$/), { minLength: 1, maxLength: 4 }) })
    : fc.record({
      webhookUrl: fc.constantFrom("https://hooks.example.com/a", "https://hooks.example.com/services/é/ü"), channel: opt(fc.stringMatching(/^[a-z]{1,10}$/)),
      // Production drops these; they must never show as drift.
      title: opt(text(1, 20)), alertUid: opt(fc.string({ minLength: 1, maxLength: 10 })),
    }, { requiredKeys: ["webhookUrl"] }),
})).map(strip);

const HOOK = "https://hooks.slack.example/services/T000/B000/adopted";
const cred = (over: Obj) => ({ subscriberId: "alice", providerId: "slack", credentials: { webhookUrl: "https://hooks.example/x" }, ...over });

export const subscriberCredentials: KindDescriptor<"SubscriberCredentials"> = {
  kind: "SubscriberCredentials",
  inputs: credentialsInputs,
  setup: createCredentialIntegrations,
  prepare: async (emu, inputs) => { await emu.api("POST", "/v2/subscribers", { subscriberId: inputs.subscriberId }); },
  replaceOnChange: ["subscriberId", "providerId", "integrationIdentifier"],
  exact: [],
  handEdits: (i, _mode, add) => {
    const creds = i.credentials as Obj;
    add("credentials", Array.isArray(creds.deviceTokens) ? "one more device token" : "webhook replaced", () => async (emu) => {
      const next = Array.isArray(creds.deviceTokens) ? { deviceTokens: [...(creds.deviceTokens as string[]), "edited-by-hand"] } : { ...creds, webhookUrl: "https://hooks.example.com/edited-by-hand" };
      await ok(emu.api("PUT", `/v1/subscribers/${encodeURIComponent(String(i.subscriberId))}/credentials`, {
        providerId: i.providerId, integrationIdentifier: i.integrationIdentifier, credentials: next,
      }), "hand edit put credentials");
    });
  },
  deletePath: (i) => `/v1/subscribers/${encodeURIComponent(String(i.subscriberId))}/credentials/${String(i.providerId)}`,
  undeletable: null,
  remains: (state, declared) => state.subscribers!.flatMap((s) => (s.channels ?? []).filter((c: any) =>
    declared.some((d) => d.subscriberId === s.subscriberId && d.providerId === c.providerId))),
  adopt: {
    seed: async (emu) => {
      // The subscriber first: the service refuses credentials of a subscriber it does not have (a 400 of UpdateSubscriberChannel).
      await ok(emu.api("POST", "/v2/subscribers", { subscriberId: "alice" }), "seed");
      await ok(emu.api("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true, check: false }), "seed");
      await ok(emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: HOOK } }), "seed");
    },
    equal: { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: HOOK } },
    // The subscriber, then the integration the entry names (production's entry carries its _id only).
    reads: ["GET /v2/subscribers/{subscriberId}", "GET /v1/integrations"],
    differing: { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: `${HOOK}-rotated` } },
    writes: ["PUT /v1/subscribers/{subscriberId}/credentials"],
  },
  // The credentials PUT overwrites an entry silently, so a create reads the subscriber first (to
  // refuse existing credentials without adopt), then PUTs, whose answer is the subscriber with the
  // entry; a read is the subscriber's GET (production's entries carry no integration identifier:
  // which integration an entry is of is in GET /v1/integrations); an update one PUT; a delete one DELETE.
  floor: {
    of: () => ({ create: 2, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, credentials: { ...(i.credentials as Obj), webhookUrl: `${String((i.credentials as Obj).webhookUrl)}/changed` } }),
    listing: "GET /v1/integrations",
  },
  badInput: [
    // An unknown provider id of the right shape is accepted (production adds providers); a near miss is a typo.
    ["subscriber provider one edit from a known one", cred({ providerId: "slak" }), /providerId: unknown provider "slak": did you mean "slack"\?/],
    ["subscriber provider of another shape", cred({ providerId: "Carrier Pigeon" }), /providerId: must be a provider id \(lowercase letters and digits/],
    ["repeated device token", cred({ providerId: "fcm", credentials: { deviceTokens: ["t1", "t1"] } }), /credentials\.deviceTokens: must not repeat a token/],
    ["missing subscriberId", without(cred({}), "subscriberId"), /subscriberId: is required/],
    ["missing credentials", without(cred({}), "credentials"), /credentials: is required \(object\)/],
    ["webhookUrl that is not a URL", cred({ credentials: { webhookUrl: "hooks.example/x" } }), /credentials\.webhookUrl: must be a valid http\(s\) URL/],
    ["misspelt channel credential", cred({ credentials: { webhookurl: "https://hooks.example/x" } }), /webhookurl.*did you mean .webhookUrl/],
    ["deviceTokens not a list", cred({ providerId: "fcm", credentials: { deviceTokens: "abc" } }), /credentials\.deviceTokens: must be an array/],
    ["newline in subscriberId", cred({ subscriberId: "ali\u000bce" }), /subscriberId: must not contain control characters/],
  ],
  stack: { max: 1 },
  exportSoak: { without: "the exporter reads credentials only of the subscribers it is given (--subscriber)" },
  bench: {
    per: 5,
    /** Uses subscribers `bench-sub-<i>` and the `slack-bench` integration. */
    args: (i) => ({
      subscriberId: `bench-sub-${i}`, providerId: "slack", integrationIdentifier: "slack-bench",
      credentials: { webhookUrl: `https://hooks.slack.example/services/${i}` },
    }),
  },
  /** Its subscriber made by `prepare`, its integration by `setup`. */
  scenario: {
    declared: { subscriberId: "scenario-sub", providerId: "slack", integrationIdentifier: "int-slack", credentials: { webhookUrl: "https://hooks.slack.example/services/scenario" } },
  },
  openapiCases: {
    "PUT /v1/subscribers/{subscriberId}/credentials": (c) => c.call(200, "/v1/subscribers/alice/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/x" } }),
    "PATCH /v1/subscribers/{subscriberId}/credentials": (c) => c.call(200, "/v1/subscribers/alice/credentials", { providerId: "slack", credentials: { webhookUrl: "https://h.example/y" } }),
    "DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}": async (c) => {
      await c.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "discord", credentials: { webhookUrl: "https://d.example/x" } });
      return c.call(204, "/v1/subscribers/alice/credentials/discord");
    },
  },
  // Alice's Slack credentials of slack-main: create, read, update, adopt, delete.
  requests: {
    run: async ({ moduleOf, created }) => {
      const credentials = moduleOf("subscriberCredentials");
      const hook = await created(credentials, {
        subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.example.com/a" },
      });
      await credentials.provider.read(hook.id, hook.outs);
      await credentials.provider.update(hook.id, hook.outs, { ...hook.inputs, credentials: { webhookUrl: "https://hooks.example.com/b" } });
      const readopted = await created(credentials, {
        subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.example.com/c" }, adopt: true,
      });
      // The adopted object is the one made first: one delete.
      return async () => credentials.provider.delete(readopted.id, readopted.outs);
    },
    refused: [],
  },
};
