import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CardKeyAlphabet } from '../card-codes';
import type { CardKind } from '../card.entity';

/** Where a storefront sale's cards come from (decisions §26): made when paid, or the type's unsold stock. */
export const STOCK_MODES = ['mint', 'stock'] as const;
export type StockMode = (typeof STOCK_MODES)[number];

/**
 * A project's named card rules (decisions §19): what a card made from it gets (kind, duration,
 * uses, device and seat limits, code prefix, length and alphabet), what it sells for, and the features its cards answer.
 */
@Entity('card_types')
export class CardType {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 8 })
  kind: CardKind;

  @Column({ name: 'duration_seconds', type: 'integer' })
  durationSeconds: number;

  /** Logins of a count card; null for a time card. */
  @Column({ type: 'integer', nullable: true })
  uses: number | null;

  @Column({ name: 'device_limit', type: 'integer' })
  deviceLimit: number;

  @Column({ name: 'concurrent_limit', type: 'integer', nullable: true })
  concurrentLimit: number | null;

  @Column({ type: 'varchar', length: 32, array: true, default: () => "'{}'" })
  features: string[];

  @Column({ name: 'price_cents', type: 'integer' })
  priceCents: number;

  @Column({ name: 'agent_allowed', type: 'boolean', default: false })
  agentAllowed: boolean;

  @Column({ type: 'varchar', length: 16, default: '' })
  prefix: string;

  /** Random characters after the prefix. */
  @Column({ name: 'key_length', type: 'integer', default: 20 })
  keyLength: number;

  @Column({ name: 'key_alphabet', type: 'varchar', length: 32, default: 'upper_digits_unambiguous' })
  keyAlphabet: CardKeyAlphabet;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Shown and sold by the program's storefront (decisions §26). */
  @Column({ name: 'for_sale', type: 'boolean', default: false })
  forSale: boolean;

  @Column({ name: 'stock_mode', type: 'varchar', length: 8, default: 'mint' })
  stockMode: StockMode;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
