import { Column, Entity, PrimaryColumn } from 'typeorm';

export const BACKUP_TRIGGERS = ['manual', 'scheduled', 'upgrade'] as const;
/** Who asked for a backup: an admin through the API, the schedule, or an upgrade before it migrated. */
export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

const bigintAsNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/** One archive in BACKUP_DIR (decisions §24); see migration 1766470000000. */
@Entity('backups')
export class Backup {
  @PrimaryColumn('uuid')
  id: string;

  /** The archive's base name inside BACKUP_DIR. */
  @Column({ type: 'varchar', length: 255 })
  file: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  bytes: number;

  /** SHA-256 of the whole archive file, hex. */
  @Column({ type: 'char', length: 64 })
  sha256: string;

  /** The last migration applied in the database backed up. */
  @Column({ type: 'varchar', length: 255 })
  schema: string;

  @Column({ type: 'varchar', length: 16 })
  trigger: BackupTrigger;

  /** The admin account that asked (null: the schedule or an upgrade). */
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  /** When the archive's snapshot was taken. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
