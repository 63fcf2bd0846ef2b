import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength, ValidateBy } from 'class-validator';
import { IsDateTime, Nullable } from '../../common/field-rules';
import { NOTE_MAX } from '../../common/limits';
import { HOSTNAME_MAX, isSitePattern } from './domain-rules';

export const LICENCE_MAX = 128;
const SITE_DOMAIN_MAX = HOSTNAME_MAX + 2;

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

/**
 * PATCH: any subset; `licence`, `expires_at` and `note` may be set to null.
 * `skipNullProperties: false`: a null is checked like any value (and refused where the field takes
 * none), not skipped, as `Optional()` does on the create DTO.
 */
export class UpdateSiteDto extends PartialType(CreateSiteDto, { skipNullProperties: false }) {}
