/**
 * The client's retry policy in tests of the client: waits of milliseconds and no jitter, over the
 * default policy's other settings (the client merges it with DEFAULT_RETRY_POLICY).
 */
export const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 10_000, random: () => 0.5 };
