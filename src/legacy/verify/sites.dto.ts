import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Length, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { Optional } from '../../common/optional';
import { HOSTNAME_MAX, isSitePattern } from './domain-rules';

export const LICENCE_MAX = 128;
export const NOTE_MAX = 200;
const SITE_DOMAIN_MAX = HOSTNAME_MAX + 2;

/** RFC 3339 date-time with a zone (`2030-01-01T00:00:00Z`), a real calendar date. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
export const IsDateTime = () =>
  applyDecorators(
    IsString(),
    Matches(DATE_TIME, { message: '$property must be an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z' }),
    IsISO8601({ strict: true }, { message: '$property must be a valid date-time' }),
  );

const IsSiteDomain = () =>
  applyDecorators(
    IsString(),
    MaxLength(SITE_DOMAIN_MAX),
    ValidateBy({
      name: 'isSiteDomain',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isSitePattern(value),
        defaultMessage: () =>
          '$property must be a hostname (example.com) or a wildcard over one of at least two labels (*.example.com)',
      },
    }),
  );

/** Nullable optional field: absent leaves it, null clears it, anything else must be valid. */
export const Nullable = () => ValidateIf((_, value) => value !== undefined && value !== null);

export class CreateSiteDto {
  @ApiProperty({ example: '*.example.com', description: 'a hostname, or *. before a hostname of two labels or more' })
  @IsSiteDomain()
  domain: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: LICENCE_MAX,
    description: 'when set, requests must carry this licence',
  })
  @IsOptional()
  @Nullable()
  @IsString()
  @Length(1, LICENCE_MAX)
  licence?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'null = never expires' })
  @IsOptional()
  @Nullable()
  @IsDateTime()
  expires_at?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(NOTE_MAX)
  note?: string | null;
}

/** PATCH: any subset; `licence`, `expires_at` and `note` may be set to null. */
export class UpdateSiteDto {
  @ApiPropertyOptional({ example: 'www.example.com' })
  @Optional()
  @IsSiteDomain()
  domain?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LICENCE_MAX })
  @IsOptional()
  @Nullable()
  @IsString()
  @Length(1, LICENCE_MAX)
  licence?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @IsOptional()
  @Nullable()
  @IsDateTime()
  expires_at?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(NOTE_MAX)
  note?: string | null;
}
