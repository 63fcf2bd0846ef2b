import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { HOSTNAME_MAX, isHostname, normalizeHostname } from './domain-rules';
import { LICENCE_MAX } from './sites.dto';

/**
 * `/api/verify` form fields (decisions §10). `app` is checked by the route's guard first. The
 * client address is never a field: it comes from the connection (see ClientContext).
 */
export class VerifyDto {
  @ApiProperty({ description: 'public program ID (8 digits)' })
  @IsString()
  app: string;

  @ApiProperty({ example: 'www.example.com', description: 'the hostname of the site asking' })
  @IsString()
  @MaxLength(HOSTNAME_MAX + 1)
  @ValidateBy({
    name: 'isVerifyDomain',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isHostname(normalizeHostname(value)),
      defaultMessage: () => '$property must be a hostname',
    },
  })
  domain: string;

  @ApiPropertyOptional({ maxLength: LICENCE_MAX, description: "the site's licence, when the site has one" })
  @IsOptional()
  @IsString()
  @MaxLength(LICENCE_MAX)
  licence?: string;
}
