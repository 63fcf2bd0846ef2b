import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { TokenAlgorithm } from '../connect-customization.entity';
import { MAX_TEMPLATE_LENGTH, TOKEN_ALGORITHMS } from './customization-rules';

/** PUT body: replaces the whole customization; the stored secret stays unless `secret` is sent. */
export class PutCustomizationDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'rename map over the default Connect field names',
    example: { status: 'ok', data: 'payload' },
  })
  @IsOptional()
  @IsObject()
  field_names?: Record<string, string>;

  @ApiPropertyOptional({ enum: TOKEN_ALGORITHMS, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(TOKEN_ALGORITHMS as TokenAlgorithm[])
  token_algorithm?: TokenAlgorithm | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '{user_key}|{serial}|{timestamp}' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Length(1, MAX_TEMPLATE_LENGTH)
  token_template?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'write-only; null removes the stored secret' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Length(1, 256)
  secret?: string | null;
}
