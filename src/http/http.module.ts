import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { SharedStore } from '../core/store/shared-store';
import { rateLimitThrottlers } from '../core/throttling/rate-limits';
import { SharedThrottlerStorage } from '../core/throttling/shared-throttler-storage';
import { EnvelopeExceptionFilter } from './envelope/envelope-exception.filter';
import { InputBoundaryGuard } from './input-boundary.guard';
import { BackendGauges } from './metrics/backend-gauges';
import { MetricsService } from './metrics/metrics.service';
import { RequestObserver } from './request-observer';
import { RouteRegistry } from './route-registry';

/**
 * The HTTP plumbing every route passes: the route registry, the input boundary, the envelope's
 * exception filter, request rates, metrics and the request observer. On top of CoreModule (config,
 * logger, shared store), which knows nothing of HTTP.
 */
@Global()
@Module({})
export class HttpModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: HttpModule,
      imports: [
        DiscoveryModule,
        // Named request-rate limits, counted in the shared store; applied per route with @RateLimit, never globally.
        ThrottlerModule.forRootAsync({
          inject: [SharedStore],
          useFactory: (store: SharedStore) => ({
            throttlers: rateLimitThrottlers(config),
            storage: new SharedThrottlerStorage(store),
          }),
        }),
      ],
      providers: [
        RouteRegistry,
        MetricsService,
        BackendGauges,
        RequestObserver,
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
        // Global, so it runs before every route's own guards.
        { provide: APP_GUARD, useClass: InputBoundaryGuard },
      ],
      exports: [RouteRegistry, MetricsService, RequestObserver],
    };
  }
}
