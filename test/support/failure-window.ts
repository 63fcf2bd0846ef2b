import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Failure limits count per clock minute (src/core/throttling/failure-limiter.ts): a test of a limit
 * starts early enough in a minute to finish inside it, or its count would restart halfway.
 */
export async function freshWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await sleep(60_000 - intoMinute + 200);
}
