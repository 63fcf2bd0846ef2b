import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DataSource, QueryRunner } from 'typeorm';
import { tableEntry } from '../../../src/backup/archive-manifest';
import { LoginLogAfterSnapshot } from '../../../src/backup/login-log-after-snapshot';
import { writeSnapshot } from '../../../src/backup/snapshot-export';
import { sqlOn } from '../../../src/database/sql';
import { Card } from '../../../src/cards/card.entity';
import { LogMaintenanceService } from '../../../src/login-logs/log-maintenance.service';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * A backup beside a running service on PostgreSQL reads the login log after its snapshot (decisions
 * §24, docs/operations.md): the snapshot then lives for the other tables only. What it must keep: a
 * login's log row is in the archive exactly when the login's other writes are; a row written after
 * the snapshot began is not; the retention drops no month while the log is read. Needs server
 * sessions of its own, so PostgreSQL only (the embedded database is backed up from a copy), and not
 * through a transaction pooler (.ci/run), which moves a session's statements between server pids.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('a backup reads the login log after its snapshot (PostgreSQL)', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let projectId: string;
  const work = mkdtempSync(join(tmpdir(), 'ck-late-log-'));
  const runners: QueryRunner[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.app.get(DataSource);
    const author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
    projectId = (await author.createProject()).id;
  });
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.release()));
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function session(): Promise<QueryRunner> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    runners.push(runner);
    return runner;
  }

  /** A login's writes: its card's count and its log row, in `runner`'s open transaction; the row's id. */
  async function login(runner: QueryRunner, card: Card, request: string): Promise<string> {
    await runner.query('UPDATE cards SET use_count = use_count + 1 WHERE id = $1', [card.id]);
    const [{ id }] = await runner.query(
      `INSERT INTO login_logs (project_id, card_id, card_code, family, interface, result_code, request_id)
       VALUES ($1, $2, $3, 'v2', 'login', 0, $4) RETURNING id::text AS id`,
      [projectId, card.id, card.code, request],
    );
    return String(id);
  }

  function archived(dir: string, table: string): Array<Record<string, unknown>> {
    const text = gunzipSync(readFileSync(join(dir, tableEntry(table)))).toString('utf8');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  async function pidOf(runner: QueryRunner): Promise<number> {
    const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
    return Number(pid);
  }

  async function waitsOnLock(pid: number, observer: QueryRunner): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const [row] = await observer.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (row?.wait_event_type === 'Lock') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the backup never waited for the login under way');
  }

  it('holds the snapshot until a login under way commits, then has its log row and its card together; a later row is left out', async () => {
    const card = await insertCard(t, projectId, { status: 'active', activatedAt: new Date(), useCount: 0 });
    const [writer, snapshot, beside, observer, later] = await Promise.all([1, 2, 3, 4, 5].map(() => session()));
    const besidePid = await pidOf(beside); // before the backup queues its statements on that session
    await writer.query('BEGIN');
    const underWay = await login(writer, card, 'under-way');
    let laterId = '';
    const dir = join(work, 'held');
    const backup = writeSnapshot(
      {
        sql: sqlOn(snapshot),
        // A row committed after the snapshot, before the log is read: below the log's read, above its bound.
        besideSql: async (text, params) => {
          if (!laterId && text.includes('ORDER BY t.id')) {
            await later.query('BEGIN');
            laterId = await login(later, card, 'later');
            await later.query('COMMIT');
          }
          return beside.query(text, params);
        },
        key: null,
      },
      dir,
    );
    backup.catch(() => undefined); // awaited below, once the login under way has committed
    await waitsOnLock(besidePid, observer);
    await writer.query('COMMIT');
    const manifest = await backup;

    const logIds = archived(dir, 'login_logs').map((row) => String(row.id));
    expect(logIds).toContain(underWay);
    expect(laterId).not.toBe('');
    expect(logIds).not.toContain(laterId);
    expect(manifest.tables.login_logs).toBe(logIds.length);
    const stored = archived(dir, 'cards').find((row) => row.id === card.id);
    expect(stored?.use_count).toBe(1); // the login under way, not the later one
  });

  it('the retention waits for the log read: a maintenance pass meanwhile is skipped, and runs after', async () => {
    const [snapshot, beside] = await Promise.all([session(), session()]);
    const maintenance = t.app.get(LogMaintenanceService);
    let passDuringRead: unknown = 'not run';
    await writeSnapshot(
      {
        sql: sqlOn(snapshot),
        besideSql: async (text, params) => {
          if (passDuringRead === 'not run' && text.includes('ORDER BY t.id')) passDuringRead = await maintenance.run(new Date());
          return beside.query(text, params);
        },
        key: null,
      },
      join(work, 'retention'),
    );
    expect(passDuringRead).toBeNull();
    expect(await maintenance.run(new Date())).not.toBeNull();
  });

  it('gives up holding the log at once when its role may not take the lock (a read-only backup account), holding nothing after', async () => {
    const beside = await session();
    let began = false;
    const held = await LoginLogAfterSnapshot.hold(
      async (text, params) => {
        // What PostgreSQL answers a role without UPDATE, DELETE or TRUNCATE on the table.
        if (text.startsWith('LOCK TABLE'))
          throw Object.assign(new Error('permission denied for table login_logs'), { code: '42501' });
        return beside.query(text, params);
      },
      async () => {
        began = true;
        return null;
      },
    );
    expect(held).toBeNull();
    expect(began).toBe(false);
    const [{ held: locks }] = await beside.query(
      "SELECT count(*)::int AS held FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'",
    );
    expect(locks).toBe(0);
  });

  it('gives up holding the log when a write stays under way, leaving that writer and the retention unharmed', async () => {
    const card = await insertCard(t, projectId, { status: 'active', activatedAt: new Date() });
    const [writer, beside] = await Promise.all([session(), session()]);
    await writer.query('BEGIN');
    await login(writer, card, 'long');
    let began = false;
    const held = await LoginLogAfterSnapshot.hold(
      sqlOn(beside),
      async () => {
        began = true;
        return null;
      },
      { waitMs: 50, tries: 2, pauseMs: 10 },
    );
    expect(held).toBeNull();
    expect(began).toBe(false);
    // Its transaction ended: the retention's lock is free again, and the session takes statements.
    const [{ held: locks }] = await beside.query(
      "SELECT count(*)::int AS held FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'",
    );
    expect(locks).toBe(0);
    await writer.query('COMMIT');
  });
});
