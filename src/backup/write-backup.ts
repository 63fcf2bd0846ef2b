import { mkdtemp, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileDigest, packArchive } from './archive-file';
import { BackupOptions, BackupResult } from './backup-result';
import { SnapshotSource, writeSnapshot } from './snapshot-export';

/**
 * Writes one archive of the database `source` reads (decisions §24) to `file`: the snapshot's
 * entries in a work folder beside it (same disk, so no second copy crosses devices), then packed,
 * optionally encrypted, and renamed into place. Nothing is left behind on failure.
 */
export async function writeBackup(source: SnapshotSource, file: string, options: BackupOptions = {}): Promise<BackupResult> {
  if (options.includeKey && !options.passphrase)
    throw new Error('the encryption key goes into an archive only when a passphrase encrypts it');
  const target = resolve(file);
  const work = await mkdtemp(join(dirname(target), `.${basename(target)}.work-`));
  try {
    const manifest = await writeSnapshot(source, work, options);
    await packArchive(work, target, options.passphrase);
    return {
      file: target,
      bytes: (await stat(target)).size,
      sha256: await fileDigest(target),
      created_at: manifest.created_at,
      schema: manifest.schema,
      tables: manifest.tables,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
