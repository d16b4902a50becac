/**
 * Reads of more than one request (a topic and its members, a domain and its routes) send them at
 * once: neither needs the other's answer, so a refresh waits one latency for the object, not two.
 * The emulator's log says how many requests it was answering when each arrived (`inFlight`).
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl } from "../../../helpers/implementation";

describe.each(["production", "spec"] as const)("reads of two requests (%s mode)", (mode) => {
  const emulator = emulatorPerBlock({ mode }, async (emu) => {
    for (const subscriberId of ["alice", "bob"]) await emu.api("POST", "/v2/subscribers", { subscriberId });
  });

  /** The requests a read sends while every answer takes `latencyMs`: path and how many were in flight. */
  async function readUnderLatency(read: () => Promise<unknown>): Promise<{ path: string; inFlight: number }[]> {
    const emu = emulator();
    await emu.clearRequests();
    // Long enough that two requests sent one after the other never overlap, whatever the load.
    await emu.api("POST", "/__emulator/faults", { latencyMs: [1000, 1000] });
    try {
      await read();
    } finally {
      await emu.api("POST", "/__emulator/faults", {});
    }
    return (await emu.requests()).map((r) => ({ path: r.path, inFlight: r.inFlight }));
  }

  it("a topic and its members", async () => {
    const topic = impl("topic");
    const { id, outs } = await topic.create(await checked(topic, { key: "pair", name: "Pair", subscribers: ["alice", "bob"] }));
    const log = await readUnderLatency(() => topic.read(id, outs));
    expect(log.map((r) => r.path).sort()).toEqual(["/v2/topics/pair", "/v2/topics/pair/subscriptions"]);
    expect(log.map((r) => r.inFlight)).toEqual([1, 2]);
  });

  it("a domain and its routes (a new domain, not yet verified, is read by asking for its verification)", async () => {
    const domain = impl("domain");
    const { id, outs } = await domain.create(await checked(domain, { name: `pair-${mode}.example.com`, routes: { support: { type: "webhook" } } }));
    const log = await readUnderLatency(() => domain.read(id, outs));
    expect(log.map((r) => r.path).sort()).toEqual([`/v1/domains/pair-${mode}.example.com/routes`, `/v1/domains/pair-${mode}.example.com/verify`]);
    expect(log.map((r) => r.inFlight)).toEqual([1, 2]);
  });
});
