import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_INT32 } from '../../common/limits';
import { PageQuery } from '../../common/paging';
import { CARD_PREFIX_PATTERN } from '../card-codes';
import { CardStatus } from '../card.entity';

export const MAX_BATCH_SIZE = 10_000;
export const CARD_STATUSES = ['unused', 'active', 'banned'] as const;

/** Optional, but never null: a null for a NOT NULL column is a 400 naming the field, not a database fault. */
const OptionalNotNull = () => ValidateIf((_, value) => value !== undefined);

/** `true` / `false` in a query string; anything else stays as sent and fails @IsBoolean. */
const queryBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class CreateCardsDto {
  @ApiProperty({ minimum: 1, maximum: MAX_BATCH_SIZE, example: 100 }) @IsInt() @Min(1) @Max(MAX_BATCH_SIZE)
  count: number;

  @ApiProperty({ minimum: 0, description: 'validity after first login; 0 = permanent', example: 30 * 86400 })
  @IsInt() @Min(0) @Max(MAX_INT32)
  duration_seconds: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: "default: the project's device_limit" })
  @OptionalNotNull() @IsInt() @Min(1) @Max(1000)
  device_limit?: number;

  @ApiPropertyOptional({ pattern: CARD_PREFIX_PATTERN.source, description: 'put before the 20 random characters' })
  @OptionalNotNull() @IsString() @Matches(CARD_PREFIX_PATTERN, { message: 'prefix must be 0-16 of [A-Za-z0-9-]' })
  prefix?: string;

  @ApiPropertyOptional({ maxLength: 200, nullable: true }) @IsOptional() @IsString() @MaxLength(200)
  note?: string | null;
}

/** PATCH: any subset. `banned` bans; `active` lifts a ban (back to active if ever activated, else unused). */
export class UpdateCardDto {
  @ApiPropertyOptional({ enum: ['banned', 'active'] }) @OptionalNotNull() @IsIn(['banned', 'active'])
  status?: 'banned' | 'active';

  @ApiPropertyOptional({ maxLength: 200, nullable: true, description: 'null clears it' }) @IsOptional() @IsString() @MaxLength(200)
  note?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'devices already bound stay bound' })
  @OptionalNotNull() @IsInt() @Min(1) @Max(1000)
  device_limit?: number;
}

export class ListCardsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CARD_STATUSES }) @IsOptional() @IsIn(CARD_STATUSES)
  status?: CardStatus;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID()
  batch_id?: string;

  @ApiPropertyOptional({ description: 'code contains (case-insensitive)' }) @IsOptional() @IsString() @Length(1, 64)
  q?: string;

  @ApiPropertyOptional({ description: 'logged in at least once' }) @IsOptional() @Transform(queryBoolean) @IsBoolean()
  activated?: boolean;

  @ApiPropertyOptional({ description: 'expires_at is in the past' }) @IsOptional() @Transform(queryBoolean) @IsBoolean()
  expired?: boolean;
}

/** The list's filters without paging: the CSV export holds every matching card. */
export class ExportCardsQuery extends OmitType(ListCardsQuery, ['page', 'page_size'] as const) {}

export type CardFilters = Pick<ListCardsQuery, 'status' | 'batch_id' | 'q' | 'activated' | 'expired'>;
