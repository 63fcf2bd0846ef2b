import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

/** A TOTP code (6 digits) or, where accepted, a recovery code (10 letters and digits, a dash allowed). */
const CODE = /^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/;

export class TwoFactorCodeDto {
  @ApiProperty({
    example: '123456',
    description: 'the current code of the authenticator app, or (to sign in or disable) a recovery code',
  })
  @IsString()
  @Matches(CODE, { message: 'code must be 6 digits or a recovery code' })
  code: string;
}

export class TwoFactorLoginDto extends TwoFactorCodeDto {
  @ApiProperty({ description: 'the `challenge` of the login answer' })
  @IsString()
  @Length(1, 64)
  challenge: string;
}
