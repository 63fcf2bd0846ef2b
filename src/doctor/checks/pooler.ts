import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import { Finding, ok, warn } from './finding';

/**
 * Whether DATABASE_URL reaches PostgreSQL through a pooler: the server's own port differs from the
 * URL's. Behind one, named prepared statements need PgBouncer 1.21+ (`max_prepared_statements`) or
 * session mode; below that, in transaction mode, they fail as soon as a client lands on another
 * server connection (decisions §25: `DATABASE_PREPARED_STATEMENTS=false`).
 */
export async function checkPooler(dataSource: DataSource, config: AppConfig): Promise<Finding[]> {
  // Raw: a PostgreSQL function; null over a Unix socket.
  const [{ port }] = (await dataSource.query('SELECT inet_server_port() AS port')) as Array<{ port: number | null }>;
  const urlPort = Number(new URL(config.DATABASE_URL!).port || 5432);
  if (port === null || Number(port) === urlPort) return [ok('pooler', `none: DATABASE_URL reaches PostgreSQL directly`)];
  const through = `DATABASE_URL (port ${urlPort}) reaches PostgreSQL (port ${port}) through a pooler`;
  if (config.DATABASE_PREPARED_STATEMENTS === 'true')
    return [
      warn(
        'pooler',
        `${through}, with named prepared statements on`,
        'set DATABASE_PREPARED_STATEMENTS=false, unless the pooler keeps them (PgBouncer 1.21+ with max_prepared_statements, or session mode)',
      ),
    ];
  return [ok('pooler', `${through}; prepared statements off`)];
}
