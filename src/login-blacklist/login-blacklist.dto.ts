import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength, ValidateBy } from 'class-validator';
import { PageQuery } from '../common/paging';
import { IsDateTime, Nullable } from '../common/field-rules';
import { NOTE_MAX } from '../common/limits';
import { LOGIN_BLACKLIST_KINDS, LoginBlacklistKind, normalizeAddressEntry } from '../common/blacklist-matcher';

const VALUE_MAX = 128;

/** `value` must be an address or CIDR block when `kind` is address; any device code (1-128) otherwise. */
const IsBlacklistValue = () =>
  ValidateBy({
    name: 'isLoginBlacklistValue',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'string' &&
        ((args?.object as { kind?: unknown }).kind !== 'address' || normalizeAddressEntry(value) !== null),
      defaultMessage: () =>
        '$property must be an IPv4 or IPv6 address or CIDR block (203.0.113.0/24, 2001:db8::/32) when kind is address',
    },
  });

export class CreateLoginBlacklistEntryDto {
  @ApiProperty({ enum: LOGIN_BLACKLIST_KINDS })
  @IsIn(LOGIN_BLACKLIST_KINDS)
  kind: LoginBlacklistKind;

  @ApiProperty({
    example: '203.0.113.0/24',
    description: 'a device code (kind device, exact), or an address or CIDR block (kind address)',
  })
  @IsString()
  @Length(1, VALUE_MAX)
  @IsBlacklistValue()
  value: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NOTE_MAX })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(NOTE_MAX)
  note?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'null = for good' })
  @IsOptional()
  @Nullable()
  @IsDateTime()
  expires_at?: string | null;
}

/** PATCH: the note and the expiry (to change what is refused, remove the entry and add another). */
export class UpdateLoginBlacklistEntryDto extends PartialType(
  PickType(CreateLoginBlacklistEntryDto, ['note', 'expires_at'] as const),
  {
    skipNullProperties: false,
  },
) {}

export class ListLoginBlacklistQuery extends PageQuery {
  @ApiPropertyOptional({ enum: LOGIN_BLACKLIST_KINDS })
  @IsOptional()
  @IsIn(LOGIN_BLACKLIST_KINDS)
  kind?: LoginBlacklistKind;
}
