import { MemoryStore } from './memory-store';

describe('MemoryStore', () => {
  let store: MemoryStore;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    store = new MemoryStore();
  });

  afterEach(() => {
    store.close();
    jest.useRealTimers();
  });

  describe('claim', () => {
    it('succeeds once, then refuses until the TTL passes', async () => {
      expect(await store.claim('nonce:1', 300)).toBe(true);
      expect(await store.claim('nonce:1', 300)).toBe(false);
      jest.advanceTimersByTime(299_999);
      expect(await store.claim('nonce:1', 300)).toBe(false);
      jest.advanceTimersByTime(1);
      expect(await store.claim('nonce:1', 300)).toBe(true);
    });

    it('keeps keys apart', async () => {
      expect(await store.claim('nonce:a', 300)).toBe(true);
      expect(await store.claim('nonce:b', 300)).toBe(true);
    });

    it('lets exactly one of many concurrent claims win', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => store.claim('race', 60)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('increment', () => {
    it('counts without a limit', async () => {
      expect(await store.increment('c', 60)).toBe(1);
      expect(await store.increment('c', 60, null)).toBe(2);
      expect(await store.increment('c', 60)).toBe(3);
    });

    it('refuses past the limit without consuming, and restarts at 1 after expiry', async () => {
      const counts = [];
      for (let i = 0; i < 4; i++) counts.push(await store.increment('quota', 60, 2));
      expect(counts).toEqual([1, 2, null, null]);
      expect(await store.get('quota')).toBe('2');
      jest.advanceTimersByTime(60_000);
      expect(await store.increment('quota', 60, 2)).toBe(1);
    });

    it('a refused count does not use up a higher limit later', async () => {
      await store.increment('q', 60, 1);
      expect(await store.increment('q', 60, 1)).toBeNull();
      expect(await store.increment('q', 60, 2)).toBe(2);
    });

    it('refuses everything with a limit of 0', async () => {
      expect(await store.increment('zero', 60, 0)).toBeNull();
      expect(await store.get('zero')).toBeNull();
    });

    it('expires TTL seconds after the first use, not the last', async () => {
      await store.increment('window', 10);
      jest.advanceTimersByTime(6_000);
      expect(await store.increment('window', 10)).toBe(2);
      jest.advanceTimersByTime(4_000);
      expect(await store.increment('window', 10)).toBe(1);
    });
  });

  describe('get / set / delete', () => {
    it('stores a value until its TTL passes', async () => {
      expect(await store.get('k')).toBeNull();
      await store.set('k', 'v', 5);
      expect(await store.get('k')).toBe('v');
      jest.advanceTimersByTime(5_000);
      expect(await store.get('k')).toBeNull();
    });

    it('overwrites a value and renews its TTL', async () => {
      await store.set('k', 'one', 5);
      jest.advanceTimersByTime(4_000);
      await store.set('k', 'two', 5);
      jest.advanceTimersByTime(4_000);
      expect(await store.get('k')).toBe('two');
    });

    it('deletes a value, freeing a claim', async () => {
      await store.claim('k', 60);
      await store.delete('k');
      expect(await store.get('k')).toBeNull();
      expect(await store.claim('k', 60)).toBe(true);
    });

    it('sweeps expired keys in the background', async () => {
      await store.set('old', 'v', 1);
      const entries = (store as unknown as { entries: Map<string, unknown> }).entries;
      jest.advanceTimersByTime(60_000);
      expect(entries.has('old')).toBe(false);
    });
  });

  it('gives back one use with decrement, never below zero, so a freed slot can be taken again', async () => {
    expect(await store.increment('slot', 60, 1)).toBe(1);
    expect(await store.increment('slot', 60, 1)).toBeNull();
    await store.decrement('slot');
    expect(await store.increment('slot', 60, 1)).toBe(1);
    await store.decrement('slot');
    await store.decrement('slot');
    expect(await store.get('slot')).toBe('0');
    await store.decrement('never-set');
    expect(await store.get('never-set')).toBeNull();
  });

  it('answers ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
