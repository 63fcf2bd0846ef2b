import cluster from 'node:cluster';
import type { INestApplication } from '@nestjs/common';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { SecretBox } from '../core/crypto/secret-box';
import { JsonLogger } from '../core/logging/json-logger';
import { REDIS_CLIENT } from '../core/store/store.providers';
import { Finding, formatFindings, instanceChecks, START_BLOCKERS } from './checks';

/** The doctor's checks on the app just built (migrations already ran), before it listens. */
export async function startFindings(
  app: INestApplication,
  config: AppConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Finding[]> {
  return instanceChecks({
    config,
    env,
    dataSource: app.get(DataSource),
    redis: app.get<typeof REDIS_CLIENT, Redis | null>(REDIS_CLIENT),
    box: app.get(SecretBox),
  });
}

/** The findings that make the start refuse to serve. */
export function startBlockers(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => finding.severity === 'fail' && START_BLOCKERS.has(finding.check));
}

/**
 * At start: refuses to serve (exit status 1) when answers would be wrong (an encryption key that
 * opens no stored secret, a signing key that fails its self test), and prints whatever else the
 * doctor finds as one block of warnings. Workers of a cluster each check; only the first prints
 * warnings, so the block appears once.
 */
export async function checkAtStart(app: INestApplication, config: AppConfig, logger: JsonLogger): Promise<void> {
  const findings = await startFindings(app, config);
  const blockers = startBlockers(findings);
  const problems = findings.filter((finding) => finding.severity !== 'ok');
  const first = !cluster.isWorker || cluster.worker?.id === 1;
  if (blockers.length || (problems.length && first)) {
    const level = blockers.length ? 'error' : 'warn';
    logger.entry(
      level,
      blockers.length
        ? 'start refused: answers would be wrong (npm run doctor)'
        : `start checks: ${problems.length} to look at (npm run doctor)`,
    );
    for (const line of formatFindings(problems)) logger.entry(level, line);
  }
  if (!blockers.length) return;
  await app.close().catch(() => undefined);
  process.exit(1);
}
