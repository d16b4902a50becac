/** The ChannelEndpoint kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, strip } from "./generate";
import { channelContext, createNamedSubscriber } from "./channelConnection";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/**
 * The integration each endpoint type is generated for, made once per emulator (the service checks
 * the type against the provider only for Webex), identifier and provider and channel.
 */
const INTEGRATIONS = {
  "chendp-slack": ["slack", "chat"], "chendp-teams": ["msteams", "chat"], "chendp-webhook": ["chat-webhook", "chat"], "chendp-sms": ["twilio", "sms"],
  "chendp-telegram": ["telegram", "chat"], "chendp-webex": ["webex-messaging", "chat"], "chendp-line": ["line", "chat"],
} as const;
type IntegrationName = keyof typeof INTEGRATIONS;

/** The connections endpoints are generated with: a Slack one (optional for Slack endpoints), a Webex one (which Webex endpoints need). */
const CONNECTIONS = { "chendp-slack": "chendp-slack-conn", "chendp-webex": "chendp-webex-conn" } as const;
/** The subscriber the setup's connections belong to. */
const SETUP_SUBSCRIBER = "chendp-setup";

/** Per type: its integration, and its endpoint data, valid by production's rules and the provider's (E.164 numbers, http(s) URLs). */
const TYPES: Record<string, { integration: IntegrationName; endpoint: fc.Arbitrary<Obj> }> = {
  slack_channel: { integration: "chendp-slack", endpoint: fc.record({ channelId: fc.stringMatching(/^C[A-Z0-9]{6,10}$/) }) },
  slack_user: { integration: "chendp-slack", endpoint: fc.record({ userId: fc.stringMatching(/^U[A-Z0-9]{6,10}$/) }) },
  webhook: {
    integration: "chendp-webhook",
    endpoint: fc.record({ url: fc.stringMatching(/^[a-z0-9]{1,10}$/).map((p) => `https://hooks.example.com/${p}`), channel: opt(fc.stringMatching(/^[a-z-]{1,12}$/)) }, { requiredKeys: ["url"] }),
  },
  phone: { integration: "chendp-sms", endpoint: fc.record({ phoneNumber: fc.stringMatching(/^\+[1-9]\d{7,12}$/) }) },
  ms_teams_channel: { integration: "chendp-teams", endpoint: fc.record({ teamId: fc.uuid(), channelId: fc.stringMatching(/^19:[a-z0-9]{8,16}@thread\.tacv2$/) }) },
  ms_teams_user: { integration: "chendp-teams", endpoint: fc.record({ userId: fc.stringMatching(/^29:[a-zA-Z0-9]{8,20}$/), tenantId: opt(fc.uuid()) }, { requiredKeys: ["userId"] }) },
  telegram_chat: { integration: "chendp-telegram", endpoint: fc.record({ chatId: fc.stringMatching(/^-?[1-9]\d{4,11}$/) }) },
  webex_room: { integration: "chendp-webex", endpoint: fc.record({ roomId: fc.stringMatching(/^Y2lz[A-Za-z0-9]{8,20}$/), parentId: opt(fc.stringMatching(/^Y2lz[A-Za-z0-9]{8,20}$/)) }, { requiredKeys: ["roomId"] }) },
  webex_person: {
    integration: "chendp-webex",
    endpoint: fc.oneof(fc.record({ personId: fc.stringMatching(/^Y2lz[A-Za-z0-9]{8,20}$/) }), fc.record({ personEmail: fc.stringMatching(/^[a-z]{1,8}@example\.com$/) })),
  },
  line_user: { integration: "chendp-line", endpoint: fc.record({ userId: fc.stringMatching(/^U[0-9a-f]{10,32}$/) }) },
};
const TYPE_NAMES = Object.keys(TYPES);
const WEBEX = ["webex_room", "webex_person"];

/** Creates the integrations of {@link INTEGRATIONS}, the setup's subscriber, and the connections of {@link CONNECTIONS}. */
async function createEndpointIntegrations(emu: TestEmulator): Promise<void> {
  for (const [identifier, [providerId, channel]] of Object.entries(INTEGRATIONS)) {
    await ok(emu.api("POST", "/v1/integrations", { identifier, providerId, channel, active: true, check: false }), `create ${identifier}`);
  }
  await ok(emu.api("POST", "/v2/subscribers", { subscriberId: SETUP_SUBSCRIBER }), "create the setup's subscriber");
  for (const [integrationIdentifier, identifier] of Object.entries(CONNECTIONS)) {
    await ok(emu.api("POST", "/v1/channel-connections", {
      identifier, integrationIdentifier, subscriberId: SETUP_SUBSCRIBER, workspace: { id: "T0000000" }, auth: { accessToken: "setup-token" },
    }), `create ${identifier}`);
  }
}

/** A number from a run's suffix, so that the two objects of one run often share their type (and a change of data alone is tried). */
const hashOf = (s: string) => [...s].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);

/**
 * An endpoint of any type with its integration: a Webex one through the Webex connection (which
 * it needs, with the same contexts: none), a Slack one maybe through the Slack connection; contexts
 * on any but Webex ones.
 */
export const channelEndpointInputs = (suffix: string) => fc.oneof(fc.constant(TYPE_NAMES[hashOf(suffix) % TYPE_NAMES.length]!), fc.constantFrom(...TYPE_NAMES)).chain((type) => {
  const t = TYPES[type]!;
  const webex = WEBEX.includes(type);
  const connection = (CONNECTIONS as Record<string, string>)[t.integration];
  return fc.record({
    identifier: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,10}$/).map((s) => `endp-${s}-${suffix}`),
    subscriberId: fc.constantFrom(`es-a-${suffix}`, `es-b-${suffix}`),
    integrationIdentifier: fc.constant(t.integration),
    type: fc.constant(type),
    endpoint: t.endpoint,
    connectionIdentifier: webex ? fc.constant(connection) : connection ? opt(fc.constant(connection)) : fc.constant(undefined),
    context: webex ? fc.constant(undefined) : opt(channelContext(suffix)),
    removeCreatedContexts: opt(fc.boolean()),
  });
}).map(strip);

/** The same endpoint data edited as a person would: each string value changed, kept valid for its type. */
function edited(endpoint: Obj): Obj {
  return Object.fromEntries(Object.entries(endpoint).map(([k, v]) => [k,
    // A generated number has at most 13 digits: one more keeps it E.164.
    k === "phoneNumber" ? `${String(v)}9` : k === "url" ? `${String(v)}/edited` : k === "personEmail" ? `edited-${String(v)}` : `${String(v)}-edited`]));
}

/** The adopt case's integration, its own (the scenario makes the setup's integrations on the same emulator first). */
const ADOPT_INTEGRATION = "chendp-adopt";
const endp = (over: Obj) => ({
  identifier: "alice-alerts", subscriberId: "alice", integrationIdentifier: ADOPT_INTEGRATION, type: "slack_channel", endpoint: { channelId: "C0123456" }, ...over,
});
const path = (id: string) => `/v1/channel-endpoints/${encodeURIComponent(id)}`;

export const channelEndpointKind: KindDescriptor<"ChannelEndpoint"> = {
  kind: "ChannelEndpoint",
  inputs: channelEndpointInputs,
  setup: createEndpointIntegrations,
  prepare: createNamedSubscriber,
  // The update takes the endpoint's data only (UpdateChannelEndpointRequestDto of spec/openapi.json;
  // update-channel-endpoint.usecase.ts): a change of type replaces, as does every other input.
  replaceOnChange: ["identifier", "subscriberId", "integrationIdentifier", "type", "connectionIdentifier", "context"],
  // The update replaces the data whole (update-channel-endpoint.usecase.ts: `{ endpoint }`).
  exact: ["endpoint"],
  handEdits: (i, _mode, add) => {
    add("endpoint", "pointed elsewhere", () => async (emu, id) => void (await ok(emu.api("PATCH", path(id), { endpoint: edited(i.endpoint as Obj) }), "hand edit patch channel endpoint")));
  },
  deletePath: (_i, id) => path(id),
  undeletable: null,
  remains: (state, declared) => state.channelEndpoints!.filter((x) => declared.some((d) => d.identifier === x.identifier)),
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/integrations", { identifier: ADOPT_INTEGRATION, providerId: "slack", channel: "chat", active: true, check: false }), "seed");
      await createNamedSubscriber(emu, endp({}));
      await ok(emu.api("POST", "/v1/channel-endpoints", endp({})), "seed");
    },
    equal: endp({}),
    reads: ["GET /v1/channel-endpoints/{identifier}"],
    differing: endp({ endpoint: { channelId: "C0654321" } }),
    writes: ["PATCH /v1/channel-endpoints/{identifier}"],
  },
  // One request each: the create's answer, the read's and the update's are the whole endpoint (GetChannelEndpointResponseDto).
  floor: {
    of: () => ({ create: 1, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, endpoint: edited(i.endpoint as Obj) }),
    listing: null,
    // The list maps an endpoint as GET one does (dtos/dto.mapper.ts, decrypted in both), newest first, 100 a page.
    listedRead: "GET /v1/channel-endpoints",
  },
  badInput: [
    ["slack channel endpoint with a user's key", endp({ endpoint: { channelId: "C1", userId: "U1" } }), /endpoint: "userId" is not a key of type "slack_channel" \(type "slack_channel" takes channelId\)/],
    ["teams channel endpoint without its team", endp({ type: "ms_teams_channel", endpoint: { channelId: "19:x@thread.tacv2" } }), /endpoint\.teamId: is required for type "ms_teams_channel" \(type "ms_teams_channel" takes teamId, channelId\)/],
    ["webex person endpoint with id and email", endp({ type: "webex_person", endpoint: { personId: "Y2lz1", personEmail: "a@example.com" } }), /endpoint: type "webex_person" takes exactly one of personId, personEmail/],
    // Through the engine too: the engine printed an object input's value as a Go map (`value {map[channelID:{C1}]}`).
    ["endpoint key misspelt", endp({ endpoint: { channelID: "C1" } }), /endpoint: unknown property "channelID": did you mean "channelId"\? Allowed for type "slack_channel": channelId/, { engine: true }],
    ["endpoint type misspelt", endp({ type: "slack-channel" }), /type: must be one of "slack_channel", .* \(given "slack-channel": did you mean "slack_channel"\?\)/],
    ["phone endpoint not in E.164", endp({ type: "phone", endpoint: { phoneNumber: "0612345678" } }), /endpoint\.phoneNumber: must be a phone number in E\.164 format .*\(given "0612345678"\)/],
    ["webhook endpoint not a URL", endp({ type: "webhook", endpoint: { url: "hooks.example.com/x" } }), /endpoint\.url: must be an http or https URL/],
    ["endpoint without subscriber", without(endp({}), "subscriberId"), /subscriberId: is required/],
    ["endpoint with six contexts", endp({ context: { a: "1", b: "2", c: "3", d: "4", e: "5", f: "6" } }), /context: must name at most 5 contexts/],
    ["misspelt endpoint field", endp({ connectionId: "c" }), /unknown property "connectionId"/],
  ],
  stack: { max: 2, unique: (e) => e.identifier },
  exportSoak: { max: 2, unique: (e) => e.identifier },
  bench: {
    per: 20,
    /** Uses subscribers `bench-sub-<i>`, the `slack-bench` integration and the mix's channel connections (of the same integration). */
    args: (i, r) => ({
      identifier: `bench-endp-${i}`, subscriberId: `bench-sub-${i}`, integrationIdentifier: "slack-bench", type: "slack_channel",
      endpoint: { channelId: `C${String(i).padStart(8, "0")}` },
      ...(r.counts.ChannelConnection > 0 ? { connectionIdentifier: r.output("ChannelConnection", i % r.counts.ChannelConnection, "identifier") } : {}),
    }),
  },
  scenario: {
    declared: {
      identifier: "scenario-alerts", subscriberId: "scenario-sub", integrationIdentifier: "chendp-slack", connectionIdentifier: CONNECTIONS["chendp-slack"],
      context: { team: "channel-scenario" }, type: "slack_channel", endpoint: { channelId: "C0SCENARIO" },
    },
  },
  openapiCases: {
    "POST /v1/channel-endpoints": (c) => c.call(201, "/v1/channel-endpoints", {
      identifier: "endp-made", subscriberId: "alice", integrationIdentifier: "slack-main", type: "slack_channel", endpoint: { channelId: "C1" }, context: { tenant: "acme" },
    }),
    "GET /v1/channel-endpoints": async (c) => {
      await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-listed", subscriberId: "alice", integrationIdentifier: "slack-main", type: "webhook", endpoint: { url: "https://h.example.com/x" } });
      return c.call(200, "/v1/channel-endpoints?limit=1&subscriberId=alice");
    },
    "GET /v1/channel-endpoints/{identifier}": async (c) => {
      await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-read", subscriberId: "alice", integrationIdentifier: "slack-main", type: "phone", endpoint: { phoneNumber: "+14155550123" } });
      return c.call(200, "/v1/channel-endpoints/endp-read");
    },
    "PATCH /v1/channel-endpoints/{identifier}": async (c) => {
      await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-patched", subscriberId: "alice", integrationIdentifier: "slack-main", type: "slack_user", endpoint: { userId: "U1" } });
      return c.call(200, "/v1/channel-endpoints/endp-patched", { endpoint: { userId: "U2" } });
    },
    "DELETE /v1/channel-endpoints/{identifier}": async (c) => {
      await c.api("POST", "/v1/channel-endpoints", { identifier: "endp-doomed", subscriberId: "alice", integrationIdentifier: "slack-main", type: "slack_channel", endpoint: { channelId: "C9" } });
      return c.call(204, "/v1/channel-endpoints/endp-doomed");
    },
  },
  // Alice's endpoints of slack-main: create (with a connection and contexts, and without), read, update, adopt, list, delete;
  // getChannelEndpoints. Updated are types the document's PATCH body lists (it leaves out ms_teams_*, telegram_chat and
  // line_user, which production takes).
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const endpoint = moduleOf("channelEndpoint");
      // A connection of its own (the ChannelConnection part's are that part's), shared in a context no other part's connection has.
      await client.channelConnections.create({
        identifier: "endpoints-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { tenant: "globex" }, workspace: { id: "T9" }, auth: { accessToken: "xoxb-9" },
      });
      const alerts = await created(endpoint, {
        identifier: "alice-alerts", subscriberId: "alice", integrationIdentifier: "slack-main", connectionIdentifier: "endpoints-slack", context: { tenant: "acme" },
        type: "slack_channel", endpoint: { channelId: "C1" },
      });
      const aliceHook = await created(endpoint, { identifier: "alice-hook", subscriberId: "alice", integrationIdentifier: "slack-main", type: "webhook", endpoint: { url: "https://h.example.com/a", channel: "ops" } });
      await endpoint.provider.read(alerts.id, alerts.outs);
      await endpoint.provider.update(aliceHook.id, aliceHook.outs, { ...aliceHook.inputs, endpoint: { url: "https://h.example.com/b" } });
      await client.channelEndpoints.create({ identifier: "existing-teams", subscriberId: "alice", integrationIdentifier: "slack-main", type: "ms_teams_user", endpoint: { userId: "29:1" } });
      const adopted = await created(endpoint, {
        identifier: "existing-teams", subscriberId: "alice", integrationIdentifier: "slack-main", type: "ms_teams_user", endpoint: { userId: "29:1" }, adopt: true,
      });
      await client.channelEndpoints.list({ subscriberId: "alice", integrationIdentifier: "slack-main", connectionIdentifier: "endpoints-slack", channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"] });
      await fns.getChannelEndpoints({ subscriberId: "alice", connectionIdentifier: "endpoints-slack", contextKeys: ["tenant:acme"], maxResults: 10 });
      return async () => {
        for (const r of [alerts, aliceHook, adopted]) await endpoint.provider.delete(r.id, r.outs);
        await client.channelConnections.delete("endpoints-slack");
      };
    },
    refused: [],
  },
};
