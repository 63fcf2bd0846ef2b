import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiTags } from '@nestjs/swagger';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { MetricsService } from '../metrics/metrics.service';
import { REDIS_CLIENT } from '../store/store.providers';
import { SharedStore } from '../store/shared-store';

type Check = 'up' | 'down' | 'not_configured';

@ApiTags('operations')
@DeclareAuthScheme('none')
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: SharedStore,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    private readonly metrics: MetricsService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The process is running. */
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  /** The database and (when configured) Redis answer; 503 otherwise. */
  @Get('health/ready')
  async ready(@Res() res: unknown): Promise<void> {
    const [database, redis] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      this.redis ? probe(() => this.store.ping()) : Promise.resolve<Check>('not_configured'),
    ]);
    const ok = database === 'up' && redis !== 'down';
    this.adapterHost.httpAdapter.reply(res, { status: ok ? 'ok' : 'unavailable', checks: { database, redis } }, ok ? 200 : 503);
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  renderMetrics(): Promise<string> {
    return this.metrics.render();
  }
}

async function probe(check: () => Promise<unknown>): Promise<Check> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
    return 'up';
  } catch {
    return 'down';
  }
}
