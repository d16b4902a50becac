/** emulator/util.ts: ids, seeded randomness, secret comparison, the token bucket, slugs, stable hashes. */
import { describe, expect, it } from "vitest";
import { objectId, secretEquals, seededRandom, slugify, stableHash, TokenBucket } from "../../../emulator/util";

describe("objectId", () => {
  it("is 24 hex digits, the first 8 the creation second, increasing within the process", () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5);
    const a = objectId(now);
    const b = objectId(now);
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(parseInt(a.slice(0, 8), 16)).toBe(now / 1000);
    expect(b > a).toBe(true);
  });
});

describe("seededRandom", () => {
  it("replays the same sequence from the same seed, another from another, all in [0, 1)", () => {
    const take = (seed: number) => { const r = seededRandom(seed); return Array.from({ length: 50 }, r); };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    for (const v of take(7)) expect(v >= 0 && v < 1).toBe(true);
  });
});

describe("secretEquals", () => {
  it("is true for equal strings only, whatever the lengths", () => {
    expect(secretEquals("key-123", "key-123")).toBe(true);
    expect(secretEquals("key-123", "key-124")).toBe(false);
    expect(secretEquals("key", "key-123")).toBe(false);
    expect(secretEquals("", "")).toBe(true);
  });
});

describe("TokenBucket", () => {
  it("starts full, gives `burst` tokens, then refills at `rate` per second", () => {
    const t0 = 1_000_000;
    const b = new TokenBucket(2, 3, t0);
    expect(b.remaining(t0)).toBe(3);
    expect([b.take(t0), b.take(t0), b.take(t0), b.take(t0)]).toEqual([true, true, true, false]);
    expect(b.secondsUntilToken(t0)).toBe(1);
    expect(b.secondsUntilFull(t0)).toBe(2);
    expect(b.take(t0 + 500)).toBe(true); // one token after half a second at 2 per second
    expect(b.take(t0 + 500)).toBe(false);
    expect(b.remaining(t0 + 60_000)).toBe(3); // never more than the burst
    expect(b.secondsUntilToken(t0 + 60_000)).toBe(0);
  });
});

describe("slugify", () => {
  it("lower-cases, joins words with single dashes and trims them; empty gives `step`", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
    expect(slugify("  Welcome  Email ")).toBe("welcome-email");
    expect(slugify("In-App  Step 2")).toBe("in-app-step-2");
    expect(slugify("!!!")).toBe("step");
  });
});

describe("stableHash", () => {
  it("ignores key order at any depth, and sees any change of value, order of items or type", () => {
    expect(stableHash({ a: 1, b: { c: [1, 2], d: null } })).toBe(stableHash({ b: { d: null, c: [1, 2] }, a: 1 }));
    expect(stableHash({ a: 1 })).not.toBe(stableHash({ a: 2 }));
    expect(stableHash([1, 2])).not.toBe(stableHash([2, 1]));
    expect(stableHash({ a: "1" })).not.toBe(stableHash({ a: 1 }));
    expect(stableHash(undefined)).toBe(stableHash(null));
    expect(stableHash({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
