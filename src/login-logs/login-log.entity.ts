import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ClientFamilyName } from '../core/client-families';

export type { ClientFamilyName };

/** One card-login attempt, success or failure (decisions §4). result_code 0 = success. */
@Entity('login_logs')
export class LoginLog {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'card_id', type: 'integer', nullable: true })
  cardId: number | null;

  @Column({ name: 'card_code', type: 'varchar', length: 128, nullable: true })
  cardCode: string | null;

  @Column({ name: 'machine_code', type: 'varchar', length: 128, nullable: true })
  machineCode: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 16 })
  family: ClientFamilyName;

  @Column({ type: 'varchar', length: 32 })
  interface: string;

  @Column({ name: 'result_code', type: 'integer' })
  resultCode: number;

  @Column({ name: 'request_id', type: 'varchar', length: 64 })
  requestId: string;

  /** SHA-256 of the compatible token a successful login issued (never the token itself). */
  @Column({ name: 'token_hash', type: 'char', length: 64, nullable: true, select: false })
  tokenHash: string | null;

  /** The request log's (decisions §22): the route pattern, milliseconds to the answer, what the refusing rule said. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  route: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  reason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
