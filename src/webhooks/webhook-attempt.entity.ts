import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One try at sending a delivery, and how it ended; see migration 1766200000000. */
@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz', default: () => 'now()' })
  attemptedAt: Date;

  /** Null: no answer (timeout, refused, bad address). */
  @Column({ name: 'http_status', type: 'integer', nullable: true })
  httpStatus: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  /** The first KiB of the answer, or why there was none. */
  @Column({ name: 'response_excerpt', type: 'text', default: '' })
  responseExcerpt: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  error: string | null;
}
