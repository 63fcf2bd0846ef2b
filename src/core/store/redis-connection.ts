import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { AppConfig } from '../../config/app-config';

/** The settings that say where Redis is: a direct URL, or the sentinels in front of a primary. */
export type RedisSettings = Pick<
  AppConfig,
  'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_MASTER' | 'REDIS_PASSWORD' | 'REDIS_DB'
>;

export interface SentinelAddress {
  host: string;
  port: number;
}

/** `host:port[,host:port…]`, as REDIS_SENTINELS is validated. */
export function parseSentinels(list: string): SentinelAddress[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
    });
}

/**
 * A READONLY answer means this connection reached a replica: after a failover the old primary
 * comes back demoted, and a connection that still points there would refuse every write until a
 * restart. 2 = reconnect (asking the sentinels anew) and resend the command.
 */
export function reconnectOnReadOnly(error: Error): 2 | false {
  return /READONLY/.test(error.message) ? 2 : false;
}

/**
 * The one rule for reaching Redis, used by every connection the service or the doctor opens, so
 * none keeps pointing at a dead primary after a failover. `tuning`: the caller's timeouts and retries.
 */
export function redisConnectionOptions(settings: RedisSettings, tuning: RedisOptions = {}): RedisOptions {
  const options: RedisOptions = { ...tuning, reconnectOnError: reconnectOnReadOnly };
  if (!settings.REDIS_SENTINELS) return options;
  return {
    ...options,
    sentinels: parseSentinels(settings.REDIS_SENTINELS),
    name: settings.REDIS_SENTINEL_MASTER,
    password: settings.REDIS_PASSWORD,
    db: settings.REDIS_DB ?? 0,
    // No failoverDetector: its disconnect on +switch-master can land while a reconnect is asking
    // the sentinels, and ioredis then ends the client for good (every command refused until a
    // restart; seen in the failover test). Reconnecting (at most 2 s apart) asks the sentinels anew.
    failoverDetector: false,
  };
}

/** A client on the configured Redis (not yet connected when `tuning.lazyConnect`), or null without one. */
export async function createRedisClient(settings: RedisSettings, tuning: RedisOptions = {}): Promise<Redis | null> {
  if (!settings.REDIS_URL && !settings.REDIS_SENTINELS) return null;
  const { default: Redis } = await import('ioredis');
  const options = redisConnectionOptions(settings, tuning);
  return settings.REDIS_URL ? new Redis(settings.REDIS_URL, options) : new Redis(options);
}
