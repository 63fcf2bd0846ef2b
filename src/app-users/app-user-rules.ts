import { applyDecorators } from '@nestjs/common';
import { IsString, Length, Matches } from 'class-validator';

/** Program-user field rules (decisions §6). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/** 3-32 of letters, digits and _ . - ; compared ignoring case. */
export const IsAppUsername = () =>
  applyDecorators(IsString(), Matches(USERNAME_PATTERN, { message: '$property must be 3-32 of letters, digits and _ . -' }));

/** 6-128 characters, anything printable or not: never trimmed, never echoed. */
export const IsAppUserPassword = () =>
  applyDecorators(
    IsString(),
    Length(PASSWORD_MIN, PASSWORD_MAX, { message: `$property must be ${PASSWORD_MIN}-${PASSWORD_MAX} characters` }),
  );

/** The key a username is unique and throttled by: case does not make another account. */
export function usernameKey(username: string): string {
  return username.toLowerCase();
}
