import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsCardKey, IsConnectNonce, IsDeviceCode } from '../common/field-rules';

/** Connect login form (application/x-www-form-urlencoded). */
export class ConnectLoginDto {
  @ApiProperty({ description: 'card key' })
  @IsCardKey()
  user_key: string;

  @ApiProperty({ description: 'device code' })
  @IsDeviceCode()
  serial: string;

  @ApiPropertyOptional({ description: '1-96 of letters, digits and _ . : -; a repeat within 60 s is refused with 409' })
  @IsOptional()
  @IsConnectNonce()
  nonce?: string;
}
