import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsCardKey, IsDeviceCode } from '../common/field-rules';

/** What every portal call carries: the program's public ID and the holder's card key (JSON). */
export class PortalCardDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  program_id: string;

  @ApiProperty()
  @IsCardKey()
  card_key: string;
}

export class PortalUnbindDto extends PortalCardDto {
  @ApiProperty({ description: 'the bound device to release' })
  @IsDeviceCode()
  machine_id: string;
}

export class PortalTopupDto extends PortalCardDto {
  @ApiProperty({ description: 'an unused card of the same program and kind, consumed by the top-up' })
  @IsCardKey()
  topup_key: string;
}
