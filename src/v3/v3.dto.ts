import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsCardKey, IsDeviceCode } from '../common/field-rules';

/** HTTP V3 card login form: `app` travels as a plain field (checked by the HMAC guard). */
export class V3CardLoginDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty({ description: 'card key' })
  @IsCardKey()
  kami: string;

  @ApiProperty({ description: 'stable device code' })
  @IsDeviceCode()
  imei: string;
}
