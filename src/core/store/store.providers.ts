import { Provider } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { JsonLogger } from '../logging/json-logger';
import { logRedisConnection } from './redis-connection-log';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';
import { SharedStore } from './shared-store';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** The app's one ioredis client, or null on the in-process default. */
export const redisClientProvider: Provider = {
  provide: REDIS_CLIENT,
  inject: [AppConfig, JsonLogger],
  useFactory: async (config: AppConfig, logger: JsonLogger): Promise<Redis | null> => {
    if (!config.REDIS_URL) return null;
    // Few retries: a Redis fault must surface as SYSTEM_ERROR quickly, never as a silent pass.
    const { default: Redis } = await import('ioredis');
    // Auto-pipelining: the commands of all requests issued in one event-loop turn leave in one write.
    const client = new Redis(config.REDIS_URL, {
      maxRetriesPerRequest: 2,
      connectTimeout: 5000,
      lazyConnect: true,
      enableAutoPipelining: true,
    });
    logRedisConnection(client, logger);
    await client.connect();
    return client;
  },
};

export const sharedStoreProvider: Provider = {
  provide: SharedStore,
  inject: [REDIS_CLIENT],
  useFactory: (redis: Redis | null): SharedStore => (redis ? new RedisStore(redis) : new MemoryStore()),
};
