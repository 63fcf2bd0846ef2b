import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `pending` and `publishing`: an import still running, or left by a process that died (cards-importer.ts). */
export type CardBatchStatus = 'pending' | 'publishing' | 'live';

/** One generation request or import; a generation's idempotency key makes a retried request return the same cards. */
@Entity('card_batches')
export class CardBatch {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 100, nullable: true })
  idempotencyKey: string | null;

  @Column({ type: 'integer' })
  count: number;

  /** The card type its cards were made from, if any (decisions §19). */
  @Column({ name: 'card_type_id', type: 'integer', nullable: true })
  cardTypeId: number | null;

  @Column({ type: 'varchar', length: 10, default: 'live' })
  status: CardBatchStatus;

  /** Kept fresh by the import that owns a batch not yet live; stale means its process died. */
  @Column({ name: 'heartbeat_at', type: 'timestamptz', nullable: true })
  heartbeatAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
