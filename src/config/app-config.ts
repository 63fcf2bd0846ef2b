import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { kernelFileSystem } from './kernel-file-system';
import { autoWorkers, databaseOnThisHost } from './worker-count';
import { isTimeZone } from './setting-transforms';
import { DeliverySettings } from './delivery-settings';

/**
 * Every environment variable the service reads, validated once at boot. Each is declared with its
 * default and rule in one of four parts, joined here by inheritance so that one class is validated:
 * server, limit, operations and delivery settings. Defaults live there and nowhere else. Fields
 * marked "secret" are never logged.
 */
export class AppConfig extends DeliverySettings {
  /** Whether V3 and SDK requests must arrive over HTTPS (decisions §22: the spec's "V3 always uses HTTPS"). */
  get requiresHttps(): boolean {
    return this.NODE_ENV === 'production';
  }

  get servesTls(): boolean {
    return Boolean(this.TLS_CERT_FILE && this.TLS_KEY_FILE);
  }

  get usesEmbeddedDatabase(): boolean {
    return !this.DATABASE_URL;
  }

  /** Whether nonces, quotas and limits live in Redis (REDIS_URL or Sentinel) rather than in process. */
  get usesRedis(): boolean {
    return Boolean(this.REDIS_URL || this.REDIS_SENTINELS);
  }

  /** Whether every piece of shared state is outside the process (PostgreSQL and Redis), so processes may share the load. */
  get sharesStateOutOfProcess(): boolean {
    return Boolean(this.DATABASE_URL && this.usesRedis);
  }

  /** How many HTTP worker processes to run: WORKERS, with `auto` resolved by `autoWorkers` (1 without shared state). */
  get workerCount(): number {
    if (this.WORKERS !== 'auto') return Number(this.WORKERS);
    return this.sharesStateOutOfProcess ? autoWorkers(availableParallelism(), databaseOnThisHost(this.DATABASE_URL)) : 1;
  }

  /** PUBLIC_URL without a trailing slash, or null when unset: the storefront's addresses are built under it. */
  get publicUrl(): string | null {
    return this.PUBLIC_URL ? this.PUBLIC_URL.replace(/\/+$/, '') : null;
  }

  get filesDir(): string {
    return this.FILES_DIR ?? join(this.DATA_DIR, 'files');
  }

  get backupDir(): string {
    return this.BACKUP_DIR ?? join(this.DATA_DIR, 'backups');
  }
}

export const CONFIG_KEYS = [
  'PORT',
  'HOST',
  'HTTP_ADAPTER',
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'MIGRATION_DATABASE_URL',
  'REDIS_URL',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_MASTER',
  'REDIS_PASSWORD',
  'REDIS_DB',
  'DATA_DIR',
  'BACKUP_DIR',
  'BACKUP_INTERVAL_HOURS',
  'BACKUP_KEEP',
  'BACKUP_BEFORE_UPGRADE',
  'APP_ENCRYPTION_KEY',
  'APP_TIMEZONE',
  'CURRENCY',
  'PUBLIC_URL',
  'ADMIN_USERNAME',
  'ADMIN_PASSWORD',
  'ADMIN_TOKEN_TTL_SECONDS',
  'ADMIN_LOGIN_ATTEMPTS_PER_MINUTE',
  'APP_USER_LOGIN_ATTEMPTS_PER_MINUTE',
  'TRANSPORT_FAILURES_PER_MINUTE',
  'PORTAL_FAILURES_PER_MINUTE',
  'PORTAL_CALLS_PER_CARD_PER_MINUTE',
  'LOG_LEVEL',
  'ACCESS_LOG',
  'TRUST_PROXY',
  'SHUTDOWN_GRACE_MS',
  'LOGIN_LOG_RETENTION_MONTHS',
  'WORKERS',
  'BENCH_BASELINE',
  'FILES_DIR',
  'FILE_MAX_BYTES',
  'DOWNLOAD_URL_TTL_SECONDS',
  'DATABASE_PREPARED_STATEMENTS',
  'CONSOLE_DIR',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_REGISTER_PER_ADDRESS',
  'RATE_LIMIT_REGISTER_PER_PROGRAM',
  'RATE_LIMIT_SIGN_IN_PER_ADDRESS',
  'RATE_LIMIT_SIGN_IN_PER_ACCOUNT',
  'RATE_LIMIT_PORTAL_PER_ADDRESS',
  'RATE_LIMIT_UNBIND_PER_ADDRESS',
  'RATE_LIMIT_UNBIND_PER_CARD',
  'RATE_LIMIT_ORDERS_PER_ADDRESS',
  'RATE_LIMIT_ORDERS_PER_ACCOUNT',
  'RATE_LIMIT_SHOP_CHECKOUTS_PER_ADDRESS',
  'RATE_LIMIT_SHOP_STATUS_PER_ADDRESS',
  'RATE_LIMIT_SHOP_NOTIFY_PER_ADDRESS',
  'RATE_LIMIT_ADMIN_WRITE_PER_ADDRESS',
  'RATE_LIMIT_ADMIN_WRITE_PER_ACCOUNT',
  'RATE_LIMIT_IPV6_PREFIX',
  'READY_MIN_FREE_MB',
  'NODE_ENV',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'WEBHOOK_RETRY_DELAYS',
  'WEBHOOK_POLL_MS',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_PER_ENDPOINT',
  'WEBHOOK_PER_PROJECT',
  'WEBHOOK_ENDPOINTS_PER_PROJECT',
  'SMTP_URL',
  'MAIL_FROM',
  'MAIL_RETRY_DELAYS',
  'MAIL_POLL_MS',
  'EXPIRY_SCAN_MS',
  'REQUEST_LOG',
] as const;

export class ConfigError extends Error {}

/** Builds the config from an environment, or throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const input: Record<string, unknown> = {};
  // An empty variable means unset: passing it on would replace the default with undefined.
  for (const key of CONFIG_KEYS) if (env[key] !== undefined && env[key] !== '') input[key] = env[key];
  const config = plainToInstance(AppConfig, input);
  const problems = validateSync(config, { forbidUnknownValues: false }).map(
    (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`,
  );
  if (!isTimeZone(config.APP_TIMEZONE)) problems.push(`APP_TIMEZONE: unknown time zone "${config.APP_TIMEZONE}"`);
  if (!Intl.supportedValuesOf('currency').includes(config.CURRENCY))
    problems.push(`CURRENCY: unknown currency "${config.CURRENCY}"`);
  if (config.DATABASE_URL && !config.APP_ENCRYPTION_KEY) {
    problems.push('APP_ENCRYPTION_KEY: required when DATABASE_URL is set');
  }
  if (config.DATABASE_READ_URL && !config.DATABASE_URL) {
    problems.push('DATABASE_READ_URL: needs DATABASE_URL (a replica of the embedded database cannot exist)');
  }
  if (config.MIGRATION_DATABASE_URL && !config.DATABASE_URL) {
    problems.push('MIGRATION_DATABASE_URL: needs DATABASE_URL (the embedded database migrates itself)');
  }
  if (config.REDIS_URL && config.REDIS_SENTINELS) {
    problems.push('REDIS_URL and REDIS_SENTINELS: set one (a direct Redis, or the sentinels in front of one), not both');
  }
  if (config.REDIS_SENTINELS && !config.REDIS_SENTINEL_MASTER) {
    problems.push('REDIS_SENTINEL_MASTER: required when REDIS_SENTINELS is set (the master name the sentinels monitor)');
  }
  if (config.WORKERS !== 'auto' && Number(config.WORKERS) > 1 && !config.sharesStateOutOfProcess) {
    problems.push(
      `WORKERS: ${config.WORKERS} processes need DATABASE_URL and REDIS_URL or REDIS_SENTINELS (the embedded database and the in-process stores serve one process); use 1 or auto`,
    );
  }
  if (config.SMTP_URL && !config.MAIL_FROM) {
    problems.push('MAIL_FROM: required when SMTP_URL is set (the sender of every mail)');
  }
  if (Boolean(config.TLS_CERT_FILE) !== Boolean(config.TLS_KEY_FILE)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE: set both (PEM files) to serve HTTPS, or neither');
  }
  for (const [key, dir] of [
    ['DATA_DIR', config.DATA_DIR],
    ['FILES_DIR', config.FILES_DIR],
    ['BACKUP_DIR', config.BACKUP_DIR],
  ] as const) {
    const kernel = dir ? kernelFileSystem(dir) : null;
    if (kernel) {
      problems.push(`${key}: ${dir} is on ${kernel}, a kernel file system that keeps no files; use a directory on a disk`);
    }
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return config;
}
