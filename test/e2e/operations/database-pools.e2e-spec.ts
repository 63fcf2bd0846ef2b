import { DataSource, DataSourceOptions } from 'typeorm';
import { AdminClient } from '../../support/admin-client';
import { embeddedPool, postgresPool } from '../../support/stores';
import { startTestApp } from '../../support/test-app';

interface Lease {
  options: Partial<DataSourceOptions>;
  give(): Promise<void>;
}

/** The pools of this run: the embedded one always, PostgreSQL's with DATABASE_URL. */
const embedded = embeddedPool();
const postgres = process.env.DATABASE_URL ? postgresPool(process.env.DATABASE_URL) : undefined;
const pools: Array<[string, () => Promise<Lease>]> = [];
if (embedded) {
  pools.push([
    'embedded',
    async () => {
      const lease = await embedded.take();
      return { options: { host: lease.host, port: lease.port, username: 'postgres', database: 'postgres' }, give: lease.give };
    },
  ]);
}
if (postgres) {
  pools.push([
    'PostgreSQL',
    async () => {
      const lease = await postgres.take();
      return { options: { url: lease.url }, give: lease.release };
    },
  ]);
}

// With CK_TEST_POOLS=off (test/support/embedded-environment.ts) there is no pool to check.
const noPool: [string, () => Promise<Lease>] = ['no', () => Promise.reject(new Error('the database pools are off'))];
const suite = pools.length ? describe.each(pools) : describe.skip.each([noPool]);

/**
 * The workers' pools of test databases (test/support/embedded-pool.ts, postgres-pool.ts) hand a
 * database given back to the next test app: what one app wrote must never be seen by the next one.
 */
suite('%s database pool of the test workers (e2e)', (_, take) => {
  type Client = DataSource & { end(): Promise<void> };
  async function connect(lease: Lease): Promise<Client> {
    const db = new DataSource({ type: 'postgres', ...lease.options, poolSize: 1 } as DataSourceOptions);
    await db.initialize();
    return Object.assign(db, { end: () => db.destroy() });
  }
  /** A user with a token: the token's id comes from a sequence. */
  async function addToken(client: Client, username: string): Promise<string> {
    const [user] = await client.query<Array<{ id: string }>>(
      `INSERT INTO admin_users (username, password_hash, role) VALUES ($1, 'x', 'author') RETURNING id`,
      [username],
    );
    const [token] = await client.query<Array<{ id: string }>>(
      `INSERT INTO admin_tokens (token_hash, user_id, expires_at) VALUES (md5($1) || md5($1), $2, now()) RETURNING id`,
      [username, user.id],
    );
    return token.id;
  }
  const count = async (client: Client, sql: string) => Number((await client.query<Array<{ n: string }>>(sql))[0].n);

  it('gives the next app the template: rows, sequences and settings as migrated', async () => {
    const first = await take();
    let client = await connect(first);
    const templateSettings: unknown[] = await client.query('SELECT * FROM platform_settings');
    await client.query(`UPDATE platform_settings SET connect_opening_mode = 'self_service'`);
    await addToken(client, 'leftover');
    await addToken(client, 'leftover-2');
    await client.query('CREATE TEMP TABLE scratch (id int)');
    await client.end();
    await first.give();

    const second = await take();
    client = await connect(second);
    try {
      expect(await count(client, `SELECT count(*) AS n FROM admin_users WHERE username LIKE 'leftover%'`)).toBe(0);
      expect(await client.query('SELECT * FROM platform_settings')).toEqual(templateSettings);
      expect(await count(client, `SELECT count(*) AS n FROM pg_class WHERE relname = 'scratch'`)).toBe(0);
      expect(await addToken(client, 'fresh')).toBe('1'); // the sequence starts over too
    } finally {
      await client.end();
      await second.give();
    }
  });

  it('never hands on a database whose schema a test changed', async () => {
    const first = await take();
    let client = await connect(first);
    await client.query('ALTER TABLE cards ADD COLUMN pool_probe integer');
    await client.end();
    await first.give();

    const second = await take();
    client = await connect(second);
    try {
      expect(await count(client, `SELECT count(*) AS n FROM information_schema.columns WHERE column_name = 'pool_probe'`)).toBe(
        0,
      );
    } finally {
      await client.end();
      await second.give();
    }
  });
});

/**
 * The pools only save time when what a real app leaves behind can be reset: an app's own start (an
 * extension TypeORM installed) or an audited write (admin_audit refuses TRUNCATE) once made every
 * database fail its reset, and each app paid for a new one (1-4 s) without any test noticing.
 */
(pools.length ? describe : describe.skip)('test apps on the pool of the run (e2e)', () => {
  /** Which database an app runs on: a PostgreSQL clone by name, an embedded instance by its start time. */
  const identity = async (db: DataSource) =>
    (await db.query<Array<{ id: string }>>(`SELECT current_database() || ' ' || pg_postmaster_start_time() AS id`))[0].id;

  it('hands the database of an app that started and wrote to the audit trail on to the next app', async () => {
    const first = await startTestApp();
    const used = await identity(first.app.get(DataSource));
    const admin = await AdminClient.asPlatformAdmin(first);
    await admin.createAuthor();
    expect(Number((await first.app.get(DataSource).query('SELECT count(*) AS n FROM admin_audit'))[0].n)).toBeGreaterThan(0);
    await first.close();

    const next = await startTestApp();
    try {
      expect(await identity(next.app.get(DataSource))).toBe(used);
      expect((await next.app.get(DataSource).query('SELECT count(*) AS n FROM admin_audit'))[0].n).toBe('0');
    } finally {
      await next.close();
    }
  });
});
