import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  ValidateBy,
} from 'class-validator';
import { IsDateTime, Nullable } from '../../common/field-rules';
import { normalizeAddressEntry } from '../../common/blacklist-matcher';
import { ALL_API_KEY_SCOPES, ApiKeyScope } from '../../admin-kernel/api-key-scopes';

const IsCidr = () =>
  ValidateBy(
    {
      name: 'isCidr',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.length <= 64 && normalizeAddressEntry(value) !== null,
        defaultMessage: () => 'each of $property must be an IPv4 or IPv6 address or CIDR block (203.0.113.0/24, 2001:db8::/32)',
      },
    },
    { each: true },
  );

export class CreateApiKeyDto {
  @ApiProperty({ example: 'my shop', minLength: 1, maxLength: 64 })
  @IsString()
  @Length(1, 64)
  name: string;

  @ApiProperty({ enum: ALL_API_KEY_SCOPES, isArray: true, description: 'what the key may do (docs/api-keys.md)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ALL_API_KEY_SCOPES.length)
  @ArrayUnique()
  @IsIn(ALL_API_KEY_SCOPES, { each: true })
  scopes: ApiKeyScope[];

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    nullable: true,
    description: 'projects the key is limited to; absent or null = every project the owner reaches',
  })
  @IsOptional()
  @Nullable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  project_ids?: string[] | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    example: ['203.0.113.7', '2001:db8::/32'],
    description: 'addresses or CIDR blocks the key may be used from; absent or null = any',
  })
  @IsOptional()
  @Nullable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsCidr()
  allowed_cidrs?: string[] | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'in the future; absent or null = never expires',
  })
  @IsOptional()
  @Nullable()
  @IsDateTime()
  expires_at?: string | null;
}

export class ApiKeyView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'ck_AbC12xYz', description: 'the first characters of the key, to recognise it; never the key' })
  prefix: string;
  @ApiProperty({ enum: ALL_API_KEY_SCOPES, isArray: true }) scopes: ApiKeyScope[];
  @ApiProperty({ type: [String], nullable: true, description: 'null = every project of the owner' }) project_ids: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: 'null = any address' }) allowed_cidrs: string[] | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'updated at most once a minute' }) last_used_at:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
}

/** The one answer that carries the key itself. */
export class CreatedApiKeyView extends ApiKeyView {
  @ApiProperty({ example: 'ck_AbC12xYz0123456789abcdefghijABCDEFGHIJ', description: 'shown this once; only its hash is kept' })
  key: string;
}
