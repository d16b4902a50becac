/**
 * provider/resources/agent.ts against the emulator, on the service's sharp edges (production-notes.md,
 * fifth pass §4): a duplicate identifier that a newer service stores under a suffix rather than
 * refusing; links refused (403) in an environment of type production; and domain routes of type
 * `agent`, which the service answers with the agent's `_id` while a program names its identifier.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../helpers/emulator";
import { impl } from "../../../helpers/implementation";

// The implementation modules, from source (test/helpers/implementation.ts).
const agent = impl("agent");
const domain = impl("domain");

describe("Agent against the service's sharp edges", () => {
  let emu: TestEmulator;
  let disconnect: () => void;
  const checked = async (inputs: Record<string, unknown>, p: typeof agent = agent) => {
    const r = await p.check({}, inputs);
    expect(r.failures).toEqual([]);
    return r.inputs;
  };
  const agents = async () => ((await emu.api("GET", "/v1/agents?limit=100")).body.data as { identifier: string; name: string }[]);

  beforeAll(async () => {
    emu = await startTestEmulator({ mode: "production" });
    disconnect = emu.connectEnvironment();
  });
  afterAll(async () => {
    disconnect();
    await emu.close();
  });
  beforeEach(async () => {
    await emu.api("POST", "/__emulator/reset");
    await emu.api("POST", "/__emulator/behaviour", { suffixDuplicateAgents: false });
  });

  // create-agent.usecase.ts [newer]: a duplicate identifier is stored as `<identifier>-<shortId>`.
  it("refuses an identifier a newer service would have suffixed, and deletes the suffixed duplicate again", async () => {
    await emu.api("POST", "/__emulator/behaviour", { suffixDuplicateAgents: true });
    await emu.api("POST", "/v1/agents", { identifier: "bot", name: "By hand" });
    await expect(agent.create(await checked({ identifier: "bot", name: "From the stack" }))).rejects.toThrow(
      /Unable to create agent "bot": 409 .*stored this one as "bot-[a-z0-9]+", which was deleted again.*set adopt: true/,
    );
    expect(await agents()).toEqual([expect.objectContaining({ identifier: "bot", name: "By hand" })]);
  });

  it("adopts the agent of that identifier on such a service, writing only what differs", async () => {
    await emu.api("POST", "/__emulator/behaviour", { suffixDuplicateAgents: true });
    await emu.api("POST", "/v1/agents", { identifier: "bot", name: "By hand" });
    const r = await agent.create(await checked({ identifier: "bot", name: "From the stack", adopt: true }));
    expect(r.id).toBe("bot");
    expect(await agents()).toEqual([expect.objectContaining({ identifier: "bot", name: "From the stack" })]);
  });

  // add-agent-integration.usecase.ts [newer]: 403 in an environment of type production.
  // The agent the create made stays in the stack (as created but not initialised), so that the
  // next up retries the link, and destroy removes it: nothing is left outside the state.
  it("explains a link refused in a production environment, and reports the agent it made as created but not initialised", async () => {
    const prod = (await emu.api("POST", "/__emulator/keys", { environment: "Production" })).body.key as string;
    await emu.apiAs(prod, "POST", "/v1/integrations", { identifier: "slack-support", providerId: "slack", channel: "chat", active: true, check: false });
    const before = process.env.NOTIFY_API_KEY;
    process.env.NOTIFY_API_KEY = prod;
    try {
      await expect(agent.create(await checked({ identifier: "bot", name: "Bot", integrations: ["slack-support"] }))).rejects.toThrow(
        /403 .*Agent integrations cannot be added in production environments.*declare the agent with its integrations in the development environment's stack and publish/,
      );
      const failed = await agent.create(await checked({ identifier: "bot2", name: "Bot", integrations: ["slack-support"] })).catch((e: unknown) => e as { id?: string; properties?: Record<string, unknown>; reasons?: string[] });
      expect(failed).toMatchObject({ id: "bot2", properties: expect.objectContaining({ identifier: "bot2", integrations: [] }) });
      expect((await emu.apiAs(prod, "GET", "/v1/agents/bot2")).status).toBe(200);
    } finally {
      process.env.NOTIFY_API_KEY = before;
    }
  });

  // domain-route.utils.ts: a route is written with the agent's identifier and answers its `_id`.
  it("reads a domain's agent route by the agent's identifier, so a route pointed at another agent by hand shows", async () => {
    for (const identifier of ["first", "second"]) await emu.api("POST", "/v1/agents", { identifier, name: identifier });
    const made = await domain.create(await checked({ name: "agents.example.com", routes: { support: { type: "agent", agentId: "first" } } }, domain));
    expect((made.outs as { routes: unknown }).routes).toEqual({ support: { type: "agent", agentId: "first" } });
    expect((await domain.read(made.id, made.outs)).inputs?.routes).toEqual({ support: { type: "agent", agentId: "first" } });
    await emu.api("PATCH", "/v1/domains/agents.example.com/routes/support", { agentId: "second" });
    const read = await domain.read(made.id, made.outs);
    expect(read.inputs?.routes).toEqual({ support: { type: "agent", agentId: "second" } });
    expect((await domain.diff(made.id, read.props, made.outs)).changed).toEqual(["routes"]);
  });
});
