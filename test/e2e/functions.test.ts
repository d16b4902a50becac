import { describe, expect, it } from "vitest";
import { loadPackage } from "../helpers/pulumi";
import { useStack } from "../helpers/stack";

describe("read-only functions in a stack", () => {
  const { emu, stack } = useStack({ seed: async (emu) => {
    await emu.api("POST", "/__emulator/seed", {
      generate: { subscribers: 250 },
      messages: [{ channel: "sms", contextKeys: ["tenant:acme", "region:eu"] }],
      events: [{ severity: "high", contextKeys: ["tenant:acme"] }],
    });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", email: "alice@example.com", firstName: "Alice" });
    await emu.api("POST", "/v1/integrations", { identifier: "sg", providerId: "sendgrid", channel: "email", active: true });
    await emu.api("POST", "/v2/workflows", {
      workflowId: "welcome", name: "Welcome", active: true, tags: ["onboarding"],
      steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }, { name: "Email", type: "email", controlValues: { subject: "S", body: "B" } }],
    });
    const t = await emu.api("POST", "/v1/events/trigger", { name: "welcome", to: "alice", transactionId: "tx-release-1", payload: { v: 1 } });
    expect(t.status).toBe(201);
  } });

  it("exports each function's result", async () => {
    const ts = await stack({
      program: async () => {
        const notify = loadPackage();
        const alice = notify.getSubscriberOutput({ subscriberId: "alice" });
        const page = await notify.getSubscribers({ maxResults: 230, limit: 100, orderDirection: "ASC" });
        const msgs = await notify.getMessages({ transactionIds: ["tx-release-1"] });
        const ctxMsgs = await notify.getMessages({ contextKeys: ["region:eu", "tenant:acme"] });
        const events = await notify.getEvents({ transactionId: "tx-release-1" });
        const event = notify.getEventOutput({ notificationId: events.events[0]!._id! });
        const integrations = await notify.getIntegrations({ channel: "email", activeOnly: true });
        const workflows = await notify.getWorkflows({ tags: ["onboarding"] });
        return {
          aliceEmail: alice.email,
          subscriberCount: page.subscribers.length,
          firstSeeded: page.subscribers[0]!.subscriberId,
          totalCount: page.totalCount,
          messageChannels: msgs.messages.map((m) => m.channel).sort(),
          ctxMessages: ctxMsgs.messages.length,
          eventJobs: event.apply((e) => (e.jobs ?? []).map((j) => `${j.type}:${j.executionDetails.map((d) => d.status).join("/")}`)),
          integrationIds: integrations.integrations.map((i) => i.identifier),
          workflowIds: workflows.workflows.map((w) => w.workflowId),
        };
      },
    });
    const up = await ts.stack.up();
    const o = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    expect(o).toEqual({
      aliceEmail: "alice@example.com",
      subscriberCount: 230,
      firstSeeded: "seed-0",
      totalCount: 251,
      messageChannels: ["email", "in_app"],
      ctxMessages: 1,
      eventJobs: ["in_app:Pending/Success", "email:Pending/Success"],
      integrationIds: ["sg"],
      workflowIds: ["welcome"],
    });
    // 230 results at 100 a page: three pages of the cursor, no more.
    const searches = (await emu.requests()).filter((r) => r.path === "/v2/subscribers" && r.method === "GET");
    expect(searches).toHaveLength(3);
  });

  it("fails the program with a clear message for an unknown subscriber and for a bad argument", async () => {
    const ts = await stack({
      program: async () => {
        const notify = loadPackage();
        await notify.getSubscriber({ subscriberId: "nobody" });
      },
    });
    await expect(ts.stack.up()).rejects.toThrow(/404 Not Found: Subscriber with id nobody not found/);
    const before = (await emu.requests()).length;
    const notify = loadPackage();
    const disconnect = emu.connectEnvironment();
    try {
      await expect(notify.getEvents({ limit: 51 })).rejects.toThrow(/getEvents: invalid arguments: limit: .*50/);
      await expect(notify.getMessages({ contextKeys: ["no-colon"] })).rejects.toThrow(/contextKeys\[0\]: must have the form type:id/);
      await expect(notify.getEvents({ severity: ["urgent" as never] })).rejects.toThrow(/severity\[0\]: must be one of "high"/);
      expect((await emu.requests()).length).toBe(before);
    } finally {
      disconnect();
    }
  });

  it("reports totalCountCapped past 50,000 matches and stops at maxResults", async () => {
    await emu.api("POST", "/__emulator/seed", { generate: { subscribers: 50_000 } });
    const notify = loadPackage();
    const disconnect = emu.connectEnvironment();
    try {
      const r = await notify.getSubscribers({ maxResults: 150 });
      expect(r.subscribers).toHaveLength(150);
      expect(r.totalCount).toBe(50_000);
      expect(r.totalCountCapped).toBe(true);
    } finally {
      disconnect();
    }
  });
});
