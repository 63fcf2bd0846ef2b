import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DomainEventType } from '../events/domain-event-types';
import { WebhookFormat } from './webhook-formats';

/** Where a project's events are POSTed (decisions §20); see migration 1766200000000. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** The event types it subscribes to. */
  @Column({ type: 'text', array: true })
  events: DomainEventType[];

  @Column({ type: 'varchar', length: 16 })
  format: WebhookFormat;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** The first failed attempt since the last success; three days of it disables the endpoint. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /** Why the service switched it off; null when the author did, or it is on. */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 32, nullable: true })
  disabledReason: 'failing' | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
