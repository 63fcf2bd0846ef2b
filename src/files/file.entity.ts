import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

const bigintAsNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A file an author uploaded for one program; its bytes live under FILES_DIR at `storagePath`. */
@Entity('files')
export class StoredFile {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size: number;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  /** Relative to FILES_DIR, so the directory can move. */
  @Column({ name: 'storage_path', type: 'varchar', length: 500 })
  storagePath: string;

  @Column({ name: 'download_count', type: 'bigint', default: 0, transformer: bigintAsNumber })
  downloadCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
