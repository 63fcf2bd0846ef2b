import { Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { CardDevice } from './card-device.entity';

/**
 * `consumed`: used up as a top-up card (decisions §13); it can never log in again. `stock`: an
 * unsold card of its type's stock (decisions §26), which no login, check or top-up sees until a
 * storefront sale turns it `unused`.
 */
export const CARD_STATUSES = ['unused', 'active', 'banned', 'consumed', 'stock'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** `time` cards run out at `expires_at`; `count` cards also after `uses_left` successful logins. */
export const CARD_KINDS = ['time', 'count'] as const;
export type CardKind = (typeof CARD_KINDS)[number];

const bigintAsNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A card key of one project (decisions §4). */
@Entity('cards')
export class Card {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ name: 'duration_seconds', type: 'integer' })
  durationSeconds: number;

  @Column({ name: 'device_limit', type: 'integer' })
  deviceLimit: number;

  @Column({ type: 'varchar', length: 10, default: 'unused' })
  status: CardStatus;

  @Column({ type: 'varchar', length: 8, default: 'time' })
  kind: CardKind;

  /** Logins left on a count card; null on a time card. */
  @Column({ name: 'uses_left', type: 'integer', nullable: true })
  usesLeft: number | null;

  /** Live SDK card sessions allowed at once (null = unlimited); set from the project's at creation. */
  @Column({ name: 'concurrent_limit', type: 'integer', nullable: true })
  concurrentLimit: number | null;

  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'use_count', type: 'bigint', default: 0, transformer: bigintAsNumber })
  useCount: number;

  @Column({ name: 'unbind_count', type: 'integer', default: 0 })
  unbindCount: number;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  note: string | null;

  /** Whom the card's mails go to (decisions §26): its buyer, or whoever the author sets. */
  @Column({ name: 'holder_email', type: 'varchar', length: 254, nullable: true })
  holderEmail: string | null;

  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId: string | null;

  /** The card type it was made from (decisions §19); null for a card made without one. */
  @Column({ name: 'card_type_id', type: 'integer', nullable: true })
  cardTypeId: number | null;

  /** The order that made it (decisions §19; orders.id), and that order's agent: null for other cards. */
  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId: string | null;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  /**
   * A stock card's reservation by a storefront checkout, until `reservedUntil` (decisions §26).
   * Never selected unless asked for: no login or card answer reads them.
   */
  @Column({ name: 'reserved_by', type: 'uuid', nullable: true, select: false })
  reservedBy?: string | null;

  @Column({ name: 'reserved_until', type: 'timestamptz', nullable: true, select: false })
  reservedUntil?: Date | null;

  /** A device's one trial card (decisions §21): every answer about it says `trial: true`. */
  @Column({ type: 'boolean', default: false })
  trial: boolean;

  /**
   * Its type's features, where the query that read the card also read them (card-features.ts):
   * not a column, since a type's features change for all its cards at once.
   */
  features?: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @OneToMany(() => CardDevice, (d) => d.card)
  devices?: Relation<CardDevice[]>;
}
