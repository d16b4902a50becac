/** The pacer of provider/client/pacing.ts: it spaces requests only once the quota runs low. */
import { describe, expect, it } from "vitest";
import { Pacer } from "../../../../provider/client/pacing";

describe("pacing", () => {
  it("spaces requests once less than half the quota remains", async () => {
    const p = new Pacer();
    p.observe({ limit: 10, remaining: 3, resetMs: 1000, windowMs: 1000 });
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await p.acquire();
    // Three spacings of 100 ms (window / limit) at least.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });
  it("does not slow down while plenty of quota remains", async () => {
    const p = new Pacer();
    p.observe({ limit: 100, remaining: 90, resetMs: 1000 });
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) await p.acquire();
    expect(Date.now() - t0).toBeLessThan(50);
  });
});
