import { ApiProperty } from '@nestjs/swagger';
import { CARD_KINDS, CardKind } from '../cards/card.entity';
import { STOCK_MODES, StockMode } from '../cards/types/card-type.entity';

/** A card type as the storefront offers it: what a buyer needs to choose, nothing of the author's set-up. */
export class StorefrontCardTypeView {
  @ApiProperty({ type: 'integer', description: 'the `card_type_id` of a checkout' }) id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: CARD_KINDS }) kind!: CardKind;
  @ApiProperty({ type: 'integer', description: 'time types: how long a card lasts once used; 0 = permanent' })
  duration_seconds!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'count types: logins of each card' }) uses!: number | null;
  @ApiProperty({ type: 'integer', description: 'devices one card may be bound to' }) device_limit!: number;
  @ApiProperty({ type: 'integer', description: 'the price of one card, in integer cents of `currency`' })
  price_cents!: number;
  @ApiProperty({ enum: STOCK_MODES, description: "`stock`: sold from the type's unsold stock" }) stock_mode!: StockMode;
  @ApiProperty({
    description:
      'false: a stock type with no unsold card free now (sold out; a checkout is refused OUT_OF_STOCK); always true for `mint`',
  })
  in_stock!: boolean;
}

/** `GET /shop/api/:program_id`: what the storefront page shows before a checkout. */
export class StorefrontCatalogView {
  @ApiProperty({ example: '48213907' }) program_id!: string;
  @ApiProperty({ description: "the program's name" }) name!: string;
  @ApiProperty({ example: 'CNY', description: 'the currency of every price and checkout' }) currency!: string;
  @ApiProperty({
    type: [StorefrontCardTypeView],
    description: 'the types for sale (for_sale, enabled, priced above 0), cheapest first',
  })
  card_types!: StorefrontCardTypeView[];
  @ApiProperty({
    type: [String],
    example: ['epay'],
    description: "the payment providers the program has switched on, usable in the service's currency: a checkout's `provider`",
  })
  providers!: string[];
}
