import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { LoginBlacklistKind } from '../common/blacklist-matcher';

/** A device code or an address / CIDR block refused on every client family of a project (decisions §24). */
@Entity('login_blacklist')
export class LoginBlacklistEntry {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 8 })
  kind: LoginBlacklistKind;

  /** A device code as clients send it, or a normalized address or block (`normalizeAddressEntry`). */
  @Column({ type: 'varchar', length: 128 })
  value: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  note: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
