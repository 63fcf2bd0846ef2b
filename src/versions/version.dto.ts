import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, IsUrl, IsUUID, Matches, MaxLength } from 'class-validator';
import { Optional } from '../common/optional';
import { VERSION_MAX_LENGTH, VERSION_PATTERN, VERSION_RULE } from './version-order';

export const CHANGELOG_MAX = 20_000;
export const DOWNLOAD_URL_MAX = 500;

const IsVersion = () =>
  applyDecorators(
    IsString(),
    MaxLength(VERSION_MAX_LENGTH),
    Matches(VERSION_PATTERN, { message: `$property must be ${VERSION_RULE}` }),
  );

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
const URL_MESSAGE = '$property must be an http or https URL';

export class CreateVersionDto {
  @ApiProperty({ example: '1.10.0', description: VERSION_RULE })
  @IsVersion()
  version: string;

  @ApiPropertyOptional({ default: '', maxLength: CHANGELOG_MAX })
  @Optional()
  @IsString()
  @MaxLength(CHANGELOG_MAX)
  changelog?: string;

  @ApiPropertyOptional({ default: false, description: 'clients older than this version must update' })
  @Optional()
  @IsBoolean()
  force_update?: boolean;

  @ApiPropertyOptional({ default: true, description: 'only enabled versions are offered to clients' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: "one of this project's files (not with download_url)",
  })
  @IsOptional()
  @IsUUID()
  file_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: DOWNLOAD_URL_MAX,
    description: 'http or https URL (not with file_id)',
  })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: URL_MESSAGE })
  @MaxLength(DOWNLOAD_URL_MAX)
  download_url?: string | null;
}

/**
 * PATCH: any subset of the fields; `file_id` and `download_url` may be set to null.
 * `skipNullProperties: false`: a null is checked like any value (and refused where the field takes
 * none), not skipped, as `Optional()` does on the create DTO.
 */
export class UpdateVersionDto extends PartialType(CreateVersionDto, { skipNullProperties: false }) {}

/** SDK version check: `{app, version}`, `app` checked by the HMAC guard. */
export class VersionCheckDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty({ example: '1.2.0', description: `the running version: ${VERSION_RULE}` })
  @IsVersion()
  version: string;
}
