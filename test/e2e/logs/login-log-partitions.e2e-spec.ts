import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { LoginLog } from '../../../src/login-logs/login-log.entity';
import { LogMaintenanceService } from '../../../src/login-logs/log-maintenance.service';
import { DEFAULT_PARTITION, MONTHS_AHEAD, monthStart, partitionName } from '../../../src/login-logs/log-partitions';
import { connectLogin } from '../../support/connect';
import { unique } from '../../support/test-app';
import { buildWorld, World } from '../../support/world';

type StatsItem = { day: string; interface: string; result_code: number; count: number };

/**
 * At scale: the login log partitioned by month, a retention that drops whole months, and daily
 * counts kept by every write so that statistics never scan the log (they outlive the rows dropped).
 */
describe('login log partitions, retention and daily counts (e2e)', () => {
  let w: World;
  let logs: Repository<LoginLog>;
  let db: DataSource;
  let maintenance: LogMaintenanceService;

  beforeAll(async () => {
    w = await buildWorld({ connect: true });
    logs = w.t.app.get(getRepositoryToken(LoginLog));
    db = w.t.app.get(DataSource);
    maintenance = w.t.app.get(LogMaintenanceService);
  });
  afterAll(() => w?.close());

  const write = (createdAt: Date, fields: Partial<LoginLog> = {}) =>
    logs.save(
      logs.create({
        projectId: w.project.id,
        family: 'connect',
        interface: 'card_login',
        resultCode: 0,
        requestId: unique('req-'),
        createdAt,
        ...fields,
      }),
    );
  const partitionOf = async (row: LoginLog): Promise<string> =>
    (await db.query('SELECT tableoid::regclass::text AS name FROM login_logs WHERE id = $1', [row.id]))[0]?.name;
  const partitions = async (): Promise<string[]> =>
    (
      await db.query(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'login_logs'::regclass ORDER BY 1`,
      )
    ).map((row: { name: string }) => row.name);
  const partitioned = async (): Promise<boolean> =>
    (await db.query(`SELECT relkind = 'p' AS yes FROM pg_class WHERE oid = 'login_logs'::regclass`))[0].yes;
  const stats = async (from: string, to: string): Promise<StatsItem[]> =>
    (await w.author.get(`/admin/v1/projects/${w.project.id}/stats?from=${from}&to=${to}`).expect(200)).body.items;
  const day = (at: Date) => at.toISOString().slice(0, 10); // the test app's zone is UTC
  const listTotal = async (query = ''): Promise<number> =>
    (await w.author.get(`/admin/v1/projects/${w.project.id}/logs${query}`).expect(200)).body.total;
  const rowCount = async (where = 'TRUE'): Promise<number> =>
    (await db.query(`SELECT count(*)::int AS n FROM login_logs WHERE project_id = $1 AND ${where}`, [w.project.id]))[0].n;

  it('has this month and the next ones made, and puts each row in the partition of its month', async () => {
    const now = new Date();
    const made = await partitions();
    for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) expect(made).toContain(partitionName(monthStart(now, ahead)));
    expect(made).toContain(DEFAULT_PARTITION);
    expect(await partitionOf(await write(now))).toBe(partitionName(now));
    expect(await partitionOf(await write(new Date('2020-06-15T12:00:00Z')))).toBe(DEFAULT_PARTITION);
  });

  it('moves the rows of a month that had no partition out of the default one when a later pass makes it, counted once', async () => {
    const far = new Date(monthStart(new Date(), MONTHS_AHEAD + 3).getTime() + 5 * 86_400_000);
    const row = await write(far);
    expect(await partitionOf(row)).toBe(DEFAULT_PARTITION);
    const result = await maintenance.run(monthStart(far, -1), 0);
    expect(result?.made).toContain(partitionName(far));
    expect(await partitionOf(row)).toBe(partitionName(far));
    expect(await logs.countBy({ requestId: row.requestId })).toBe(1);
    expect(await stats(day(far), day(far))).toEqual([{ day: day(far), interface: 'card_login', result_code: 0, count: 1 }]);
    expect((await maintenance.run(monthStart(far, -1), 0))?.made).toEqual([]); // nothing left to do
  });

  it('makes a month once when two passes race (instances sharing the database take turns)', async () => {
    const later = monthStart(new Date(), MONTHS_AHEAD + 8);
    const results = await Promise.all([maintenance.run(later, 0), maintenance.run(later, 0)]);
    const made = results.flatMap((result) => result?.made ?? []);
    expect(made.filter((name) => name === partitionName(later))).toEqual([partitionName(later)]);
    expect(new Set(made).size).toBe(made.length);
    expect(await partitions()).toContain(partitionName(later));
  });

  it('drops whole months past the retention and the older rows of the default partition, and keeps their statistics', async () => {
    const now = new Date();
    const old = new Date(monthStart(now, -3).getTime() + 86_400_000); // the 2nd of the month three months ago
    await maintenance.run(monthStart(now, -3), 0); // the months since then exist, as on a service that ran then
    const oldRow = await write(old, { resultCode: 20002 });
    expect(await partitionOf(oldRow)).toBe(partitionName(old));
    const ancient = await write(new Date('2019-01-01T00:00:00Z'));
    const recent = await write(new Date(monthStart(now, -2).getTime() + 3_600_000));
    const current = await write(now);

    const refusedBefore = await listTotal('?result_code=20002');
    const result = await maintenance.run(now, 2);
    expect(result?.dropped).toEqual([partitionName(old)]);
    // The list's totals (from the daily counts, less what was dropped) are the rows still there.
    expect(await listTotal()).toBe(await rowCount());
    expect(await listTotal('?result_code=20002')).toBe(refusedBefore - 1);
    expect(await listTotal('?result_code=20002&interface=card_login')).toBe(
      await rowCount(`result_code = 20002 AND interface = 'card_login'`),
    );
    expect(await partitions()).not.toContain(partitionName(old));
    expect(await logs.countBy([{ id: oldRow.id }, { id: ancient.id }])).toBe(0);
    expect(await logs.countBy([{ id: recent.id }, { id: current.id }])).toBe(2);
    expect(await stats(day(old), day(old))).toEqual([{ day: day(old), interface: 'card_login', result_code: 20002, count: 1 }]);
  });

  it('counts every concurrent login and refusal exactly once in the daily statistics, as the log rows are', async () => {
    const p = w.project;
    const { items } = (await w.author.post(`/admin/v1/projects/${p.id}/cards`, { count: 10, duration_seconds: 3600 }).expect(201))
      .body as {
      items: Array<{ code: string }>;
    };
    const today = day(new Date());
    const before = await stats(today, today);
    // Each card: a first login (locked path) and then repeat logins (group commit), all at once; plus unknown keys.
    const attempts = [
      ...items.flatMap((card) => Array.from({ length: 4 }, () => ({ user_key: card.code, serial: `pc-${card.code}` }))),
      ...Array.from({ length: 10 }, (_, i) => ({ user_key: `no-such-card-${i}`, serial: 'pc' })),
    ];
    const answers = await Promise.all(attempts.map((form) => connectLogin(w.t, p.program_id, form)));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    const successes = answers.filter((res) => res.body.status === true).length;
    expect(successes).toBe(40);

    const after = await stats(today, today);
    const added = (code: number) =>
      (after.find((item) => item.interface === 'card_login' && item.result_code === code)?.count ?? 0) -
      (before.find((item) => item.interface === 'card_login' && item.result_code === code)?.count ?? 0);
    expect(added(0)).toBe(successes);
    expect(added(20001)).toBe(10);
    const [{ rows }] = await db.query(
      `SELECT count(*)::int AS rows FROM login_logs WHERE project_id = $1 AND created_at >= $2::timestamptz AND created_at < $2::timestamptz + interval '1 day'`,
      [p.id, `${today}T00:00:00Z`],
    );
    expect(after.reduce((sum, item) => sum + item.count, 0)).toBe(rows);
    expect(await listTotal()).toBe(await rowCount());
    expect(await listTotal('?result_code=20001')).toBe(await rowCount('result_code = 20001'));
    expect(await listTotal('?family=connect')).toBe(await rowCount(`family = 'connect'`)); // counted from the rows
  });

  // Last: it takes the schema back before the partitioning migration and forward again.
  it('keeps every row, and counts it, when the migration partitions an existing log (down, rows written, up)', async () => {
    const now = new Date();
    const windowStart = monthStart(now, -10); // within the 366 days that one statistics request may cover
    await db.query(`DELETE FROM login_logs WHERE created_at < $1 OR created_at > now() + interval '1 day'`, [
      windowStart.toISOString(),
    ]);
    // Back to before the partitioning migration (and the ones after it).
    while (await partitioned()) await db.undoLastMigration({ transaction: 'each' });
    expect(await partitions()).toEqual([]);
    const tenMonthsAgo = new Date(monthStart(now, -10).getTime() + 10 * 86_400_000);
    await db.query(
      `INSERT INTO login_logs (project_id, family, interface, result_code, request_id, created_at)
       SELECT $1, 'sdk', 'card_login', 20003, 'migrated-' || n, $2::timestamptz + n * interval '1 minute' FROM generate_series(1, 5) n`,
      [w.project.id, tenMonthsAgo.toISOString()],
    );
    const [{ total }] = await db.query('SELECT count(*)::int AS total FROM login_logs WHERE project_id = $1', [w.project.id]);

    await db.runMigrations({ transaction: 'each' });
    const made = await partitions();
    for (let month = -10; month <= MONTHS_AHEAD; month++) expect(made).toContain(partitionName(monthStart(now, month)));
    expect(await logs.countBy({ projectId: w.project.id })).toBe(total);
    expect(await listTotal()).toBe(total);
    const migrated = await logs.findOneByOrFail({ requestId: 'migrated-1' });
    expect(await partitionOf(migrated)).toBe(partitionName(tenMonthsAgo));
    const counted = await stats(day(windowStart), day(now));
    expect(counted.reduce((sum, item) => sum + item.count, 0)).toBe(total);
    expect(counted).toContainEqual({ day: day(tenMonthsAgo), interface: 'card_login', result_code: 20003, count: 5 });
    // New rows are counted again by the trigger the migration made.
    await connectLogin(w.t, w.project.program_id, { user_key: 'no-such-card', serial: 'pc' }).expect(200);
    expect((await stats(day(now), day(now))).find((item) => item.result_code === 20001)?.count).toBe(11);
  });
});
