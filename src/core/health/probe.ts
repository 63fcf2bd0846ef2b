export type Check = 'up' | 'down' | 'not_configured';

/** A dependency slower than this counts as down (readiness and the health gauges alike). */
const PROBE_TIMEOUT_MS = 2000;

/** Runs `check` against a deadline: how long it took in seconds, or null when it failed or ran out of time. */
export async function timedProbe(check: () => Promise<unknown>): Promise<number | null> {
  const started = process.hrtime.bigint();
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS).unref();
    });
    await Promise.race([check(), deadline]);
    return Number(process.hrtime.bigint() - started) / 1e9;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export async function probe(check: () => Promise<unknown>): Promise<Check> {
  return (await timedProbe(check)) === null ? 'down' : 'up';
}
