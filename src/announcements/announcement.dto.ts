import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length, ValidateIf } from 'class-validator';
import { ANNOUNCEMENT_CONTENT_MAX as CONTENT_MAX, ANNOUNCEMENT_TITLE_MAX as TITLE_MAX } from '../common/limits';

/** Optional, but never null: every announcement column is NOT NULL. */
const OptionalNotNull = () => ValidateIf((_, value) => value !== undefined);

export class CreateAnnouncementDto {
  @ApiProperty({ minLength: 1, maxLength: TITLE_MAX })
  @IsString()
  @Length(1, TITLE_MAX)
  title: string;

  @ApiProperty({ minLength: 1, maxLength: CONTENT_MAX })
  @IsString()
  @Length(1, CONTENT_MAX)
  content: string;

  @ApiPropertyOptional({ default: true, description: 'clients see the newest enabled announcement' })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

/** PATCH: any subset of the fields. */
export class UpdateAnnouncementDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TITLE_MAX })
  @OptionalNotNull()
  @IsString()
  @Length(1, TITLE_MAX)
  title?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: CONTENT_MAX })
  @OptionalNotNull()
  @IsString()
  @Length(1, CONTENT_MAX)
  content?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}
