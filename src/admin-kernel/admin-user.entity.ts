import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** `agent`: a reseller (decisions §19), which reaches only the routes marked @AgentScope. */
export const ADMIN_ROLE_NAMES = ['platform_admin', 'author', 'agent'] as const;
export type AdminRole = (typeof ADMIN_ROLE_NAMES)[number];
export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** A back-office account: a platform admin, an author (project owner) or an agent (src/agents). */
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

  /** The TOTP secret, SecretBox-encrypted; set at enrolment, in force once `totpEnabledAt` is set. Never answered. */
  @Column({ name: 'totp_secret', type: 'text', nullable: true, select: false })
  totpSecret: string | null;

  @Column({ name: 'totp_enabled_at', type: 'timestamptz', nullable: true })
  totpEnabledAt: Date | null;

  /** The last TOTP time step accepted: a code of that step or an earlier one is refused. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true, select: false })
  totpLastStep: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
