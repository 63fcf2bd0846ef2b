import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../common/bigint-as-number';

/**
 * Sales per local day, project, agent (NO_AGENT for the author's own orders) and card type, spread
 * over 16 slots per key; written and read by sales-counts.ts. See migration 1766410000001.
 */
@Entity('sales_daily_counts')
export class SalesDailyCount {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ name: 'card_type_id', type: 'integer' })
  cardTypeId: number;

  @PrimaryColumn({ type: 'smallint' })
  slot: number;

  @Column({ type: 'integer', default: 0 })
  sold: number;

  @Column({ type: 'integer', default: 0 })
  activated: number;

  @Column({ name: 'revenue_cents', type: 'bigint', default: 0, transformer: bigintAsNumber })
  revenueCents: number;
}
