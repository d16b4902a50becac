/**
 * Forward compatibility: an environment that holds objects the provider does not know, as
 * production does (a workflow made in the dashboard with an `http_request` step, one with a step
 * kind that does not exist yet, an agent integration without a channel, events and messages of the
 * `tool` channel, a subscriber with credentials of a provider added after this release, origins
 * and provider ids spelt with the service's own name). A stack managing other objects beside them
 * goes through up, no-change previews with and without refresh, every function, adopt of the
 * unknown-kind workflow and destroy, with nothing failing and the unknown values passed through.
 *
 * Facts: the service adds step types, channels and providers over time (production-notes.md,
 * Second pass, "Reads must stay open"); its origins are `novu-cloud`, `novu-cloud-v1` and
 * `external` (the service's packages/shared/src/types/general.ts, `ResourceOriginEnum`).
 */
import { describe, expect, it } from "vitest";
import { loadPackage } from "../helpers/pulumi";
import type { TestEmulator } from "../helpers/emulator";
import { useStack } from "../helpers/stack";

describe("an environment with objects of kinds the provider does not know", () => {
  let adoptFuture = false;
  let seededEventId = "";

  const seed = async (emu: TestEmulator) => {
    const seeded = await emu.api("POST", "/__emulator/seed", {
      subscribers: [{ subscriberId: "alice", email: "alice@example.com", channels: [{ providerId: "telegram", credentials: { channel: "123" }, _integrationId: "000000000000000000000000" }] }],
      integrations: [
        { identifier: "agent-runtime", providerId: "novu-agent", kind: "agent", active: true },
        { identifier: "novu-email", providerId: "novu-email", channel: "email", active: true, primary: true },
      ],
      workflows: [
        { workflowId: "future", name: "Future", origin: "novu-cloud", active: true, steps: [{ name: "Agent", type: "ai_agent", controlValues: { model: "m1" } }, { name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] },
        { workflowId: "hooked", name: "Hooked", origin: "novu-cloud-v1", active: true, steps: [{ name: "Call", type: "http_request", controlValues: { method: "GET", url: "https://hooks.example.com" } }] },
      ],
      messages: [{ channel: "tool", providerId: "novu", transactionId: "tx-tool" }],
    });
    expect(seeded.status).toBe(200);
    for (const name of ["future", "hooked"]) {
      const t = await emu.api("POST", "/v1/events/trigger", { name, to: "alice", transactionId: `tx-${name}` });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
    }
    const events = await emu.api("GET", "/v1/notifications?transactionId=tx-future");
    seededEventId = events.body.data[0]._id;
  };
  const { emu, ts } = useStack({
    seed,
    program: async () => {
      const notify = loadPackage();
      new notify.Integration("sendgrid", { identifier: "sendgrid-main", providerId: "sendgrid", channel: "email", credentials: { apiKey: "SG.k" }, active: true });
      const slack = new notify.Integration("slack", { identifier: "slack-main", providerId: "slack", channel: "chat", active: true });
      new notify.Workflow("welcome", {
        workflowId: "welcome", name: "Welcome",
        steps: [
          { name: "Inbox", type: "in_app", controlValues: { body: "Hi" } },
          { name: "Call", type: "http_request", controlValues: { method: "POST", url: "https://hooks.example.com/welcome", body: "{}" } },
        ],
      });
      new notify.SubscriberCredentials("alice-slack", {
        subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier, credentials: { webhookUrl: "https://hooks.example.com/alice" },
      });
      if (adoptFuture) {
        new notify.Workflow("future", { workflowId: "future", name: "Future", adopt: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] });
      }
      const workflows = await notify.getWorkflows({});
      const integrations = await notify.getIntegrations({});
      const events = await notify.getEvents({});
      const event = await notify.getEvent({ notificationId: seededEventId });
      const messages = await notify.getMessages({});
      const alice = await notify.getSubscriber({ subscriberId: "alice" });
      const subscribers = await notify.getSubscribers({});
      return {
        stepKinds: Object.fromEntries(workflows.workflows.map((w) => [w.workflowId, w.stepTypeOverviews])),
        origins: Object.fromEntries(workflows.workflows.map((w) => [w.workflowId, w.origin])),
        agentChannel: integrations.integrations.find((i) => i.identifier === "agent-runtime")?.channel ?? "none",
        integrationProviders: integrations.integrations.map((i) => i.providerId).sort(),
        jobKinds: [...new Set(events.events.flatMap((e) => (e.jobs ?? []).map((j) => j.type)))].sort(),
        eventJobs: (event.jobs ?? []).map((j) => j.type),
        messageChannels: [...new Set(messages.messages.map((m) => m.channel))].sort(),
        aliceProviders: (alice.channels ?? []).map((c) => c.providerId).sort(),
        subscriberCount: subscribers.subscribers.length,
      };
    },
  });

  it("runs up beside them, passes their unknown values through every function, and plans no change with or without refresh", async () => {
    const up = await ts.stack.up();
    const o = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    // The functions run while the engine creates the stack's own objects, so only the seeded
    // objects are asserted exactly.
    expect(o).toMatchObject({
      stepKinds: { future: ["ai_agent", "in_app"], hooked: ["http_request"] },
      origins: { future: "novu-cloud", hooked: "novu-cloud-v1" },
      agentChannel: "none",
      jobKinds: ["ai_agent", "http_request", "in_app"],
      eventJobs: ["ai_agent", "in_app"],
      messageChannels: ["in_app", "tool"],
      subscriberCount: 1,
    });
    expect(o.integrationProviders).toEqual(expect.arrayContaining(["novu-agent", "novu-email"]));
    expect(o.aliceProviders).toEqual(expect.arrayContaining(["telegram"]));
    const welcome = await emu.api("GET", "/v2/workflows/welcome");
    expect(welcome.body.steps.map((s: { type: string }) => s.type)).toEqual(["in_app", "http_request"]);
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("adopts the workflow whose step kind it does not know, and brings it to the declared steps", async () => {
    adoptFuture = true;
    await ts.stack.up();
    const future = await emu.api("GET", "/v2/workflows/future");
    expect(future.body.steps.map((s: { type: string }) => s.type)).toEqual(["in_app"]);
    expect(future.body.origin).toBe("novu-cloud");
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroys what it manages and leaves the objects it does not", async () => {
    await ts.stack.destroy();
    const workflows = (await emu.api("GET", "/v2/workflows")).body.workflows.map((w: { workflowId: string }) => w.workflowId);
    expect(workflows).toEqual(["hooked"]);
    const integrations = (await emu.api("GET", "/v1/integrations")).body.map((i: { identifier: string }) => i.identifier).sort();
    expect(integrations).toEqual(["agent-runtime", "novu-email"]);
    const alice = (await emu.api("GET", "/v2/subscribers/alice")).body;
    expect(alice.channels.map((c: { providerId: string }) => c.providerId)).toEqual(["telegram"]);
  });
});
