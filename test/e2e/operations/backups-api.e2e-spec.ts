import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { BackupMaker } from '../../../src/backup/backup-maker';
import { BackupSchedule } from '../../../src/backup/backup-schedule';
import { BackupsRepository } from '../../../src/backup/backups.repository';
import { ErrorCode } from '../../../src/core/errors/error-code';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { createAgent } from '../../support/agents';
import { startTestApp, TestApp } from '../../support/test-app';
import { buildWorld, World } from '../../support/world';

/**
 * Backups of the running service through the admin API and the schedule (decisions §24): an archive
 * in BACKUP_DIR and a row per backup; platform admins only, with a fresh code where the account has
 * two-factor sign-in; scheduled ones taken by exactly one instance and kept BACKUP_KEEP deep.
 */
const BASE = '/admin/v1/platform/backups';
const UNKNOWN = '0b5c2c1e-3f7d-4a5e-9d8c-6b1a2f3e4d5c';
const KEEP = 2;
let world: World;
let db: DataSource;
let dir: string;

interface Made {
  id: string;
  file: string;
  bytes: number;
  sha256: string;
  created_at: string;
  schema: string;
  trigger?: string;
}

/** A body read as bytes, whatever its type. */
function bytesOf(request: ReturnType<AdminClient['get']>) {
  return request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const listed = async (): Promise<Made[]> => (await world.admin.get(BASE).expect(200)).body.items;
const rowsNamed = async (id: string) => (await db.query(`SELECT id FROM backups WHERE id = $1`, [id])) as unknown[];
/** The JSON log lines with this message. */
const logLines = (t: TestApp, msg: string) =>
  t.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((line) => line.msg === msg);

async function make(client = world.admin, body: object = {}): Promise<Made> {
  const res = await client.post(BASE, body);
  expect({ status: res.status, body: res.body }).toEqual({
    status: 201,
    body: expect.objectContaining({ id: expect.any(String) }),
  });
  return res.body;
}

describe('Backups API (e2e)', () => {
  beforeAll(async () => {
    // No timer: the schedule's passes are run by the tests below.
    world = await buildWorld({ env: { BACKUP_INTERVAL_HOURS: '0', BACKUP_KEEP: String(KEEP) }, cards: 3 });
    db = world.t.app.get(DataSource);
    dir = join(world.t.env.DATA_DIR, 'backups');
  });
  afterAll(() => world?.close());

  it('makes a backup into BACKUP_DIR, lists it, downloads the same bytes as a gzip tar, and deletes it', async () => {
    const made = await make();
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      file: expect.stringMatching(/^backup-\d{8}-\d{6}-manual-[0-9a-f]{8}\.tar\.gz$/),
      bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      schema: MIGRATIONS[MIGRATIONS.length - 1].name,
      trigger: 'manual',
    });
    expect(statSync(join(dir, made.file)).size).toBe(made.bytes);
    expect((await listed())[0]).toEqual({ ...made, trigger: 'manual' });
    expect(logLines(world.t, 'backup taken')).toContainEqual(
      expect.objectContaining({ level: 'info', backup_id: made.id, file: made.file, sha256: made.sha256, trigger: 'manual' }),
    );

    const download = await bytesOf(world.admin.get(`${BASE}/${made.id}/download`)).expect(200);
    expect(download.headers['content-type']).toMatch(/^application\/gzip/);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${made.file}"`);
    const body = download.body as Buffer;
    expect(body.length).toBe(made.bytes);
    expect(sha256(body)).toBe(made.sha256);
    const scratch = mkdtempSync(join(tmpdir(), 'backup-download-'));
    try {
      writeFileSync(join(scratch, made.file), body);
      const entries = execFileSync('tar', ['tzf', join(scratch, made.file)], { encoding: 'utf8' }).split('\n');
      expect(entries).toContain('manifest.json');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }

    await world.admin.delete(`${BASE}/${made.id}`).expect(204);
    expect((await listed()).map((b) => b.id)).not.toContain(made.id);
    expect(existsSync(join(dir, made.file))).toBe(false);
    expectAdminError(await world.admin.get(`${BASE}/${made.id}/download`), 404, ErrorCode.NOT_FOUND);
    expectAdminError(await world.admin.delete(`${BASE}/${made.id}`), 404, ErrorCode.NOT_FOUND);
  });

  it('lists the newest first, and takes without_logs or no body; anything else in the body is refused', async () => {
    const first = await make();
    const second = await make(world.admin, { without_logs: true });
    // No body at all (curl -X POST) is a backup with the logs.
    const bare = await world.t.http().post(BASE).set(world.admin.auth());
    expect(bare.status).toBe(201);
    expect(bare.body.trigger).toBe('manual');
    const ids = (await listed()).map((b) => b.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expectAdminError(await world.admin.post(BASE, { without_logs: 'yes' }), 400, ErrorCode.BAD_REQUEST, 'without_logs');
    expectAdminError(await world.admin.post(BASE, { passphrase: 'x' }), 400, ErrorCode.BAD_REQUEST);
  });

  it('answers the generic NOT_FOUND for an unknown id and for one that is no id', async () => {
    for (const id of [UNKNOWN, 'not-an-id']) {
      expectAdminError(await world.admin.get(`${BASE}/${id}/download`), 404, ErrorCode.NOT_FOUND);
      expectAdminError(await world.admin.delete(`${BASE}/${id}`), 404, ErrorCode.NOT_FOUND);
    }
  });

  it('refuses an author and an agent on every backup route', async () => {
    const agent = await createAgent(world.t, world.author, { project_ids: [world.project.id] });
    const row = await db.query(`SELECT count(*)::int AS n FROM backups`);
    for (const client of [world.author, agent.client]) {
      expectAdminError(await client.post(BASE, {}), 403, ErrorCode.FORBIDDEN);
      expectAdminError(await client.get(BASE), 403, ErrorCode.FORBIDDEN);
      expectAdminError(await client.get(`${BASE}/${UNKNOWN}/download`), 403, ErrorCode.FORBIDDEN);
      expectAdminError(await client.delete(`${BASE}/${UNKNOWN}`), 403, ErrorCode.FORBIDDEN);
    }
    expect(await db.query(`SELECT count(*)::int AS n FROM backups`)).toEqual(row);
  });

  it('answers a failed backup with SYSTEM_ERROR and its error_id, and leaves no row and no archive', async () => {
    const maker = world.t.app.get(BackupMaker);
    let target = '';
    // The archive is half written when the fault comes.
    const spy = jest.spyOn(maker, 'make').mockImplementationOnce(async (file: string) => {
      target = file;
      writeFileSync(file, 'half an archive');
      throw new Error('disk full');
    });
    try {
      const before = await listed();
      const res = await world.admin.post(BASE, {});
      expectAdminError(res, 500, ErrorCode.SYSTEM_ERROR);
      expect(res.body.error_id).toEqual(expect.any(String));
      expect(JSON.stringify(res.body)).not.toContain('disk full');
      expect(world.t.logs.some((l) => l.includes(res.body.error_id) && l.includes('disk full'))).toBe(true);
      expect(target.startsWith(dir)).toBe(true);
      expect(existsSync(target)).toBe(false);
      expect(await listed()).toEqual(before);
    } finally {
      spy.mockRestore();
    }
  });

  it('removes the archive again when its row cannot be written', async () => {
    await db.query(
      `CREATE FUNCTION refuse_backup_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`,
    );
    await db.query(`CREATE TRIGGER refuse_backup_row BEFORE INSERT ON backups FOR EACH ROW EXECUTE FUNCTION refuse_backup_row()`);
    const spy = jest.spyOn(world.t.app.get(BackupMaker), 'make');
    try {
      const res = await world.admin.post(BASE, {});
      expectAdminError(res, 500, ErrorCode.SYSTEM_ERROR);
      const written = (spy.mock.calls[0] as [string])[0];
      expect(existsSync(written)).toBe(false);
    } finally {
      spy.mockRestore();
      await db.query(`DROP TRIGGER refuse_backup_row ON backups`);
      await db.query(`DROP FUNCTION refuse_backup_row()`);
    }
  });

  describe('the schedule', () => {
    const repository = () => world.t.app.get(BackupsRepository);
    const schedule = () => world.t.app.get(BackupSchedule);
    const DAY = 24;
    const dayAgo = () => new Date(Date.now() - 25 * 3600_000);

    it('gives each turn to exactly one of the instances that claim it at once', async () => {
      // With PostgreSQL, a second instance of the deployment claims over its own pool.
      const second = process.env.DATABASE_URL
        ? await startTestApp({ BACKUP_INTERVAL_HOURS: '0' }, { shareWith: world.t })
        : undefined;
      try {
        const claimers = [repository(), (second ?? world.t).app.get(BackupsRepository)];
        for (let round = 0; round < 5; round += 1) {
          await repository().setLastScheduledStart(dayAgo());
          const claims = await Promise.all([...claimers, ...claimers, ...claimers].map((r) => r.claimScheduledTurn(DAY * 3600)));
          expect(claims.filter((c) => c !== null)).toHaveLength(1);
        }
        // The turn is taken: nobody gets another one before the interval has passed.
        expect(await repository().claimScheduledTurn(DAY * 3600)).toBeNull();
        expect(await schedule().run(DAY)).toBeNull();
      } finally {
        await second?.close();
      }
    });

    it('takes a backup when due, logs it, and keeps the newest BACKUP_KEEP scheduled ones (and every manual one)', async () => {
      const manual = await make();
      const old: string[] = [];
      for (const hoursAgo of [72, 48, 30]) {
        const id = UNKNOWN.slice(0, -2) + String(hoursAgo);
        const file = `backup-old-${hoursAgo}.tar.gz`;
        writeFileSync(join(dir, file), 'an older archive');
        await db.query(
          `INSERT INTO backups (id, file, bytes, sha256, schema, trigger, created_at)
           VALUES ($1, $2, 16, $3, 'Old1', 'scheduled', now() - make_interval(hours => $4))`,
          [id, file, 'a'.repeat(64), hoursAgo],
        );
        old.push(file);
      }
      await repository().setLastScheduledStart(dayAgo());
      const pass = await schedule().run(DAY);
      expect(pass?.backup).toMatchObject({ trigger: 'scheduled', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(pass?.deleted.sort()).toEqual([old[0], old[1]].sort());
      const items = await listed();
      expect(items.filter((b) => b.trigger === 'scheduled').map((b) => b.file)).toEqual([pass!.backup.file, old[2]]);
      expect(items.map((b) => b.id)).toContain(manual.id);
      expect(existsSync(join(dir, old[0]))).toBe(false);
      expect(existsSync(join(dir, pass!.backup.file))).toBe(true);
      expect(logLines(world.t, 'backup taken')).toContainEqual(
        expect.objectContaining({ backup_id: pass!.backup.id, trigger: 'scheduled' }),
      );
      expect(await rowsNamed(pass!.backup.id)).toHaveLength(1);
      // Not due again until the interval has passed.
      expect(await schedule().run(DAY)).toBeNull();
    });

    it('gives a failed turn back, so that the next look tries again', async () => {
      await repository().setLastScheduledStart(dayAgo());
      const spy = jest.spyOn(world.t.app.get(BackupMaker), 'make').mockRejectedValueOnce(new Error('disk full'));
      try {
        expect(await schedule().run(DAY)).toBeNull();
        expect(logLines(world.t, 'scheduled backup failed')).toContainEqual(expect.objectContaining({ level: 'error' }));
        expect(await repository().lastScheduledStart()).toBeNull();
      } finally {
        spy.mockRestore();
      }
    });
  });

  // Last: the platform admin keeps two-factor sign-in from here on.
  it('needs a fresh two-factor code to make, download or delete once the account has two-factor sign-in', async () => {
    const made = await make();
    const enrol = await world.admin.post('/admin/v1/auth/2fa/enrol').expect(201);
    const totp = new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await world.admin.post('/admin/v1/auth/2fa/confirm', { code: totp.generate() }).expect(200);
    const refused = (res: Response) => expectAdminError(res, 403, ErrorCode.TWO_FACTOR_REQUIRED);
    refused(await world.admin.post(BASE, {}));
    refused(await world.admin.get(`${BASE}/${made.id}/download`));
    refused(await world.admin.delete(`${BASE}/${made.id}`));
    // The list alone shows no archive's content: no code.
    expect((await listed()).map((b) => b.id)).toContain(made.id);
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    await world.admin.delete(`${BASE}/${made.id}`).set('X-Svc-2fa-Code', next).expect(204);
  });
});
