/**
 * The outboxes' retry rule (webhooks, decisions §20; mail, §26 "as webhooks"): at most 15 attempts
 * over about two days, the retries starting at 10 s and growing. These 14 waits add up to 45.4 h.
 */
export const DEFAULT_RETRY_DELAYS_SECONDS = [
  10,
  30,
  60,
  300,
  900,
  3600,
  2 * 3600,
  4 * 3600,
  6 * 3600,
  6 * 3600,
  6 * 3600,
  6 * 3600,
  6 * 3600,
  8 * 3600,
];
export const MAX_ATTEMPTS = 15;

/** A setting's waits (seconds, comma-separated, for tests) or the defaults; a short list repeats its last wait. */
export function retryDelays(setting: string | undefined): number[] {
  if (!setting) return DEFAULT_RETRY_DELAYS_SECONDS;
  return setting.split(',').map((s) => Number(s.trim()));
}

/** Seconds to wait after failed attempt number `attempt` (1-based), or null when it was the last. */
export function delayAfter(attempt: number, delays: number[]): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return delays[Math.min(attempt, delays.length) - 1];
}
