import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AdminUser } from '../../admin-kernel/admin-user.entity';
import type { ApiKeyScope } from '../../admin-kernel/api-key-scopes';

/** An admin API key, kept only as a keyed hash (api-key-secret.ts); see migration 1766420000000. */
@Entity('admin_api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId: string;

  @ManyToOne(() => AdminUser, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner: AdminUser;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  @Column({ type: 'text', array: true })
  scopes: ApiKeyScope[];

  /** null = every project the owner reaches. */
  @Column({ name: 'project_ids', type: 'uuid', array: true, nullable: true })
  projectIds: string[] | null;

  /** null = from any address. */
  @Column({ name: 'allowed_cidrs', type: 'text', array: true, nullable: true })
  allowedCidrs: string[] | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
