import { CacheModule } from '@nestjs/cache-manager';
import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Keyv } from 'keyv';
import type Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { HotCache } from './cache/hot-cache';
import { ProgramCache } from './cache/program-cache';
import { loadEncryptionKey } from './crypto/encryption-key';
import { SecretBox } from './crypto/secret-box';
import { JsonLogger } from './logging/json-logger';
import { FailureLimiter } from './throttling/failure-limiter';
import { MemoryStore } from './store/memory-store';
import { REDIS_CLIENT, RedisClientModule, sharedStoreProvider } from './store/store.providers';
import { RedisKeyvStore } from './cache/redis-keyv-store';
import { SharedStore } from './store/shared-store';
import { ReadinessChecks } from './health/readiness-checks';

/** The shared cache on the app's ioredis client: the same connection, so it follows a Sentinel failover too. */
function redisCacheStore(redis: Redis): Keyv {
  return new Keyv({ store: new RedisKeyvStore(redis), namespace: 'ck-cache' });
}

/**
 * Framework-neutral plumbing: config, logging, secrets, shared state, cache, failure limits (HttpModule
 * has the HTTP side). Redis without AOF is said at start once, by the start checks (the `redis`
 * finding of src/doctor, printed by the first worker only), and by readiness: not here as well.
 */
@Global()
@Module({})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    private readonly store: SharedStore,
  ) {}

  static forRoot(config: AppConfig, logger: JsonLogger): DynamicModule {
    // One module object imported twice is one module: one client for the cache and everyone else.
    const redisClientModule = RedisClientModule.forRoot(config, logger);
    return {
      module: CoreModule,
      imports: [
        redisClientModule,
        CacheModule.registerAsync({
          isGlobal: true,
          imports: [redisClientModule],
          inject: [REDIS_CLIENT],
          useFactory: (redis: Redis | null) => ({
            ttl: 30_000,
            ...(redis ? { stores: [redisCacheStore(redis)] } : {}),
          }),
        }),
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: JsonLogger, useValue: logger },
        { provide: SecretBox, useFactory: () => new SecretBox(loadEncryptionKey(config)) },
        sharedStoreProvider,
        HotCache,
        ProgramCache,
        FailureLimiter,
        ReadinessChecks,
      ],
      exports: [
        AppConfig,
        JsonLogger,
        SecretBox,
        redisClientModule,
        SharedStore,
        HotCache,
        ProgramCache,
        FailureLimiter,
        ReadinessChecks,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.store instanceof MemoryStore) this.store.close();
    await this.redis?.quit().catch(() => undefined);
    // Also closes what QUIT leaves open: the sentinel connections watching for a failover.
    this.redis?.disconnect();
  }
}
