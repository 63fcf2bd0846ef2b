import { ApiProperty } from '@nestjs/swagger';
import { AccountStatus } from '../admin-kernel/admin-user.entity';
import { SalesItem } from '../sales/sales-item.view';
import { LEDGER_KINDS, LedgerKind } from './ledger';

/** An agent as its author, its ancestors and itself see it. */
export class AgentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: ['active', 'disabled'] }) status!: AccountStatus;
  @ApiProperty({ format: 'uuid', description: 'the author whose agents these are' }) owner_id!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) parent_agent_id!: string | null;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 3 }) level!: number;
  @ApiProperty({ type: [String], format: 'uuid' }) project_ids!: string[];
  @ApiProperty({ type: 'integer' }) discount_percent!: number;
  @ApiProperty() can_create_sub_agents!: boolean;
  @ApiProperty() can_ban!: boolean;
  @ApiProperty() can_unbind!: boolean;
  @ApiProperty({ type: 'integer', description: 'integer cents, never below zero' }) balance_cents!: number;
  @ApiProperty({ type: 'integer', nullable: true }) low_balance_cents!: number | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

/** One change of an agent's balance; `amount_cents` is negative for `debit` and `clawback`. */
export class LedgerEntryView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ enum: LEDGER_KINDS }) kind!: LedgerKind;
  @ApiProperty({ type: 'integer' }) amount_cents!: number;
  @ApiProperty({ type: 'integer' }) balance_after_cents!: number;
  @ApiProperty({ type: String, nullable: true, description: "the order's order_id" }) order_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) batch_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the admin account that made the change' })
  actor_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

/** A card type an agent may sell, with its price for that agent. */
export class AgentCardTypeView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() project_name!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['time', 'count'] }) kind!: string;
  @ApiProperty({ type: 'integer' }) duration_seconds!: number;
  @ApiProperty({ type: 'integer', nullable: true }) uses!: number | null;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty({ type: [String] }) features!: string[];
  @ApiProperty({ type: 'integer', description: "the type's list price" }) price_cents!: number;
  @ApiProperty({
    type: 'integer',
    description: 'what one card costs this agent: its own price for the type when set, else the price less its discount',
  })
  agent_price_cents!: number;
}

export class SalesView {
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date' }) to!: string;
  @ApiProperty() time_zone!: string;
  @ApiProperty({ type: [SalesItem] }) items!: SalesItem[];
}

class LedgerMismatch {
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ type: 'integer' }) balance_cents!: number;
  @ApiProperty({ type: 'integer' }) ledger_cents!: number;
  @ApiProperty({ type: 'integer' }) entries!: number;
}

class OrderMismatch {
  @ApiProperty({ format: 'uuid', description: "the order's id as the ledger entries name it" }) order_id!: string;
  @ApiProperty({ type: String, nullable: true, description: "the order's own order_id; null when no such order exists" })
  reference!: string | null;
  @ApiProperty({ enum: ['debit', 'commission', 'refund', 'clawback'] }) kind!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) agent_id!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'what the order says this kind adds up to; null: no such order' })
  expected_cents!: number | null;
  @ApiProperty({ type: 'integer', description: 'what the entries of this kind for the order add up to (absolute)' })
  ledger_cents!: number;
}

/**
 * The ledger check: every agent's balance equals the sum of its entries, and every entry that names
 * an order agrees with that order (its price, commission and refunded count).
 */
export class LedgerCheckView {
  @ApiProperty({ enum: ['ok', 'fail'] }) severity!: 'ok' | 'fail';
  @ApiProperty({ type: 'integer' }) agents!: number;
  @ApiProperty({ type: 'integer' }) entries!: number;
  @ApiProperty({ type: 'integer' }) orders!: number;
  @ApiProperty({ type: [LedgerMismatch], description: 'agents whose balance differs from their entries (none, always)' })
  mismatches!: LedgerMismatch[];
  @ApiProperty({
    type: [OrderMismatch],
    description: 'orders whose entries differ from what the order says, and entries naming no order (none, always)',
  })
  order_mismatches!: OrderMismatch[];
}
