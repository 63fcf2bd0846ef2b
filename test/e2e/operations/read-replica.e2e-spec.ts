import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../../src/config/app-config';
import { checkReplica } from '../../../src/doctor/checks/replica';
import { AdminClient } from '../../support/admin-client';
import { archiveContents, runBackupCommand } from '../../support/archives';
import { insertCard } from '../../support/cards';
import { caughtUp, createAppTemplate, databaseOf, PgCluster, startPrimary, startStandby } from '../../support/pg-clusters';
import { sdkLogin } from '../../support/standard';
import { acquireStores, PG_TEMPLATE_ENV } from '../../support/stores';
import { buildWorld, World } from '../../support/world';

/** Longer than the read-your-writes window (2 s), so that an account's earlier writes no longer pin it to the primary. */
const PAST_OWN_WRITES_MS = 2_200;

/**
 * DATABASE_READ_URL (decisions §25), on a fresh primary and its streaming standby: with the
 * standby's replay paused, what the primary has and the replica has not tells which one answered.
 * The admin API's lists and exports read the replica; client routes never do; an account reads its
 * own writes (on the primary) for 2 s, while another account still reads the replica.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('read replica (e2e)', () => {
  let primary: PgCluster | undefined;
  let standby: PgCluster | undefined;
  let world: World;

  beforeAll(async () => {
    primary = await startPrimary();
    await createAppTemplate(primary, process.env[PG_TEMPLATE_ENV]!);
    standby = await startStandby(primary, 'replica1');
    const stores = await acquireStores({ DATABASE_URL: primary.url('postgres', 'app', 'app'), REDIS_URL: process.env.REDIS_URL });
    const replicaUrl = standby.url(databaseOf(stores.env.DATABASE_URL), 'app', 'app');
    world = await buildWorld({ env: { DATABASE_READ_URL: replicaUrl }, app: { stores } });
    await caughtUp(primary, standby);
    await sleep(PAST_OWN_WRITES_MS);
  }, 60_000);

  afterAll(async () => {
    await world?.close();
    await standby?.remove();
    await primary?.remove();
  }, 30_000);

  const pauseReplay = async () => {
    await standby!.sql('SELECT pg_wal_replay_pause()');
    while ((await standby!.sql<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0].state !== 'paused')
      await sleep(20);
  };
  const resumeReplay = async () => {
    await standby!.sql('SELECT pg_wal_replay_resume()');
    await caughtUp(primary!, standby!);
  };
  const cardCodes = async (client: AdminClient) =>
    (
      (await client.get(`/admin/v1/projects/${world.project.id}/cards?page_size=100`).expect(200)).body.items as Array<{
        code: string;
      }>
    ).map((c) => c.code);
  const requestIds = async (client: AdminClient) =>
    (
      (await client.get(`/admin/v1/projects/${world.project.id}/requests?page_size=100`).expect(200)).body.items as Array<{
        request_id: string;
      }>
    ).map((r) => r.request_id);
  const loginLogCount = async (client: AdminClient) =>
    (await client.get(`/admin/v1/projects/${world.project.id}/logs`).expect(200)).body.total as number;

  it('admin lists and exports read the replica, while a client login reads the primary at once', async () => {
    await pauseReplay();
    try {
      const card = await insertCard(world.t, world.project.id); // on the primary only, for now
      const logsBefore = await loginLogCount(world.author);

      expect(await cardCodes(world.author)).not.toContain(card.code);
      const csv = await world.author.get(`/admin/v1/projects/${world.project.id}/cards/export.csv`).expect(200);
      expect(csv.text).not.toContain(card.code);

      const login = await sdkLogin(world.t, world.project.api_secret, {
        app: world.project.program_id,
        card_key: card.code,
        machine_id: 'replica-machine',
      }).expect(200);
      expect(login.body.code).toBe(0);
      const requestId = login.headers['x-request-id'] as string;

      expect(await requestIds(world.author)).not.toContain(requestId);
      expect(await loginLogCount(world.author)).toBe(logsBefore);

      await resumeReplay();
      expect(await cardCodes(world.author)).toContain(card.code);
      expect(await requestIds(world.author)).toContain(requestId);
      expect(await loginLogCount(world.author)).toBe(logsBefore + 1);
    } finally {
      await resumeReplay();
    }
  });

  it('an account reads its own writes from the primary for 2 s; another account reads the replica', async () => {
    const card = await insertCard(world.t, world.project.id, { note: 'before' });
    await caughtUp(primary!, standby!);
    await pauseReplay();
    try {
      const notesOf = async (client: AdminClient) =>
        (
          (await client.get(`/admin/v1/projects/${world.project.id}/cards?page_size=100`).expect(200)).body.items as Array<{
            id: number;
            note: string | null;
          }>
        ).find((c) => c.id === card.id)?.note;
      await world.author.patch(`/admin/v1/projects/${world.project.id}/cards/${card.id}`, { note: 'after' }).expect(200);

      expect(await notesOf(world.author)).toBe('after');
      expect(await notesOf(world.admin)).toBe('before');

      await sleep(PAST_OWN_WRITES_MS);
      expect(await notesOf(world.author)).toBe('before'); // back on the replica, still paused

      await resumeReplay();
      expect(await notesOf(world.admin)).toBe('after');
    } finally {
      await resumeReplay();
    }
  });

  it('npm run backup pointed at the standby archives what the primary had committed, writing nothing there', async () => {
    const card = await insertCard(world.t, world.project.id, { note: 'archived from the standby' });
    await caughtUp(primary!, standby!);
    const dir = mkdtempSync(join(tmpdir(), 'ck-standby-backup-'));
    try {
      const file = join(dir, 'standby.tar.gz');
      const outcome = await runBackupCommand('backup', [file], {
        ...world.t.env,
        APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? 'a'.repeat(64),
        DATABASE_URL: standby!.url(databaseOf(world.t.env.DATABASE_URL), 'app', 'app'),
      });
      expect(outcome).toMatchObject({ code: 0 });
      const { tables } = await archiveContents(file);
      const cards = tables.cards.map((line) => JSON.parse(line) as { code: string; note: string | null });
      expect(cards).toContainEqual(expect.objectContaining({ code: card.code, note: 'archived from the standby' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the doctor finds the replica a standby, says when it falls behind, and fails a primary named as one', async () => {
    const app = databaseOf(world.t.env.DATABASE_URL);
    const config = (readUrl: string) =>
      loadConfig({
        DATABASE_URL: primary!.url(app, 'app', 'app'),
        DATABASE_READ_URL: readUrl,
        APP_ENCRYPTION_KEY: 'a'.repeat(64),
      });
    const replicaUrl = standby!.url(app, 'app', 'app');
    expect(await checkReplica(config(replicaUrl))).toEqual([
      expect.objectContaining({ check: 'replica', severity: 'ok', message: 'a standby, caught up with what it received' }),
    ]);
    await pauseReplay();
    try {
      await insertCard(world.t, world.project.id); // received, not replayed
      await sleep(1_000);
      const [behind] = await checkReplica(config(replicaUrl), 0.5);
      expect(behind).toMatchObject({ severity: 'warn', message: expect.stringMatching(/^a standby \d+\.\d s behind/) });
    } finally {
      await resumeReplay();
    }
    const [notStandby] = await checkReplica(config(primary!.url(app, 'app', 'app')));
    expect(notStandby).toMatchObject({ severity: 'fail', message: 'DATABASE_READ_URL is not a standby (it is not in recovery)' });
  });
});
