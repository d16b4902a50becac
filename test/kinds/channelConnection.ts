/** The ChannelConnection kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, strip, text } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/** The chat integrations connections are made for, made once per emulator: identifier and provider. */
export const CONNECTION_INTEGRATIONS = [["chconn-slack", "slack"], ["chconn-teams", "msteams"]] as const;

/** Creates the chat integrations of {@link CONNECTION_INTEGRATIONS}. */
export async function createConnectionIntegrations(emu: TestEmulator): Promise<void> {
  for (const [identifier, providerId] of CONNECTION_INTEGRATIONS) {
    await ok(emu.api("POST", "/v1/integrations", { identifier, providerId, channel: "chat", active: true, check: false }), `create ${identifier}`);
  }
}

/** Creates the subscriber an object names, if it names one (harmless when it exists: the create is an upsert). */
export async function createNamedSubscriber(emu: TestEmulator, inputs: Obj): Promise<void> {
  if (typeof inputs.subscriberId === "string") await ok(emu.api("POST", "/v2/subscribers", { subscriberId: inputs.subscriberId }), "create subscriber");
}

/** Contexts, type to id: 1 to 3, ids carrying the run's suffix (the service creates those it does not hold). */
export const channelContext = (suffix: string) => fc.dictionary(
  fc.constantFrom("tenant", "team", "app", "region", "workspace"), fc.stringMatching(/^[a-z0-9_-]{1,8}$/).map((s) => `${s}-${suffix}`), { minKeys: 1, maxKeys: 3 },
);

/** A connection: subscriber mode (the mode given or left out) with a subscriber and maybe contexts, or shared with contexts. */
export const channelConnectionInputs = (suffix: string) => fc.tuple(
  fc.record({
    identifier: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,10}$/).map((s) => `conn-${s}-${suffix}`),
    integrationIdentifier: fc.constantFrom(...CONNECTION_INTEGRATIONS.map(([i]) => i)),
    workspace: fc.record({ id: fc.stringMatching(/^T[A-Z0-9]{6,10}$/), name: opt(text(1, 30)) }, { requiredKeys: ["id"] }),
    auth: fc.record({ accessToken: fc.stringMatching(/^xoxb-[a-z0-9-]{10,30}$/) }),
    removeCreatedContexts: opt(fc.boolean()),
  }),
  fc.oneof(
    fc.record({
      connectionMode: opt(fc.constant("subscriber")),
      subscriberId: fc.constantFrom(`cs-a-${suffix}`, `cs-b-${suffix}`),
      context: opt(channelContext(suffix)),
    }, { requiredKeys: ["subscriberId"] }),
    fc.record({ connectionMode: fc.constant("shared"), context: channelContext(suffix) }),
  ),
).map(([a, b]) => strip({ ...a, ...b }));

/** The natural key the service keeps one connection of: integration, subscriber (or none) and the set of contexts. */
export const connectionSlot = (i: Obj) =>
  `${String(i.integrationIdentifier)}|${String(i.subscriberId ?? "")}|${Object.entries((i.context ?? {}) as Obj).map(([t, v]) => `${t}:${String(v)}`).sort().join(",")}`;

/** Drops all but the first connection of each identifier. */
const oneOfEachIdentifier = (list: Obj[]) => list.filter((x, i) => list.findIndex((y) => y.identifier === x.identifier) === i);

/** The adopt case's integration, its own (the scenario makes the setup's integrations on the same emulator first). */
const ADOPT_INTEGRATION = "chconn-adopt";
const conn = (over: Obj) => ({
  identifier: "acme-slack", integrationIdentifier: ADOPT_INTEGRATION, subscriberId: "alice",
  workspace: { id: "T0123456", name: "Acme" }, auth: { accessToken: "xoxb-adopted" }, ...over,
});
const path = (id: string) => `/v1/channel-connections/${encodeURIComponent(id)}`;

export const channelConnectionKind: KindDescriptor<"ChannelConnection"> = {
  kind: "ChannelConnection",
  inputs: channelConnectionInputs,
  setup: createConnectionIntegrations,
  prepare: createNamedSubscriber,
  // Every call addresses the connection by identifier; its update takes the workspace and the auth
  // only (UpdateChannelConnectionRequestDto of spec/openapi.json; update-channel-connection.usecase.ts).
  replaceOnChange: ["identifier", "integrationIdentifier", "connectionMode", "subscriberId", "context"],
  // The update replaces both whole (update-channel-connection.usecase.ts: `{ workspace, auth }`).
  exact: ["workspace", "auth"],
  handEdits: (i, _mode, add) => {
    // The update takes both together: each edit sends the other as declared.
    const patch = (body: Obj) => () => async (emu: TestEmulator, id: string) => void (await ok(emu.api("PATCH", path(id), body), "hand edit patch channel connection"));
    add("workspace", "renamed", patch({ workspace: { ...(i.workspace as Obj), name: "Renamed by hand" }, auth: i.auth }));
    // The service answers the token, so a token rotated by hand shows (in both modes).
    add("auth", "token rotated", patch({ workspace: i.workspace, auth: { accessToken: "xoxb-rotated-by-hand" } }));
  },
  deletePath: (_i, id) => path(id),
  undeletable: null,
  remains: (state, declared) => state.channelConnections!.filter((x) => declared.some((d) => d.identifier === x.identifier)),
  adopt: {
    seed: async (emu) => {
      await ok(emu.api("POST", "/v1/integrations", { identifier: ADOPT_INTEGRATION, providerId: "slack", channel: "chat", active: true, check: false }), "seed");
      await createNamedSubscriber(emu, conn({}));
      await ok(emu.api("POST", "/v1/channel-connections", conn({})), "seed");
    },
    equal: conn({}),
    reads: ["GET /v1/channel-connections/{identifier}"],
    // A rotated token: one PATCH, which carries the workspace too.
    differing: conn({ auth: { accessToken: "xoxb-rotated" } }),
    writes: ["PATCH /v1/channel-connections/{identifier}"],
  },
  // One request each: the create's answer, the read's and the update's are the whole connection (GetChannelConnectionResponseDto).
  floor: {
    of: () => ({ create: 1, read: 1, update: 1, delete: 1 }),
    change: (i) => ({ ...i, auth: { accessToken: `${String((i.auth as Obj).accessToken)}-rotated` } }),
    listing: null,
    // The list maps a connection as GET one does (dtos/dto.mapper.ts, `auth` decrypted in both), newest first, 100 a page.
    listedRead: "GET /v1/channel-connections",
  },
  badInput: [
    ["shared connection without context", conn({ subscriberId: undefined, connectionMode: "shared" }), /context: is required when connectionMode is "shared"/],
    ["shared connection with a subscriber", conn({ connectionMode: "shared", context: { tenant: "acme" } }), /subscriberId: is not taken when connectionMode is "shared" \(given "alice"\)/],
    ["subscriber connection without subscriber", without(conn({ context: { tenant: "acme" } }), "subscriberId"), /subscriberId: is required when connectionMode is "subscriber" \(the default\)/],
    ["connection mode misspelt", conn({ connectionMode: "share" }), /connectionMode: must be one of "subscriber", "shared" \(given "share": did you mean "shared"\?\)/],
    ["six contexts", conn({ context: { a: "1", b: "2", c: "3", d: "4", e: "5", f: "6" } }), /context: must name at most 5 contexts/],
    ["empty context", conn({ context: {} }), /context: must name at least one context/],
    ["context id with a colon", conn({ context: { tenant: "acme:eu" } }), /context\.tenant: must contain only letters, digits, _ and -/],
    ["connection without auth", without(conn({}), "auth"), /auth: is required/],
    // The token is secret: a message names the field, never the value given.
    ["token not a string", conn({ auth: { accessToken: 1234567890 } }), /^auth\.accessToken: must be a string$/m],
    ["token beside a refresh token", conn({ auth: { accessToken: "xoxb-1", refreshToken: "r" } }), /auth: unknown property "refreshToken"/],
    ["workspace without id", conn({ workspace: { name: "Acme" } }), /workspace\.id: is required/],
    ["misspelt connection field", conn({ workspaceId: "T1" }), /workspaceId/],
  ],
  stack: { max: 2, unique: connectionSlot, keep: oneOfEachIdentifier },
  exportSoak: { max: 2, unique: connectionSlot, keep: oneOfEachIdentifier },
  bench: {
    per: 20,
    /** Uses subscribers `bench-sub-<i>` and the `slack-bench` integration. */
    args: (i) => ({
      identifier: `bench-conn-${i}`, integrationIdentifier: "slack-bench", subscriberId: `bench-sub-${i}`,
      workspace: { id: `T${String(i).padStart(7, "0")}`, name: `Workspace ${i}` }, auth: { accessToken: `xoxb-bench-${i}` },
    }),
  },
  // Its context id is no other kind's scenario id: the service makes the context, which outlives the
  // connection, and the Context kind's `remains` would count it as its own.
  scenario: {
    declared: {
      identifier: "scenario-slack", integrationIdentifier: CONNECTION_INTEGRATIONS[0][0], subscriberId: "scenario-sub", context: { team: "channel-scenario" },
      workspace: { id: "T0SCENARIO", name: "Scenario" }, auth: { accessToken: "xoxb-scenario" },
    },
  },
  openapiCases: {
    "POST /v1/channel-connections": (c) => c.call(201, "/v1/channel-connections", {
      identifier: "conn-made", integrationIdentifier: "slack-main", connectionMode: "shared", context: { tenant: "acme" }, workspace: { id: "T1", name: "Acme" }, auth: { accessToken: "xoxb-1" },
    }),
    "GET /v1/channel-connections": async (c) => {
      await c.api("POST", "/v1/channel-connections", { identifier: "conn-listed", integrationIdentifier: "slack-main", subscriberId: "alice", workspace: { id: "T2" }, auth: { accessToken: "xoxb-2" } });
      return c.call(200, "/v1/channel-connections?limit=1&subscriberId=alice");
    },
    "GET /v1/channel-connections/{identifier}": async (c) => {
      await c.api("POST", "/v1/channel-connections", { identifier: "conn-read", integrationIdentifier: "slack-main", subscriberId: "alice", context: { app: "read" }, workspace: { id: "T3" }, auth: { accessToken: "xoxb-3" } });
      return c.call(200, "/v1/channel-connections/conn-read");
    },
    "PATCH /v1/channel-connections/{identifier}": async (c) => {
      await c.api("POST", "/v1/channel-connections", { identifier: "conn-patched", integrationIdentifier: "slack-main", subscriberId: "alice", context: { app: "patch" }, workspace: { id: "T4" }, auth: { accessToken: "xoxb-4" } });
      return c.call(200, "/v1/channel-connections/conn-patched", { workspace: { id: "T4", name: "Renamed" }, auth: { accessToken: "xoxb-4b" } });
    },
    "DELETE /v1/channel-connections/{identifier}": async (c) => {
      await c.api("POST", "/v1/channel-connections", { identifier: "conn-doomed", integrationIdentifier: "slack-main", subscriberId: "alice", context: { app: "doomed" }, workspace: { id: "T5" }, auth: { accessToken: "xoxb-5" } });
      return c.call(204, "/v1/channel-connections/conn-doomed");
    },
  },
  // Connections of slack-main, alice's and a shared one: create, read, update (the token), adopt, list, delete; getChannelConnections.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const connection = moduleOf("channelConnection");
      const aliceSlack = await created(connection, { identifier: "alice-slack", integrationIdentifier: "slack-main", subscriberId: "alice", workspace: { id: "T1" }, auth: { accessToken: "xoxb-1" } });
      const acmeSlack = await created(connection, {
        identifier: "acme-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { tenant: "acme" }, workspace: { id: "T2", name: "Acme" }, auth: { accessToken: "xoxb-2" },
      });
      await connection.provider.read(aliceSlack.id, aliceSlack.outs);
      await connection.provider.update(acmeSlack.id, acmeSlack.outs, { ...acmeSlack.inputs, auth: { accessToken: "xoxb-2b" } });
      await client.channelConnections.create({ identifier: "existing-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { team: "ops" }, workspace: { id: "T3" }, auth: { accessToken: "xoxb-3" } });
      const adopted = await created(connection, {
        identifier: "existing-slack", integrationIdentifier: "slack-main", connectionMode: "shared", context: { team: "ops" }, workspace: { id: "T3" }, auth: { accessToken: "xoxb-3" }, adopt: true,
      });
      await client.channelConnections.list({ subscriberId: "alice", integrationIdentifier: "slack-main", channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"] });
      await fns.getChannelConnections({ subscriberId: "alice", integrationIdentifier: "slack-main", channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"], maxResults: 10 });
      return async () => {
        for (const r of [aliceSlack, acmeSlack, adopted]) await connection.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
