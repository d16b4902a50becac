/** Small helpers of the emulator: ids, seeded randomness, token bucket. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { OperationId, RequestBody } from "../spec/operations";
import type { RequestContext } from "./types";

let counter = Math.floor(Math.random() * 0xffffff);
/** A 24-hex id shaped like the service's database ids; increasing within a process. */
export function objectId(now = Date.now()): string {
  counter = (counter + 1) % 0xffffffffff;
  return Math.floor(now / 1000).toString(16).padStart(8, "0") + counter.toString(16).padStart(16, "0");
}

/** Deterministic PRNG (mulberry32) so a faulty run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Compares two secrets in constant time (over their digests, so length leaks nothing). */
export function secretEquals(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}

/** A token bucket: `rate` tokens per second, at most `burst`. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(readonly rate: number, readonly burst: number, now = Date.now()) {
    this.tokens = burst;
    this.last = now;
  }
  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }
  /** Takes a token if there is one. */
  take(now = Date.now()): boolean {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
  /** Whole tokens left. */
  remaining(now = Date.now()): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }
  /** Seconds until one token is available (0 when one is). */
  secondsUntilToken(now = Date.now()): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.rate);
  }
  /** Seconds until the bucket is full again. */
  secondsUntilFull(now = Date.now()): number {
    this.refill(now);
    return Math.ceil((this.burst - this.tokens) / this.rate);
  }
}

/** Slug of a name: lower case, dashes. */
export function slugify(name: string): string {
  const s = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return s || "step";
}

/** A stable hash of a JSON value with sorted keys, for idempotency body comparison. */
export function stableHash(value: unknown): string {
  return createHash("sha256").update(stableStringify(value)).digest("hex");
}
function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * The JSON body of a request to operation `op`, typed as `spec/openapi.json` has it (through the
 * generated `spec/contract.ts`). The pipeline has validated the request against the document
 * before a handler runs, so the one assertion here stands for that check rather than for a hope;
 * an operation whose body the document makes optional may still come without one.
 */
export function bodyOf<Op extends OperationId>(c: RequestContext, _op: Op): RequestBody<Op> {
  return c.body as RequestBody<Op>;
}
