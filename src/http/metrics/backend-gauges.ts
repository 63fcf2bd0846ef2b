import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { Gauge, type Aggregator } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { timedProbe } from '../../core/health/probe';
import { REDIS_CLIENT } from '../../core/store/store.providers';
import { SharedStore } from '../../core/store/shared-store';
import { MetricsService } from './metrics.service';

/** A scrape probes the database and Redis at most this often; scrapes in between read the last values. */
export const PROBE_INTERVAL_MS = 5000;

/** The node-postgres pool under TypeORM's postgres driver (the embedded database has one too, of one connection). */
interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The gauges read at scrape time: active sessions, database and store health. Counting sessions
 * and pinging Redis cost a round trip each, so they run at most every PROBE_INTERVAL_MS, whatever
 * the scrape rate; the pool figures are read from memory on every scrape, once the probe is done.
 */
@Injectable()
export class BackendGauges {
  private probed: Promise<void> | undefined;
  private probedAt = -Infinity;
  private sessions = { card: 0, user: 0 };
  private databaseUp = 0;
  private storeUp = 0;
  private pingSeconds: number | null = null;

  constructor(
    private readonly metrics: MetricsService,
    config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly store: SharedStore,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {
    const database = config.usesEmbeddedDatabase ? 'embedded' : 'postgresql';
    const storeKind = redis ? 'redis' : 'in_process';
    // How each gauge merges across the workers of a clustered service (cluster-metrics.ts): the
    // session count is one figure of the shared database that every worker reads (max: the freshest
    // count rarely differs, a sum would multiply it); up is the worst worker's view (min); the pools
    // are each worker's own connections (sum: what the database serves); the ping is the slowest (max).
    this.gauge(
      'active_sessions',
      'SDK sessions neither revoked nor expired, by type (card, user); counted at most every 5 s',
      ['type'],
      'max',
      (gauge) => {
        gauge.set({ type: 'card' }, this.sessions.card);
        gauge.set({ type: 'user' }, this.sessions.user);
      },
    );
    this.gauge(
      'database_up',
      'Whether the database answered the last probe within 2 s (1) or not (0)',
      ['database'],
      'min',
      (gauge) => {
        gauge.set({ database }, this.databaseUp);
      },
    );
    // Read after the probe: the scrape's own query must not show up as a waiting client.
    this.gauge(
      'database_pool_clients',
      'node-postgres pool: connections open (total), idle, and queries waiting for a connection (waiting)',
      ['state'],
      'sum',
      (gauge) => {
        const pool = this.pool();
        if (!pool) return;
        gauge.set({ state: 'total' }, pool.totalCount);
        gauge.set({ state: 'idle' }, pool.idleCount);
        gauge.set({ state: 'waiting' }, pool.waitingCount);
      },
    );
    this.gauge(
      'store_up',
      'Whether the shared store (Redis, or the in-process store) answered the last probe within 2 s',
      ['store'],
      'min',
      (gauge) => {
        gauge.set({ store: storeKind }, this.storeUp);
      },
    );
    if (redis) {
      this.gauge('redis_ping_seconds', 'Round trip of the last Redis PING', [], 'max', (gauge) => {
        if (this.pingSeconds !== null) gauge.set(this.pingSeconds);
      });
    }
  }

  /** A gauge filled at scrape time from the last probe (refreshed first when it is older than the interval). */
  private gauge(name: string, help: string, labelNames: string[], aggregator: Aggregator, fill: (gauge: Gauge) => void): void {
    const refresh = () => this.refresh();
    new Gauge({
      name,
      help,
      labelNames,
      aggregator,
      registers: [this.metrics.registry],
      // prom-client calls `collect` with the gauge as `this`.
      async collect() {
        await refresh();
        fill(this);
      },
    });
  }

  private pool(): PoolStats | undefined {
    const master = (this.dataSource.driver as unknown as { master?: Partial<PoolStats> }).master;
    return typeof master?.totalCount === 'number' ? (master as PoolStats) : undefined;
  }

  /** Probes once per interval; concurrent collectors of one scrape share the same probe. */
  private refresh(): Promise<void> {
    if (performance.now() - this.probedAt < PROBE_INTERVAL_MS) return this.probed ?? Promise.resolve();
    this.probedAt = performance.now();
    this.probed = Promise.all([this.probeDatabase(), this.probeStore()]).then(() => undefined);
    return this.probed;
  }

  private async probeDatabase(): Promise<void> {
    let rows: Array<{ type: string; n: number }> = [];
    const took = this.dataSource.isInitialized ? await timedProbe(async () => (rows = await this.activeSessions())) : null;
    this.databaseUp = took === null ? 0 : 1;
    // A failed count keeps the last figures: a database outage is database_up, not zero sessions.
    if (took !== null) this.sessions = { card: countOf(rows, 'card'), user: countOf(rows, 'app_user') };
  }

  /** Live sessions by type. The table by name: the HTTP layer sits below the sessions' folder and its entity. */
  private activeSessions(): Promise<Array<{ type: string; n: number }>> {
    return this.dataSource
      .createQueryBuilder()
      .select('s.type', 'type')
      .addSelect('count(*)::int', 'n')
      .from('sessions', 's')
      .where('s.revoked_at IS NULL AND s.expires_at > now()')
      .groupBy('s.type')
      .getRawMany();
  }

  private async probeStore(): Promise<void> {
    if (!this.redis) {
      this.storeUp = 1;
      return;
    }
    this.pingSeconds = await timedProbe(() => this.store.ping());
    this.storeUp = this.pingSeconds === null ? 0 : 1;
  }
}

function countOf(rows: Array<{ type: string; n: number }>, type: string): number {
  return rows.find((row) => row.type === type)?.n ?? 0;
}
