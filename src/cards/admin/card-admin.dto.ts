import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_CARD_USES, MAX_INT32 } from '../../common/limits';
import { Optional } from '../../common/optional';
import { CARD_PREFIX_PATTERN } from '../card-codes';
import { CARD_KINDS, CardKind } from '../card.entity';
import { IsIsoInstant } from './iso-instant';

export const MAX_BATCH_SIZE = 10_000;
/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
export const HOLDER_EMAIL_MAX = 254;

export class CreateCardsDto {
  @ApiProperty({ minimum: 1, maximum: MAX_BATCH_SIZE, example: 100 })
  @IsInt()
  @Min(1)
  @Max(MAX_BATCH_SIZE)
  count: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      'make the cards from this card type: its kind, duration, uses, device and seat limits and prefix; then leave those fields out',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_type_id?: number;

  @ApiPropertyOptional({
    description:
      "with card_type_id: make the cards as the type's unsold stock (status `stock`), which the storefront sells when the type's stock_mode is `stock`; a stock card cannot log in before it is sold (absent: false)",
  })
  @Optional()
  @IsBoolean()
  stock?: boolean;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'validity after first login; 0 = permanent (required without card_type_id)',
    example: 30 * 86400,
  })
  @ValidateIf((dto: CreateCardsDto) => dto.card_type_id === undefined || dto.duration_seconds !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  duration_seconds?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: "default: the project's device_limit" })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1000)
  device_limit?: number;

  @ApiPropertyOptional({ pattern: CARD_PREFIX_PATTERN.source, description: 'put before the 20 random characters' })
  @Optional()
  @IsString()
  @Matches(CARD_PREFIX_PATTERN, { message: 'prefix must be 0-16 of [A-Za-z0-9-]' })
  prefix?: string;

  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  note?: string | null;

  @ApiPropertyOptional({
    enum: CARD_KINDS,
    description: '`time` (default) or `count` (each successful login takes one of `uses`)',
  })
  @Optional()
  @IsIn(CARD_KINDS)
  kind?: CardKind;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_CARD_USES,
    description: 'logins of a count card; required for, and only for, kind count',
  })
  @ValidateIf((dto: CreateCardsDto) => dto.kind === 'count' || dto.uses !== undefined)
  @IsInt()
  @Min(1)
  @Max(MAX_CARD_USES)
  uses?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    nullable: true,
    description: "live SDK sessions at once; default: the project's concurrent_limit; null = unlimited",
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrent_limit?: number | null;
}

/**
 * PATCH: any subset. `banned` bans; `active` lifts a ban (back to active if ever activated, else
 * unused). `expires_at` and `extend_seconds` exclude each other; what each may change depends on the
 * card (activated or not, time or count), which the service checks before it changes anything. The
 * note and the two limits are the creation's fields, rules and all; the rest is the card's own.
 */
export class UpdateCardDto extends PartialType(PickType(CreateCardsDto, ['note', 'device_limit', 'concurrent_limit'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({ enum: ['banned', 'active'] })
  @Optional()
  @IsIn(['banned', 'active'])
  status?: 'banned' | 'active';

  // What a change of one card means, where the creation's text speaks of a batch's defaults.
  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true, description: 'null clears it' })
  override note?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'devices already bound stay bound' })
  override device_limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    nullable: true,
    description: 'live SDK sessions at once; null = unlimited',
  })
  override concurrent_limit?: number | null;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    maxLength: HOLDER_EMAIL_MAX,
    nullable: true,
    description: "whom the card's mails go to (the expiry reminder); null clears it",
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(HOLDER_EMAIL_MAX)
  @IsEmail({}, { message: 'holder_email must be an e-mail address' })
  holder_email?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'an activated card only: its new expiry (past = expired now); null = permanent',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIsoInstant()
  expires_at?: string | null;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_INT32,
    description: 'adds to the expiry of an activated card, or to the duration of a card never activated; not for permanent cards',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  extend_seconds?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_CARD_USES, description: 'count cards only' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_CARD_USES)
  uses_left?: number;
}
