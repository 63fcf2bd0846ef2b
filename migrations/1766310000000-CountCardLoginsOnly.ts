import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statistics and the login log keep meaning card logins (decisions §22): since the login log became
 * the request log, the request log's writer (request-log-writer.ts) adds a row for every other client
 * request, and those rows always carry their `route`, which the card login's own writers (its login
 * statement, the refusal and idle-device rows) never set. The daily counts (the trigger of
 * 1765000000000) count only rows without a route again, and what the trigger counted of the other
 * rows meanwhile is taken back (a negative count in slot 0: reads sum the slots).
 */
export class CountCardLoginsOnly1766310000000 implements MigrationInterface {
  name = 'CountCardLoginsOnly1766310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION count_login_logs() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE zone text := (SELECT time_zone FROM login_count_zone);
      BEGIN
        INSERT INTO login_daily_counts AS d (project_id, day, interface, result_code, slot, count)
        SELECT project_id, (created_at AT TIME ZONE zone)::date, interface, result_code, pg_backend_pid() % 16, count(*)
        FROM new_rows WHERE route IS NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (project_id, day, interface, result_code, slot) DO UPDATE SET count = d.count + EXCLUDED.count;
        RETURN NULL;
      END $$`);
    await q.query(`
      INSERT INTO login_daily_counts AS d (project_id, day, interface, result_code, slot, count)
      SELECT project_id, (created_at AT TIME ZONE (SELECT time_zone FROM login_count_zone))::date, interface, result_code, 0, -count(*)
      FROM login_logs WHERE route IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (project_id, day, interface, result_code, slot) DO UPDATE SET count = d.count + EXCLUDED.count`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO login_daily_counts AS d (project_id, day, interface, result_code, slot, count)
      SELECT project_id, (created_at AT TIME ZONE (SELECT time_zone FROM login_count_zone))::date, interface, result_code, 0, count(*)
      FROM login_logs WHERE route IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (project_id, day, interface, result_code, slot) DO UPDATE SET count = d.count + EXCLUDED.count`);
    await q.query(`
      CREATE OR REPLACE FUNCTION count_login_logs() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE zone text := (SELECT time_zone FROM login_count_zone);
      BEGIN
        INSERT INTO login_daily_counts AS d (project_id, day, interface, result_code, slot, count)
        SELECT project_id, (created_at AT TIME ZONE zone)::date, interface, result_code, pg_backend_pid() % 16, count(*)
        FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (project_id, day, interface, result_code, slot) DO UPDATE SET count = d.count + EXCLUDED.count;
        RETURN NULL;
      END $$`);
  }
}
