import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { existingEncryptionKey } from '../core/crypto/encryption-key';
import { JsonLogger } from '../core/logging/json-logger';
import { BeforeMigrating } from '../database/migrate';
import { backupFileName } from './backup-file-name';
import { BackupResult } from './backup-result';
import { holdsProjects } from './restore-rows';
import { writeBackup } from './write-backup';
import { sqlOn } from '../database/sql';

/** Beside an archive taken before the migrations: what its row will say, once the `backups` table surely exists. */
export const UPGRADE_NOTE_SUFFIX = '.upgrade.json';

export interface UpgradeNote extends BackupResult {
  id: string;
}

/**
 * The start's backup before it migrates a database that holds projects (BACKUP_BEFORE_UPGRADE):
 * restoring it with the previous release is the way back. It runs under the migrations' lock, so one
 * instance of a deployment takes it; a backup that fails stops the start before any migration runs.
 * The archive's row is written after the migrations (UpgradeBackupNotes): the table may be one of them.
 */
export function backupBeforeUpgrade(config: AppConfig, logger: JsonLogger): BeforeMigrating | undefined {
  if (config.BACKUP_BEFORE_UPGRADE === 'false') return undefined;
  return async (dataSource: DataSource) => {
    const runner = dataSource.createQueryRunner('master');
    try {
      if (!(await holdsProjects(runner))) return;
      const id = randomUUID();
      await mkdir(config.backupDir, { recursive: true });
      const file = join(config.backupDir, backupFileName(id, 'upgrade', new Date()));
      const made = await writeBackup({ sql: sqlOn(runner), filesDir: config.filesDir, key: existingEncryptionKey(config) }, file);
      await writeFile(`${file}${UPGRADE_NOTE_SUFFIX}`, JSON.stringify({ id, ...made } satisfies UpgradeNote));
      logger.entry('info', 'backup taken before the migrations', { file: made.file, bytes: made.bytes, schema: made.schema });
    } finally {
      await runner.release();
    }
  };
}
