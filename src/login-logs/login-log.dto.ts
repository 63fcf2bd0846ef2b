import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsTimeZone, Length, Matches, Max, Min } from 'class-validator';
import { MAX_INT32 } from '../common/limits';
import { decimalInteger, PageQuery } from '../common/paging';
import { ClientFamilyName } from './login-log.entity';

export const CLIENT_FAMILIES = ['connect', 'v3', 'sdk', 'legacy'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class ListLoginLogsQuery extends PageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_id?: number;

  @ApiPropertyOptional({ description: 'exact device code' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  machine_code?: string;

  @ApiPropertyOptional({ description: '0 = success, else the error catalog code' })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  result_code?: number;

  @ApiPropertyOptional({ enum: CLIENT_FAMILIES })
  @IsOptional()
  @IsIn(CLIENT_FAMILIES)
  family?: ClientFamilyName;

  @ApiPropertyOptional({ description: 'canonical interface name, e.g. card_login' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  interface?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  request_id?: string;
}

/** Days in the service time zone (APP_TIMEZONE), both included; default the last 7 days. */
export class StatsQuery {
  @ApiPropertyOptional({ example: '2025-01-01', description: 'first day, YYYY-MM-DD' })
  @IsOptional()
  @Matches(DAY, { message: 'from must be a date YYYY-MM-DD' })
  @IsISO8601({ strict: true }, { message: 'from must be a real date' })
  from?: string;

  @ApiPropertyOptional({ example: '2025-01-07', description: 'last day, YYYY-MM-DD' })
  @IsOptional()
  @Matches(DAY, { message: 'to must be a date YYYY-MM-DD' })
  @IsISO8601({ strict: true }, { message: 'to must be a real date' })
  to?: string;
}

/** The login statistics' days: of `tz` (default APP_TIMEZONE), both included; default the last 7 days. */
export class LoginStatsQuery extends StatsQuery {
  @ApiPropertyOptional({
    example: 'Asia/Shanghai',
    description:
      'IANA time zone whose local days are counted (default APP_TIMEZONE): the console passes its display zone. ' +
      'Another zone than APP_TIMEZONE is counted from the log rows for windows of at most 31 days the log still holds; ' +
      "otherwise the answer's days stay APP_TIMEZONE's (its time_zone says which)",
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, { message: 'tz must be an IANA time zone name, e.g. Asia/Shanghai' })
  @IsTimeZone({ message: 'tz must be an IANA time zone, e.g. Asia/Shanghai' })
  tz?: string;
}
