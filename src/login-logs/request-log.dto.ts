import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { CLIENT_FAMILY_NAMES, ClientFamilyName } from '../core/client-families';
import { MAX_INT32 } from '../common/limits';
import { decimalInteger, PageQuery } from '../common/paging';
import { IsDateTime } from '../common/field-rules';

export class ListRequestsQuery extends PageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  request_id?: string;

  @ApiPropertyOptional({ description: 'a card key, or a card id' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  card?: string;

  @ApiPropertyOptional({ description: 'exact device code' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  machine_code?: string;

  @ApiPropertyOptional({ description: 'exact client address' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  ip?: string;

  @ApiPropertyOptional({ description: '0 = success, else the error catalog code' })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  result_code?: number;

  @ApiPropertyOptional({ enum: CLIENT_FAMILY_NAMES })
  @IsOptional()
  @IsIn(CLIENT_FAMILY_NAMES)
  family?: ClientFamilyName;

  @ApiPropertyOptional({ format: 'date-time', description: 'from this instant (included)' })
  @IsOptional()
  @IsDateTime()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'before this instant (excluded)' })
  @IsOptional()
  @IsDateTime()
  to?: string;
}
