import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { Optional } from '../common/optional';
import { ANNOUNCEMENT_CONTENT_MAX as CONTENT_MAX, ANNOUNCEMENT_TITLE_MAX as TITLE_MAX } from '../common/limits';

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
  @Optional() // never null: every announcement column is NOT NULL
  @IsBoolean()
  enabled?: boolean;
}

/**
 * PATCH: any subset of the fields (none may be null).
 * `skipNullProperties: false`: a null is checked like any value (and refused where the field takes
 * none), not skipped, as `Optional()` does on the create DTO.
 */
export class UpdateAnnouncementDto extends PartialType(CreateAnnouncementDto, { skipNullProperties: false }) {}
