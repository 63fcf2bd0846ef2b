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
