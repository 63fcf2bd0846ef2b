import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  CHECKPOINT_EVERY_S,
  CHECKPOINT_WAL_BYTES,
  checkpointDue,
  checkpointedDump,
  checkpointIfDue,
  EMBEDDED_START_PARAMS,
} from './embedded-checkpoints';

const MB = 1024 * 1024;

describe('when the embedded database takes a checkpoint', () => {
  it('is due after CHECKPOINT_WAL_BYTES of WAL or CHECKPOINT_EVERY_S, and never with no WAL written', () => {
    expect(checkpointDue({ bytes: CHECKPOINT_WAL_BYTES, seconds: 1 })).toBe(true);
    expect(checkpointDue({ bytes: CHECKPOINT_WAL_BYTES - 1, seconds: 1 })).toBe(false);
    expect(checkpointDue({ bytes: 100, seconds: CHECKPOINT_EVERY_S })).toBe(true);
    expect(checkpointDue({ bytes: 100, seconds: CHECKPOINT_EVERY_S - 1 })).toBe(false);
    expect(checkpointDue({ bytes: 0, seconds: 10 * CHECKPOINT_EVERY_S })).toBe(false);
  });
});

describe('an embedded database with checkpoints (PGlite on disk)', () => {
  let dir: string;
  let db: PGlite;
  const walBytes = () => readdirSync(join(dir, 'pg_wal')).reduce((sum, f) => sum + statSync(join(dir, 'pg_wal', f)).size, 0);
  const insertLsn = async () => (await db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
  const walWrittenSince = async (lsn: string) =>
    Number(
      (await db.query<{ n: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::bigint AS n`, [lsn])).rows[0].n,
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-checkpoints-'));
    db = await PGlite.create(dir, { startParams: EMBEDDED_START_PARAMS });
    await db.exec('CREATE TABLE churn (id serial PRIMARY KEY, body text)');
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps pg_wal near max_wal_size however much is written, where it grew by every byte before', async () => {
    const start = await insertLsn();
    const outcomes: string[] = [];
    // 140 MB: without the checkpoints pg_wal holds all of it, over the bound below; with them, at
    // most about max_wal_size plus what is written between two looks.
    while ((await walWrittenSince(start)) < 140 * MB) {
      await db.exec(`INSERT INTO churn (body) SELECT repeat('x', 500) FROM generate_series(1, 20000); DELETE FROM churn;`);
      await db.exec('VACUUM churn');
      outcomes.push(await checkpointIfDue(db));
    }
    expect(outcomes).toContain('done');
    expect(outcomes).toContain('not-due');
    expect(walBytes()).toBeLessThanOrEqual(100 * MB);
  }, 60_000);

  it('waits while a transaction is open in the one session, and leaves that transaction whole', async () => {
    await db.exec(`BEGIN; INSERT INTO churn (body) VALUES ('in the open transaction')`);
    expect(await checkpointIfDue(db, true)).toBe('in-transaction');
    expect(db.isInTransaction()).toBe(true);
    await db.exec('COMMIT');
    expect((await db.query(`SELECT 1 FROM churn WHERE body = 'in the open transaction'`)).rows).toHaveLength(1);
    expect(await checkpointIfDue(db, true)).toBe('done');
    expect(await checkpointIfDue(db, true)).toBe('not-due');
  });

  it('answers nothing to the connections of the socket server, whose next answers stay their own', async () => {
    const socketDir = mkdtempSync(join(tmpdir(), 'embedded-checkpoints-socket-'));
    const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 2 });
    await server.start();
    const client = new Client({ connectionString: `postgres://postgres@${encodeURIComponent(socketDir)}:5432/postgres` });
    try {
      await client.connect();
      await client.query(`INSERT INTO churn (body) SELECT 'through the socket' FROM generate_series(1, 3)`);
      expect(await checkpointIfDue(db, true)).toBe('done');
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM churn WHERE body = 'through the socket'`);
      expect(rows).toEqual([{ n: 3 }]);
    } finally {
      await client.end();
      await server.stop();
      rmSync(socketDir, { recursive: true, force: true });
    }
  });

  it('dumps a copy that opens with every committed row', async () => {
    await db.exec(`INSERT INTO churn (body) VALUES ('committed before the dump')`);
    const copy = await PGlite.create({ loadDataDir: await checkpointedDump(db), startParams: EMBEDDED_START_PARAMS });
    try {
      const rows = await copy.query<{ body: string }>(`SELECT body FROM churn WHERE body LIKE '%the dump'`);
      expect(rows.rows).toEqual([{ body: 'committed before the dump' }]);
    } finally {
      await copy.close();
    }
  });
});
