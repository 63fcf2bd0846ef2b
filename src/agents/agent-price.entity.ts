import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What one card of a type costs one agent, set by its author or an agent above it; it replaces
 * the list price less the agent's discount for that type (docs/commerce.md). See migration 1766600000000.
 */
@Entity('agent_prices')
export class AgentPrice {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ name: 'card_type_id', type: 'integer' })
  cardTypeId: number;

  @Column({ name: 'price_cents', type: 'integer' })
  priceCents: number;

  /** The admin account that set it last. */
  @Column({ name: 'updated_by', type: 'uuid', nullable: true })
  updatedBy: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
