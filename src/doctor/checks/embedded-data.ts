import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { Finding, ok, warn } from './finding';

/**
 * With DATABASE_URL the service reads and writes that PostgreSQL only: an embedded database left in
 * DATA_DIR/pgdata (cards made before DATABASE_URL was set) is not used, and looks lost to its author.
 */
export function checkEmbeddedData(config: AppConfig): Finding[] {
  const pgdata = resolve(config.DATA_DIR, 'pgdata');
  if (!holdsFiles(pgdata)) return [ok('embedded data', `none in ${pgdata}`)];
  return [
    warn(
      'embedded data',
      `DATABASE_URL is set, but ${pgdata} holds an embedded database: its data is not used`,
      'move it to PostgreSQL (docs/operations.md, "Moving off the embedded database"), or unset DATABASE_URL to serve it',
    ),
  ];
}

function holdsFiles(directory: string): boolean {
  try {
    return readdirSync(directory).length > 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}
