import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '../common/optional';
import { AuditSecret } from '../audit/redact';

export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
export const VARIABLE_NAME_RULE = '1-64 of letters, digits and _ . -, starting with a letter or _';
export const VARIABLE_VALUE_MAX = 10_000;

const IsVariableName = () =>
  applyDecorators(IsString(), Matches(VARIABLE_NAME_PATTERN, { message: `$property must be ${VARIABLE_NAME_RULE}` }));
/** A value may be a private setting a program fetches after login: never copied into the audit trail. */
const IsVariableValue = () => applyDecorators(IsString(), MaxLength(VARIABLE_VALUE_MAX), AuditSecret());

export class CreateRemoteVariableDto {
  @ApiProperty({ example: 'update_channel', description: `${VARIABLE_NAME_RULE}; unique per project` })
  @IsVariableName()
  name: string;

  @ApiProperty({ maxLength: VARIABLE_VALUE_MAX, description: 'may be empty' })
  @IsVariableValue()
  value: string;

  @ApiPropertyOptional({
    default: false,
    description: 'true: every client sees it; false: only clients with a valid login token',
  })
  @Optional()
  @IsBoolean()
  public?: boolean;
}

/**
 * PATCH: any subset of the fields (none may be null).
 * `skipNullProperties: false`: a null is checked like any value (and refused where the field takes
 * none), not skipped, as `Optional()` does on the create DTO.
 */
export class UpdateRemoteVariableDto extends PartialType(CreateRemoteVariableDto, { skipNullProperties: false }) {}
