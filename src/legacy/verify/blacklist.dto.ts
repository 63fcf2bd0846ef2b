import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { isIP } from 'node:net';
import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { PageQuery } from '../../common/paging';
import { BLACKLIST_KINDS, BlacklistKind } from './blacklist-entry.entity';
import { HOSTNAME_MAX, isHostname } from './domain-rules';

export class CreateBlacklistEntryDto {
  @ApiProperty({ enum: BLACKLIST_KINDS })
  @IsIn(BLACKLIST_KINDS)
  kind: BlacklistKind;

  @ApiProperty({
    example: 'evil.example.com',
    description: 'a hostname (kind domain; also blocks its subdomains) or an IP address (kind ip)',
  })
  @IsString()
  @MaxLength(HOSTNAME_MAX)
  @ValidateBy({
    name: 'isBlacklistValue',
    validator: {
      validate: (value: unknown, args) => {
        if (typeof value !== 'string') return false;
        const kind = (args?.object as { kind?: unknown }).kind;
        if (kind === 'ip') return isIP(value.trim()) !== 0;
        return kind !== 'domain' || isHostname(value.trim().replace(/\.$/, ''));
      },
      defaultMessage: () => '$property must be a hostname when kind is domain, an IP address when kind is ip',
    },
  })
  value: string;
}

export class ListBlacklistQuery extends PageQuery {
  @ApiPropertyOptional({ enum: BLACKLIST_KINDS })
  @IsOptional()
  @IsIn(BLACKLIST_KINDS)
  kind?: BlacklistKind;
}
