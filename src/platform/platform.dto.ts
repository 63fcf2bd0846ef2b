import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { MAX_INT32 } from '../common/limits';

export class UpdatePlatformSettingsDto {
  @ApiPropertyOptional({ enum: ['base_package', 'entitlement', 'self_service'] })
  @IsOptional() @IsIn(['base_package', 'entitlement', 'self_service'])
  connect_opening_mode?: 'base_package' | 'entitlement' | 'self_service';

  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(MAX_INT32)
  connect_min_level?: number;

  @ApiPropertyOptional() @IsOptional() @IsBoolean()
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
