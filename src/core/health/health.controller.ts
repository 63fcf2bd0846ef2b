import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { MetricsService } from '../metrics/metrics.service';
import { ApiAnswer } from '../openapi/api-contract';
import { Check, probe } from './probe';
import { REDIS_CLIENT } from '../store/store.providers';
import { SharedStore } from '../store/shared-store';

const CHECK: SchemaObject = { type: 'string', enum: ['up', 'down', 'not_configured'] };
const READINESS: SchemaObject = {
  type: 'object',
  required: ['status', 'checks'],
  properties: { status: { type: 'string', enum: ['ok', 'unavailable'] }, checks: { type: 'object', properties: { database: CHECK, redis: CHECK } } },
};

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
  @ApiOperation({ summary: 'Liveness: the process is running' })
  @ApiAnswer({ type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } })
  live() {
    return { status: 'ok' };
  }

  /** The database and (when configured) Redis answer; 503 otherwise. */
  @Get('health/ready')
  @ApiOperation({ summary: 'Readiness: the database and (when configured) Redis answer' })
  @ApiAnswer(READINESS, { description: 'Ready' })
  @ApiResponse({ status: 503, description: 'Not ready', content: { 'application/json': { schema: READINESS } } })
  async ready(@Res() res: unknown): Promise<void> {
    const [database, redis] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      this.redis ? probe(() => this.store.ping()) : Promise.resolve<Check>('not_configured'),
    ]);
    const ok = database === 'up' && redis !== 'down';
    this.adapterHost.httpAdapter.reply(res, { status: ok ? 'ok' : 'unavailable', checks: { database, redis } }, ok ? 200 : 503);
  }

  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics (docs/operations.md)' })
  @ApiResponse({ status: 200, description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  renderMetrics(): Promise<string> {
    return this.metrics.render();
  }
}
