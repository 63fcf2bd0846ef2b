import type Redis from 'ioredis';
import { redisPersistence, redisPersistenceWarning } from '../../core/health/readiness';
import { fail, Finding, ok, safeMessage, warn, withTimeout } from './finding';

/** Redis answers within 2 s and persists every write (AOF): readiness's own functions, read once. */
export async function checkRedis(redis: Redis | null): Promise<Finding[]> {
  if (!redis) return [ok('redis', 'not configured: nonces, limits and quotas live in this one process')];
  try {
    await withTimeout(redis.ping(), 2000, 'no answer to PING within 2 s');
  } catch (error) {
    return [
      fail(
        'redis',
        `unreachable: ${safeMessage(error)}`,
        'check REDIS_URL (or REDIS_SENTINELS and REDIS_SENTINEL_MASTER) and that Redis runs: nonces, quotas and limits live there',
      ),
    ];
  }
  const persistence = await redisPersistence(redis).catch(() => 'unknown' as const);
  const warning = redisPersistenceWarning(persistence);
  return [
    warning
      ? warn('redis', warning, 'redis-server --appendonly yes (or appendonly yes in redis.conf)')
      : ok('redis', 'reachable, AOF persistence'),
  ];
}
