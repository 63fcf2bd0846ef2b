import { DEFAULT_RETRY_DELAYS_SECONDS, delayAfter, MAX_ATTEMPTS, retryDelays } from './retry-schedule';

describe('retry schedule', () => {
  it('waits 10 s, 30 s, 1 min, 5 min, 15 min, 1 h, … for at most 15 attempts over about two days', () => {
    const delays = retryDelays(undefined);
    const waits = Array.from({ length: MAX_ATTEMPTS }, (_, i) => delayAfter(i + 1, delays));
    expect(waits.slice(0, 6)).toEqual([10, 30, 60, 300, 900, 3600]);
    expect(waits[MAX_ATTEMPTS - 1]).toBeNull();
    const total = DEFAULT_RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0) / 3600;
    expect(total).toBeGreaterThan(40);
    expect(total).toBeLessThan(50);
  });

  it('repeats the last wait of a short list from a setting', () => {
    expect([1, 2, 3, 9].map((attempt) => delayAfter(attempt, retryDelays('0.3, 2')))).toEqual([0.3, 2, 2, 2]);
  });
});
