import type { DataSource } from 'typeorm';
import { databaseTakesWrite } from '../../core/health/readiness';
import { fail, Finding, ok, safeMessage, warn } from './finding';

/** Reachable, writable (not a standby or read-only), and every migration of this code applied. */
export async function checkDatabase(dataSource: DataSource): Promise<Finding[]> {
  try {
    await databaseTakesWrite(dataSource);
  } catch (error) {
    return [
      fail(
        'database',
        `cannot write: ${safeMessage(error)}`,
        'check DATABASE_URL (host, port, user, database) and that PostgreSQL runs and is the primary',
      ),
    ];
  }
  const findings = [ok('database', 'reachable and takes writes')];
  // TypeORM's migrations table has no entity (read by name), and a database made before any start has none at all.
  const names: Array<{ name: string }> = await dataSource
    .createQueryBuilder()
    .select('m.name', 'name')
    .from('migrations', 'm')
    .getRawMany()
    .catch(() => []);
  const applied = new Set(names.map((row) => row.name));
  const known = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const pending = known.filter((name) => !applied.has(name));
  const unknown = [...applied].filter((name) => !known.includes(name));
  if (pending.length) {
    findings.push(
      warn(
        'migrations',
        `${pending.length} of ${known.length} not applied (first: ${pending[0]})`,
        'start the service: it applies them under a lock before it listens, and stops saying why if one cannot run',
      ),
    );
  } else {
    findings.push(ok('migrations', `all ${known.length} applied`));
  }
  if (unknown.length) {
    findings.push(
      warn(
        'migrations',
        `the database has ${unknown.length} migration(s) this code does not know (first: ${unknown[0]})`,
        'run the release that applied them, or restore the database made for this one',
      ),
    );
  }
  return findings;
}
