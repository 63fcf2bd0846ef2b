import { ApiProperty } from '@nestjs/swagger';
import { CardView } from '../cards/admin/card.view';

export class OrderView {
  @ApiProperty({ description: "the caller's order number" }) order_id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ type: 'integer' }) card_type_id!: number;
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "null: the author's own order (nothing debited)" })
  agent_id!: string | null;
  @ApiProperty({ type: 'integer', description: 'what one card cost the agent' }) unit_price_cents!: number;
  @ApiProperty({ type: 'integer', description: 'debited from the agent' }) total_cents!: number;
  @ApiProperty({ type: 'integer', description: 'cards refunded since' }) refunded_count!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) batch_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

/** An order with its cards (as they are now; a refunded card is gone). */
export class OrderWithCardsView extends OrderView {
  @ApiProperty({ type: [CardView] }) items!: CardView[];
}

export class RefundView {
  @ApiProperty({ type: [Number], description: 'the cards refunded (and deleted) by this request' }) card_ids!: number[];
  @ApiProperty({ type: 'integer', description: "cents credited back to the order's agent" }) refunded_cents!: number;
  @ApiProperty({ type: 'integer', description: "cents taken back from the parent agent's commission" }) clawback_cents!: number;
}
