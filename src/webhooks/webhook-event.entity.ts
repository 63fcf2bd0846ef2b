import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DomainEventType } from '../events/domain-event-types';

/** One event of a project, written with the change it reports (the outbox); see migration 1766200000000. */
@Entity('webhook_events')
export class WebhookEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 40 })
  type: DomainEventType;

  @Column({ type: 'jsonb' })
  data: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
