import 'reflect-metadata';
import { loadConfig } from '../config/app-config';
import { parseCommandLine, UsageError } from '../backup/command-line';
import { restoreArchive } from '../backup/restore-archive';

const USAGE = 'usage: npm run restore -- FILE [--force] [--passphrase-file F]';

/**
 * `npm run restore -- FILE` (decisions §24), with the service stopped: into DATABASE_URL, or the
 * embedded database in DATA_DIR. Exit 0 restored, 1 refused or failed (nothing written), 2 wrong usage.
 */
async function main(args: string[]): Promise<number> {
  const line = parseCommandLine(args, ['--force']);
  const config = loadConfig(process.env);
  const report = await restoreArchive(config, line.file, { force: line.flags.has('--force'), passphrase: line.passphrase });
  const width = Math.max(...[...Object.keys(report.tables), ...report.leftOut].map((table) => table.length));
  const lines = [
    `restored ${line.file} (schema ${report.manifest.schema}, taken at ${report.manifest.created_at})`,
    ...Object.entries(report.tables).map(([table, rows]) => `  ${table.padEnd(width)}  ${rows}`),
    ...report.leftOut.map((table) => `  ${table.padEnd(width)}  left out of the archive (--without-logs): empty`),
    `  files: ${report.files}`,
    report.migrated.length ? `then migrated: ${report.migrated.join(', ')}` : 'no newer migration to run',
  ];
  process.stdout.write(lines.map((text) => `${text}\n`).join(''));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(`restore: ${(error as Error).message}\n${usage ? `${USAGE}\n` : ''}`);
    process.exit(usage ? 2 : 1);
  },
);
