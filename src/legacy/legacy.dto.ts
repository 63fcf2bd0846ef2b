import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { IsCardKey, IsDeviceCode } from '../common/field-rules';

/** Legacy card routes and actions (decisions §10): `app, kami, imei`, plus `t, sign` where signed. */
export class LegacyCardDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty({ description: 'card key' })
  @IsCardKey()
  kami: string;

  @ApiProperty({ description: 'device code' })
  @IsDeviceCode()
  imei: string;

  @ApiPropertyOptional({ description: 'Unix seconds (MD5-signed routes)' })
  @IsOptional()
  @IsString()
  t?: string;

  @ApiPropertyOptional({ description: 'lowercase hex MD5 parameter signature (MD5-signed routes)' })
  @IsOptional()
  @IsString()
  sign?: string;
}

/** `/api/paycheck`: `app, kami` (form on POST, query string on GET). */
export class LegacyPaycheckDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty({ description: 'card key' })
  @IsCardKey()
  kami: string;
}

/** The aggregate action `get_file`: `app, file_id`. */
export class LegacyGetFileDto {
  @ApiProperty()
  @IsString()
  app: string;

  @ApiProperty({ description: 'file id (UUID)' })
  @IsString()
  @Length(1, 64)
  file_id: string;
}

/** The aggregate entry: `app` in clear, `api` the action, and the action's fields (or `data` under transport encryption). */
export class LegacyAggregateDto {
  @ApiProperty({ description: 'public program ID (8 digits), always in clear' })
  @IsString()
  app: string;

  @ApiPropertyOptional({ description: 'the action: a canonical name or an alias' })
  @IsOptional()
  @IsString()
  api?: string;

  @ApiPropertyOptional({ description: 'base64 ciphertext of the url-encoded fields (rc4 or aes transport)' })
  @IsOptional()
  @IsString()
  data?: string;
}
