/** The client against the emulator in this process: every method, the listing it shares between reads, faults and pacing. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NotifyClient, NotifyConnectionError, Pacer } from "../../../../provider/client";
import { FAST_RETRY as fast } from "../../../helpers/client";
import { startTestEmulator, type TestEmulator } from "../../../helpers/emulator";

describe("the client against the emulator", () => {
  let emu: TestEmulator;
  let client: NotifyClient;
  beforeAll(async () => {
    emu = await startTestEmulator();
    client = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key, retry: fast, pacer: new Pacer() });
  });
  afterAll(async () => { await client.close(); await emu.close(); });
  beforeEach(async () => { await emu.api("POST", "/__emulator/reset"); });

  it("reads integrations from one listing until the client writes", async () => {
    const a = await client.integrations.create({ providerId: "slack", channel: "chat", identifier: "a", active: true });
    const b = await client.integrations.create({ providerId: "discord", channel: "chat", identifier: "b", active: true });
    await emu.clearRequests();
    const lists = async () => (await emu.requests()).filter((r) => r.method === "GET" && r.path === "/v1/integrations").length;
    for (let i = 0; i < 20; i++) await client.integrations.get(i % 2 ? a._id : b._id);
    expect(await lists()).toBe(1);
    // A change made elsewhere is not seen until the listing is dropped ...
    await emu.api("PUT", `/v1/integrations/${a._id}`, { name: "renamed by hand" });
    expect((await client.integrations.get(a._id))?.name).not.toBe("renamed by hand");
    // ... which any write of this client does.
    await client.integrations.update(b._id, { name: "B", check: false });
    expect((await client.integrations.get(a._id))?.name).toBe("renamed by hand");
    expect(await lists()).toBe(2);
  });

  it("reads environments from one listing until the client writes (the service has no read-one route)", async () => {
    const [dev, prod] = await client.environments.list();
    await emu.clearRequests();
    const lists = async () => (await emu.requests()).filter((r) => r.method === "GET" && r.path === "/v1/environments").length;
    for (let i = 0; i < 10; i++) await client.environments.get(i % 2 ? dev!._id : prod!._id);
    expect(await lists()).toBe(1);
    await client.environments.update(dev!._id, { color: "#000000" });
    expect((await client.environments.get(dev!._id))?.color).toBe("#000000");
    expect(await lists()).toBe(2);
  });

  it("runs every method", async () => {
    const i = await client.integrations.create({ providerId: "slack", channel: "chat", identifier: "slack-main", active: true });
    expect((await client.integrations.list()).map((x) => x._id)).toEqual([i._id]);
    expect((await client.integrations.update(i._id, { name: "Slack 2", check: false })).name).toBe("Slack 2");
    expect((await client.integrations.setPrimary(i._id)).primary).toBe(true);
    expect(await client.integrations.get(i._id)).toMatchObject({ _id: i._id });
    const w = await client.workflows.create({ name: "W", workflowId: "w1", steps: [{ name: "Chat", type: "chat", controlValues: { body: "b" } }], active: true });
    expect((await client.workflows.get("w1"))._id).toBe(w._id);
    expect((await client.workflows.list()).totalCount).toBe(1);
    const w2 = await client.workflows.update(w._id, { name: "W2", steps: [{ _id: w.steps[0]!._id, name: "Chat", type: "chat", controlValues: { body: "c" } }], preferences: {}, origin: "platform-cloud" });
    expect(w2.steps[0]!.stepId).toBe(w.steps[0]!.stepId);
    await client.subscribers.create({ subscriberId: "bob", email: "bob@example.com" });
    expect((await client.subscribers.update("bob", { firstName: "Bob" })).firstName).toBe("Bob");
    expect((await client.subscribers.search({ email: "bob@" })).data).toHaveLength(1);
    const s = await client.subscribers.updateCredentials("bob", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://h.example/x" } });
    expect(s.channels?.[0]?._integrationId).toBe(i._id);
    await client.subscribers.deleteCredentials("bob", "slack");
    expect((await client.subscribers.get("bob")).channels).toEqual([]);
    const t = await client.events.trigger({ name: "w1", to: "bob", transactionId: "tx1" });
    expect(t.transactionId).toBe("tx1");
    const ev = await client.events.list({ transactionId: "tx1" });
    expect((await client.events.get(ev.data[0]!._id!)).jobs).toHaveLength(1);
    expect((await client.messages.list({ channel: "chat" })).data).toHaveLength(1);
    await client.workflows.delete(w._id);
    const remaining = await client.integrations.delete(i._id);
    expect(remaining).toEqual([]);
  });

  it("recovers from injected 5xx, 429 and dropped connections", async () => {
    await emu.api("POST", "/__emulator/faults", { errorRate: 0.3, rateLimitRate: 0.1, dropRate: 0.1, seed: 7 });
    for (let n = 0; n < 20; n++) await client.subscribers.create({ subscriberId: `s${n}` });
    await emu.api("POST", "/__emulator/faults", {});
    const all = await client.subscribers.search({ limit: 100 });
    expect(all.data.map((s) => s.subscriberId).sort()).toHaveLength(20);
    const log = await emu.requests();
    expect(log.some((r: any) => r.fault === "5xx")).toBe(true);
    expect(log.some((r: any) => r.fault === "drop")).toBe(true);
  });

  it("paces a burst under the emulator's rate limit with few 429s", async () => {
    await emu.api("POST", "/__emulator/behaviour", { rateLimit: { rate: 20, burst: 10 } });
    const fresh = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key, retry: fast, pacer: new Pacer() });
    try {
      await Promise.all(Array.from({ length: 40 }, () => fresh.integrations.list()));
      const log = await emu.requests();
      const limited = log.filter((r: any) => r.status === 429).length;
      expect(limited).toBeLessThanOrEqual(4);
    } finally {
      await fresh.close();
      await emu.api("POST", "/__emulator/behaviour", { rateLimit: null });
    }
  });

  it("reports a dropped connection as a connection error once retries run out", async () => {
    const c = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key, retry: { ...fast, maxAttempts: 2 }, pacer: new Pacer() });
    await emu.api("POST", "/__emulator/faults", { dropRate: 1 });
    try {
      const e = await c.integrations.list().catch((x) => x);
      expect(e).toBeInstanceOf(NotifyConnectionError);
      expect(e.attempts).toBe(2);
    } finally {
      await emu.api("POST", "/__emulator/faults", {});
      await c.close();
    }
  });
});
