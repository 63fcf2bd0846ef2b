import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Per-project authorization of one interface with an optional daily quota. No row = authorized, unlimited. */
@Entity('project_interfaces')
export class ProjectInterface {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  name: string;

  @Column({ type: 'boolean', default: true })
  authorized: boolean;

  @Column({ name: 'daily_quota', type: 'integer', nullable: true })
  dailyQuota: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
