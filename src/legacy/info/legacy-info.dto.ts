import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** `app` only (checked by the legacy program guard). */
export class LegacyAppDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;
}

/** `app` and the running version; the version's form is checked by the version service. */
export class LegacyVersionDto extends LegacyAppDto {
  @ApiPropertyOptional({ description: 'the running version, e.g. 1.2.0' })
  @IsOptional()
  @IsString()
  version?: string;
}
