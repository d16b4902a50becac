/**
 * The bench's waiting baseline (bench/baseline.ts): with READ_WAIT_ENV set, a read of a resource
 * whose floor gives its read requests (`readRequests` above 0) waits that many milliseconds once;
 * any other read, and every read without the variable, answers at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { provider, READ_WAIT_ENV } from "../../../bench/baseline";

/** Whether `p` has settled after the timers ran `ms` (fake timers: decided by the clock, not the machine). */
async function settledAfter(p: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void p.then(() => { settled = true; });
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe("the waiting baseline's read", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    delete process.env[READ_WAIT_ENV];
  });

  it("waits the variable's milliseconds, once, where the floor gives the read requests", async () => {
    process.env[READ_WAIT_ENV] = "20";
    const read = provider.read("id", { value: "v", readRequests: 2, length: 1 });
    expect(await settledAfter(read, 19)).toBe(false);
    expect(await settledAfter(read, 1)).toBe(true);
    expect(await read).toEqual({ id: "id", props: { value: "v", readRequests: 2, length: 1 }, inputs: { value: "v", readRequests: 2 } });
  });

  it("answers at once where the floor gives the read none, or without the variable", async () => {
    process.env[READ_WAIT_ENV] = "20";
    expect(await settledAfter(provider.read("id", { value: "v", readRequests: 0 }), 0)).toBe(true);
    delete process.env[READ_WAIT_ENV];
    expect(await settledAfter(provider.read("id", { value: "v", readRequests: 1 }), 0)).toBe(true);
  });
});
