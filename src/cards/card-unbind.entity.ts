import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A device a card's holder unbound, when: the history the rebinding rules count (decisions §21). */
@Entity('card_unbinds')
export class CardUnbind {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'card_id', type: 'integer' })
  cardId: number;

  @Column({ name: 'machine_code', type: 'varchar', length: 128 })
  machineCode: string;

  @Column({ name: 'unbound_at', type: 'timestamptz' })
  unboundAt: Date;
}
