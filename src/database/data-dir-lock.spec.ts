import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

const ROOT = join(__dirname, '..', '..');

describe('the data directory lock', () => {
  let scratch: string;
  let dataDir: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ck-lock-'));
    dataDir = realpathSync(mkdtempSync(join(scratch, 'data-')));
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('the second take was not refused');
      },
      (error: unknown) => error as DataDirInUseError,
    );

  it('refuses a second take while held, naming the holder, and is free again once released', async () => {
    const lock = await lockDataDir(dataDir, 3000);
    const error = await refusal(lockDataDir(dataDir, 3001));
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect(error.holder).toEqual({ pid: process.pid, port: 3000 });
    expect(error.message).toBe(
      `the data directory ${dataDir} is in use by another process (pid ${process.pid}, port 3000): stop it first, or give this one another DATA_DIR`,
    );
    await lock.release();
    await (await lockDataDir(dataDir, 3001)).release();
  });

  it('holds the directory by its real path, whatever name reaches it', async () => {
    const alias = join(scratch, 'alias');
    symlinkSync(dataDir, alias);
    const lock = await lockDataDir(dataDir);
    try {
      const error = await refusal(lockDataDir(alias, 3000));
      expect(error.holder).toEqual({ pid: process.pid });
      expect(error.message).toContain(`the data directory ${dataDir} is in use by another process (pid ${process.pid}):`);
    } finally {
      await lock.release();
    }
  });

  it('is freed by its holder’s death (SIGKILL: no clean-up ran)', async () => {
    const holder = spawn(
      process.execPath,
      [
        '-r',
        join(ROOT, 'test/support/swc-register.cjs'),
        '-e',
        `require(${JSON.stringify(join(__dirname, 'data-dir-lock.ts'))})
          .lockDataDir(${JSON.stringify(dataDir)}, 4000)
          .then(() => { process.stdout.write('locked\\n'); setInterval(() => undefined, 1000); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(holder, 'exit');
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        void exited.then(() => reject(new Error('the holder exited before it took the lock')));
      });
      expect((await refusal(lockDataDir(dataDir))).holder).toEqual({ pid: holder.pid, port: 4000 });
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
    await (await lockDataDir(dataDir)).release();
  });
});
