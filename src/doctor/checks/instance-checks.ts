import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { SecretBox } from '../../core/crypto/secret-box';
import { checkAddress } from './address';
import { checkClock } from './clock';
import { checkDatabase } from './database';
import { checkPooler } from './pooler';
import { checkPublicUrl } from './public-url';
import { checkReplica } from './replica';
import { checkDisk } from './disk';
import { checkEmbeddedData } from './embedded-data';
import { checkEncryptionKey } from './encryption-key';
import { checkMail } from './mail';
import { CheckName, fail, Finding, safeMessage } from './finding';
import { checkRedis } from './redis';
import { checkSentinels } from './sentinel';
import { checkSigningKeys } from './signing-keys';
import { checkTimeZone } from './time-zone';
import { checkTls } from './tls';

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
  if (!config.usesEmbeddedDatabase) await guarded('embedded data', () => checkEmbeddedData(config));
  await guarded('redis', () => checkRedis(redis));
  if (config.REDIS_SENTINELS) await guarded('sentinel', () => checkSentinels(config));
  await guarded('encryption key', () => checkEncryptionKey(box, parts.keyFinding ?? null));
  if (dataSource && databaseUp && box) await guarded('signing keys', () => checkSigningKeys(dataSource.manager, box));
  if (dataSource && databaseUp && !config.usesEmbeddedDatabase) await guarded('clock', () => checkClock(dataSource));
  if (dataSource && databaseUp && !config.usesEmbeddedDatabase) await guarded('pooler', () => checkPooler(dataSource, config));
  if (config.DATABASE_READ_URL) await guarded('replica', () => checkReplica(config));
  await guarded('time zone', () => checkTimeZone(config, env));
  await guarded('address', () => checkAddress(config, env));
  await guarded('public url', () => checkPublicUrl(config, env, dataSource && databaseUp ? dataSource : null));
  await guarded('tls', () => checkTls(config, env));
  await guarded('disk', () => checkDisk(config));
  await guarded('mail', () => checkMail(config));
  return findings;
}
