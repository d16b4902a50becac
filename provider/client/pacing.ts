/**
 * Client-side pacing from the service's `RateLimit-*` headers, so a burst of work slows down
 * before the service answers 429. One pacer per service address and key, shared by every client
 * of the process (the engine runs all resources of a stack in one provider process).
 */

/** What a response said about the rate limit. */
export interface RateLimitState {
  limit?: number;
  remaining?: number;
  resetMs?: number;
  windowMs?: number;
}

/** Reads `RateLimit-Limit`, `-Remaining`, `-Reset` and the `w=` of `-Policy`. */
export function readRateLimitHeaders(get: (name: string) => string | undefined): RateLimitState {
  const num = (v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(String(v).split(/[;,]/)[0]);
    return Number.isFinite(n) ? n : undefined;
  };
  const policy = get("ratelimit-policy");
  const w = policy ? /(?:^|;)\s*w=(\d+(?:\.\d+)?)/.exec(policy) : null;
  const reset = num(get("ratelimit-reset"));
  return {
    limit: num(get("ratelimit-limit")),
    remaining: num(get("ratelimit-remaining")),
    resetMs: reset !== undefined ? reset * 1000 : undefined,
    windowMs: w ? Number(w[1]) * 1000 : undefined,
  };
}

/** Spaces requests out once the service reports its quota running low. */
export class Pacer {
  private limit?: number;
  private windowMs = 1000;
  private remaining = Number.POSITIVE_INFINITY;
  private resetAt = 0;
  private nextAt = 0;
  /** Until the first answer says what the quota is, one request probes and the rest wait for it. */
  private learned = false;
  private probe?: { promise: Promise<void>; release: () => void };

  /** Waits until this request may start. */
  async acquire(): Promise<void> {
    if (!this.learned) {
      if (this.probe) {
        await this.probe.promise;
      } else {
        let release!: () => void;
        const promise = new Promise<void>((r) => { release = r; });
        this.probe = { promise, release };
        return;
      }
    }
    return this.schedule(Date.now());
  }

  private schedule(now: number): Promise<void> {
    const spacing = this.spacingMs(now);
    let start = Math.max(now, this.nextAt);
    if (this.remaining <= 0 && this.resetAt > start) start = this.resetAt;
    this.nextAt = start + spacing;
    this.remaining -= 1;
    const wait = start - now;
    return wait > 0 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
  }

  /** Learns from a response's headers. */
  observe(state: RateLimitState, now = Date.now()): void {
    if (!this.learned) {
      this.learned = true;
      this.probe?.release();
    }
    if (state.limit !== undefined && state.limit > 0) this.limit = state.limit;
    if (state.windowMs !== undefined && state.windowMs > 0) this.windowMs = state.windowMs;
    if (state.remaining !== undefined) this.remaining = state.remaining;
    if (state.resetMs !== undefined) this.resetAt = now + state.resetMs;
  }

  /** Learns from a 429: nothing more until the service's wait is over. */
  backOff(waitMs: number, now = Date.now()): void {
    this.remaining = 0;
    this.resetAt = Math.max(this.resetAt, now + waitMs);
  }

  /**
   * No spacing while more than half the quota remains; below that, the steady rate the limit
   * allows (limit per window), which keeps a long run near the limit without crossing it.
   */
  private spacingMs(_now: number): number {
    if (!this.limit || this.remaining > this.limit / 2) return 0;
    return this.windowMs / this.limit;
  }
}

const pacers = new Map<string, Pacer>();
/** The process-wide pacer of one service address and key. */
export function sharedPacer(key: string): Pacer {
  let p = pacers.get(key);
  if (!p) {
    p = new Pacer();
    pacers.set(key, p);
  }
  return p;
}
