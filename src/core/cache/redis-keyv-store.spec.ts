import Redis from 'ioredis';
import { Keyv } from 'keyv';
import { RedisKeyvStore } from './redis-keyv-store';

/** Runs against the Redis at REDIS_URL (the CI's shared-state pass); skipped without one. */
(process.env.REDIS_URL ? describe : describe.skip)('RedisKeyvStore', () => {
  let redis: Redis;
  const namespace = `ck-cache-spec-${process.pid}-${Date.now()}`;
  const keyv = () => new Keyv({ store: new RedisKeyvStore(redis), namespace });

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(() => redis.quit());

  it('keeps values under the namespace with the TTL in milliseconds, and deletes them', async () => {
    const cache = keyv();
    await cache.set('program', { value: { name: 'p' } }, 10_000);
    expect(await cache.get('program')).toEqual({ value: { name: 'p' } });
    const ttl = await redis.pttl(`${namespace}:program`);
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(10_000);
    expect(await cache.delete('program')).toBe(true);
    expect(await cache.get('program')).toBeUndefined();
  });

  it('clears its own namespace only', async () => {
    const cache = keyv();
    await cache.set('a', 1);
    await cache.set('b', 2);
    await redis.set(`${namespace}-other:a`, 'kept', 'EX', 60);
    await cache.clear();
    expect(await redis.exists(`${namespace}:a`, `${namespace}:b`)).toBe(0);
    expect(await redis.get(`${namespace}-other:a`)).toBe('kept');
    await redis.del(`${namespace}-other:a`);
  });
});
