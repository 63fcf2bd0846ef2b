import { ApiProperty } from '@nestjs/swagger';
import { Backup, BACKUP_TRIGGERS, BackupTrigger } from './backup.entity';

export class BackupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: "the archive's file name inside BACKUP_DIR (a gzip'd tar: `tar tzf` lists it)" }) file!: string;
  @ApiProperty({ type: 'integer', description: "the archive's size in bytes" }) bytes!: number;
  @ApiProperty({ description: 'SHA-256 of the whole archive file, lowercase hex' }) sha256!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'when the snapshot was taken' }) created_at!: string;
  @ApiProperty({ description: 'the last migration applied in the database backed up' }) schema!: string;
  @ApiProperty({ enum: BACKUP_TRIGGERS, description: 'made by an admin, by the schedule, or before an upgrade' })
  trigger!: BackupTrigger;
}

/** The fields a client sees, listed (never the entity). */
export function toBackupView(row: Backup): BackupView {
  return {
    id: row.id,
    file: row.file,
    bytes: row.bytes,
    sha256: row.sha256,
    created_at: row.createdAt.toISOString(),
    schema: row.schema,
    trigger: row.trigger,
  };
}
