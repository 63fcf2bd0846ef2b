import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { lockDataDir } from '../database/data-dir-lock';
import { EmbeddedPostgres } from '../database/embedded-postgres';

/** The configured database, opened by a command-line tool with its migrations left as they are. */
export interface ToolDatabase {
  dataSource: DataSource;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL, or the embedded database in DATA_DIR, which this process then holds: a running
 * service on it makes `EmbeddedPostgres.start` throw DataDirInUseError, naming the service.
 * `create`: an embedded database not made yet is made (a restore's target), else refused.
 */
export async function openToolDatabase(config: AppConfig, create: boolean): Promise<ToolDatabase> {
  const options = {
    type: 'postgres' as const,
    migrations: MIGRATIONS,
    synchronize: false,
    installExtensions: false,
    logging: false,
    extra: { connectionTimeoutMillis: 10_000 },
  };
  if (config.DATABASE_URL) {
    const dataSource = await new DataSource({ ...options, url: config.DATABASE_URL, poolSize: 2 }).initialize();
    return { dataSource, embedded: false, close: () => dataSource.destroy() };
  }
  if (!create && !existsSync(join(config.DATA_DIR, 'pgdata')))
    throw new Error(`no embedded database in ${config.DATA_DIR} (set DATA_DIR, or DATABASE_URL for PostgreSQL)`);
  const embedded = new EmbeddedPostgres();
  const target = await embedded.start(config.DATA_DIR);
  try {
    const dataSource = await new DataSource({
      ...options,
      ...target,
      username: 'postgres',
      database: 'postgres',
      poolSize: 1,
    }).initialize();
    return {
      dataSource,
      embedded: true,
      close: async () => {
        await dataSource.destroy();
        await embedded.stop();
      },
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/**
 * Throws DataDirInUseError when a process holds the embedded database's directory: a restore says
 * so at once, before it reads the archive, rather than after.
 */
export async function assertDataDirFree(config: AppConfig): Promise<void> {
  if (config.DATABASE_URL || !existsSync(config.DATA_DIR)) return;
  await (await lockDataDir(config.DATA_DIR)).release();
}
