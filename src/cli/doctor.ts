import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { SecretBox } from '../core/crypto/secret-box';
import { createRedisClient } from '../core/store/redis-connection';
import { DataDirInUseError } from '../database/data-dir-lock';
import { EmbeddedPostgres } from '../database/embedded-postgres';
import { checkConfiguration, Finding, formatFindings, instanceChecks, readEncryptionKey, safeMessage } from '../doctor/checks';

/**
 * `npm run doctor`: the preflight an operator runs before (or beside) a start, with the service's
 * environment. Reads and probes only: it applies no migration and generates no key. Exit status 1
 * when a finding would make answers wrong or refused, 0 otherwise (warnings included).
 */
async function main(): Promise<number> {
  const { config, finding } = checkConfiguration(process.env);
  const findings: Finding[] = [finding];
  if (config) {
    const opened = await openDatabase(config, findings);
    const redis = await openRedis(config);
    const { key, finding: keyFinding } = readEncryptionKey(config);
    let box: SecretBox | null = null;
    try {
      box = key ? new SecretBox(key) : null;
    } catch (error) {
      findings.push({
        check: 'encryption key',
        severity: 'fail',
        message: safeMessage(error),
        fix: 'APP_ENCRYPTION_KEY must be 32 bytes: 64 hex characters or base64',
      });
    }
    try {
      findings.push(
        ...(await instanceChecks({ config, env: process.env, dataSource: opened?.dataSource ?? null, redis, box, keyFinding })),
      );
    } finally {
      await opened?.close();
      redis?.disconnect();
    }
  }
  const failures = findings.filter((f) => f.severity === 'fail').length;
  const warnings = findings.filter((f) => f.severity === 'warn').length;
  const lines = [
    `doctor: ${failures ? `${failures} problem${failures > 1 ? 's' : ''}` : 'no problem'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
    ...formatFindings(findings),
  ];
  process.stdout.write(lines.map((line) => `${line}\n`).join(''));
  return failures ? 1 : 0;
}

/**
 * The service's database, migrations left as they are. The embedded one is a single session in
 * DATA_DIR: when another process holds the directory (data-dir-lock.ts), doctor leaves it alone (a
 * service checked it at its start), and a data directory not made yet is the first start's to make.
 */
async function openDatabase(
  config: AppConfig,
  findings: Finding[],
): Promise<{ dataSource: DataSource; close: () => Promise<void> } | null> {
  const options = {
    type: 'postgres' as const,
    migrations: MIGRATIONS,
    synchronize: false,
    logging: false,
    extra: { connectionTimeoutMillis: 5000 },
  };
  if (config.DATABASE_URL) {
    const dataSource = new DataSource({ ...options, url: config.DATABASE_URL, poolSize: 2 });
    try {
      await dataSource.initialize();
    } catch (error) {
      findings.push({
        check: 'database',
        severity: 'fail',
        message: `unreachable: ${safeMessage(error)}`,
        fix: 'check DATABASE_URL (host, port, user, password, database) and that PostgreSQL runs',
      });
      return null;
    }
    return { dataSource, close: () => dataSource.destroy() };
  }
  const pgdata = join(config.DATA_DIR, 'pgdata');
  if (!existsSync(pgdata)) {
    findings.push({ check: 'database', severity: 'ok', message: `embedded, not created yet: the first start makes ${pgdata}` });
    return null;
  }
  const embedded = new EmbeddedPostgres();
  let target;
  try {
    target = await embedded.start(config.DATA_DIR);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    findings.push({ check: 'database', severity: 'ok', message: `embedded, ${heldBy(error)}` });
    return null;
  }
  const dataSource = new DataSource({ ...options, ...target, username: 'postgres', database: 'postgres', poolSize: 1 });
  await dataSource.initialize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await embedded.stop();
    },
  };
}

/** Who holds the embedded database, as the doctor reports it. */
function heldBy({ holder }: DataDirInUseError): string {
  if (holder?.port === undefined) return `in use by another process${holder ? ` (pid ${holder.pid})` : ''}: left alone`;
  return `held by the service on port ${holder.port} (pid ${holder.pid}): it checked it at its start (GET /health/ready answers for it)`;
}

/** A client that gives up at once: doctor reports an unreachable Redis rather than waiting on it. */
async function openRedis(config: AppConfig): Promise<Redis | null> {
  const client = await createRedisClient(config, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
    enableOfflineQueue: false,
  });
  if (!client) return null;
  client.on('error', () => undefined); // reported by the check, not as an unhandled event
  await client.connect().catch(() => undefined);
  return client;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`doctor could not run: ${safeMessage(error)}\n`);
    process.exit(1);
  },
);
