import { AppConfig } from '../../config/app-config';
import { directoryTakesWrite, freeMiB } from '../../core/health/readiness';
import { fail, Finding, ok, safeMessage, warn } from './finding';

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
