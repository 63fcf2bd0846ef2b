import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { Client, ResponseKeys } from '../../../sdk/src';
import { migrationName } from '../../../src/backup/restore-rows';
import { EmbeddedPostgres, useEmbeddedSource } from '../../../src/database/embedded-postgres';
import { archiveContents, repackedWith, runBackupCommand, tableText } from '../../support/archives';
import { callService as call, ServiceProcess, signInService as signIn, startServiceProcess } from '../../support/service-process';
import { acquireStores, AppStores, copyEmbeddedTemplate } from '../../support/stores';
import { ADMIN_PASSWORD } from '../../support/test-app';

/**
 * `npm run backup` and `npm run restore` (decisions §24) as an operator runs them, against real
 * service processes on the database of the pass: the embedded one in DATA_DIR, or PostgreSQL. An
 * archive restored keeps every row and file (compared table by table with a backup of the restored
 * database), the same cards log in on the same devices with the same pinned signing keys, and every
 * refusal writes nothing.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
// This file starts no test app: an EmbeddedPostgres here opens the DATA_DIR it is given, not the harness's pool.
useEmbeddedSource(undefined);
const KEY = process.env.APP_ENCRYPTION_KEY ?? '';
const work = mkdtempSync(join(tmpdir(), 'ck-backup-test-'));
const held: AppStores[] = [];
const services: ServiceProcess[] = [];

/** Stores of their own: a database (PostgreSQL, or a DATA_DIR) that no other test sees. */
async function freshStores(kind: 'pass' | 'embedded' = 'pass'): Promise<Record<string, string>> {
  const postgres = kind === 'pass' && onPostgres;
  const stores = await acquireStores({ DATABASE_URL: postgres ? process.env.DATABASE_URL : '', REDIS_URL: '' });
  held.push(stores);
  return { ...stores.env, ...(postgres ? { APP_ENCRYPTION_KEY: KEY } : { APP_ENCRYPTION_KEY: '' }) };
}

async function startOn(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startServiceProcess({ ...env, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD, ACCESS_LOG: 'off' });
  services.push(service);
  return service;
}

interface Seeded {
  programId: string;
  apiSecret: string;
  responseKeys: ResponseKeys;
  cards: string[];
  author: { username: string; password: string };
}

/** An author, a project, three one-device cards, and the first logged in on `device-a`. */
async function seed(service: ServiceProcess): Promise<Seeded> {
  const admin = await signIn(service, 'admin', ADMIN_PASSWORD);
  const author = { username: `backup${Date.now().toString(36)}`, password: 'author-password-backup' };
  await call(service, 'POST', '/admin/v1/authors', author, admin, 201);
  const token = await signIn(service, author.username, author.password);
  const project = await call<{ id: string; program_id: string; api_secret: string }>(
    service,
    'POST',
    '/admin/v1/projects',
    { name: '备份 test' },
    token,
    201,
  );
  const batch = await call<{ items: Array<{ code: string }> }>(
    service,
    'POST',
    `/admin/v1/projects/${project.id}/cards`,
    { count: 3, duration_seconds: 86_400, device_limit: 1 },
    token,
    201,
  );
  const keys = await call<{ items: Array<{ kid: string; public_key: string }> }>(
    service,
    'GET',
    `/admin/v1/projects/${project.id}/signing-keys`,
    undefined,
    token,
    200,
  );
  const seeded = {
    programId: project.program_id,
    apiSecret: project.api_secret,
    responseKeys: Object.fromEntries(keys.items.map((key) => [key.kid, key.public_key])),
    cards: batch.items.map((card) => card.code),
    author,
  };
  expect((await login(service, seeded, seeded.cards[0], 'device-a')).success).toBe(true);
  return seeded;
}

function login(service: ServiceProcess, seeded: Seeded, cardKey: string, machineId: string) {
  const client = new Client({
    baseUrl: service.url,
    programId: seeded.programId,
    apiSecret: seeded.apiSecret,
    responseKeys: seeded.responseKeys,
  });
  return client.cardLogin({ cardKey, machineId });
}

/** The card logged in before the backup still logs in on its device, and only there; the author signs in. */
async function expectSameCards(service: ServiceProcess, seeded: Seeded): Promise<void> {
  const again = await login(service, seeded, seeded.cards[0], 'device-a');
  expect({ success: again.success, code: again.code }).toEqual({ success: true, code: 0 });
  const elsewhere = await login(service, seeded, seeded.cards[0], 'device-b');
  expect(elsewhere.success).toBe(false);
  expect((await login(service, seeded, seeded.cards[1], 'device-c')).success).toBe(true);
  expect(await signIn(service, seeded.author.username, seeded.author.password)).toEqual(expect.any(String));
}

const archive = (name: string) => join(work, name);

/** Undoes the newest migration on `env`'s database (its `down`), as if the last release had not run yet: the schema it leaves. */
async function undoLastMigration(env: Record<string, string>): Promise<string> {
  const embedded = new EmbeddedPostgres();
  const target = env.DATABASE_URL
    ? { url: env.DATABASE_URL }
    : { ...(await embedded.start(env.DATA_DIR)), username: 'postgres', database: 'postgres' };
  const dataSource = await new DataSource({ type: 'postgres', ...target, migrations: MIGRATIONS, poolSize: 1 }).initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
    const [{ name }] = (await dataSource.query('SELECT name FROM migrations ORDER BY timestamp DESC LIMIT 1')) as Array<{
      name: string;
    }>;
    return name;
  } finally {
    await dataSource.destroy();
    await embedded.stop();
  }
}
const passphraseFile = join(work, 'passphrase');

afterAll(async () => {
  for (const service of services) await service.kill('SIGKILL');
  for (const stores of held) await stores.leave();
  rmSync(work, { recursive: true, force: true });
});

describe(`backup and restore on ${onPostgres ? 'PostgreSQL' : 'the embedded database'} (e2e, real processes)`, () => {
  let source: Record<string, string>;
  let seeded: Seeded;
  let service: ServiceProcess;
  let moved: ServiceProcess | undefined;
  let movedTo: Record<string, string>;

  beforeAll(async () => {
    source = await freshStores();
    if (!onPostgres) copyEmbeddedTemplate(source.DATA_DIR);
    service = await startOn(source);
    seeded = await seed(service);
    // An uploaded file, as the files module keeps them.
    mkdirSync(join(source.DATA_DIR, 'files', 'ab'), { recursive: true });
    writeFileSync(join(source.DATA_DIR, 'files', 'ab', 'installer.bin'), Buffer.from([0, 1, 2, 255, 254]));
    writeFileSync(passphraseFile, 'a long enough passphrase\n');
  }, 120_000);

  it('refuses to back up an embedded database a running service holds, pointing at the API; PostgreSQL is backed up while it runs', async () => {
    const outcome = await runBackupCommand('backup', [archive('while-running.tar.gz')], source);
    if (onPostgres) {
      expect(outcome).toEqual({ code: 0, output: expect.stringContaining('backup written') });
    } else {
      expect(outcome.code).toBe(1);
      expect(outcome.output).toContain(`port ${new URL(service.url).port}`);
      expect(outcome.output).toContain('POST /admin/v1/platform/backups');
      expect(existsSync(archive('while-running.tar.gz'))).toBe(false);
    }
    await service.kill('SIGTERM');
  }, 120_000);

  it('makes an archive that tar lists, restores it into an empty database, and a backup of that holds the same rows and files', async () => {
    const made = await runBackupCommand('backup', [archive('first.tar.gz')], source);
    expect(made).toEqual({
      code: 0,
      output: expect.stringMatching(/backup written: .*first\.tar\.gz\n\s+\d+ bytes, sha256 [0-9a-f]{64}/),
    });
    expect(readdirSync(work).filter((name) => name.includes('.work-') || name.includes('.partial-'))).toEqual([]);

    // The embedded default's generated key travels beside the archive (docs/operations.md, "Moving").
    const target = await freshStores();
    if (!onPostgres) cpSync(join(source.DATA_DIR, 'encryption.key'), join(target.DATA_DIR, 'encryption.key'));
    const restored = await runBackupCommand('restore', [archive('first.tar.gz')], target);
    expect(restored.code).toBe(0);
    expect(restored.output).toMatch(/^\s+cards\s+3$/m);
    expect(restored.output).toMatch(/^\s+files: 1$/m);
    expect(await runBackupCommand('backup', [archive('again.tar.gz')], target)).toMatchObject({ code: 0 });

    const before = await archiveContents(archive('first.tar.gz'));
    const after = await archiveContents(archive('again.tar.gz'));
    expect(Object.keys(after.tables).sort()).toEqual(Object.keys(before.tables).sort());
    for (const table of Object.keys(before.tables))
      expect({ table, rows: after.tables[table] }).toEqual({ table, rows: before.tables[table] });
    expect(after.files).toEqual(before.files);
    expect(before.tables.cards).toHaveLength(3);
    expect(before.tables.login_logs.length).toBeGreaterThan(0);

    const restoredService = await startOn(target);
    await expectSameCards(restoredService, seeded);
    await restoredService.kill('SIGTERM');

    // A second restore over it is refused (it holds a project), with nothing changed; --force replaces it.
    const refused = await runBackupCommand('restore', [archive('first.tar.gz')], target);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('already holds projects');
    expect(await runBackupCommand('restore', [archive('first.tar.gz'), '--force'], target)).toMatchObject({ code: 0 });
  }, 300_000);

  it('a start that finds migrations to run on a database with projects takes a backup first, listed as an upgrade', async () => {
    const target = await freshStores();
    if (!onPostgres) {
      // An empty migrated database: the restore into a DATA_DIR with none at all is the test's above.
      copyEmbeddedTemplate(target.DATA_DIR);
      cpSync(join(source.DATA_DIR, 'encryption.key'), join(target.DATA_DIR, 'encryption.key'));
    }
    expect((await runBackupCommand('restore', [archive('first.tar.gz')], target)).code).toBe(0);
    // The database as the release before the last migration left it.
    const older = await undoLastMigration(target);

    const upgraded = await startOn({ ...target, LOG_LEVEL: 'info' });
    expect(upgraded.output()).toContain('backup taken before the migrations');
    expect(upgraded.output()).toMatch(
      new RegExp(`"msg":"migrations applied".*${migrationName(MIGRATIONS[MIGRATIONS.length - 1])}`),
    );
    const admin = await signIn(upgraded, 'admin', ADMIN_PASSWORD);
    const listed = await call<{ items: Array<{ file: string; trigger: string; schema: string }> }>(
      upgraded,
      'GET',
      '/admin/v1/platform/backups',
      undefined,
      admin,
      200,
    );
    expect(listed.items).toEqual([
      expect.objectContaining({
        trigger: 'upgrade',
        schema: older,
        file: expect.stringMatching(/^backup-.*-upgrade-.*\.tar\.gz$/),
      }),
    ]);
    expect(readdirSync(join(target.DATA_DIR, 'backups'))).toEqual([listed.items[0].file]);
    await expectSameCards(upgraded, seeded);
    await upgraded.kill('SIGTERM');
  }, 300_000);

  it('refuses an archive with a changed byte, one whose manifest lies, and one from a newer schema, writing nothing', async () => {
    const bytes = readFileSync(archive('first.tar.gz'));
    bytes[Math.floor(bytes.length / 2)] ^= 0x40;
    writeFileSync(archive('flipped.tar.gz'), bytes);
    await repackedWith(archive('first.tar.gz'), archive('lying.tar.gz'), (dir) => {
      const file = join(dir, 'tables', 'cards.jsonl.gz');
      writeFileSync(file, gzipSync(tableText(file).replace(/"status":"[a-z]+"/, '"status":"banned"')));
    });
    await repackedWith(archive('first.tar.gz'), archive('newer.tar.gz'), (dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, schema: 'FromTheFuture9999999999999' }));
    });
    const target = await freshStores();
    if (!onPostgres) cpSync(join(source.DATA_DIR, 'encryption.key'), join(target.DATA_DIR, 'encryption.key'));
    for (const [name, why] of [
      ['flipped.tar.gz', /damaged|does not match/],
      ['lying.tar.gz', /tables\/cards\.jsonl\.gz does not match its SHA-256/],
      ['newer.tar.gz', /newer than this release knows/],
    ] as const) {
      const outcome = await runBackupCommand('restore', [archive(name)], target);
      expect({ name, code: outcome.code }).toEqual({ name, code: 1 });
      expect(outcome.output).toMatch(why);
    }
    // Nothing was written: an embedded target still has no database at all; a PostgreSQL one starts
    // and holds no project.
    if (!onPostgres) {
      expect(existsSync(join(target.DATA_DIR, 'pgdata'))).toBe(false);
      return;
    }
    const empty = await startOn(target);
    const admin = await signIn(empty, 'admin', ADMIN_PASSWORD);
    expect((await call<{ total: number }>(empty, 'GET', '/admin/v1/projects', undefined, admin, 200)).total).toBe(0);
    await empty.kill('SIGTERM');
  }, 300_000);

  it('encrypts the whole archive with a passphrase and carries the key only then; a wrong passphrase is refused', async () => {
    expect((await runBackupCommand('backup', [archive('with-key.tar.gz'), '--include-key'], source)).code).toBe(2);
    const made = await runBackupCommand(
      'backup',
      [archive('sealed.ckb'), '--passphrase-file', passphraseFile, '--include-key', '--without-logs'],
      source,
    );
    expect(made.code).toBe(0);
    expect(readFileSync(archive('sealed.ckb')).includes(Buffer.from('manifest.json'))).toBe(false);

    writeFileSync(join(work, 'wrong'), 'not the passphrase at all\n');
    const into = await freshStores('embedded');
    copyEmbeddedTemplate(into.DATA_DIR);
    const wrong = await runBackupCommand('restore', [archive('sealed.ckb'), '--passphrase-file', join(work, 'wrong')], into);
    expect(wrong).toEqual({ code: 1, output: expect.stringContaining('does not open with this passphrase') });
    const noPassphrase = await runBackupCommand('restore', [archive('sealed.ckb')], into);
    expect(noPassphrase).toEqual({ code: 1, output: expect.stringContaining('--passphrase-file') });

    // Into an embedded DATA_DIR with no key (its database empty): the archive's own key comes with it.
    const restored = await runBackupCommand('restore', [archive('sealed.ckb'), '--passphrase-file', passphraseFile], into);
    expect(restored.code).toBe(0);
    expect(restored.output).toMatch(/^\s+login_logs\s+left out of the archive/m);
    expect(readFileSync(join(into.DATA_DIR, 'encryption.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    movedTo = into;
    moved = await startOn(into);
    await expectSameCards(moved, seeded);
  }, 300_000);

  it('refuses a restore into an embedded database a running service holds, naming it', async () => {
    // The service the test above started on the embedded database it restored into, still running.
    if (!moved) throw new Error('needs the service that the encrypting test above leaves running (run the file whole)');
    const outcome = await runBackupCommand('restore', [archive('sealed.ckb'), '--passphrase-file', passphraseFile], movedTo);
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain(`port ${new URL(moved.url).port}`);
    await moved.kill('SIGTERM');
  }, 120_000);

  (onPostgres ? it : it.skip)(
    'moves embedded → PostgreSQL → embedded, and the cards log in on the same devices',
    async () => {
      const embeddedStores = async () => {
        const stores = await freshStores('embedded');
        writeFileSync(join(stores.DATA_DIR, 'encryption.key'), `${KEY}\n`);
        return stores;
      };
      // An embedded database holding the seeded data, as an author on the default would have it.
      const embedded = await embeddedStores();
      expect((await runBackupCommand('restore', [archive('first.tar.gz')], embedded)).code).toBe(0);
      expect((await runBackupCommand('backup', [archive('from-embedded.tar.gz')], embedded)).code).toBe(0);
      const postgres = await freshStores();
      expect((await runBackupCommand('restore', [archive('from-embedded.tar.gz')], postgres)).code).toBe(0);
      expect((await runBackupCommand('backup', [archive('from-postgres.tar.gz')], postgres)).code).toBe(0);
      const back = await embeddedStores();
      expect((await runBackupCommand('restore', [archive('from-postgres.tar.gz')], back)).code).toBe(0);
      const before = await archiveContents(archive('first.tar.gz'));
      for (const leg of ['from-embedded.tar.gz', 'from-postgres.tar.gz']) {
        const moved = await archiveContents(archive(leg));
        for (const table of Object.keys(before.tables))
          expect({ leg, table, rows: moved.tables[table] }).toEqual({ leg, table, rows: before.tables[table] });
        expect(moved.files).toEqual(before.files);
      }
      const service = await startOn(back);
      await expectSameCards(service, seeded);
      await service.kill('SIGTERM');
    },
    300_000,
  );
});
