import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { toInt, emptyToUndefined } from './setting-transforms';
import { LimitSettings } from './limit-settings';

/**
 * Logging, proxies, TLS, shutdown, workers, files, backups, readiness, retention and the console.
 * Part of AppConfig (app-config.ts), validated with it.
 */
export class OperationsSettings extends LimitSettings {
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error'])
  LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' = 'info';

  /** One access-log line per request at info (docs/operations.md); `off` drops them. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['on', 'off'])
  ACCESS_LOG: 'on' | 'off' = 'on';

  /** Comma-separated proxy addresses whose X-Forwarded-For is believed; empty = trust none. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_PROXY = '';

  /** `production` refuses V3 and SDK requests that did not arrive over HTTPS (decisions §22). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /** PEM certificate (chain) and private key: with both, the service listens with TLS; SIGHUP re-reads them. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  TLS_CERT_FILE?: string;
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  TLS_KEY_FILE?: string;

  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(120000)
  SHUTDOWN_GRACE_MS = 10000;

  /**
   * Processes serving HTTP (docs/operations.md, "Every core"): `auto` = `autoWorkers` with
   * DATABASE_URL and REDIS_URL, else 1; 1 = one process, no cluster primary. See `workerCount`.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(auto|[1-9]\d{0,2})$/, { message: 'WORKERS must be auto or a number of processes from 1 to 999' })
  WORKERS = 'auto';

  /** Where uploaded files are kept; unset = `<DATA_DIR>/files` (see `filesDir`). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  FILES_DIR?: string;

  /** Where backups are written and listed; unset = `<DATA_DIR>/backups` (see `backupDir`). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  BACKUP_DIR?: string;

  /** Hours between scheduled backups, taken by one instance of a deployment; 0 = no schedule. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(24 * 366)
  BACKUP_INTERVAL_HOURS = 24;

  /**
   * A start that finds migrations to run on a database holding projects first writes a backup into
   * BACKUP_DIR (trigger `upgrade`), the way back if the new release must be rolled back; `false`
   * skips it (an operator with backups of their own, e.g. PostgreSQL point-in-time recovery).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['true', 'false'])
  BACKUP_BEFORE_UPGRADE: 'true' | 'false' = 'true';

  /** Scheduled backups kept; older ones are deleted after each new one (made by hand: kept). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  BACKUP_KEEP = 7;

  /**
   * Readiness fails when the data directory (embedded database, uploaded files) has less free space
   * than this, in MiB: a full disk fails every login, so the instance should leave the balancer first.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1024 * 1024)
  READY_MIN_FREE_MB = 64;

  /** Largest file an author may upload, in bytes (50 MiB). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10 * 1024 ** 3)
  FILE_MAX_BYTES = 50 * 1024 * 1024;

  /** Lifetime of a signed download address (`/api/download/{id}?expires=…&sig=…`). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(10)
  @Max(7 * 86400)
  DOWNLOAD_URL_TTL_SECONDS = 600;

  /**
   * Months of login log kept besides the current one (whole monthly partitions are dropped past it;
   * the daily statistics stay); 0 keeps every row.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1200)
  LOGIN_LOG_RETENTION_MONTHS = 0;

  /**
   * Hot statements as named prepared statements (with DATABASE_URL only). `false` behind a pooler
   * that cannot keep them across transactions (PgBouncer in transaction mode before 1.21).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['true', 'false'])
  DATABASE_PREPARED_STATEMENTS: 'true' | 'false' = 'true';

  /** The built web console served at /console; unset = console/dist of this checkout (`npm run build`). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  CONSOLE_DIR?: string;

  /** Adds the benchmark's bare baseline route (bench/run.ts); never set in production. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['0', '1'])
  BENCH_BASELINE: '0' | '1' = '0';
}
