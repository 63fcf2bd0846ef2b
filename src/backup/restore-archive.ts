import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { encryptionKeyFile, existingEncryptionKey } from '../core/crypto/encryption-key';
import { SecretBox } from '../core/crypto/secret-box';
import { runMigrations } from '../database/migrate';
import { readManifestText, unpackArchive, verifyEntries } from './archive-file';
import {
  ArchiveManifest,
  ArchiveRefused,
  FILES_FOLDER,
  KEY_ENTRY,
  keyCheck,
  LOG_TABLES,
  parseManifest,
} from './archive-manifest';
import { holdsProjects, migrationName, restoreRows } from './restore-rows';
import { assertDataDirFree, openToolDatabase } from './tool-database';

export interface RestoreOptions {
  /** Replaces a database that already holds projects. */
  force?: boolean;
  passphrase?: string;
}

export interface RestoreReport {
  manifest: ArchiveManifest;
  tables: Record<string, number>;
  /** Tables the archive left out (`--without-logs`): restored empty. */
  leftOut: string[];
  /** The migrations newer than the archive's schema, run after its rows went in. */
  migrated: string[];
  files: number;
}

/**
 * `npm run restore` (decisions §24): the archive is unpacked and every digest checked before
 * anything is written; a database holding projects is refused unless `force`; the rows go in in one
 * transaction; then the newer migrations run and the files are put back. Refusals throw
 * ArchiveRefused; a held data directory throws DataDirInUseError.
 */
export async function restoreArchive(config: AppConfig, file: string, options: RestoreOptions = {}): Promise<RestoreReport> {
  await assertDataDirFree(config);
  const work = await mkdtemp(join(tmpdir(), 'ck-restore-'));
  try {
    const unpacked = join(work, 'archive');
    await mkdir(unpacked);
    await unpackArchive(file, unpacked, options.passphrase);
    const manifest = parseManifest(await readManifestText(unpacked), MIGRATIONS.map(migrationName));
    await verifyEntries(unpacked, manifest.sha256);
    const keyToWrite = await checkEncryptionKey(config, manifest, unpacked);

    const database = await openToolDatabase(config, true);
    let tables: Record<string, number>;
    let migrated: string[];
    try {
      const runner = database.dataSource.createQueryRunner();
      try {
        if (!options.force && (await holdsProjects(runner)))
          throw new ArchiveRefused(
            'the database already holds projects: restore into an empty one, or give --force to replace everything in it',
          );
        ({ tables } = await restoreRows(runner, unpacked, manifest, MIGRATIONS));
      } finally {
        await runner.release();
      }
      migrated = await runMigrations(database.dataSource, !database.embedded);
    } finally {
      await database.close();
    }
    const files = await putFilesBack(join(unpacked, FILES_FOLDER), config.filesDir);
    if (keyToWrite) {
      await mkdir(dirname(encryptionKeyFile(config)), { recursive: true });
      await writeFile(encryptionKeyFile(config), keyToWrite.toString('hex') + '\n', { mode: 0o600 });
    }
    return { manifest, tables, leftOut: manifest.without_logs ? LOG_TABLES : [], migrated, files };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The secrets in the rows are stored under the key the archive was made with: the service restored
 * into must have the same one. Returns the archive's own key when it carries one and this service
 * has none yet (it is then written where the embedded default keeps it).
 */
async function checkEncryptionKey(config: AppConfig, manifest: ArchiveManifest, unpacked: string): Promise<Buffer | null> {
  if (!manifest.key_check) return null;
  const carried = manifest.sha256[KEY_ENTRY]
    ? SecretBox.parseKey((await readFile(join(unpacked, KEY_ENTRY), 'utf8')).trim())
    : null;
  const configured = existingEncryptionKey(config);
  if (configured) {
    if (keyCheck(configured) === manifest.key_check) return null;
    throw new ArchiveRefused(
      `the archive's secrets are encrypted under another key than this service's (${config.APP_ENCRYPTION_KEY ? 'APP_ENCRYPTION_KEY' : encryptionKeyFile(config)}): ` +
        'set APP_ENCRYPTION_KEY to the key of the service the archive was made on' +
        (carried && !config.APP_ENCRYPTION_KEY ? `, or remove ${encryptionKeyFile(config)} to take the archive's own` : ''),
    );
  }
  if (carried && keyCheck(carried) === manifest.key_check) return carried;
  throw new ArchiveRefused(
    `the archive's secrets need the encryption key of the service it was made on: set APP_ENCRYPTION_KEY to it, or copy that service's encryption.key into ${config.DATA_DIR}`,
  );
}

/** The uploaded files as the archive has them, instead of what the target had. */
async function putFilesBack(from: string, to: string): Promise<number> {
  await rm(to, { recursive: true, force: true });
  if (!existsSync(from)) return 0;
  await mkdir(dirname(to), { recursive: true });
  await cp(from, to, { recursive: true });
  return (await readdir(to, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
}
