import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One try at sending a mail, and the SMTP server's answer; see migration 1766710000000. */
@Entity('mail_attempts')
export class MailAttempt {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'mail_id', type: 'uuid' })
  mailId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz', default: () => 'now()' })
  attemptedAt: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  /** The SMTP reply code; null when none came (refused, timeout, closed). */
  @Column({ name: 'smtp_code', type: 'integer', nullable: true })
  smtpCode: number | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  error: string | null;
}
