import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Optional } from '../common/optional';
import { MAX_OFFLINE_GRACE_SECONDS } from '../projects/project.dto';
import { IsCardKey, IsDeviceCode } from '../common/field-rules';

/** SDK card login JSON body. */
export class SdkCardLoginDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty()
  @IsCardKey()
  card_key: string;

  @ApiProperty()
  @IsDeviceCode()
  machine_id: string;
}

/** SDK trial: `{app, machine_id}` (decisions §21). */
export class SdkTrialDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty()
  @IsDeviceCode()
  machine_id: string;
}

/** SDK card info: `{app, card_key}` (decisions §14). */
export class SdkCardKeyDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty()
  @IsCardKey()
  card_key: string;
}

/** SDK top-up: `{app, card_key, topup_key}` (decisions §13). */
export class SdkTopupDto extends SdkCardKeyDto {
  @ApiProperty({ description: 'an unused card of the same program and kind, consumed by the top-up' })
  @IsCardKey()
  topup_key: string;
}

/** SDK offline-licence checkout (decisions §15). */
export class SdkCheckoutDto extends SdkCardLoginDto {
  @ApiPropertyOptional({ description: "wanted licence lifetime in seconds; capped by the project's offline_grace_seconds" })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_OFFLINE_GRACE_SECONDS)
  ttl_seconds?: number;
}

/** Heartbeat JSON body (card or program-user session). */
export class HeartbeatDto {
  @ApiProperty()
  @IsDeviceCode()
  machine_id: string;
}
