import 'reflect-metadata';
import { setPriority } from 'node:os';
import { loadConfig } from '../config/app-config';
import { existingEncryptionKey } from '../core/crypto/encryption-key';
import { parseCommandLine, UsageError } from '../backup/command-line';
import { openToolDatabase } from '../backup/tool-database';
import { writeBackup } from '../backup/write-backup';
import { DataDirInUseError } from '../database/data-dir-lock';
import { sqlOn } from '../database/sql';

/** A nice value: below the service's own (0), as `nice` would start it. */
const BACKGROUND_PRIORITY = 10;

const USAGE = 'usage: npm run backup -- FILE [--without-logs] [--passphrase-file F [--include-key]]';

/**
 * `npm run backup -- FILE` (decisions §24): one archive of the configured database. PostgreSQL at
 * any time; the embedded database only while no service runs on it (a running one is backed up
 * through its API). Exit 0 written, 1 failed (no archive left), 2 wrong usage.
 */
async function main(args: string[]): Promise<number> {
  const line = parseCommandLine(args, ['--without-logs', '--include-key']);
  // Beside a running service on the same cores, the backup's packing and digests yield to its logins.
  setPriority(BACKGROUND_PRIORITY);
  if (line.flags.has('--include-key') && !line.passphrase)
    throw new UsageError('--include-key needs --passphrase-file: the key never goes into an archive in clear');
  const config = loadConfig(process.env);
  let database;
  try {
    database = await openToolDatabase(config, false);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const where = error.holder?.port === undefined ? '' : ` on port ${error.holder.port}`;
    throw new Error(
      `${error.message}\nA running service${where} is backed up through its API: POST /admin/v1/platform/backups, or the console's Backups page (platform admin).`,
    );
  }
  const runner = database.dataSource.createQueryRunner();
  // PostgreSQL may have a service writing meanwhile: a second session reads the log after the snapshot.
  const beside = database.embedded ? undefined : database.dataSource.createQueryRunner();
  try {
    const result = await writeBackup(
      {
        sql: sqlOn(runner),
        besideSql: beside && sqlOn(beside),
        filesDir: config.filesDir,
        key: existingEncryptionKey(config),
      },
      line.file,
      {
        withoutLogs: line.flags.has('--without-logs'),
        includeKey: line.flags.has('--include-key'),
        passphrase: line.passphrase,
      },
    );
    const rows = Object.values(result.tables).reduce((sum, count) => sum + count, 0);
    process.stdout.write(
      `backup written: ${result.file}\n  ${result.bytes} bytes, sha256 ${result.sha256}\n  schema ${result.schema}, ` +
        `${Object.keys(result.tables).length} tables, ${rows} rows, taken at ${result.created_at}\n`,
    );
    return 0;
  } finally {
    await runner.release();
    await beside?.release();
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(`backup: ${(error as Error).message}\n${usage ? `${USAGE}\n` : ''}`);
    process.exit(usage ? 2 : 1);
  },
);
