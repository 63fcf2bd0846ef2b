import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import { Optional } from '../common/optional';
import { ANNOUNCEMENT_CONTENT_MAX as CONTENT_MAX, ANNOUNCEMENT_TITLE_MAX as TITLE_MAX, MAX_INT32 } from '../common/limits';

export class UpdatePlatformSettingsDto {
  @ApiPropertyOptional({ enum: ['base_package', 'entitlement', 'self_service'] })
  @Optional()
  @IsIn(['base_package', 'entitlement', 'self_service'])
  connect_opening_mode?: 'base_package' | 'entitlement' | 'self_service';

  @ApiPropertyOptional()
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  connect_min_level?: number;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  legacy_metering_enabled?: boolean;

  @ApiPropertyOptional({ description: 'let webhooks target private and loopback addresses (decisions §20)' })
  @Optional()
  @IsBoolean()
  webhook_private_targets?: boolean;

  @ApiPropertyOptional({ description: 'every admin account must set up two-factor sign-in before anything else' })
  @Optional()
  @IsBoolean()
  admin_two_factor_required?: boolean;
}

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
