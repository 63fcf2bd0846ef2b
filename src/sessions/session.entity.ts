import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { SessionEnd } from './session-end';

export type SessionType = 'card' | 'app_user';

/** An SDK session: stored only as the SHA-256 of its token (decisions §5). */
@Entity('sessions')
export class Session {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'varchar', length: 10 })
  type: SessionType;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'card_id', type: 'integer', nullable: true })
  cardId: number | null;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ name: 'machine_code', type: 'varchar', length: 128 })
  machineCode: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** Why it was revoked (decisions §18); null while live, or when it ran out on its own. */
  @Column({ name: 'ended_by', type: 'varchar', length: 24, nullable: true })
  endedBy: SessionEnd | null;

  /** The login, or the last heartbeat that extended the session. */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;

  /** The last recorded heartbeat (at most one a minute is written); null: none since the login. */
  @Column({ name: 'last_heartbeat_at', type: 'timestamptz', nullable: true })
  lastHeartbeatAt: Date | null;

  /** The client address of the login, then of the last recorded heartbeat. */
  @Column({ type: 'varchar', length: 64, default: '' })
  address: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
