import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber } from '../common/bigint-as-number';

/**
 * An order (decisions §19): cards bought from a card type, one per (project, order_id). Orders
 * outlive their project: its deletion sets `projectId` and `cardTypeId` to null. See migrations
 * 1766410000001 and 1766450000000.
 */
@Entity('orders')
export class Order {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'project_id', type: 'uuid', nullable: true })
  projectId: string | null;

  /** The buyer's own reference: a retry with it answers the first order. */
  @Column({ name: 'order_id', type: 'varchar', length: 64 })
  orderId: string;

  @Column({ name: 'card_type_id', type: 'integer', nullable: true })
  cardTypeId: number | null;

  @Column({ type: 'integer' })
  count: number;

  /** The agent that paid; null when the author or a platform admin ordered, for free. */
  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ name: 'unit_price_cents', type: 'bigint', transformer: bigintAsNumber })
  unitPriceCents: number;

  @Column({ name: 'total_cents', type: 'bigint', transformer: bigintAsNumber })
  totalCents: number;

  /** The parent agent paid a commission on it, per card. */
  @Column({ name: 'commission_agent_id', type: 'uuid', nullable: true })
  commissionAgentId: string | null;

  @Column({ name: 'commission_unit_cents', type: 'bigint', default: 0, transformer: bigintAsNumber })
  commissionUnitCents: number;

  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId: string | null;

  @Column({ name: 'refunded_count', type: 'integer', default: 0 })
  refundedCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
