import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../../src/config/app-config';
import { SecretBox } from '../../../src/core/crypto/secret-box';
import { lockDataDir } from '../../../src/database/data-dir-lock';
import {
  checkAddress,
  checkClock,
  checkConfiguration,
  checkDatabase,
  checkDisk,
  checkEmbeddedData,
  checkPooler,
  checkPublicUrl,
  checkRedis,
  checkSigningKeys,
  checkTls,
  Finding,
  instanceChecks,
} from '../../../src/doctor/checks';
import { startBlockers, startFindings } from '../../../src/doctor/start-checks';
import { generateSigningKey } from '../../../src/signing/ed25519';
import { AdminClient } from '../../support/admin-client';
import { startPgBouncer } from '../../support/pgbouncer';
import { runServiceToExit } from '../../support/service-process';
import { startTestApp, TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');
const OTHER_KEY = 'b'.repeat(64);

/** `npm run doctor` from the sources, with exactly this environment: its exit status and output. */
async function runDoctor(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'test/support/swc-register.cjs'), join(ROOT, 'src/cli/doctor.ts')], {
    cwd: ROOT,
    // TZ: the host's zone is the time zone check's to read; UTC unless a test says otherwise.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: '1', TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

const only = (findings: Finding[], check: Finding['check']) => findings.filter((finding) => finding.check === check);

describe('npm run doctor and the start checks', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let project: { id: string };
  let scratch: string;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.app.get(DataSource);
    const author = await (await AdminClient.asPlatformAdmin(t)).createAuthor();
    project = await author.client.createProject();
    scratch = mkdtempSync(join(tmpdir(), 'ck-doctor-'));
  });

  afterAll(async () => {
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const config = (env: Record<string, string> = {}) => loadConfig({ ...t.env, APP_ENCRYPTION_KEY: 'a'.repeat(64), ...env });

  it('finds nothing wrong with a healthy instance, and self-tests every active signing key', async () => {
    const findings = await startFindings(t.app, config(), {});
    expect(findings.filter((finding) => finding.severity === 'fail')).toEqual([]);
    expect(startBlockers(findings)).toEqual([]);
    const [signing] = only(findings, 'signing keys');
    expect(signing).toMatchObject({ severity: 'ok' });
    expect(signing.message).toMatch(/^[1-9]\d* active keys? sign and verify$/);
  });

  it('refuses the start when the encryption key is not the one the signing keys were encrypted with', async () => {
    const findings = await instanceChecks({
      config: config(),
      env: {},
      dataSource,
      redis: null,
      box: new SecretBox(Buffer.from(OTHER_KEY, 'hex')),
    });
    const [signing] = only(findings, 'signing keys');
    expect(signing.severity).toBe('fail');
    expect(signing.message).toContain('does not open with this encryption key');
    expect(signing.fix).toContain('APP_ENCRYPTION_KEY');
    expect(startBlockers(findings).map((finding) => finding.check)).toEqual(['signing keys']);
  });

  it('names the project whose published key does not verify its signatures', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // A public key that is not the private key's: the answers would fail every pinned client.
      await runner.query(`UPDATE signing_keys SET public_key = $2 WHERE project_id = $1 AND status = 'active'`, [
        project.id,
        generateSigningKey().publicKey,
      ]);
      const [finding] = await checkSigningKeys(runner.manager, t.app.get(SecretBox));
      expect(finding.severity).toBe('fail');
      expect(finding.message).toContain(`project ${project.id}: a signature does not verify`);
      expect(finding.fix).toContain('rotate');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('says which migration is not applied yet', async () => {
    const [last] = (await dataSource.query(`SELECT id, timestamp, name FROM migrations ORDER BY id DESC LIMIT 1`)) as Array<{
      id: number;
      timestamp: string;
      name: string;
    }>;
    await dataSource.query(`DELETE FROM migrations WHERE id = $1`, [last.id]);
    try {
      const [migrations] = only(await checkDatabase(dataSource), 'migrations');
      expect(migrations).toMatchObject({ severity: 'warn' });
      expect(migrations.message).toContain(`1 of ${dataSource.migrations.length} not applied (first: ${last.name})`);
    } finally {
      await dataSource.query(`INSERT INTO migrations (id, timestamp, name) VALUES ($1, $2, $3)`, [
        last.id,
        last.timestamp,
        last.name,
      ]);
    }
    expect(only(await checkDatabase(dataSource), 'migrations')).toEqual([expect.objectContaining({ severity: 'ok' })]);
  });

  it('warns of a clock a few seconds off the database, and fails one beyond the signed-request window', async () => {
    expect((await checkClock(dataSource))[0].severity).toBe('ok');
    const [drift] = await checkClock(dataSource, () => Date.now() + 20_000);
    expect(drift.severity).toBe('warn');
    expect(drift.message).toMatch(/^2\d\.\d s ahead of the database$/);
    expect((await checkClock(dataSource, () => Date.now() - 600_000))[0]).toMatchObject({ severity: 'fail' });
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    'says whether DATABASE_URL goes through a pooler, and warns of prepared statements behind one',
    async () => {
      // The app's database, reached directly (the PgBouncer pass hands apps a pooled URL).
      const direct = Object.assign(new URL(t.env.DATABASE_URL), { host: new URL(process.env.DATABASE_URL!).host }).toString();
      const directly = await new DataSource({ type: 'postgres', url: direct, poolSize: 1 }).initialize();
      const [none] = await checkPooler(directly, config({ DATABASE_URL: direct })).finally(() => directly.destroy());
      expect(none).toMatchObject({ check: 'pooler', severity: 'ok', message: 'none: DATABASE_URL reaches PostgreSQL directly' });
      const pooler = await startPgBouncer(direct);
      const pooled = pooler.through(direct);
      const throughPooler = await new DataSource({ type: 'postgres', url: pooled, poolSize: 1 }).initialize();
      try {
        const [prepared] = await checkPooler(throughPooler, config({ DATABASE_URL: pooled }));
        expect(prepared).toMatchObject({ severity: 'warn', fix: expect.stringContaining('DATABASE_PREPARED_STATEMENTS=false') });
        const [off] = await checkPooler(throughPooler, config({ DATABASE_URL: pooled, DATABASE_PREPARED_STATEMENTS: 'false' }));
        expect(off).toMatchObject({
          severity: 'ok',
          message: expect.stringContaining('through a pooler; prepared statements off'),
        });
      } finally {
        await throughPooler.destroy();
        await pooler.stop();
      }
    },
  );

  it('fails a Redis that does not answer', async () => {
    const redis = new Redis({
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    redis.on('error', () => undefined);
    try {
      const [finding] = await checkRedis(redis);
      expect(finding).toMatchObject({ check: 'redis', severity: 'fail' });
      expect(finding.fix).toContain('REDIS_URL');
    } finally {
      redis.disconnect();
    }
  });

  it('checks TLS_CERT_FILE and TLS_KEY_FILE: both set, readable, a pair, in date', () => {
    const pair = (name: string, days: number) => {
      const cert = join(scratch, `${name}.crt`);
      const key = join(scratch, `${name}.key`);
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          String(days),
          '-subj',
          '/CN=doctor.test',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        {
          stdio: 'ignore',
        },
      );
      return { cert, key };
    };
    const good = pair('good', 90);
    const other = pair('other', 90);
    const tls = (cert?: string, key?: string, now?: () => number) =>
      checkTls(config(), { ...(cert ? { TLS_CERT_FILE: cert } : {}), ...(key ? { TLS_KEY_FILE: key } : {}) }, now)[0];

    expect(tls()).toMatchObject({ severity: 'ok' });
    expect(tls(good.cert, good.key)).toMatchObject({ severity: 'ok', message: expect.stringContaining('CN=doctor.test') });
    expect(tls(good.cert)).toMatchObject({ severity: 'fail', message: 'TLS_KEY_FILE is not set' });
    expect(tls(good.cert, other.key)).toMatchObject({ severity: 'fail', message: expect.stringContaining('is not the key') });
    expect(tls(join(scratch, 'missing.crt'), good.key)).toMatchObject({
      severity: 'fail',
      message: expect.stringContaining('missing.crt'),
    });
    expect(tls(good.cert, good.key, () => Date.now() + 80 * 86_400_000)).toMatchObject({
      severity: 'warn',
      message: expect.stringMatching(/expires in \d+ days/),
    });
    expect(tls(good.cert, good.key, () => Date.now() + 91 * 86_400_000)).toMatchObject({
      severity: 'fail',
      message: expect.stringContaining('expired'),
    });
  });

  it('fails a data directory that takes no write or has less than READY_MIN_FREE_MB free', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    expect((await checkDisk(config({ DATA_DIR: join(file, 'data') })))[0]).toMatchObject({
      severity: 'fail',
      message: expect.stringContaining('takes no write'),
    });
    expect((await checkDisk(config({ DATA_DIR: scratch, READY_MIN_FREE_MB: String(1024 * 1024) })))[0]).toMatchObject({
      severity: 'fail',
      message: expect.stringContaining('below READY_MIN_FREE_MB'),
    });
    expect(await checkDisk(config({ DATA_DIR: scratch }))).toEqual([expect.objectContaining({ severity: 'ok' })]);
  });

  it('warns of an embedded database left in DATA_DIR once DATABASE_URL is set (at start and in doctor)', async () => {
    const dataDir = join(scratch, 'left-behind');
    const pgdata = join(dataDir, 'pgdata');
    mkdirSync(pgdata, { recursive: true });
    const withUrl = config({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://app@db.internal:5432/cards' });
    expect(checkEmbeddedData(withUrl)).toEqual([
      expect.objectContaining({ severity: 'ok', message: `none in ${resolve(pgdata)}` }),
    ]);
    writeFileSync(join(pgdata, 'PG_VERSION'), '17\n');
    const checks = (chosen: ReturnType<typeof config>) =>
      instanceChecks({ config: chosen, env: {}, dataSource: null, redis: null, box: null });
    const [left] = only(await checks(withUrl), 'embedded data');
    expect(left).toMatchObject({
      severity: 'warn',
      message: `DATABASE_URL is set, but ${resolve(pgdata)} holds an embedded database: its data is not used`,
    });
    expect(left.fix).toContain('docs/operations.md, "Moving off the embedded database"');
    // Without DATABASE_URL that database is the one served: nothing to say about it.
    expect(only(await checks(config({ DATA_DIR: dataDir, DATABASE_URL: '' })), 'embedded data')).toEqual([]);
  });

  it('warns of a production service that sees no client address and serves no TLS', () => {
    const [bare] = checkAddress(config(), { NODE_ENV: 'production' });
    expect(bare).toMatchObject({ severity: 'warn' });
    expect(bare.fix).toContain('TRUST_PROXY');
    expect(checkAddress(config({ TRUST_PROXY: '172.30.0.2' }), { NODE_ENV: 'production' })).toEqual([
      expect.objectContaining({ severity: 'ok', message: expect.stringContaining('X-Forwarded-For of 172.30.0.2') }),
    ]);
  });

  it('checks PUBLIC_URL: unset is fine until a project switches a payment provider on; HTTP or loopback in production is warned', async () => {
    expect(await checkPublicUrl(config(), {}, dataSource)).toEqual([
      expect.objectContaining({ check: 'public url', severity: 'ok', message: expect.stringContaining('unset') }),
    ]);
    await dataSource.query(
      `INSERT INTO payment_providers (project_id, provider, enabled, secrets_enc) VALUES ($1, 'epay', true, 'v1.x')`,
      [project.id],
    );
    try {
      const [unset] = await checkPublicUrl(config(), {}, dataSource);
      expect(unset).toMatchObject({
        severity: 'warn',
        message: expect.stringContaining('1 project has a payment provider switched on'),
      });
      expect(unset.fix).toContain('PUBLIC_URL');
      expect(
        await checkPublicUrl(config({ PUBLIC_URL: 'https://keys.example.com/' }), { NODE_ENV: 'production' }, dataSource),
      ).toEqual([expect.objectContaining({ severity: 'ok', message: expect.stringContaining('https://keys.example.com:') })]);
      const [plain] = await checkPublicUrl(
        config({ PUBLIC_URL: 'http://keys.example.com' }),
        { NODE_ENV: 'production' },
        dataSource,
      );
      expect(plain).toMatchObject({ severity: 'warn', message: expect.stringContaining('plain HTTP') });
      const [own] = await checkPublicUrl(config({ PUBLIC_URL: 'http://127.0.0.1:3000' }), { NODE_ENV: 'production' }, dataSource);
      expect(own).toMatchObject({ severity: 'warn', message: expect.stringContaining("this machine's own address") });
      // The start runs it too.
      expect(only(await startFindings(t.app, config(), {}), 'public url')).toEqual([
        expect.objectContaining({ severity: 'warn' }),
      ]);
    } finally {
      await dataSource.query(`DELETE FROM payment_providers WHERE project_id = $1`, [project.id]);
    }
    expect(() => loadConfig({ PUBLIC_URL: 'keys.example.com' })).toThrow(/PUBLIC_URL must be an http/);
  });

  it('names every invalid variable of the configuration', () => {
    const { config: none, finding } = checkConfiguration({ WORKERS: '2', APP_TIMEZONE: 'Mars/Olympus' });
    expect(none).toBeNull();
    expect(finding.severity).toBe('fail');
    expect(finding.message).toContain('WORKERS: 2 processes need DATABASE_URL and REDIS_URL');
    expect(finding.message).toContain('APP_TIMEZONE');
  });

  describe('the command', () => {
    it('exits 0 and says so on a fresh checkout (nothing made yet)', async () => {
      const dataDir = join(scratch, 'fresh');
      const { code, output } = await runDoctor({ DATA_DIR: dataDir });
      expect(output).toMatch(/^doctor: no problem, 0 warnings$/m);
      expect(output).toContain('ok    database: embedded, not created yet');
      // No TLS files and no proxy: it says so, rather than naming a proxy that is not there.
      expect(output).toContain('ok    tls: not set, and no proxy in front (TRUST_PROXY unset): clients talk plain HTTP');
      expect(code).toBe(0);
    });

    it('ends at once on a DATA_DIR under /proc, naming it (it once hung there at full CPU)', async () => {
      const started = Date.now();
      const { code, output } = await runDoctor({ DATA_DIR: '/proc/ck-doctor/data' });
      expect(output).toMatch(/^FAIL {2}configuration: DATA_DIR: \/proc\/ck-doctor\/data is on \/proc, a kernel file system/m);
      expect(code).toBe(1);
      expect(Date.now() - started).toBeLessThan(30_000);
    });

    it('warns of APP_TIMEZONE left at UTC on a host in Asia/Shanghai, and says what to set', async () => {
      const { code, output } = await runDoctor({ DATA_DIR: join(scratch, 'zone'), TZ: 'Asia/Shanghai' });
      expect(output).toMatch(/^doctor: no problem, 1 warning$/m);
      expect(output).toMatch(/^WARN {2}time zone: APP_TIMEZONE is UTC \(the default\) but this host's zone is Asia\/Shanghai/m);
      expect(output).toMatch(/^ {6}fix: set APP_TIMEZONE=Asia\/Shanghai/m);
      expect(code).toBe(0);
      const set = await runDoctor({ DATA_DIR: join(scratch, 'zone'), TZ: 'Asia/Shanghai', APP_TIMEZONE: 'Asia/Shanghai' });
      expect(set.output).toContain('ok    time zone: APP_TIMEZONE Asia/Shanghai');
      expect(set.output).toMatch(/^doctor: no problem, 0 warnings$/m);
    });

    it('leaves an embedded database that another process holds alone, naming that process', async () => {
      const dataDir = join(scratch, 'held');
      mkdirSync(join(dataDir, 'pgdata'), { recursive: true });
      const lock = await lockDataDir(dataDir, 3456);
      try {
        const { code, output } = await runDoctor({ DATA_DIR: dataDir });
        expect(output).toContain(`ok    database: embedded, held by the service on port 3456 (pid ${process.pid})`);
        expect(code).toBe(0);
      } finally {
        await lock.release();
      }
    });

    it('exits 1 on a bad configuration, naming the variable', async () => {
      const { code, output } = await runDoctor({ DATA_DIR: scratch, WORKERS: '3' });
      expect(output).toMatch(/^FAIL {2}configuration: WORKERS: 3 processes need DATABASE_URL and REDIS_URL/m);
      expect(output).toMatch(/^ {6}fix: /m);
      expect(code).toBe(1);
    });

    it('exits 1 on an unreachable database and Redis and a malformed key file, and prints no password', async () => {
      const dataDir = join(scratch, 'unreachable');
      // An embedded database from before DATABASE_URL was set: a warning beside the failures.
      mkdirSync(join(dataDir, 'pgdata'), { recursive: true });
      writeFileSync(join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
      const { code, output } = await runDoctor({
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://app:s3cret-db-pass@127.0.0.1:1/app',
        REDIS_URL: 'redis://:s3cret-redis-pass@127.0.0.1:1/0',
        APP_ENCRYPTION_KEY: 'c'.repeat(64),
      });
      expect(output).toMatch(/^FAIL {2}database: unreachable/m);
      expect(output).toMatch(/^FAIL {2}redis: unreachable/m);
      expect(output).toMatch(/^WARN {2}embedded data: DATABASE_URL is set, but .*pgdata holds an embedded database/m);
      expect(output).not.toContain('s3cret');
      expect(output).not.toContain('c'.repeat(64));
      expect(code).toBe(1);

      const keyDir = join(scratch, 'bad-key');
      execFileSync('mkdir', ['-p', keyDir]);
      writeFileSync(join(keyDir, 'encryption.key'), 'not a key\n');
      chmodSync(join(keyDir, 'encryption.key'), 0o600);
      const bad = await runDoctor({ DATA_DIR: keyDir });
      expect(bad.output).toMatch(/^FAIL {2}encryption key: .*encryption\.key is not 32 bytes/m);
      expect(bad.code).toBe(1);
    });
  });

  // The start itself, as a process, against this app's database with another key: it must not listen.
  (process.env.DATABASE_URL ? it : it.skip)(
    'the service refuses to start when its key opens no signing key (PostgreSQL)',
    async () => {
      const { code, output } = await runServiceToExit({
        ...t.env,
        APP_ENCRYPTION_KEY: OTHER_KEY,
        LOG_LEVEL: 'info',
        WORKERS: '1',
      });
      expect(output).toContain('start refused: answers would be wrong');
      expect(output).toContain('FAIL  signing keys');
      expect(output).not.toContain('listening on');
      expect(code).toBe(1);
    },
  );
});
