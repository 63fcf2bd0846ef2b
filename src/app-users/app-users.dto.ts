import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { IsDeviceCode } from '../common/field-rules';
import { PageQuery } from '../common/paging';
import { IsAppUsername, IsAppUserPassword, PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN } from './app-user-rules';
import { AppUserStatus } from './app-user.entity';

export const APP_USER_STATUSES = ['active', 'banned'] as const;

/**
 * Register and login, as the SDK signs them (JSON) and as the compatibility routes post them
 * (form fields): `app` is checked by the route's guard before this body is looked at.
 */
export class AppUserCredentialsDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty({ pattern: USERNAME_PATTERN.source })
  @IsAppUsername()
  username: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, format: 'password' })
  @IsAppUserPassword()
  password: string;

  @ApiProperty({ description: 'stable device identifier, 1-128 characters' })
  @IsDeviceCode()
  machine_id: string;
}

export class ListAppUsersQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'username contains (case-insensitive)' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  q?: string;

  @ApiPropertyOptional({ enum: APP_USER_STATUSES })
  @IsOptional()
  @IsIn(APP_USER_STATUSES)
  status?: AppUserStatus;
}

/** PATCH: any subset. `banned` bans, `active` lifts a ban; a new `password` resets it; `machine_id: null` unbinds. */
export class UpdateAppUserDto extends PartialType(PickType(AppUserCredentialsDto, ['password'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({ enum: APP_USER_STATUSES })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(APP_USER_STATUSES)
  status?: AppUserStatus;

  @ApiPropertyOptional({ nullable: true, enum: [null], description: 'null unbinds the bound machine' })
  @ValidateIf((_, v) => v !== undefined)
  @IsIn([null], { message: 'machine_id can only be null (unbind)' })
  machine_id?: null;
}
