import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  Equals,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_INT32 } from '../../common/limits';
import { IsIsoInstant } from './iso-instant';
import { MAX_CARD_USES } from '../../common/limits';
import { ExportCardsQuery } from './card-queries.dto';
import { Optional } from '../../common/optional';

/** The target of a bulk action by filter: the list's filters; `all: true` says "every card" explicitly. */
export class BulkCardFilter extends ExportCardsQuery {
  @ApiPropertyOptional({ enum: [true], description: 'every card of the project (an empty filter is refused)' })
  @IsOptional()
  @Equals(true, { message: 'all must be true when present' })
  all?: true;
}

export const MAX_BULK_IDS = 10_000;

export const BULK_ACTIONS = [
  'ban',
  'unban',
  'delete',
  'extend',
  'set_expiry',
  'set_uses',
  'set_note',
  'set_device_limit',
  'set_concurrent_limit',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_PARAMS = ['extend_seconds', 'expires_at', 'uses_left', 'note', 'device_limit', 'concurrent_limit'] as const;
export type BulkParam = (typeof BULK_PARAMS)[number];

/** The one parameter each action takes (none for ban, unban and delete). */
export const BULK_ACTION_PARAM: Readonly<Record<BulkAction, BulkParam | null>> = {
  ban: null,
  unban: null,
  delete: null,
  extend: 'extend_seconds',
  set_expiry: 'expires_at',
  set_uses: 'uses_left',
  set_note: 'note',
  set_device_limit: 'device_limit',
  set_concurrent_limit: 'concurrent_limit',
};

/** `POST /projects/:id/cards/bulk`: one action on exactly one of `ids` or `filter`, with the action's parameter. */
export class BulkCardsDto {
  @ApiProperty({ enum: BULK_ACTIONS })
  @IsIn(BULK_ACTIONS)
  action: BulkAction;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: MAX_BULK_IDS,
    description: 'card ids of the project (unknown ids are not matched)',
  })
  @Optional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_BULK_IDS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_INT32, { each: true })
  ids?: number[];

  @ApiPropertyOptional({ type: BulkCardFilter, description: 'at least one criterion; {all: true} for every card' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => BulkCardFilter)
  filter?: BulkCardFilter;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_INT32, description: 'extend' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  extend_seconds?: number;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'set_expiry; null = permanent' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIsoInstant()
  expires_at?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_CARD_USES, description: 'set_uses (count cards only)' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_CARD_USES)
  uses_left?: number;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true, description: 'set_note; null clears it' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  note?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'set_device_limit' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1000)
  device_limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    nullable: true,
    description: 'set_concurrent_limit; null = unlimited',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrent_limit?: number | null;
}
