/** The doctor's checks, one file each; `instanceChecks` runs those a started instance can run on itself. */
export { checkAddress } from './address';
export { CLOCK_FAIL_MS, CLOCK_WARN_MS, checkClock } from './clock';
export { checkConfiguration } from './configuration';
export { checkDatabase } from './database';
export { checkDisk } from './disk';
export { checkEmbeddedData } from './embedded-data';
export { checkEncryptionKey, readEncryptionKey } from './encryption-key';
export { checkPooler } from './pooler';
export { checkReplica } from './replica';
export type { CheckName, Finding, Queryable, Severity } from './finding';
export { formatFindings, safeMessage, START_BLOCKERS } from './finding';
export { instanceChecks } from './instance-checks';
export { checkMail } from './mail';
export { checkRedis } from './redis';
export { checkSentinels } from './sentinel';
export { checkSigningKeys } from './signing-keys';
export { checkTimeZone, hostTimeZone } from './time-zone';
export { checkTls } from './tls';
