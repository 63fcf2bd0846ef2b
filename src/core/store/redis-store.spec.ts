import Redis from 'ioredis';
import { RedisStore } from './redis-store';

/** Runs against the Redis at REDIS_URL (the CI's shared-state pass); skipped without one. */
(process.env.REDIS_URL ? describe : describe.skip)('RedisStore', () => {
  let redis: Redis;
  let store: RedisStore;
  const prefix = `ck-spec-${process.pid}-${Date.now()}:`;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
    store = new RedisStore(redis, prefix);
  });
  afterAll(() => redis.quit());

  it('refuses a step past the limit without counting it, and gives a use back with decrement', async () => {
    expect(await store.increment('q', 60, 2)).toBe(1);
    expect(await store.increment('q', 60, 2)).toBe(2);
    expect(await store.increment('q', 60, 2)).toBeNull();
    await store.decrement('q');
    expect(await store.increment('q', 60, 2)).toBe(2);
    expect(await redis.ttl(prefix + 'q')).toBeGreaterThan(0);
  });

  it('never takes a counter below zero nor creates one without expiry', async () => {
    await store.decrement('absent');
    expect(await redis.exists(prefix + 'absent')).toBe(0);
  });

  it('admits exactly one of many concurrent claims of one key', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim('nonce', 60)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
