import { ApiProperty } from '@nestjs/swagger';
import { CARD_KEY_ALPHABET_NAMES, CardKeyAlphabet } from '../card-codes';
import { CARD_KINDS, CardKind } from '../card.entity';
import { CardType, STOCK_MODES, StockMode } from './card-type.entity';

/** The admin API's card-type resource (decisions §19). */
export class CardTypeView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: CARD_KINDS }) kind!: CardKind;
  @ApiProperty({ type: 'integer', description: '0 = permanent' }) duration_seconds!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'count types: logins of each card' }) uses!: number | null;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null = unlimited' }) concurrent_limit!: number | null;
  @ApiProperty({ type: [String] }) features!: string[];
  @ApiProperty({ type: 'integer', description: 'integer cents' }) price_cents!: number;
  @ApiProperty() agent_allowed!: boolean;
  @ApiProperty() prefix!: string;
  @ApiProperty({ type: 'integer', description: 'random characters after the prefix' }) key_length!: number;
  @ApiProperty({ enum: CARD_KEY_ALPHABET_NAMES, description: 'what the random characters are drawn from' })
  key_alphabet!: CardKeyAlphabet;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ description: "shown and sold by the program's storefront" }) for_sale!: boolean;
  @ApiProperty({
    enum: STOCK_MODES,
    description: "where a storefront sale's cards come from: made when paid, or the type's stock",
  })
  stock_mode!: StockMode;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export function toCardTypeView(t: CardType): CardTypeView {
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    duration_seconds: t.durationSeconds,
    uses: t.uses,
    device_limit: t.deviceLimit,
    concurrent_limit: t.concurrentLimit,
    features: t.features,
    price_cents: t.priceCents,
    agent_allowed: t.agentAllowed,
    prefix: t.prefix,
    key_length: t.keyLength,
    key_alphabet: t.keyAlphabet,
    enabled: t.enabled,
    for_sale: t.forSale,
    stock_mode: t.stockMode,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}
