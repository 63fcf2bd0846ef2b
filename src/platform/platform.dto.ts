import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import { Optional } from '../common/optional';
import { CONNECT_OPENING_MODES, ConnectOpeningMode } from './platform-settings.entity';
import { ANNOUNCEMENT_CONTENT_MAX as CONTENT_MAX, ANNOUNCEMENT_TITLE_MAX as TITLE_MAX, MAX_INT32 } from '../common/limits';

/** The platform's settings, whole: what GET answers (with updated_at) and what PATCH changes a subset of. */
export class PlatformSettingsDto {
  @ApiProperty({ enum: CONNECT_OPENING_MODES, description: 'how Connect is opened for a project (decisions §7)' })
  @IsIn(CONNECT_OPENING_MODES)
  connect_opening_mode!: ConnectOpeningMode;

  @ApiProperty({ type: 'integer', description: 'the least plan level that opens Connect in the entitlement mode' })
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  connect_min_level!: number;

  @ApiProperty({ description: "counts licence verifications against the authors' daily quotas" })
  @IsBoolean()
  legacy_metering_enabled!: boolean;

  @ApiProperty({ description: 'webhooks may target private and loopback addresses (decisions §20)' })
  @IsBoolean()
  webhook_private_targets!: boolean;

  @ApiProperty({ description: 'every admin account must set up two-factor sign-in before anything else' })
  @IsBoolean()
  admin_two_factor_required!: boolean;
}

/** PATCH: any subset, none null. */
export class UpdatePlatformSettingsDto extends PartialType(PlatformSettingsDto, { skipNullProperties: false }) {}

export class SetInterfaceEnabledDto {
  @ApiProperty()
  @IsBoolean()
  enabled: boolean;
}

export class CreatePlatformAnnouncementDto {
  @ApiProperty({ minLength: 1, maxLength: TITLE_MAX })
  @IsString()
  @Length(1, TITLE_MAX)
  title: string;

  @ApiProperty({ minLength: 1, maxLength: CONTENT_MAX })
  @IsString()
  @Length(1, CONTENT_MAX)
  content: string;

  @ApiPropertyOptional({ default: true, description: 'authors see only enabled platform announcements' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

/**
 * PATCH: any subset of the fields (none may be null); an operator corrects or hides an announcement.
 * `skipNullProperties: false`: a null is checked like any value (and refused where the field takes
 * none), not skipped, as `Optional()` does on the create DTO.
 */
export class UpdatePlatformAnnouncementDto extends PartialType(CreatePlatformAnnouncementDto, { skipNullProperties: false }) {}
