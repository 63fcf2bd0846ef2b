import { MemoryStore } from '../store/memory-store';
import { SharedThrottlerStorage } from './shared-throttler-storage';

describe('SharedThrottlerStorage (the throttler over the shared store)', () => {
  const store = new MemoryStore();
  const storage = new SharedThrottlerStorage(store);
  afterAll(() => store.close());

  it('admits exactly the limit in a window, then blocks until the window ends without counting the refusals', async () => {
    jest.useFakeTimers({ now: 60_000 * 1000 + 15_000, doNotFake: ['setInterval', 'clearInterval'] });
    try {
      const records = [];
      for (let i = 0; i < 5; i++) records.push(await storage.increment('k', 60_000, 3, 60_000, 'sign-in'));
      expect(records.map((r) => [r.totalHits, r.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, false],
        [4, true],
        [4, true],
      ]);
      // 45 s are left in the clock minute: the reset and Retry-After say so.
      expect(records.map((r) => r.timeToExpire)).toEqual([45, 45, 45, 45, 45]);
      expect(records[3].timeToBlockExpire).toBe(45);
      expect(await store.get('rate:sign-in:k:1000')).toBe('3');
      jest.setSystemTime(1001 * 60_000); // the next window starts
      expect(await storage.increment('k', 60_000, 3, 60_000, 'sign-in')).toEqual({
        totalHits: 1,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts each throttler and key apart', async () => {
    await storage.increment('a', 60_000, 1, 60_000, 'register');
    expect((await storage.increment('a', 60_000, 1, 60_000, 'register:key')).isBlocked).toBe(false);
    expect((await storage.increment('b', 60_000, 1, 60_000, 'register')).isBlocked).toBe(false);
    expect((await storage.increment('a', 60_000, 1, 60_000, 'register')).isBlocked).toBe(true);
  });
});
