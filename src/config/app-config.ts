import { applyDecorators } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';
import { kernelFileSystem } from './kernel-file-system';
import { autoWorkers, databaseOnThisHost } from './worker-count';

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A request-rate limit: requests a window, 0 = that scope off. */
const RateLimitSetting = () => applyDecorators(Transform(toInt), IsOptional(), IsInt(), Min(0), Max(1_000_000));

/**
 * Every environment variable the service reads, validated once at boot.
 * Defaults live here and nowhere else. Fields marked "secret" are never logged.
 */
export class AppConfig {
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  HOST = '0.0.0.0';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['express', 'fastify'])
  // Fastify by default: Express spends 1.3–2.7 × Fastify's CPU per login (README, "Stack notes"), and
  // the default adapter must not be the slow one. Express stays supported and tested.
  HTTP_ADAPTER: 'express' | 'fastify' = 'fastify';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /**
   * A streaming replica of DATABASE_URL for the admin API's heavy reads (logs, statistics, card
   * lists and exports); client routes and an account's reads just after its own writes stay on
   * the primary.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_READ_URL must be a postgres:// URL' })
  DATABASE_READ_URL?: string;

  /**
   * Where the migrations run, when not over DATABASE_URL: a direct connection past the pooler, or a
   * role that owns the schema while DATABASE_URL's role only reads and writes rows.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'MIGRATION_DATABASE_URL must be a postgres:// URL' })
  MIGRATION_DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Redis behind Sentinel (instead of REDIS_URL): the sentinels to ask where the primary is. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, {
    message: 'REDIS_SENTINELS must be host:port[,host:port...]',
  })
  REDIS_SENTINELS?: string;

  /** The master name the sentinels monitor (`sentinel monitor <name> ...`). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'REDIS_SENTINEL_MASTER must be 1-64 of [A-Za-z0-9_.-]' })
  REDIS_SENTINEL_MASTER?: string;

  /** secret: the Redis password with Sentinel (REDIS_URL carries its own). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  REDIS_PASSWORD?: string;

  /** The Redis database number with Sentinel (REDIS_URL carries its own). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(15)
  REDIS_DB?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  /** secret: 32 bytes as 64 hex characters or base64. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, {
    message: 'APP_ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64',
  })
  APP_ENCRYPTION_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  APP_TIMEZONE = 'UTC';

  /** ISO 4217 code of every amount in cents (prices, balances, the ledger): the console shows its sign. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'CURRENCY must be an ISO 4217 code of three capitals, e.g. CNY' })
  CURRENCY = 'CNY';

  /**
   * The address buyers and payment gateways reach this service at (decisions §26), e.g.
   * `https://keys.example.com` (a path is kept: `https://example.com/keys`): the storefront's return
   * address and the gateways' notify addresses are built under it. Unset: every checkout is
   * refused (PUBLIC_URL_NOT_SET) and no payment provider can be switched on.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
    message: 'PUBLIC_URL must be an http:// or https:// address without query or fragment, e.g. https://keys.example.com',
  })
  PUBLIC_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.-]{3,32}$/, { message: 'ADMIN_USERNAME must be 3-32 of [A-Za-z0-9_.-]' })
  ADMIN_USERNAME = 'admin';

  /** secret */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(128)
  ADMIN_PASSWORD?: string;

  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(30 * 86400)
  ADMIN_TOKEN_TTL_SECONDS = 12 * 3600;

  /** Failed admin logins a minute per account (any address) and per client address (any account). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  ADMIN_LOGIN_ATTEMPTS_PER_MINUTE = 10;

  /** Failed program-user logins a minute per (project, username) and per (project, client address). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  APP_USER_LOGIN_ATTEMPTS_PER_MINUTE = 10;

  /** Legacy transport ciphertexts that fail to open, a minute per client address, before RATE_LIMITED. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  TRANSPORT_FAILURES_PER_MINUTE = 20;

  /** Card-holder portal calls (decisions §14): unknown card keys a minute per client address, before RATE_LIMITED. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  PORTAL_FAILURES_PER_MINUTE = 10;

  /** Card-holder portal calls a minute per card, whatever their outcome. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  PORTAL_CALLS_PER_CARD_PER_MINUTE = 20;

  /**
   * Request-rate limits (src/core/throttling/rate-limits.ts, docs/operations.md "Request-rate
   * limits"): requests a window per scope, successes included; 0 turns that scope off.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86400)
  RATE_LIMIT_WINDOW_SECONDS = 60;

  /** Program-user registrations (every route) per client address. */
  @RateLimitSetting() RATE_LIMIT_REGISTER_PER_ADDRESS = 10;
  /** Program-user registrations per program, from any address. */
  @RateLimitSetting() RATE_LIMIT_REGISTER_PER_PROGRAM = 600;
  /** Admin and program-user sign-ins per client address, successes included. */
  @RateLimitSetting() RATE_LIMIT_SIGN_IN_PER_ADDRESS = 60;
  /** Sign-ins per account (admin username; program and username), from any address. */
  @RateLimitSetting() RATE_LIMIT_SIGN_IN_PER_ACCOUNT = 30;
  /** Card-holder portal calls per client address (per card: PORTAL_CALLS_PER_CARD_PER_MINUTE). */
  @RateLimitSetting() RATE_LIMIT_PORTAL_PER_ADDRESS = 60;
  /** End-user unbinds (SDK, legacy routes and action) per client address. */
  @RateLimitSetting() RATE_LIMIT_UNBIND_PER_ADDRESS = 30;
  /** End-user unbinds per card (program and key), from any address. */
  @RateLimitSetting() RATE_LIMIT_UNBIND_PER_CARD = 10;
  /** Orders per client address. */
  @RateLimitSetting() RATE_LIMIT_ORDERS_PER_ADDRESS = 120;
  /** Orders per admin account or API key. */
  @RateLimitSetting() RATE_LIMIT_ORDERS_PER_ACCOUNT = 60;
  /** Storefront checkouts made per client address (each may reserve stock cards for 15 minutes). */
  @RateLimitSetting() RATE_LIMIT_SHOP_CHECKOUTS_PER_ADDRESS = 10;
  /** Storefront checkout status reads per client address (the return page polls while a payment is pending). */
  @RateLimitSetting() RATE_LIMIT_SHOP_STATUS_PER_ADDRESS = 120;
  /** Payment gateways' notifications per client address (a gateway sends every project's from a few addresses). */
  @RateLimitSetting() RATE_LIMIT_SHOP_NOTIFY_PER_ADDRESS = 600;
  /** Admin API writes (every method but GET and HEAD) per client address. */
  @RateLimitSetting() RATE_LIMIT_ADMIN_WRITE_PER_ADDRESS = 600;
  /** Admin API writes per signed-in account. */
  @RateLimitSetting() RATE_LIMIT_ADMIN_WRITE_PER_ACCOUNT = 300;

  /**
   * How every per-address limit (request rates, failure limits) counts an IPv6 client: by its
   * network of this many leading bits, since one subscriber holds a whole /64 (128 = each address).
   * IPv4 counts per address.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(32)
  @Max(128)
  RATE_LIMIT_IPV6_PREFIX = 64;

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

  /**
   * Seconds between webhook attempts, comma-separated (decisions §20's schedule when unset: 10 s,
   * 30 s, 1 min, 5 min, 15 min, 1 h, … over about two days); a short list repeats its last value. For tests.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,13}$/, {
    message: 'WEBHOOK_RETRY_DELAYS must be up to 14 comma-separated numbers of seconds',
  })
  WEBHOOK_RETRY_DELAYS?: string;

  /** How often each instance looks for due webhook deliveries (its own events are looked at at once). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(60000)
  WEBHOOK_POLL_MS = 1000;

  /** Webhook deliveries each instance has in flight at most: a slot is claimed again as soon as one frees. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 32;

  /**
   * Deliveries in flight per endpoint and per project, on each instance: one tenant's slow or dead
   * endpoints hold at most this many slots, and every other project's deliveries go on meanwhile.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_PER_ENDPOINT = 2;

  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_PER_PROJECT = 4;

  /** Endpoints a project may have. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_ENDPOINTS_PER_PROJECT = 20;

  /**
   * secret (its password): the SMTP server mails go through (decisions §26), `smtp://` or
   * `smtps://user:pass@host:port`. Unset: no mail is written or sent.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\/[^\s]+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** The sender of every mail: `address@example.com` or `Name <address@example.com>`. Required with SMTP_URL. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @MaxLength(320)
  @Matches(/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, {
    message: 'MAIL_FROM must be an address (a@example.com) or a name and an address (Shop <a@example.com>)',
  })
  MAIL_FROM?: string;

  /** Seconds between mail attempts, as WEBHOOK_RETRY_DELAYS (the same schedule when unset). For tests. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,13}$/, {
    message: 'MAIL_RETRY_DELAYS must be up to 14 comma-separated numbers of seconds',
  })
  MAIL_RETRY_DELAYS?: string;

  /** How often the scan for cards about to expire runs (one instance at a time): their webhook notices and holders' reminders. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  EXPIRY_SCAN_MS = 600_000;

  /** How often each instance looks for due mails (its own are looked at at once). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(60000)
  MAIL_POLL_MS = 5000;

  /**
   * Whether client requests other than card logins are kept in the request log (decisions §22).
   * `off` keeps no such rows: for a deployment that wants none, and to measure what they cost.
   */
  @IsOptional()
  @IsIn(['on', 'off'])
  REQUEST_LOG: 'on' | 'off' = 'on';

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
