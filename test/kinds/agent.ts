/** The Agent kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, slug, strip, text } from "./generate";
import { ok, without, type KindDescriptor, type Obj } from "./descriptor";

/** The chat integrations agents are linked to, made once per emulator (the service links by identifier). */
const LINKABLE = ["agent-link-slack", "agent-link-teams"] as const;

async function createLinkable(emu: TestEmulator): Promise<void> {
  for (const [identifier, providerId] of [[LINKABLE[0], "slack"], [LINKABLE[1], "msteams"]] as const) {
    await ok(emu.api("POST", "/v1/integrations", { identifier, providerId, channel: "chat", active: true, check: false }), `create ${identifier}`);
  }
}

/** The runtime, left out, self-hosted, or managed with the managed runtime it then needs. */
const runtimeInputs: fc.Arbitrary<Obj> = fc.oneof(
  fc.constant({}),
  fc.constant({ runtime: "self-hosted" }),
  fc.record({
    runtime: fc.constant("managed"),
    managedRuntime: fc.record({
      providerId: fc.constantFrom("anthropic", "platform-anthropic", "anthropic-aws"),
      integrationId: fc.constant("agent-runtime-key"),
      model: opt(fc.constantFrom("claude-sonnet", "claude-opus")),
      systemPrompt: opt(text(1, 40)),
      externalAgentId: opt(fc.stringMatching(/^agent_[a-z0-9]{4,8}$/)),
      externalEnvironmentId: opt(fc.stringMatching(/^env_[a-z0-9]{4,8}$/)),
    }, { requiredKeys: ["providerId", "integrationId"] }),
  }),
);

/** An agent: a slug identifier carrying the run's suffix, a name of at most 60 characters, and any of its settings. */
export const agentInputs = (suffix: string) => fc.tuple(fc.record({
  identifier: slug.map((s) => `${s}-${suffix}`),
  name: text(1, 60),
  description: opt(text(0, 40)),
  active: opt(fc.boolean()),
  behavior: opt(fc.record({
    acknowledgeOnReceived: opt(fc.boolean()),
    reactionOnResolved: opt(fc.oneof(fc.constantFrom("check", "star"), fc.constant(null))),
    subscriberAccess: opt(fc.constantFrom("open", "restricted")),
  })),
  bridgeUrl: opt(fc.stringMatching(/^[a-z]{1,8}$/).map((p) => `https://bots.example.com/${p}`)),
  integrations: opt(fc.subarray([...LINKABLE])),
}, { requiredKeys: ["identifier", "name"] }), runtimeInputs).map(([a, r]) => strip({ ...a, ...r }));

const agent = (over: Obj) => ({ identifier: "support-bot", name: "Support bot", ...over });
const path = (id: string) => `/v1/agents/${encodeURIComponent(id)}`;

export const agentKind: KindDescriptor<"Agent"> = {
  kind: "Agent",
  inputs: agentInputs,
  setup: createLinkable,
  prepare: null,
  // Every call addresses the agent by identifier; the update takes neither the runtime nor the
  // managed runtime (UpdateAgentRequestDto of spec/openapi.json).
  replaceOnChange: ["identifier", "runtime", "managedRuntime"],
  exact: ["managedRuntime"],
  handEdits: (i, _mode, add) => {
    const patch = (body: Obj) => () => async (emu: TestEmulator, id: string) => void (await ok(emu.api("PATCH", path(id), body), "hand edit patch agent"));
    add("name", "renamed", patch({ name: `${String(i.name).slice(0, 50)} edited` }));
    add("description", "described otherwise", patch({ description: `${String(i.description ?? "")} (edited)` }));
    add("active", "switched", patch({ active: !(i.active ?? true) }));
    add("bridgeUrl", "bridge moved", patch({ bridgeUrl: "https://bots.example.com/edited-by-hand" }));
    const access = (i.behavior as Obj | undefined)?.subscriberAccess;
    if (access !== undefined) add("behavior", "access switched", patch({ behavior: { ...(i.behavior as Obj), subscriberAccess: access === "open" ? "restricted" : "open" } }));
    add("integrations", "one link more or less", () => async (emu, id) => {
      const linked = (i.integrations as string[]).filter((x) => LINKABLE.includes(x as never));
      const other = LINKABLE.find((x) => !linked.includes(x));
      if (other) return void (await ok(emu.api("POST", `${path(id)}/integrations`, { integrationIdentifier: other }), "hand edit link"));
      const links = (await ok(emu.api("GET", `${path(id)}/integrations`), "list links")) as { data: { _id: string }[] };
      await ok(emu.api("DELETE", `${path(id)}/integrations/${links.data[0]!._id}`), "hand edit unlink");
    });
  },
  // The OpenAPI document requires `deleteFromProvider`; false leaves a managed agent's provider side alone.
  deletePath: (_i, id) => `${path(id)}?deleteFromProvider=false`,
  undeletable: null,
  remains: (state, declared) => state.agents!.filter((a) => declared.some((d) => d.identifier === a.identifier)),
  adopt: {
    seed: async (emu) => void (await ok(emu.api("POST", "/v1/agents", { identifier: "support-bot", name: "Support bot" }), "seed")),
    equal: agent({}),
    reads: ["GET /v1/agents/{identifier}"],
    differing: agent({ name: "Support desk" }),
    writes: ["PATCH /v1/agents/{identifier}"],
  },
  // POST /v1/agents takes name, identifier, description and active (CreateAgentRequestDto): the
  // behaviour and the bridge are a PATCH of their own, answered with the agent and its links, and
  // each linked integration a POST of its own. GET one reads it with its links; a rename is one
  // PATCH; a delete one DELETE, which removes the links.
  floor: {
    of: (i) => ({
      create: 1 + ((i.integrations ?? []) as unknown[]).length + (i.behavior !== undefined || i.bridgeUrl !== undefined ? 1 : 0),
      read: 1, update: 1, delete: 1,
    }),
    change: (i) => ({ ...i, name: `${String(i.name)} (renamed)`.slice(-60) }),
    listing: null,
  },
  badInput: [
    ["agent identifier with a space", agent({ identifier: "support bot" }), /identifier: must be a slug/],
    ["agent identifier with a doubled separator", agent({ identifier: "support--bot" }), /identifier: must be a slug/],
    ["agent name over 60 characters", agent({ name: "n".repeat(61) }), /name: must be at most 60 characters/],
    ["agent without a name", without(agent({}), "name"), /name: is required/],
    ["agent bridge on loopback", agent({ bridgeUrl: "http://127.0.0.1:3000/bridge" }), /bridgeUrl: must not point to a loopback, private or link-local address/],
    ["agent bridge not a URL", agent({ bridgeUrl: "bots.example.com" }), /bridgeUrl: must be an http or https URL/],
    ["agent access misspelt", agent({ behavior: { subscriberAccess: "opne" } }), /behavior\.subscriberAccess: must be one of "open", "restricted" \(given "opne": did you mean "open"\?\)/],
    ["managed agent without its runtime", agent({ runtime: "managed" }), /managedRuntime: is required when runtime is "managed"/],
    ["agent integration listed twice", agent({ integrations: ["slack-main", "slack-main"] }), /integrations\[1\]: lists integration "slack-main" again/],
    ["misspelt agent field", agent({ bridgeURL: "https://bots.example.com" }), /bridgeURL/],
  ],
  stack: { max: 2, unique: (a) => a.identifier },
  exportSoak: { max: 2, unique: (a) => a.identifier },
  bench: { per: 20, args: (i) => ({ identifier: `bench-agent-${i}`, name: `Agent ${i}`, behavior: { subscriberAccess: "restricted" } }) },
  /** Linked to a chat integration `setup` makes. */
  scenario: { declared: { identifier: "scenario-bot", name: "Scenario bot", integrations: [LINKABLE[0]] } },
  openapiCases: {
    "POST /v1/agents": (c) => c.call(201, "/v1/agents", { identifier: "made", name: "Made", description: "d", active: true }),
    "GET /v1/agents": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "listed", name: "Listed" });
      return c.call(200, "/v1/agents?limit=1");
    },
    "GET /v1/agents/{identifier}": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "read", name: "Read" });
      await c.api("POST", "/v1/agents/read/integrations", { integrationIdentifier: "slack-main" });
      return c.call(200, "/v1/agents/read");
    },
    "PATCH /v1/agents/{identifier}": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "patched", name: "Patched" });
      return c.call(200, "/v1/agents/patched", { name: "Patched 2", behavior: { subscriberAccess: "open" }, bridgeUrl: "https://bots.example.com/p" });
    },
    "DELETE /v1/agents/{identifier}": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "doomed", name: "Doomed" });
      return c.call(204, "/v1/agents/doomed?deleteFromProvider=false");
    },
    // The agent's links to integrations (its `integrations` input).
    "POST /v1/agents/{identifier}/integrations": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "linker", name: "Linker" });
      return c.call(201, "/v1/agents/linker/integrations", { integrationIdentifier: "slack-main" });
    },
    "GET /v1/agents/{identifier}/integrations": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "lister", name: "Lister" });
      await c.api("POST", "/v1/agents/lister/integrations", { integrationIdentifier: "slack-main" });
      return c.call(200, "/v1/agents/lister/integrations");
    },
    "PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId}": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "repoint", name: "Repoint" });
      const link = await c.api("POST", "/v1/agents/repoint/integrations", { integrationIdentifier: "slack-main" });
      return c.call(200, `/v1/agents/repoint/integrations/${link.body._id}`, { integrationIdentifier: "slack-main" });
    },
    "DELETE /v1/agents/{identifier}/integrations/{agentIntegrationId}": async (c) => {
      await c.api("POST", "/v1/agents", { identifier: "unlink", name: "Unlink" });
      const link = await c.api("POST", "/v1/agents/unlink/integrations", { integrationIdentifier: "slack-main" });
      return c.call(204, `/v1/agents/unlink/integrations/${link.body._id}`);
    },
  },
  // Create with a link to slack-main and settings, read, update (the link removed, settings changed), adopt, delete; the client's list.
  requests: {
    run: async ({ moduleOf, created, client }) => {
      const agent = moduleOf("agent");
      const bot = await created(agent, { identifier: "support-bot", name: "Support", behavior: { subscriberAccess: "open" }, bridgeUrl: "https://bots.example.com/a", integrations: ["slack-main"] });
      await agent.provider.read(bot.id, bot.outs);
      await agent.provider.update(bot.id, bot.outs, { ...bot.inputs, name: "Support desk", integrations: [] });
      await client.agents.create({ identifier: "existing-bot", name: "Existing" });
      const adopted = await created(agent, { identifier: "existing-bot", name: "Existing bot", adopt: true });
      await client.agents.list({ identifier: "support-bot" });
      return async () => {
        for (const r of [bot, adopted]) await agent.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
