import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { MAX_INT32 } from '../../common/limits';
import { decimalInteger, PageQuery } from '../../common/paging';
import { CARD_KINDS, CARD_STATUSES, CardKind, CardStatus } from '../card.entity';
import { IsIsoInstant } from './iso-instant';

/* The queries of the card list, its exports and the import; the bodies of a card's writes are in card-admin.dto.ts. */

/** `true` / `false` in a query string; anything else stays as sent and fails @IsBoolean. */
const queryBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** The list's orders: a column, `-` before it for descending (card-filters.ts `cardOrder`). */
export const CARD_SORTS = [
  'created_at',
  '-created_at',
  'expires_at',
  '-expires_at',
  'last_login_at',
  '-last_login_at',
  'code',
  '-code',
] as const;
export type CardSort = (typeof CARD_SORTS)[number];

/**
 * The card filters of the list, the CSV export and bulk actions (one builder: card-filters.ts).
 * Ranges are half-open: `*_from` ≤ time < `*_to`.
 */
export class ListCardsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CARD_STATUSES })
  @IsOptional()
  @IsIn(CARD_STATUSES)
  status?: CardStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  batch_id?: string;

  @ApiPropertyOptional({
    description: "code contains (case-insensitive); with an `@`, the holder's e-mail contains it instead (no code has one)",
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  q?: string;

  @ApiPropertyOptional({ description: 'logged in at least once' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  activated?: boolean;

  @ApiPropertyOptional({ description: 'expires_at is in the past' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  expired?: boolean;

  @ApiPropertyOptional({ enum: CARD_KINDS })
  @IsOptional()
  @IsIn(CARD_KINDS)
  kind?: CardKind;

  @ApiPropertyOptional({ description: 'code starts with (case-sensitive, as codes are)' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  code_prefix?: string;

  @ApiPropertyOptional({ description: 'a device bound to the card: its machine code, exact' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  machine?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'created at or after' })
  @IsOptional()
  @IsIsoInstant()
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'created before' })
  @IsOptional()
  @IsIsoInstant()
  created_to?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'expires at or after (cards without an expiry never match)' })
  @IsOptional()
  @IsIsoInstant()
  expires_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'expires before (cards without an expiry never match)' })
  @IsOptional()
  @IsIsoInstant()
  expires_to?: string;

  @ApiPropertyOptional({
    enum: CARD_SORTS,
    default: '-created_at',
    description: '`-` = descending; ties in id order (same direction); cards without an expiry or a login come last either way',
  })
  @IsOptional()
  @IsIn(CARD_SORTS)
  sort?: CardSort;
}

/** The list's filters without paging or order: the CSV export holds every matching card, oldest first. */
export class ExportCardsQuery extends OmitType(ListCardsQuery, ['page', 'page_size', 'sort'] as const) {}

export const CSV_EXPORT_FORMATS = ['data', 'excel'] as const;

/** The CSV export's filters and its layout: `data` (default) is read back by the import, `excel` is for a spreadsheet. */
export class ExportCardsCsvQuery extends ExportCardsQuery {
  @ApiPropertyOptional({
    enum: CSV_EXPORT_FORMATS,
    default: 'data',
    description:
      '`data`: ISO UTC times and seconds, the columns the import reads back; `excel`: a UTF-8 BOM, the card type by name, the duration in days too, times as YYYY-MM-DD HH:mm:ss in APP_TIMEZONE (named in the header)',
  })
  @IsOptional()
  @IsIn(CSV_EXPORT_FORMATS)
  format?: (typeof CSV_EXPORT_FORMATS)[number];
}

/** Every criterion of the filter builder; a bulk filter needs at least one of them, or `all: true`. */
export const CARD_FILTER_KEYS = [
  'status',
  'batch_id',
  'q',
  'activated',
  'expired',
  'kind',
  'code_prefix',
  'machine',
  'created_from',
  'created_to',
  'expires_from',
  'expires_to',
] as const;

export type CardFilters = Pick<ListCardsQuery, (typeof CARD_FILTER_KEYS)[number]>;

/** `POST /projects/:id/cards/import?dry_run=true`. */
export class ImportCardsQuery {
  @ApiPropertyOptional({ description: 'check every row and report, import nothing' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  dry_run?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      "every card is of this card type: absent columns take the type's rules, `kind` may only be the type's, and the cards keep the type",
  })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_type_id?: number;

  @ApiPropertyOptional({
    description:
      "with card_type_id: every card becomes the type's unsold stock (status `stock`), sold by the storefront; rows must be unused cards",
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  stock?: boolean;
}
