import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row (id 1) that says when the last scheduled backup started; instances claim turns on it. */
@Entity('backup_schedule')
export class BackupScheduleState {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  /** Null: never, or the last scheduled backup failed (the next check tries again). */
  @Column({ name: 'last_started_at', type: 'timestamptz', nullable: true })
  lastStartedAt: Date | null;
}
