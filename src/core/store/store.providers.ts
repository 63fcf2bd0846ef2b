import { DynamicModule, Module, Provider } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { JsonLogger } from '../logging/json-logger';
import { createRedisClient } from './redis-connection';
import { logRedisConnection } from './redis-connection-log';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';
import { SharedStore } from './shared-store';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** The app's one ioredis client (the cache shares it), or null on the in-process default. */
export const redisClientProvider: Provider = {
  provide: REDIS_CLIENT,
  inject: [AppConfig, JsonLogger],
  useFactory: async (config: AppConfig, logger: JsonLogger): Promise<Redis | null> => {
    // Few retries: a Redis fault must surface as SYSTEM_ERROR quickly, never as a silent pass.
    // Auto-pipelining: the commands of all requests issued in one event-loop turn leave in one write.
    const client = await createRedisClient(config, {
      maxRetriesPerRequest: 2,
      connectTimeout: 5000,
      lazyConnect: true,
      enableAutoPipelining: true,
    });
    if (!client) return null;
    logRedisConnection(client, logger);
    await client.connect();
    return client;
  },
};

/**
 * The client in a module of its own, so that CoreModule's cache can be built on it (one connection
 * rule, one connection) and CoreModule can re-export it.
 */
@Module({})
export class RedisClientModule {
  static forRoot(config: AppConfig, logger: JsonLogger): DynamicModule {
    return {
      module: RedisClientModule,
      providers: [{ provide: AppConfig, useValue: config }, { provide: JsonLogger, useValue: logger }, redisClientProvider],
      exports: [REDIS_CLIENT],
    };
  }
}

export const sharedStoreProvider: Provider = {
  provide: SharedStore,
  inject: [REDIS_CLIENT],
  useFactory: (redis: Redis | null): SharedStore => (redis ? new RedisStore(redis) : new MemoryStore()),
};
