import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The login log partitioned by month (docs/decisions.md "Login log partitions"), so that a retention
 * drops whole months, and daily counts kept beside it by a statement trigger, so that statistics
 * never scan the log. Existing rows are copied into their months and counted in the zone of
 * APP_TIMEZONE at the time of the migration (the service keeps the zone up to date at each start).
 */
const DEFAULT_PARTITION = 'login_logs_default';
/** Months made ahead of the current one (the service's maintenance keeps the same margin after). */
const MONTHS_AHEAD = 2;

/** The first instant of the UTC month `offset` months after the one of `at`. */
function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/**
 * The month partitions from `from` to MONTHS_AHEAD months after `now`, on a table that has none yet.
 * Kept here rather than imported from src/login-logs/log-partitions.ts: a migration is frozen, and
 * the live maintenance may change after this ran.
 */
async function createMonthPartitions(q: QueryRunner, now: Date, from: Date): Promise<void> {
  for (let month = monthStart(from); month <= monthStart(now, MONTHS_AHEAD); month = monthStart(month, 1)) {
    const name = `login_logs_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
    const range = `FROM ('${month.toISOString()}') TO ('${monthStart(month, 1).toISOString()}')`;
    await q.query(`CREATE TABLE ${name} PARTITION OF login_logs FOR VALUES ${range}`);
  }
}

export class PartitionLoginLogsByMonth1765000000000 implements MigrationInterface {
  name = 'PartitionLoginLogsByMonth1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_logs RENAME TO login_logs_unpartitioned`);
    await q.query(`ALTER TABLE login_logs_unpartitioned RENAME CONSTRAINT login_logs_pkey TO login_logs_unpartitioned_pkey`);
    for (const index of ['login_logs_project_idx', 'login_logs_card_device_idx', 'login_logs_token_idx'])
      await q.query(`DROP INDEX ${index}`);
    await q.query(`
      CREATE TABLE login_logs (
        id bigint NOT NULL DEFAULT nextval('login_logs_id_seq'),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        card_id integer REFERENCES cards(id) ON DELETE SET NULL,
        card_code varchar(128),
        machine_code varchar(128),
        ip varchar(64),
        family varchar(16) NOT NULL,
        interface varchar(32) NOT NULL,
        result_code integer NOT NULL,
        request_id varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        token_hash char(64),
        PRIMARY KEY (id, created_at)
      ) PARTITION BY RANGE (created_at)`);
    await q.query(`ALTER SEQUENCE login_logs_id_seq OWNED BY login_logs.id`);
    await q.query(`CREATE INDEX login_logs_project_idx ON login_logs (project_id, id DESC)`);
    await q.query(`CREATE INDEX login_logs_card_device_idx ON login_logs (card_id, machine_code, id DESC)`);
    // A token is 32 random bytes: its hash is unique without an index to say so (a unique index of a
    // partitioned table must hold the partition key).
    await q.query(`CREATE INDEX login_logs_token_idx ON login_logs (token_hash) WHERE token_hash IS NOT NULL`);
    // The author's searches of a large log: the request id a user quotes, and a device.
    await q.query(`CREATE INDEX login_logs_request_idx ON login_logs (request_id)`);
    await q.query(`CREATE INDEX login_logs_project_machine_idx ON login_logs (project_id, machine_code, id DESC)`);
    await q.query(`CREATE TABLE ${DEFAULT_PARTITION} PARTITION OF login_logs DEFAULT`);
    const [{ oldest }] = await q.query(`SELECT min(created_at) AS oldest FROM login_logs_unpartitioned`);
    const now = new Date();
    await createMonthPartitions(q, now, oldest ? monthStart(new Date(oldest)) : monthStart(now));
    const columns =
      'id, project_id, card_id, card_code, machine_code, ip, family, interface, result_code, request_id, created_at, token_hash';
    await q.query(`INSERT INTO login_logs (${columns}) SELECT ${columns} FROM login_logs_unpartitioned`);
    await q.query(`DROP TABLE login_logs_unpartitioned`);

    // Counts per project, local day, interface and result. `slot` spreads one day's hot row over
    // several rows (by database connection), so concurrent logins of a project seldom wait on each
    // other's count; a read sums the slots.
    await q.query(`
      CREATE TABLE login_daily_counts (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        day date NOT NULL,
        interface varchar(32) NOT NULL,
        result_code integer NOT NULL,
        slot smallint NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (project_id, day, interface, result_code, slot)
      )`);
    // What a retention dropped, per project, interface and result: a list's total is the daily counts
    // less these, so the log's totals never count its rows (login-logs.service.ts).
    await q.query(`
      CREATE TABLE login_dropped_counts (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        interface varchar(32) NOT NULL,
        result_code integer NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (project_id, interface, result_code)
      )`);
    // The zone of the days counted: APP_TIMEZONE, written by the service at each start.
    await q.query(`
      CREATE TABLE login_count_zone (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        time_zone text NOT NULL
      )`);
    await q.query(`INSERT INTO login_count_zone (time_zone) VALUES ($1)`, [process.env.APP_TIMEZONE || 'UTC']);
    await q.query(`
      INSERT INTO login_daily_counts (project_id, day, interface, result_code, slot, count)
      SELECT project_id, (created_at AT TIME ZONE (SELECT time_zone FROM login_count_zone))::date, interface, result_code, 0, count(*)
      FROM login_logs GROUP BY 1, 2, 3, 4`);
    // Every statement that writes log rows counts them, whichever writer it is. Rows are counted in
    // key order, so two statements never wait on each other's counts in opposite orders.
    await q.query(`
      CREATE FUNCTION count_login_logs() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE zone text := (SELECT time_zone FROM login_count_zone);
      BEGIN
        INSERT INTO login_daily_counts AS d (project_id, day, interface, result_code, slot, count)
        SELECT project_id, (created_at AT TIME ZONE zone)::date, interface, result_code, pg_backend_pid() % 16, count(*)
        FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (project_id, day, interface, result_code, slot) DO UPDATE SET count = d.count + EXCLUDED.count;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER login_logs_count AFTER INSERT ON login_logs
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_login_logs()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER login_logs_count ON login_logs`);
    await q.query(`DROP FUNCTION count_login_logs()`);
    await q.query(`DROP TABLE login_daily_counts, login_dropped_counts, login_count_zone`);
    await q.query(`ALTER TABLE login_logs RENAME TO login_logs_partitioned`);
    await q.query(`ALTER TABLE login_logs_partitioned RENAME CONSTRAINT login_logs_pkey TO login_logs_partitioned_pkey`);
    for (const index of [
      'login_logs_project_idx',
      'login_logs_card_device_idx',
      'login_logs_token_idx',
      'login_logs_request_idx',
      'login_logs_project_machine_idx',
    ]) {
      await q.query(`DROP INDEX ${index}`);
    }
    await q.query(`CREATE TABLE login_logs (LIKE login_logs_partitioned INCLUDING DEFAULTS)`);
    await q.query(`INSERT INTO login_logs SELECT * FROM login_logs_partitioned`);
    await q.query(`ALTER SEQUENCE login_logs_id_seq OWNED BY login_logs.id`);
    await q.query(`DROP TABLE login_logs_partitioned`);
    await q.query(`ALTER TABLE login_logs ADD PRIMARY KEY (id)`);
    await q.query(`ALTER TABLE login_logs ADD FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE login_logs ADD FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE SET NULL`);
    await q.query(`CREATE INDEX login_logs_project_idx ON login_logs (project_id, id DESC)`);
    await q.query(`CREATE INDEX login_logs_card_device_idx ON login_logs (card_id, machine_code, id DESC)`);
    await q.query(`CREATE UNIQUE INDEX login_logs_token_idx ON login_logs (token_hash) WHERE token_hash IS NOT NULL`);
  }
}
