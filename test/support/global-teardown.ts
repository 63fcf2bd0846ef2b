import { dropDatabase, PG_TEMPLATE_ENV, withPg } from './stores';

/**
 * With DATABASE_URL, drops the run's template database and every database of the run that is left
 * (a worker that died). The embedded template stays for the next run (global-setup.ts).
 */
export default async function globalTeardown(): Promise<void> {
  const template = process.env[PG_TEMPLATE_ENV];
  const databaseUrl = process.env.DATABASE_URL;
  if (!template || !databaseUrl) return;
  const rows = await withPg(databaseUrl, (client): Promise<Array<{ datname: string }>> =>
    client.query('SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $2)', [template, `${template}_`]),
  );
  for (const { datname } of rows) await dropDatabase(databaseUrl, datname);
}
