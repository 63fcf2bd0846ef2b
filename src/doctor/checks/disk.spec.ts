import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/app-config';
import { checkDisk } from './disk';

describe('checkDisk', () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ck-disk-'));
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fails a directory whose write probe never settles, after its timeout, instead of hanging', async () => {
    const config = loadConfig({ DATA_DIR: scratch });
    const started = Date.now();
    const findings = await checkDisk(config, { takesWrite: () => new Promise<void>(() => undefined), timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(findings).toEqual([
      expect.objectContaining({ check: 'disk', severity: 'fail', message: `${scratch} takes no write: no answer within 0.05 s` }),
      expect.objectContaining({
        check: 'disk',
        severity: 'fail',
        message: `${join(scratch, 'files')} takes no write: no answer within 0.05 s`,
      }),
    ]);
  });

  it('passes a writable directory with room', async () => {
    expect(await checkDisk(loadConfig({ DATA_DIR: scratch }))).toEqual([expect.objectContaining({ severity: 'ok' })]);
  });
});
