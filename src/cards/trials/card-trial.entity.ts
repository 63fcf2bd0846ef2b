import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A device's one trial (decisions §21), unique by (project, machine code): claimed before its card
 * is made; `cardId` becomes null when the author deletes the card, and the device stays used.
 * See migration 1766400000000.
 */
@Entity('card_trials')
export class CardTrial {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'machine_code', type: 'varchar', length: 128 })
  machineCode: string;

  @Column({ name: 'card_id', type: 'integer', nullable: true })
  cardId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
