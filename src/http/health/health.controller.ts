import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { DeclareAuthScheme } from '../auth-scheme';
import { MetricsService } from '../metrics/metrics.service';
import { ApiAnswer } from '../openapi/api-contract';
import { Check, probe } from '../../core/health/probe';
import {
  databaseTakesWrite,
  directoryTakesWrite,
  freeMiB,
  RedisPersistence,
  redisPersistence,
  redisPersistenceWarning,
} from '../../core/health/readiness';
import { REDIS_CLIENT } from '../../core/store/store.providers';
import { SharedStore } from '../../core/store/shared-store';
import { ReadinessChecks } from '../../core/health/readiness-checks';

const LIVE: SchemaObject = { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } };
const CHECK: SchemaObject = { type: 'string', enum: ['up', 'down', 'not_configured'] };
const READINESS: SchemaObject = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: {
      type: 'object',
      properties: {
        database: CHECK,
        redis: CHECK,
        disk: CHECK,
        schema: { ...CHECK, description: 'every migration this release knows is applied' },
        login: { ...CHECK, description: "a card login's own statement runs (it matches nothing and writes nothing)" },
      },
    },
    redis_persistence: { type: 'string', enum: ['aof', 'rdb', 'none', 'unknown', 'not_configured'] },
    warnings: { type: 'array', items: { type: 'string' }, description: 'What an operator should fix, ready or not' },
  },
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
    private readonly config: AppConfig,
    private readonly readiness: ReadinessChecks,
  ) {}

  /** The process is running. */
  @Get('health/live')
  @ApiOperation({ summary: 'Liveness: the process is running' })
  @ApiAnswer(LIVE)
  live() {
    return { status: 'ok' };
  }

  /**
   * The path an uptime checker or a proxy tries first answers as liveness: it never fails on a
   * dependency (that is /health/ready), so a slow database never makes a supervisor restart a process
   * that would recover.
   */
  @Get('health')
  @ApiOperation({ summary: 'Liveness, as /health/live: the process is running' })
  @ApiAnswer(LIVE)
  health() {
    return this.live();
  }

  /**
   * The database takes a durable write, the data directory takes a write and has room, (when
   * configured) Redis answers, and the checks the domain adds pass (the schema is current, a login's
   * own statement runs); 503 otherwise. A full disk fails every login while `SELECT 1` still
   * answers, so the instance leaves the balancer instead. A Redis without AOF is ready but warned of.
   */
  @Get('health/ready')
  @ApiOperation({
    summary:
      "Readiness: the database and data directory take a write, Redis (when configured) answers, the schema is current and a login's statement runs",
  })
  @ApiAnswer(READINESS, { description: 'Ready' })
  @ApiResponse({ status: 503, description: 'Not ready', content: { 'application/json': { schema: READINESS } } })
  async ready(@Res() res: unknown): Promise<void> {
    const warnings: string[] = [];
    const [database, redis, disk, persistence, added] = await Promise.all([
      probe(() => databaseTakesWrite(this.dataSource)),
      this.redis ? probe(() => this.store.ping()) : Promise.resolve<Check>('not_configured'),
      this.diskCheck(warnings),
      this.redis
        ? redisPersistence(this.redis).catch((): RedisPersistence => 'unknown')
        : Promise.resolve('not_configured' as const),
      this.readiness.run(),
    ]);
    const persistenceWarning = persistence === 'not_configured' ? null : redisPersistenceWarning(persistence);
    if (persistenceWarning) warnings.push(persistenceWarning);
    const ok = database === 'up' && redis !== 'down' && disk === 'up' && Object.values(added).every((check) => check === 'up');
    const body = {
      status: ok ? 'ok' : 'unavailable',
      checks: { database, redis, disk, ...added },
      redis_persistence: persistence,
      ...(warnings.length ? { warnings } : {}),
    };
    this.adapterHost.httpAdapter.reply(res, body, ok ? 200 : 503);
  }

  private async diskCheck(warnings: string[]): Promise<Check> {
    const dir = this.config.DATA_DIR;
    if ((await probe(() => directoryTakesWrite(dir))) === 'down') {
      warnings.push(`The data directory ${dir} cannot take a write`);
      return 'down';
    }
    const free = await freeMiB(dir).catch(() => null);
    if (free !== null && free < this.config.READY_MIN_FREE_MB) {
      warnings.push(
        `The data directory ${dir} has ${Math.floor(free)} MiB free, under READY_MIN_FREE_MB (${this.config.READY_MIN_FREE_MB})`,
      );
      return 'down';
    }
    return 'up';
  }

  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics (docs/operations.md)' })
  @ApiResponse({ status: 200, description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  renderMetrics(): Promise<string> {
    return this.metrics.render();
  }
}
