import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Card } from './card.entity';

/** A device bound to a card; the primary key makes a double binding impossible. */
@Entity('card_devices')
export class CardDevice {
  @PrimaryColumn({ name: 'card_id', type: 'integer' })
  cardId: number;

  @PrimaryColumn({ name: 'machine_code', type: 'varchar', length: 128 })
  machineCode: string;

  @Column({ name: 'bound_at', type: 'timestamptz', default: () => 'now()' })
  boundAt: Date;

  /** Last login or heartbeat of this device (heartbeats write it at most once a minute); idle release reads it. */
  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;

  // Named, not imported: card.entity.ts imports this file, and a runtime import back would be a cycle.
  @ManyToOne('Card', (c: Card) => c.devices, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'card_id' })
  card?: Relation<Card>;
}
