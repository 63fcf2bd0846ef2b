import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const APP_USER_STATUSES = ['active', 'banned'] as const;
export type AppUserStatus = (typeof APP_USER_STATUSES)[number];

/**
 * A program user (decisions §6): an account inside exactly one project, unique there by username
 * ignoring case. The password is kept only as an argon2id hash.
 */
@Entity('app_users')
export class AppUser {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  /** As registered (case kept); uniqueness is on lower(username). */
  @Column({ type: 'varchar', length: 32 })
  username: string;

  @Column({ name: 'password_hash', type: 'text', select: false })
  passwordHash: string;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  status: AppUserStatus;

  /** The machine the account is bound to under the `rebind` and `locked` policies; null = none yet. */
  @Column({ name: 'bound_machine_id', type: 'varchar', length: 128, nullable: true })
  boundMachineId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;
}
