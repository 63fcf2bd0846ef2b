import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_INT32 } from '../../common/limits';
import { Optional } from '../../common/optional';
import { MAX_CARD_USES } from '../../common/limits';
import {
  CARD_CODE_LENGTH,
  CARD_KEY_ALPHABET_NAMES,
  CARD_PREFIX_PATTERN,
  CardKeyAlphabet,
  DEFAULT_KEY_ALPHABET,
  MAX_KEY_LENGTH,
  MIN_KEY_BITS,
  MIN_KEY_LENGTH,
} from '../card-codes';
import { CARD_KINDS, CardKind } from '../card.entity';
import { FEATURE_PATTERN, MAX_FEATURES } from './card-features';
import { STOCK_MODES, StockMode } from './card-type.entity';

/** `POST /projects/:id/card-types` (decisions §19). Prices are integer cents. */
export class CreateCardTypeDto {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'Month' })
  @IsString()
  @Length(1, 64)
  name: string;

  @ApiProperty({ enum: CARD_KINDS, description: '`time`, or `count` (each successful login takes one of `uses`)' })
  @IsIn(CARD_KINDS)
  kind: CardKind;

  @ApiProperty({
    minimum: 0,
    description: 'validity after first login; 0 = permanent (a count card may have both rules)',
    example: 30 * 86400,
  })
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  duration_seconds: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_CARD_USES,
    description: 'logins of a count card; required for, and only for, kind count',
  })
  @ValidateIf((dto: CreateCardTypeDto) => dto.kind === 'count' || dto.uses !== undefined)
  @IsInt()
  @Min(1)
  @Max(MAX_CARD_USES)
  uses?: number;

  @ApiProperty({ minimum: 1, maximum: 1000 })
  @IsInt()
  @Min(1)
  @Max(1000)
  device_limit: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    nullable: true,
    description: 'live SDK sessions at once; absent or null = unlimited',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrent_limit?: number | null;

  @ApiProperty({
    type: [String],
    maxItems: MAX_FEATURES,
    example: ['pro', 'export.pdf'],
    description: `names of 1-32 of [a-z0-9_.-], at most ${MAX_FEATURES}, each once; answered in every card login, heartbeat, info and offline licence`,
  })
  @IsArray()
  @ArrayMaxSize(MAX_FEATURES)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(FEATURE_PATTERN, { each: true, message: 'each of features must be 1-32 of [a-z0-9_.-]' })
  features: string[];

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_INT32, description: 'price of one card in integer cents' })
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  price_cents: number;

  @ApiPropertyOptional({ default: false, description: 'agents may sell it' })
  @Optional()
  @IsBoolean()
  agent_allowed?: boolean;

  @ApiPropertyOptional({
    pattern: CARD_PREFIX_PATTERN.source,
    default: '',
    description: 'put before the random characters of generated codes',
  })
  @Optional()
  @IsString()
  @Matches(CARD_PREFIX_PATTERN, { message: 'prefix must be 0-16 of [A-Za-z0-9-]' })
  prefix?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_KEY_LENGTH,
    maximum: MAX_KEY_LENGTH,
    description: `random characters after the prefix, default ${CARD_CODE_LENGTH}; with the alphabet at least ${MIN_KEY_BITS} bits, and with the prefix at most 64 characters`,
  })
  @Optional()
  @IsInt()
  @Min(MIN_KEY_LENGTH)
  @Max(MAX_KEY_LENGTH)
  key_length?: number;

  @ApiPropertyOptional({
    enum: CARD_KEY_ALPHABET_NAMES,
    description: `default ${DEFAULT_KEY_ALPHABET}; upper_digits_unambiguous: A-Z and 2-9 without O, I, L; upper_digits: A-Z 0-9; lower_digits: a-z 0-9; digits: 0-9; hex_upper: 0-9 A-F`,
  })
  @Optional()
  @IsIn(CARD_KEY_ALPHABET_NAMES)
  key_alphabet?: CardKeyAlphabet;

  @ApiPropertyOptional({ default: true, description: 'false: no new cards are made from it; its cards keep working' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description:
      "shown and sold by the program's storefront (a price above 0 and the type enabled are needed to sell it); absent: false",
  })
  @Optional()
  @IsBoolean()
  for_sale?: boolean;

  @ApiPropertyOptional({
    enum: STOCK_MODES,
    description:
      "where a storefront sale's cards come from: `mint` (absent) makes them when paid, `stock` hands out the type's unsold stock cards (made or imported with stock: true)",
  })
  @Optional()
  @IsIn(STOCK_MODES)
  stock_mode?: StockMode;
}

/**
 * PATCH: any subset (none null except `concurrent_limit` and `uses`). Rules changed here apply to
 * cards made afterwards; features apply at once to every card of the type. Kind and uses are
 * checked together on the result (a count type needs uses, a time type has none).
 */
export class UpdateCardTypeDto extends PartialType(OmitType(CreateCardTypeDto, ['uses'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_CARD_USES,
    nullable: true,
    description: 'logins of a count card; null when the type becomes a time type',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(MAX_CARD_USES)
  uses?: number | null;
}
