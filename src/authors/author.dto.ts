import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { Optional } from '../common/optional';
import { MAX_INT32 } from '../common/limits';
import { PageQuery } from '../common/paging';

export const USERNAME_RULE = /^[A-Za-z0-9_.-]{3,32}$/;

export class CreateAuthorDto {
  @ApiProperty({ example: 'alice' })
  @IsString()
  @Matches(USERNAME_RULE, { message: 'username must be 3-32 of [A-Za-z0-9_.-]' })
  username: string;

  @ApiProperty({ example: 'a-long-password' })
  @IsString()
  @Length(8, 128)
  password: string;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'null = unlimited' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  daily_api_quota?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'null = unlimited' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  daily_verify_quota?: number | null;
}

/** PATCH: any subset of the creation's fields but the username, and the account's status. */
export class UpdateAuthorDto extends PartialType(OmitType(CreateAuthorDto, ['username'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @Optional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';
}

export class ListAuthorsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @Optional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';

  @ApiPropertyOptional({ description: 'username contains' })
  @Optional()
  @IsString()
  @Length(1, 32)
  q?: string;
}
