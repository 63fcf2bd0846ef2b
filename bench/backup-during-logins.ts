// The scale mode's backup step (decisions §24): what a backup of the grown database costs the logins
// running beside it, and how long the backup and a restore of it take. The backup is the command an
// operator runs (`npm run backup`, PostgreSQL at any time) against the database the grown service
// serves; the bound-device login runs before, during and after it, and the p99 during it is compared
// with the p99 of the slices around it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import { mergeSlices, runFor } from './measure';
import type { Service } from './service-process';
import { ROOT, S } from './settings';
import type { Fixture, ScenarioResult } from './types';

export interface BackupCost {
  without: ScenarioResult;
  during: ScenarioResult;
  backupSeconds: number;
  archiveBytes: number;
  restoreSeconds: number;
  rows: number;
}

const SCENARIO = 'bound' as const;

/** Runs one of the service's commands (dist/src/cli) to its end; rejects with its output unless it exits 0. */
function command(name: 'backup' | 'restore', args: string[], env: Record<string, string>): { done: Promise<string> } {
  const child = spawn(process.execPath, [path.join(ROOT, `dist/src/cli/${name}.js`), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<string>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`npm run ${name} exited ${code}: ${output}`)))),
  );
  return { done };
}

export async function measureBackupDuringLogins(
  grown: Service,
  grownEnv: Record<string, string>,
  fixture: Fixture,
  server: Client,
  scratchUrl: (name: string) => string,
  tag: string,
  log: (line: string) => void,
): Promise<BackupCost> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
  const archive = path.join(work, 'grown.tar.gz');
  const half = S.duration / 2;
  const restored = `cardkey_scale_${tag}_restored`;
  try {
    const before = await runFor(grown, SCENARIO, fixture, `${tag}-backup-before`, half);
    const started = Date.now();
    const backup = command('backup', [archive], grownEnv);
    let running = true;
    const finished = backup.done.finally(() => (running = false));
    const during: ScenarioResult[] = [];
    // Slices until the backup ends (at least one), each measured wholly while it ran or dropped.
    while (running) {
      const slice = await runFor(grown, SCENARIO, fixture, `${tag}-backup-during-${during.length}`, half, 0);
      if (running || during.length === 0) during.push(slice);
    }
    const output = await finished;
    const backupSeconds = (Date.now() - started) / 1000;
    const after = await runFor(grown, SCENARIO, fixture, `${tag}-backup-after`, half);
    const rows = Number(/(\d+) rows/.exec(output)?.[1] ?? 0);
    log(`backup of the grown database: ${backupSeconds.toFixed(0)} s, ${statSync(archive).size} bytes, ${rows} rows`);

    await server.query(`CREATE DATABASE ${restored}`);
    const restoreStarted = Date.now();
    await command('restore', [archive], { ...grownEnv, DATABASE_URL: scratchUrl(restored) }).done;
    const restoreSeconds = (Date.now() - restoreStarted) / 1000;
    log(`restore into an empty database: ${restoreSeconds.toFixed(0)} s`);
    return {
      without: mergeSlices([before, after]),
      during: mergeSlices(during),
      backupSeconds,
      archiveBytes: statSync(archive).size,
      restoreSeconds,
      rows,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
    await server.query(`DROP DATABASE IF EXISTS ${restored} WITH (FORCE)`).catch(() => undefined);
  }
}
