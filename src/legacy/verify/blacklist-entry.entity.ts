import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const BLACKLIST_KINDS = ['domain', 'ip'] as const;
export type BlacklistKind = (typeof BLACKLIST_KINDS)[number];

/** A domain or client IP refused by a program's licence-file verification. */
@Entity('blacklist_entries')
export class BlacklistEntry {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 10 })
  kind: BlacklistKind;

  /** A lower-case hostname (kind domain) or a normalized IP address (kind ip). */
  @Column({ type: 'varchar', length: 255 })
  value: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
