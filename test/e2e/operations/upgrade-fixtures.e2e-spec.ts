import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ErrorCode } from '../../../sdk/src';
import { CommandOutcome, runBackupCommand, unpackForTest } from '../../support/archives';
import { callService as call, ServiceProcess, signInService as signIn, startServiceProcess } from '../../support/service-process';
import { acquireStores, AppStores, copyEmbeddedTemplate } from '../../support/stores';

/**
 * Upgrades (decisions §24): an archive made by an earlier release restores into this one. Each
 * fixture under test/fixtures/upgrade is the data an earlier commit wrote through its own API
 * (seed.mjs, make-fixture.sh), archived, and a side file saying what is in it. Each is restored here
 * by `npm run restore` (the command, run as a process, as an operator runs it) into an empty database
 * of the pass (embedded DATA_DIR, or PostgreSQL), then this release's service starts on it and the
 * cards bound back then log in on their devices through the official client, pinned to the
 * project's signing keys of back then; the admin, the author and (where the release had them) the
 * agent sign in with their old passwords and find what they had.
 */

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'upgrade');
const onPostgres = Boolean(process.env.DATABASE_URL);

interface Fixture {
  name: string;
  commit: string;
  encryption_key: string;
  admin: { username: string; password: string };
  author: { username: string; password: string };
  project: {
    id: string;
    name: string;
    program_id: string;
    api_secret: string;
    signing_keys: Array<{ kid: string; public_key: string }>;
  };
  card_type_id: number;
  cards: Array<{ code: string; machine: string; origin: string }>;
  unused_cards: string[];
  file: { id: string; name: string; sha256: string; size: number };
  agent: {
    username: string;
    password: string;
    id: string;
    balance_cents: number;
    order_id: string;
    order_codes: string[];
  } | null;
}

const fixtures: Fixture[] = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Fixture);
const archiveOf = (fixture: Fixture) => join(FIXTURES, `${fixture.name}.tar.gz`);

/** The rows per table that the archive's manifest says it holds. */
async function manifestTables(file: string): Promise<Record<string, number>> {
  const dir = await unpackForTest(file);
  try {
    return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { tables: Record<string, number> }).tables;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir`, by the SHA-256 of its content. */
function digestsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      createHash('sha256')
        .update(readFileSync(join(entry.parentPath, entry.name)))
        .digest('hex'),
    );
}

describe('upgrade fixtures: archives of earlier releases restore into this one (decisions §24, e2e)', () => {
  it('keeps fixtures of earlier releases, one of them from before the commerce tables, each with its archive', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(2);
    expect(fixtures.some((fixture) => fixture.agent === null)).toBe(true);
    const missing = fixtures.filter((fixture) => !existsSync(archiveOf(fixture))).map((fixture) => `${fixture.name}.tar.gz`);
    // A side file without its archive: remake the fixture (test/fixtures/upgrade/README.md).
    expect({ missing }).toEqual({ missing: [] });
  });

  describe.each(fixtures)('$name (made by $commit)', (fixture) => {
    const present = existsSync(archiveOf(fixture));
    let work: string | undefined;
    let stores: AppStores | undefined;
    let env: Record<string, string>;
    let restored: CommandOutcome;
    let service: ServiceProcess | undefined;

    beforeAll(async () => {
      if (!present) return;
      work = mkdtempSync(join(tmpdir(), 'ck-upgrade-'));
      stores = await acquireStores({
        DATABASE_URL: onPostgres ? process.env.DATABASE_URL : '',
        REDIS_URL: process.env.REDIS_URL ?? '',
      });
      // A DATA_DIR of our own (the embedded database, the files). Its database is empty and migrated,
      // as the PostgreSQL pass's clone of the template is: the restore replaces the schema with the
      // archive's. A restore into a DATA_DIR with no database yet is backup-restore.e2e-spec.ts's.
      const dataDir = join(work, 'data');
      if (!onPostgres) copyEmbeddedTemplate(dataDir);
      env = {
        ...stores.env,
        DATA_DIR: dataDir,
        APP_ENCRYPTION_KEY: fixture.encryption_key,
        ...(process.env.DATABASE_PREPARED_STATEMENTS
          ? { DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS }
          : {}),
      };
      restored = await runBackupCommand('restore', [archiveOf(fixture)], env);
      if (restored.code !== 0)
        throw new Error(`npm run restore of ${fixture.name}.tar.gz exited ${restored.code}:\n${restored.output}`);
      // Another ADMIN_PASSWORD than the fixture's: the admin account of the archive is the one that signs in.
      service = await startServiceProcess({
        ...env,
        ADMIN_USERNAME: fixture.admin.username,
        ADMIN_PASSWORD: 'not-the-fixture-password',
        ACCESS_LOG: 'off',
      });
    }, 240_000);

    afterAll(async () => {
      await service?.kill('SIGTERM');
      await stores?.leave();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    // Without its archive the first test fails, naming it; these would only fail again.
    const test = present ? it : it.skip;
    const client = (url: string) =>
      new Client({
        baseUrl: url,
        programId: fixture.project.program_id,
        apiSecret: fixture.project.api_secret,
        responseKeys: Object.fromEntries(fixture.project.signing_keys.map((key) => [key.kid, key.public_key])),
      });

    test('restores with exit 0, printing the rows of each table as the archive holds them and the newer migrations it ran', async () => {
      expect(restored.code).toBe(0);
      const printed = Object.fromEntries(
        [...restored.output.matchAll(/^ {2}([a-z_]+) +(\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
      );
      expect(printed).toEqual(await manifestTables(archiveOf(fixture)));
      expect(printed).toMatchObject({ projects: 1, card_devices: fixture.cards.length });
      expect(restored.output).toMatch(/^ {2}files: 1$/m);
      expect(restored.output).toMatch(/^(then migrated: .+|no newer migration to run)$/m);
    });

    test("logs every bound card in on its own device, answered under the project's pinned keys of back then", async () => {
      for (const card of fixture.cards) {
        const login = await client(service!.url).cardLogin({ cardKey: card.code, machineId: card.machine });
        expect({ card: card.code, success: login.success, code: login.code }).toEqual({
          card: card.code,
          success: true,
          code: 0,
        });
      }
    });

    test('keeps the bindings: a one-device card is refused on another device; an unused card binds a new one', async () => {
      const typed = fixture.cards.find((card) => card.origin === 'card type')!;
      const elsewhere = await client(service!.url).cardLogin({ cardKey: typed.code, machineId: 'a-machine-never-seen' });
      expect({ success: elsewhere.success, code: elsewhere.code }).toEqual({
        success: false,
        code: ErrorCode.DEVICE_LIMIT_REACHED,
      });
      const fresh = await client(service!.url).cardLogin({ cardKey: fixture.unused_cards[0], machineId: 'after-the-upgrade' });
      expect({ success: fresh.success, code: fresh.code }).toEqual({ success: true, code: 0 });
    });

    test('lets the admin and the author sign in with their passwords of back then, and they see the project', async () => {
      const admin = await signIn(service!, fixture.admin.username, fixture.admin.password);
      const author = await signIn(service!, fixture.author.username, fixture.author.password);
      for (const token of [admin, author]) {
        const project = await call<{ id: string; name: string; program_id: string }>(
          service!,
          'GET',
          `/admin/v1/projects/${fixture.project.id}`,
          undefined,
          token,
          200,
        );
        expect(project).toMatchObject({
          id: fixture.project.id,
          name: fixture.project.name,
          program_id: fixture.project.program_id,
        });
      }
      const cards = await call<{ total: number }>(
        service!,
        'GET',
        `/admin/v1/projects/${fixture.project.id}/cards`,
        undefined,
        author,
        200,
      );
      const codes = new Set([
        ...fixture.cards.map((card) => card.code),
        ...fixture.unused_cards,
        ...(fixture.agent?.order_codes ?? []),
      ]);
      expect(cards.total).toBe(codes.size);
      const file = await call<{ sha256: string; size: number }>(
        service!,
        'GET',
        `/admin/v1/projects/${fixture.project.id}/files/${fixture.file.id}`,
        undefined,
        author,
        200,
      );
      expect(file).toMatchObject({ sha256: fixture.file.sha256, size: fixture.file.size });
      expect(digestsUnder(join(env.DATA_DIR, 'files'))).toContain(fixture.file.sha256);
    });

    // Releases from agents on (decisions §19): the agent, its ledger's balance and its order.
    const agent = fixture.agent;
    if (agent)
      test('lets the agent sign in with its balance and its order', async () => {
        const token = await signIn(service!, agent.username, agent.password);
        expect(await call(service!, 'GET', '/admin/v1/agents/me', undefined, token, 200)).toMatchObject({
          id: agent.id,
          balance_cents: agent.balance_cents,
        });
        const order = await call<{ order_id: string; items: Array<{ code: string }> }>(
          service!,
          'GET',
          `/admin/v1/projects/${fixture.project.id}/orders/${agent.order_id}`,
          undefined,
          token,
          200,
        );
        expect(order.items.map((card) => card.code).sort()).toEqual([...agent.order_codes].sort());
      });
  });
});
