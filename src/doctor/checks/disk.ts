import { AppConfig } from '../../config/app-config';
import { directoryTakesWrite, freeMiB } from '../../core/health/readiness';
import { fail, Finding, ok, safeMessage, warn, withTimeout } from './finding';

/** How long one directory's write probe (and its free-space look-up) may take before it counts as failed. */
export const DISK_PROBE_TIMEOUT_MS = 10_000;

export interface DiskProbe {
  takesWrite(dir: string): Promise<void>;
  freeMiB(dir: string): Promise<number>;
  timeoutMs: number;
}

const PROBE: DiskProbe = { takesWrite: directoryTakesWrite, freeMiB, timeoutMs: DISK_PROBE_TIMEOUT_MS };

/**
 * The data directory (and the files directory) take a flushed write and have READY_MIN_FREE_MB free:
 * readiness's own test, each step bounded by a timeout, so a file system that never answers (a hung
 * network mount, a kernel file system where mkdir never settles) is a finding, not a doctor that hangs.
 */
export async function checkDisk(config: AppConfig, probe: Partial<DiskProbe> = {}): Promise<Finding[]> {
  const { takesWrite, freeMiB: free, timeoutMs } = { ...PROBE, ...probe };
  const seconds = `${timeoutMs / 1000} s`;
  const findings: Finding[] = [];
  for (const dir of new Set([config.DATA_DIR, config.filesDir])) {
    try {
      await withTimeout(takesWrite(dir), timeoutMs, `no answer within ${seconds}`);
    } catch (error) {
      findings.push(
        fail('disk', `${dir} takes no write: ${safeMessage(error)}`, `make ${dir} a writable directory of the service's user`),
      );
      continue;
    }
    const freeSpace = await withTimeout(free(dir), timeoutMs, `the free space under ${dir}: no answer within ${seconds}`);
    if (freeSpace < config.READY_MIN_FREE_MB) {
      findings.push(
        fail(
          'disk',
          `${Math.floor(freeSpace)} MiB free under ${dir}, below READY_MIN_FREE_MB (${config.READY_MIN_FREE_MB})`,
          'free space or grow the volume: a full disk fails every login',
        ),
      );
    } else if (freeSpace < config.READY_MIN_FREE_MB * 4) {
      findings.push(
        warn(
          'disk',
          `${Math.floor(freeSpace)} MiB free under ${dir}`,
          'free space or grow the volume before it falls below READY_MIN_FREE_MB',
        ),
      );
    }
  }
  return findings.length
    ? findings
    : [ok('disk', `${[...new Set([config.DATA_DIR, config.filesDir])].join(' and ')} writable, enough free space`)];
}
