import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../common/bigint-as-number';

/**
 * Card-login rows per local day (of `LoginCountZone`), interface and result, kept by the log's
 * trigger on every write and spread over slots so concurrent writes rarely wait on one row.
 * Read by login-counts.repository.ts. See migration 1765000000000.
 */
@Entity('login_daily_counts')
export class LoginDailyCount {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  interface: string;

  @PrimaryColumn({ name: 'result_code', type: 'integer' })
  resultCode: number;

  @PrimaryColumn({ type: 'smallint' })
  slot: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  count: number;
}

/** What a retention dropped, per project, interface and result: a list's total is the daily counts less these. */
@Entity('login_dropped_counts')
export class LoginDroppedCount {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  interface: string;

  @PrimaryColumn({ name: 'result_code', type: 'integer' })
  resultCode: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  count: number;
}

/** The zone of the days counted (one row): APP_TIMEZONE, written by the service at each start. */
@Entity('login_count_zone')
export class LoginCountZone {
  @PrimaryColumn({ name: 'only_row', type: 'boolean', default: true })
  onlyRow: boolean;

  @Column({ name: 'time_zone', type: 'text' })
  timeZone: string;
}
