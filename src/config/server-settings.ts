import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { toInt, emptyToUndefined } from './setting-transforms';

/**
 * Where the service listens, its database, Redis, data directory, key, time zone, currency and
 * public address. Part of AppConfig (app-config.ts), validated with it.
 */
export class ServerSettings {
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
}
