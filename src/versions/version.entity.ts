import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A released version of one program; clients are pointed at its file or its download URL. */
@Entity('versions')
export class AppVersion {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 32 })
  version: string;

  @Column({ type: 'text', default: '' })
  changelog: string;

  @Column({ name: 'force_update', type: 'boolean', default: false })
  forceUpdate: boolean;

  @Column({ name: 'file_id', type: 'uuid', nullable: true })
  fileId: string | null;

  @Column({ name: 'download_url', type: 'varchar', length: 500, nullable: true })
  downloadUrl: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
