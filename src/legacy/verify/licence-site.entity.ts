import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A site authorized for a program's licence-file verification (`/api/verify`). */
@Entity('licence_sites')
export class LicenceSite {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  /** A lower-case hostname, or `*.` before one (`*.example.com`). */
  @Column({ type: 'varchar', length: 255 })
  domain: string;

  /** When set, a request must carry this licence. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  licence: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  note: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
