import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import { AdminAuthModule } from './admin-auth/admin-auth.module';
import { AuthorsModule } from './authors/authors.module';
import { CardsModule } from './cards/cards.module';
import { ConnectModule } from './connect/connect.module';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core/core.module';
import { HealthController } from './core/health/health.controller';
import { JsonLogger } from './core/logging/json-logger';
import { REDIS_CLIENT } from './core/store/store.providers';
import { DatabaseModule } from './database/database.module';
import { PlatformModule } from './platform/platform.module';
import { ProjectsModule } from './projects/projects.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: JsonLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, logger),
        DatabaseModule.forRoot(),
        ThrottlerModule.forRootAsync({
          inject: [REDIS_CLIENT],
          // Rate-limit counters live in Redis when configured, so every instance counts together.
          useFactory: (redis: Redis | null) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: 600 }],
            ...(redis ? { storage: new ThrottlerStorageRedisService(redis) } : {}),
          }),
        }),
        AdminAuthModule,
        AuthorsModule,
        PlatformModule,
        ProjectsModule,
        CardsModule,
        ConnectModule,
      ],
      controllers: [HealthController],
    };
  }
}
