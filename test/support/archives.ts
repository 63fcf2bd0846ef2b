import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as tar from 'tar';
import { ROOT } from './service-process';

/** What a backup or restore command did: its exit code and what it printed. */
export interface CommandOutcome {
  code: number | null;
  output: string;
}

/** `npm run backup` or `npm run restore` from the sources (as the service processes run), with `env` only. */
export function runBackupCommand(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', join(ROOT, 'test/support/swc-register.cjs'), join(ROOT, `src/cli/${command}.ts`), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOG_LEVEL: 'warn', ...env },
        timeout: 120_000,
        maxBuffer: 8 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** An archive's entries, unpacked into a folder of their own (plain archives only). */
export async function unpackForTest(file: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ck-archive-'));
  await tar.x({ file, cwd: dir });
  return dir;
}

/**
 * Each table's rows as a sorted list of their JSON lines, and each file's content: two archives of
 * the same data compare equal whatever order the rows were read in.
 */
export async function archiveContents(
  file: string,
): Promise<{ tables: Record<string, string[]>; files: Record<string, string> }> {
  const dir = await unpackForTest(file);
  try {
    const tables: Record<string, string[]> = {};
    for (const name of readdirSync(join(dir, 'tables')))
      tables[name.replace(/\.jsonl(\.gz)?$/, '')] = tableText(join(dir, 'tables', name))
        .split('\n')
        .filter(Boolean)
        .sort();
    const files: Record<string, string> = {};
    const filesDir = join(dir, 'files');
    const entries = existsSync(filesDir) ? readdirSync(filesDir, { recursive: true, withFileTypes: true }) : []; // no uploads: no folder
    for (const entry of entries.filter((e) => e.isFile()))
      files[join(entry.parentPath, entry.name).slice(filesDir.length + 1)] = readFileSync(
        join(entry.parentPath, entry.name),
        'base64',
      );
    return { tables, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Repacks an unpacked archive after `change` edited it in place: an archive whose manifest no longer tells the truth. */
export async function repackedWith(file: string, target: string, change: (dir: string) => void): Promise<void> {
  const dir = await unpackForTest(file);
  try {
    change(dir);
    mkdirSync(join(target, '..'), { recursive: true });
    await tar.c({ gzip: true, file: target, cwd: dir }, readdirSync(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A table entry's text, gzip'd (as backups write them) or plain (as older archives hold them). */
export function tableText(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}
