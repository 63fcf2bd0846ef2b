import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One admin write, or a refusal worth keeping. Append-only: a trigger refuses UPDATE and DELETE. */
@Entity('admin_audit')
export class AuditEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ name: 'actor_username', type: 'varchar', length: 32, nullable: true })
  actorUsername: string | null;

  @Column({ name: 'actor_role', type: 'varchar', length: 20, nullable: true })
  actorRole: string | null;

  /** The API key the actor used (actor_* name its owner); null for a signed-in account. */
  @Column({ name: 'actor_api_key_id', type: 'uuid', nullable: true })
  actorApiKeyId: string | null;

  @Column({ type: 'varchar', length: 80 })
  action: string;

  @Column({ type: 'varchar', length: 10 })
  outcome: 'success' | 'refused';

  @Column({ name: 'result_code', type: 'integer', nullable: true })
  resultCode: number | null;

  @Column({ name: 'resource_type', type: 'varchar', length: 40 })
  resourceType: string;

  @Column({ name: 'resource_id', type: 'varchar', length: 128, nullable: true })
  resourceId: string | null;

  @Column({ name: 'project_id', type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ type: 'varchar', length: 8 })
  method: string;

  @Column({ type: 'varchar', length: 200 })
  route: string;

  @Column({ type: 'jsonb', nullable: true })
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;

  @Column({ type: 'varchar', length: 64 })
  ip: string;

  @Column({ name: 'request_id', type: 'varchar', length: 64 })
  requestId: string;
}
