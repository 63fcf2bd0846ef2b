import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const ADMIN_ROLE_NAMES = ['platform_admin', 'author'] as const;
export type AdminRole = (typeof ADMIN_ROLE_NAMES)[number];
export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** A back-office account: a platform admin or an author (project owner). */
@Entity('admin_users')
export class AdminUser {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 32 })
  username: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ type: 'varchar', length: 20 })
  role: AdminRole;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  status: AccountStatus;

  @Column({ name: 'daily_api_quota', type: 'integer', nullable: true })
  dailyApiQuota: number | null;

  @Column({ name: 'daily_verify_quota', type: 'integer', nullable: true })
  dailyVerifyQuota: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
