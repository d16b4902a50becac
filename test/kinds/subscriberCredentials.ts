/** The SubscriberCredentials kind, as the tests and the bench see it. */
import { createCredentialIntegrations, credentialsInputs } from "../unit/resources/arbitraries";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

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
      await ok(emu.api("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true, check: false }), "seed");
      await ok(emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: HOOK } }), "seed");
    },
    equal: { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: HOOK } },
    // The subscriber, then the integration the entry names (production's entry carries its _id only).
    reads: ["GET /v2/subscribers/{subscriberId}", "GET /v1/integrations"],
    differing: { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: `${HOOK}-rotated` } },
    writes: ["PUT /v1/subscribers/{subscriberId}/credentials"],
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
};
