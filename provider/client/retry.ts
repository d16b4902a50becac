/** When to retry a request, and how long to wait first. */

/** Tuning of retries. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff ceiling, in ms; doubled on each attempt. */
  baseDelayMs: number;
  /** Largest backoff ceiling, in ms. */
  maxDelayMs: number;
  /** No retry starts after this much time since the first attempt, in ms. */
  maxElapsedMs: number;
  /** Source of randomness in [0, 1), replaceable for tests. */
  random: () => number;
}

/** Defaults: up to 8 attempts within 2 minutes. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 200,
  maxDelayMs: 20_000,
  maxElapsedMs: 120_000,
  random: Math.random,
};

/**
 * Whether a response status is worth another attempt. 409 is retried only with `Retry-After`,
 * which is how the service says an idempotency key is still in flight; a plain 409 is a real
 * conflict and retrying it cannot help.
 */
export function isRetryableStatus(status: number, hasRetryAfter: boolean): boolean {
  if (status === 408 || status === 429 || status >= 500) return true;
  if (status === 409) return hasRetryAfter;
  return false;
}

/** Parses `Retry-After` (seconds or an HTTP date) into ms, or undefined. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * Delay before retry number `attempt` (1 for the first retry): full-jitter exponential backoff,
 * but never shorter than what the service asked for.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, serverAskedMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jitter = Math.floor(policy.random() * ceiling);
  return serverAskedMs !== undefined ? Math.max(serverAskedMs, jitter) : jitter;
}
