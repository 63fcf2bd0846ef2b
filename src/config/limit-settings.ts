import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { toInt, emptyToUndefined, RateLimitSetting } from './setting-transforms';
import { ServerSettings } from './server-settings';

/** The first admin account, sign-in and request-rate limits. Part of AppConfig (app-config.ts), validated with it. */
export class LimitSettings extends ServerSettings {
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
}
