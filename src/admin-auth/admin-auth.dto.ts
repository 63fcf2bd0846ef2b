import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class AdminLoginDto {
  @ApiProperty({ example: 'admin' })
  @IsString()
  @Length(1, 64)
  username: string;

  @ApiProperty({ example: 'change-me-please' })
  @IsString()
  @Length(1, 128)
  password: string;
}

/** The password rule of every admin account (authors and agents are created with the same: 8-128 characters). */
const NEW_PASSWORD = { min: 8, max: 128 } as const;

export class ChangePasswordDto {
  @ApiProperty({ example: 'the-password-now', format: 'password', minLength: 1, maxLength: 128 })
  @IsString()
  @Length(1, 128)
  current_password: string;

  @ApiProperty({
    example: 'a-new-long-password',
    format: 'password',
    minLength: NEW_PASSWORD.min,
    maxLength: NEW_PASSWORD.max,
    description: `${NEW_PASSWORD.min}-${NEW_PASSWORD.max} characters, not the current password`,
  })
  @IsString()
  @Length(NEW_PASSWORD.min, NEW_PASSWORD.max)
  new_password: string;
}
