import { CacheModule } from '@nestjs/cache-manager';
import { DynamicModule, Global, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Keyv } from 'keyv';
import type Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { HotCache } from './cache/hot-cache';
import { redisPersistence, redisPersistenceWarning } from './health/readiness';
import { ProgramCache } from './cache/program-cache';
import { loadEncryptionKey } from './crypto/encryption-key';
import { SecretBox } from './crypto/secret-box';
import { JsonLogger } from './logging/json-logger';
import { FailureLimiter } from './throttling/failure-limiter';
import { MemoryStore } from './store/memory-store';
import { REDIS_CLIENT, redisClientProvider, sharedStoreProvider } from './store/store.providers';
import { SharedStore } from './store/shared-store';
import { ReadinessChecks } from './health/readiness-checks';

/** @keyv/redis replaces the deprecated cache-manager-redis-yet (see README); loaded only with Redis. */
async function redisCacheStore(url: string): Promise<Keyv> {
  const { default: KeyvRedis } = await import('@keyv/redis');
  return new Keyv({ store: new KeyvRedis(url), namespace: 'ck-cache' });
}

/** Framework-neutral plumbing: config, logging, secrets, shared state, cache, failure limits (HttpModule has the HTTP side). */
@Global()
@Module({})
export class CoreModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    private readonly store: SharedStore,
    private readonly logger: JsonLogger,
  ) {}

  static forRoot(config: AppConfig, logger: JsonLogger): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        CacheModule.registerAsync({
          isGlobal: true,
          useFactory: async () => ({
            ttl: 30_000,
            ...(config.REDIS_URL ? { stores: [await redisCacheStore(config.REDIS_URL)] } : {}),
          }),
        }),
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: JsonLogger, useValue: logger },
        { provide: SecretBox, useFactory: () => new SecretBox(loadEncryptionKey(config)) },
        redisClientProvider,
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
        REDIS_CLIENT,
        SharedStore,
        HotCache,
        ProgramCache,
        FailureLimiter,
        ReadinessChecks,
      ],
    };
  }

  /** Says at start when Redis would forget nonces, counters and quotas on a restart; the start does not wait for it. */
  onApplicationBootstrap(): void {
    if (!this.redis) return;
    void redisPersistence(this.redis).then(
      (persistence) => {
        const warning = redisPersistenceWarning(persistence);
        if (warning) this.logger.warn(warning, 'Redis');
      },
      () => undefined, // an unreachable Redis is readiness's to report
    );
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.store instanceof MemoryStore) this.store.close();
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}
