import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import { Optional } from '../common/optional';
import { MAX_INT32 } from '../common/limits';

export class UpdatePlatformSettingsDto {
  @ApiPropertyOptional({ enum: ['base_package', 'entitlement', 'self_service'] })
  @Optional() @IsIn(['base_package', 'entitlement', 'self_service'])
  connect_opening_mode?: 'base_package' | 'entitlement' | 'self_service';

  @ApiPropertyOptional() @Optional() @IsInt() @Min(0) @Max(MAX_INT32)
  connect_min_level?: number;

  @ApiPropertyOptional() @Optional() @IsBoolean()
  legacy_metering_enabled?: boolean;
}

export class SetInterfaceEnabledDto {
  @ApiProperty() @IsBoolean()
  enabled: boolean;
}

export class CreatePlatformAnnouncementDto {
  @ApiProperty() @IsString() @Length(1, 200)
  title: string;

  @ApiProperty() @IsString() @Length(1, 20000)
  content: string;
}
