import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';
import { toInt, emptyToUndefined } from './setting-transforms';
import { OperationsSettings } from './operations-settings';

/** Webhooks, mail and the request log. Part of AppConfig (app-config.ts), validated with it. */
export class DeliverySettings extends OperationsSettings {
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
}
