import { createPrivateKey, createPublicKey, randomBytes, verify, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { SecretBox } from '../core/crypto/secret-box';
import {
  databaseTakesWrite,
  directoryTakesWrite,
  freeMiB,
  redisPersistence,
  redisPersistenceWarning,
} from '../core/health/readiness';
import { kidOf, privateKeyFromDer, signEd25519 } from '../signing/ed25519';

/**
 * `fail`: answers would be wrong or refused (doctor exits 1; the start refuses the ones in
 * START_BLOCKERS). `warn`: the service works, but something an operator should fix.
 */
export type Severity = 'ok' | 'warn' | 'fail';

export type CheckName =
  | 'configuration'
  | 'database'
  | 'migrations'
  | 'redis'
  | 'encryption key'
  | 'signing keys'
  | 'clock'
  | 'address'
  | 'tls'
  | 'disk';

export interface Finding {
  check: CheckName;
  severity: Severity;
  message: string;
  /** One line: what to do about it. */
  fix?: string;
}

/**
 * What the start refuses to serve with: a key that opens no secret, answers that would carry a bad
 * signature. (A migration that cannot run already stops the start, in DatabaseModule.)
 */
export const START_BLOCKERS: ReadonlySet<CheckName> = new Set(['encryption key', 'signing keys']);

/** A data source or a query runner (a test's transaction). */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

const ok = (check: CheckName, message: string): Finding => ({ check, severity: 'ok', message });
const warn = (check: CheckName, message: string, fix: string): Finding => ({ check, severity: 'warn', message, fix });
const fail = (check: CheckName, message: string, fix: string): Finding => ({ check, severity: 'fail', message, fix });

/** Clock difference with the database past which a warning is given, and past which signed timestamps (±300 s) go wrong. */
export const CLOCK_WARN_MS = 5_000;
export const CLOCK_FAIL_MS = 300_000;

/** An error's message without any URL credentials (a driver may quote the address it was given). */
export function safeMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@\s/]*@/gi, '$1***@');
}

export function checkConfiguration(env: NodeJS.ProcessEnv): { config: AppConfig | null; finding: Finding } {
  try {
    const config = loadConfig(env);
    const database = config.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL';
    const store = config.REDIS_URL ? 'Redis' : 'in-process state';
    return {
      config,
      finding: ok(
        'configuration',
        `valid (${database}, ${store}, ${config.workerCount} worker${config.workerCount > 1 ? 's' : ''})`,
      ),
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.message
      .split('\n')
      .slice(1)
      .map((line) => line.trim());
    return {
      config: null,
      finding: fail(
        'configuration',
        problems.join('; '),
        'set the variables named here as README "Configuration" says, then run npm run doctor again',
      ),
    };
  }
}

/** Reachable, writable (not a standby or read-only), and every migration of this code applied. */
export async function checkDatabase(dataSource: DataSource): Promise<Finding[]> {
  try {
    await databaseTakesWrite(dataSource);
  } catch (error) {
    return [
      fail(
        'database',
        `cannot write: ${safeMessage(error)}`,
        'check DATABASE_URL (host, port, user, database) and that PostgreSQL runs and is the primary',
      ),
    ];
  }
  const findings = [ok('database', 'reachable and takes writes')];
  const applied = new Set(
    ((await dataSource.query(`SELECT name FROM migrations`).catch(() => [])) as Array<{ name: string }>).map((row) => row.name),
  );
  const known = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const pending = known.filter((name) => !applied.has(name));
  const unknown = [...applied].filter((name) => !known.includes(name));
  if (pending.length) {
    findings.push(
      warn(
        'migrations',
        `${pending.length} of ${known.length} not applied (first: ${pending[0]})`,
        'start the service: it applies them under a lock before it listens, and stops saying why if one cannot run',
      ),
    );
  } else {
    findings.push(ok('migrations', `all ${known.length} applied`));
  }
  if (unknown.length) {
    findings.push(
      warn(
        'migrations',
        `the database has ${unknown.length} migration(s) this code does not know (first: ${unknown[0]})`,
        'run the release that applied them, or restore the database made for this one',
      ),
    );
  }
  return findings;
}

/** Redis answers within 2 s and persists every write (AOF): readiness's own functions, read once. */
export async function checkRedis(redis: Redis | null): Promise<Finding[]> {
  if (!redis) return [ok('redis', 'not configured: nonces, limits and quotas live in this one process')];
  try {
    await withTimeout(redis.ping(), 2000, 'no answer to PING within 2 s');
  } catch (error) {
    return [
      fail(
        'redis',
        `unreachable: ${safeMessage(error)}`,
        'check REDIS_URL and that Redis runs: nonces, quotas and limits live there',
      ),
    ];
  }
  const persistence = await redisPersistence(redis).catch(() => 'unknown' as const);
  const warning = redisPersistenceWarning(persistence);
  return [
    warning
      ? warn('redis', warning, 'redis-server --appendonly yes (or appendonly yes in redis.conf)')
      : ok('redis', 'reachable, AOF persistence'),
  ];
}

/** The key the service would use, without generating one (doctor has no side effects): from the environment or DATA_DIR/encryption.key. */
export function readEncryptionKey(config: AppConfig): { key: Buffer | null; finding: Finding | null } {
  if (config.APP_ENCRYPTION_KEY) return { key: SecretBox.parseKey(config.APP_ENCRYPTION_KEY), finding: null };
  const file = join(config.DATA_DIR, 'encryption.key');
  if (!existsSync(file)) return { key: null, finding: ok('encryption key', `none yet: the first start generates ${file}`) };
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (!/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/.test(text)) {
      return {
        key: null,
        finding: fail(
          'encryption key',
          `${file} is not 32 bytes as hex or base64`,
          `restore ${file} from your backup (a new key opens none of the stored secrets)`,
        ),
      };
    }
    const loose = (statSync(file).mode & 0o077) !== 0;
    return {
      key: SecretBox.parseKey(text),
      finding: loose ? warn('encryption key', `${file} can be read by other users`, `chmod 600 ${file}`) : null,
    };
  } catch (error) {
    return {
      key: null,
      finding: fail(
        'encryption key',
        `${file} cannot be read: ${safeMessage(error)}`,
        `give the service's user read access to ${file}`,
      ),
    };
  }
}

/** A round trip through the box that guards every stored secret. */
export function checkEncryptionKey(box: SecretBox | null, extra: Finding | null = null): Finding[] {
  const findings: Finding[] = extra ? [extra] : [];
  if (!box) return findings;
  try {
    const probe = randomBytes(16).toString('hex');
    if (box.decrypt(box.encrypt(probe)) !== probe) throw new Error('the round trip gave another text');
  } catch (error) {
    return [
      ...findings,
      fail(
        'encryption key',
        `unusable: ${safeMessage(error)}`,
        'set APP_ENCRYPTION_KEY to the 32-byte key (64 hex characters) the stored secrets were encrypted with',
      ),
    ];
  }
  return findings.length ? findings : [ok('encryption key', 'present, encrypts and decrypts')];
}

/** Opens, signs with and verifies every project's active signing key: a key that fails would sign answers no pinned client accepts. */
export async function checkSigningKeys(dataSource: Queryable, box: SecretBox): Promise<Finding[]> {
  const [table] = (await dataSource.query(`SELECT to_regclass('signing_keys') IS NOT NULL AS present`)) as Array<{
    present: boolean;
  }>;
  if (!table?.present) return [ok('signing keys', 'none yet: the schema is made at the first start')];
  const rows = (await dataSource.query(
    `SELECT project_id, kid, public_key, private_key_enc FROM signing_keys WHERE status = 'active' ORDER BY project_id`,
  )) as Array<{ project_id: string; kid: string; public_key: string; private_key_enc: string }>;
  const failures: string[] = [];
  let unopened = 0;
  const message = Buffer.from(`cardkey-doctor-self-test ${Date.now()}`);
  for (const row of rows) {
    let der: string;
    try {
      der = box.decrypt(row.private_key_enc);
    } catch {
      unopened += 1;
      failures.push(`project ${row.project_id}: the private key does not open with this encryption key`);
      continue;
    }
    try {
      const raw = Buffer.from(row.public_key, 'base64url');
      const signature = Buffer.from(signEd25519(privateKeyFromDer(der), message), 'base64url');
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: row.public_key }, format: 'jwk' });
      if (!verify(null, message, publicKey, signature))
        failures.push(`project ${row.project_id}: a signature does not verify with the published key ${row.kid}`);
      else if (kidOf(raw) !== row.kid.trim())
        failures.push(`project ${row.project_id}: kid ${row.kid} is not that of its public key`);
    } catch (error) {
      failures.push(`project ${row.project_id}: ${safeMessage(error)}`);
    }
  }
  if (!rows.length) return [ok('signing keys', 'none yet: a project gets its key when it is created')];
  if (!failures.length) return [ok('signing keys', `${rows.length} active key${rows.length === 1 ? '' : 's'} sign and verify`)];
  const more = failures.length > 2 ? ` and ${failures.length - 2} more` : '';
  const fix =
    unopened === failures.length
      ? 'set APP_ENCRYPTION_KEY (or DATA_DIR/encryption.key) back to the key these were encrypted with'
      : 'rotate the key of each project named (POST /admin/v1/projects/{id}/signing-keys/rotate) and publish the new public key to its programs';
  return [fail('signing keys', `${failures.length} of ${rows.length} fail: ${failures.slice(0, 2).join('; ')}${more}`, fix)];
}

/** The service's clock against the database's: expiry, quotas and signed timestamps mix the two. */
export async function checkClock(dataSource: Queryable, now: () => number = Date.now): Promise<Finding[]> {
  const before = now();
  const [row] = (await dataSource.query(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`)) as Array<{
    ms: number;
  }>;
  const after = now();
  const skew = Math.round(Number(row.ms) - (before + after) / 2);
  const words = `${Math.abs(skew / 1000).toFixed(1)} s ${skew > 0 ? 'behind' : 'ahead of'} the database`;
  const fix = 'run NTP (chrony or systemd-timesyncd) on the service and database hosts';
  if (Math.abs(skew) > CLOCK_FAIL_MS)
    return [fail('clock', `${words}: beyond the ±300 s that signed requests are accepted in`, fix)];
  if (Math.abs(skew) > CLOCK_WARN_MS) return [warn('clock', words, fix)];
  return [ok('clock', `within ${CLOCK_WARN_MS / 1000} s of the database`)];
}

const LOOPBACK = /^(127\.|::1$|localhost$)/;

/** Where clients reach the service and whether it sees their addresses. */
export function checkAddress(config: AppConfig, env: NodeJS.ProcessEnv): Finding[] {
  const production = env.NODE_ENV === 'production';
  const findings: Finding[] = [];
  if (LOOPBACK.test(config.HOST) && (production || existsSync('/.dockerenv'))) {
    findings.push(
      warn(
        'address',
        `HOST=${config.HOST}: only this machine (or container) can reach the service`,
        'set HOST=0.0.0.0 and let the proxy or firewall decide who reaches it',
      ),
    );
  }
  const tls = Boolean(tlsSetting(config, env, 'TLS_CERT_FILE'));
  if (production && !config.TRUST_PROXY && !tls) {
    findings.push(
      warn(
        'address',
        "no TLS and no TRUST_PROXY: behind a proxy every client has the proxy's address (per-address limits become global); without one, clients talk plain HTTP",
        "set TRUST_PROXY to the proxy's address (docker/compose.yml: Caddy's), or TLS_CERT_FILE and TLS_KEY_FILE",
      ),
    );
  }
  if (!findings.length) {
    const proxy = config.TRUST_PROXY ? `, client addresses from X-Forwarded-For of ${config.TRUST_PROXY}` : '';
    findings.push(ok('address', `listens on ${config.HOST}:${config.PORT}${tls ? ' with TLS' : ''}${proxy}`));
  }
  return findings;
}

/** The config's value once it has the key (decisions §22), else the environment's. */
function tlsSetting(config: AppConfig, env: NodeJS.ProcessEnv, key: 'TLS_CERT_FILE' | 'TLS_KEY_FILE'): string | undefined {
  const value = (config as unknown as Record<string, unknown>)[key] ?? env[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** TLS_CERT_FILE and TLS_KEY_FILE: both or neither, readable, a pair, and the certificate in date. */
export function checkTls(config: AppConfig, env: NodeJS.ProcessEnv, now: () => number = Date.now): Finding[] {
  const certFile = tlsSetting(config, env, 'TLS_CERT_FILE');
  const keyFile = tlsSetting(config, env, 'TLS_KEY_FILE');
  if (!certFile && !keyFile) return [ok('tls', 'not set: TLS ends at the proxy in front (Caddy in docker/compose.yml)')];
  if (!certFile || !keyFile)
    return [
      fail(
        'tls',
        `${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is not set`,
        'set both TLS_CERT_FILE and TLS_KEY_FILE (PEM), or neither',
      ),
    ];
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(readFileSync(certFile));
  } catch (error) {
    return [
      fail(
        'tls',
        `TLS_CERT_FILE ${certFile}: ${safeMessage(error)}`,
        'point TLS_CERT_FILE at a readable PEM certificate (chain)',
      ),
    ];
  }
  let key;
  try {
    key = createPrivateKey(readFileSync(keyFile));
  } catch (error) {
    return [
      fail(
        'tls',
        `TLS_KEY_FILE ${keyFile}: ${safeMessage(error)}`,
        'point TLS_KEY_FILE at the readable PEM private key of the certificate',
      ),
    ];
  }
  if (!cert.checkPrivateKey(key))
    return [fail('tls', "TLS_KEY_FILE is not the key of TLS_CERT_FILE's certificate", 'pair the certificate with its own key')];
  const daysLeft = (Date.parse(cert.validTo) - now()) / 86_400_000;
  if (daysLeft < 0)
    return [
      fail(
        'tls',
        `the certificate expired on ${new Date(cert.validTo).toISOString().slice(0, 10)}`,
        'renew it, then kill -HUP the service to load it',
      ),
    ];
  if (daysLeft < 14)
    return [
      warn('tls', `the certificate expires in ${Math.floor(daysLeft)} days`, 'renew it, then kill -HUP the service to load it'),
    ];
  return [ok('tls', `certificate for ${cert.subject.replace(/\n/g, ', ')} valid ${Math.floor(daysLeft)} more days`)];
}

/** The data directory (and the files directory) take a flushed write and have READY_MIN_FREE_MB free: readiness's own test. */
export async function checkDisk(config: AppConfig): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const dir of new Set([config.DATA_DIR, config.filesDir])) {
    try {
      await directoryTakesWrite(dir);
    } catch (error) {
      findings.push(
        fail('disk', `${dir} takes no write: ${safeMessage(error)}`, `make ${dir} a writable directory of the service's user`),
      );
      continue;
    }
    const free = await freeMiB(dir);
    if (free < config.READY_MIN_FREE_MB) {
      findings.push(
        fail(
          'disk',
          `${Math.floor(free)} MiB free under ${dir}, below READY_MIN_FREE_MB (${config.READY_MIN_FREE_MB})`,
          'free space or grow the volume: a full disk fails every login',
        ),
      );
    } else if (free < config.READY_MIN_FREE_MB * 4) {
      findings.push(
        warn(
          'disk',
          `${Math.floor(free)} MiB free under ${dir}`,
          'free space or grow the volume before it falls below READY_MIN_FREE_MB',
        ),
      );
    }
  }
  return findings.length
    ? findings
    : [ok('disk', `${[...new Set([config.DATA_DIR, config.filesDir])].join(' and ')} writable, enough free space`)];
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Everything a running instance can check about itself (the start's checks; doctor adds configuration first). */
export async function instanceChecks(parts: {
  config: AppConfig;
  env: NodeJS.ProcessEnv;
  dataSource: DataSource | null;
  redis: Redis | null;
  box: SecretBox | null;
  keyFinding?: Finding | null;
}): Promise<Finding[]> {
  const { config, env, dataSource, redis, box } = parts;
  const findings: Finding[] = [];
  const guarded = async (check: CheckName, run: () => Promise<Finding[]> | Finding[]) => {
    try {
      findings.push(...(await run()));
    } catch (error) {
      findings.push(
        fail(check, `could not be checked: ${safeMessage(error)}`, 'see the message; npm run doctor repeats the check'),
      );
    }
  };
  let databaseUp = false;
  if (dataSource) {
    await guarded('database', async () => {
      const result = await checkDatabase(dataSource);
      databaseUp = result.every((finding) => finding.check !== 'database' || finding.severity !== 'fail');
      return result;
    });
  }
  await guarded('redis', () => checkRedis(redis));
  await guarded('encryption key', () => checkEncryptionKey(box, parts.keyFinding ?? null));
  if (dataSource && databaseUp && box) await guarded('signing keys', () => checkSigningKeys(dataSource, box));
  if (dataSource && databaseUp && !config.usesEmbeddedDatabase) await guarded('clock', () => checkClock(dataSource));
  await guarded('address', () => checkAddress(config, env));
  await guarded('tls', () => checkTls(config, env));
  await guarded('disk', () => checkDisk(config));
  return findings;
}

/** The block printed by doctor and at start: one line per finding, its fix on the next. */
export function formatFindings(findings: readonly Finding[]): string[] {
  const label = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;
  return findings.flatMap((finding) => [
    `${label[finding.severity]}  ${finding.check}: ${finding.message}`,
    ...(finding.fix ? [`      fix: ${finding.fix}`] : []),
  ]);
}
