import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { MailTemplate } from './mail-templates';

export type MailStatus = 'pending' | 'sent' | 'failed';

/** One mail owed to one address, and where its attempts stand; see migration 1766710000000. */
@Entity('mail_messages')
export class MailMessage {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'to_address', type: 'varchar', length: 254 })
  toAddress: string;

  @Column({ type: 'varchar', length: 32 })
  template: MailTemplate;

  /** What the template fills in (mail-templates.ts), rendered when the mail is sent. */
  @Column({ type: 'jsonb' })
  data: unknown;

  @Column({ name: 'dedupe_key', type: 'varchar', length: 200 })
  dedupeKey: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: MailStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** When a pending mail is due; a claimed one is pushed ahead by the claim's lease. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ name: 'last_error', type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
