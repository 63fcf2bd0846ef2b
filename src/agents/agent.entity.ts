import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../common/bigint-as-number';

/**
 * An agent (reseller, decisions §19): the row beside its admin account (same id), its place in its
 * author's tree and its balance in cents, which never goes below zero. See migration 1766410000000.
 */
@Entity('agents')
export class Agent {
  /** The id of its admin_users row. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** The author whose projects it sells. */
  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId: string;

  @Column({ name: 'parent_agent_id', type: 'uuid', nullable: true })
  parentAgentId: string | null;

  @Column({ type: 'smallint' })
  level: number;

  @Column({ name: 'discount_percent', type: 'smallint' })
  discountPercent: number;

  @Column({ name: 'can_create_sub_agents', type: 'boolean', default: false })
  canCreateSubAgents: boolean;

  @Column({ name: 'can_ban', type: 'boolean', default: false })
  canBan: boolean;

  @Column({ name: 'can_unbind', type: 'boolean', default: false })
  canUnbind: boolean;

  /** Changed only through the ledger (agent-ledger.repository.ts), one entry per change. */
  @Column({ name: 'balance_cents', type: 'bigint', default: 0, transformer: bigintAsNumber })
  balanceCents: number;

  @Column({ name: 'low_balance_cents', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  lowBalanceCents: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
