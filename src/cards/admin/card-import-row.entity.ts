import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../common/bigint-as-number';

/**
 * A checked row of a running import, staged under its batch until the batch publishes it into
 * `cards` (import-batches.ts); no login, list or export reads it. See migration 1765500000000.
 */
@Entity('card_import_rows')
export class CardImportRow {
  @PrimaryColumn({ name: 'batch_id', type: 'uuid' })
  batchId: string;

  @PrimaryColumn({ type: 'integer' })
  line: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'varchar', length: 8 })
  kind: string;

  @Column({ name: 'uses_left', type: 'integer', nullable: true })
  usesLeft: number | null;

  @Column({ name: 'duration_seconds', type: 'integer' })
  durationSeconds: number;

  @Column({ name: 'device_limit', type: 'integer' })
  deviceLimit: number;

  @Column({ name: 'concurrent_limit', type: 'integer', nullable: true })
  concurrentLimit: number | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  note: string | null;

  @Column({ type: 'varchar', length: 10 })
  status: string;

  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'use_count', type: 'bigint', transformer: bigintAsNumber })
  useCount: number;

  @Column({ name: 'unbind_count', type: 'integer' })
  unbindCount: number;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;

  /** The machine codes it is bound to. */
  @Column({ type: 'varchar', length: 128, array: true })
  devices: string[];
}
