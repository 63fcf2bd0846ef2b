import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber } from '../common/bigint-as-number';
import type { LedgerKind } from './ledger';

/**
 * One change of an agent's balance (decisions §19): credit, refund and commission add (positive
 * amount), debit and clawback take away (negative). See migration 1766410000000.
 */
@Entity('agent_ledger')
export class AgentLedgerEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ type: 'varchar', length: 12 })
  kind: LedgerKind;

  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintAsNumber })
  amountCents: number;

  @Column({ name: 'balance_after_cents', type: 'bigint', transformer: bigintAsNumber })
  balanceAfterCents: number;

  /** The order it pays or refunds (orders.id), which outlives its project. */
  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId: string | null;

  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  note: string | null;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
