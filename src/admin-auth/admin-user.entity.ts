import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AdminRole = 'platform_admin' | 'author';
export type AccountStatus = 'active' | 'disabled';

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
