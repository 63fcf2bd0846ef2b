import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { dropExpiredPartitions, ensureMonthPartitions, LOG_PARTITIONS_LOCK_ID } from './log-partitions';
import { sqlOn } from '../database/sql';
import { tryTransactionLock } from '../database/advisory-locks';

/** How often a running service looks after the partitions: months are made two ahead, so rarely is enough. */
const EVERY_MS = 6 * 3600_000;

export interface MaintenanceResult {
  made: string[];
  dropped: string[];
}

/**
 * Keeps the login log's monthly partitions (log-partitions.ts): at start and every six hours it
 * records the zone of the daily counts, makes the months ahead and drops the months past
 * LOGIN_LOG_RETENTION_MONTHS, in one transaction that one instance at a time runs.
 */
@Injectable()
export class LogMaintenanceService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A failed pass does not stop the service: rows of a month without a partition go to the default one.
    const pass = () =>
      this.run(new Date()).catch((error: unknown) =>
        this.logger.entry('error', 'login log maintenance failed', { error: String(error) }),
      );
    await pass();
    this.timer = setInterval(pass, EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One pass as of `now`; null when another instance is running one. */
  async run(now: Date, retentionMonths = this.config.LOGIN_LOG_RETENTION_MONTHS): Promise<MaintenanceResult | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      if (!(await tryTransactionLock(runner, LOG_PARTITIONS_LOCK_ID))) {
        await runner.rollbackTransaction();
        return null;
      }
      // Raw: the maintenance (time zone of the counters, partitions) runs on this locked transaction's runner.
      const sql = sqlOn(runner);
      const zone = this.config.APP_TIMEZONE;
      const [previous] = await sql('SELECT time_zone FROM login_count_zone');
      if (previous?.time_zone !== zone) {
        await sql('UPDATE login_count_zone SET time_zone = $1', [zone]);
        this.logger.entry('warn', 'login statistics now count days in a new time zone; days already counted keep the old one', {
          previous: previous?.time_zone,
          time_zone: zone,
        });
      }
      const made = await ensureMonthPartitions(sql, now);
      const dropped = await dropExpiredPartitions(sql, now, retentionMonths);
      await runner.commitTransaction();
      if (made.length || dropped.length)
        this.logger.entry('info', 'login log partitions', { made, dropped, retention_months: retentionMonths });
      return { made, dropped };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }
}
