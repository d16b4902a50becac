/** The retry rules of provider/client/retry.ts: what is retried and how long each wait is. */
import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter } from "../../../../provider/client/retry";

describe("retry rules", () => {
  it("retries connection errors, 408, 429 and 5xx, and a 409 only with Retry-After", () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(s, false)).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 422]) expect(isRetryableStatus(s, false)).toBe(false);
    expect(isRetryableStatus(409, true)).toBe(true);
  });
  it("waits at least what Retry-After asks, with full jitter below the exponential ceiling otherwise", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(backoffDelay({ ...DEFAULT_RETRY_POLICY, random: () => 0.999 }, 3)).toBeLessThan(800);
    expect(backoffDelay({ ...DEFAULT_RETRY_POLICY, random: () => 0 }, 3, 1500)).toBe(1500);
  });
});
