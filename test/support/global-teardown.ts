import { PG_TEMPLATE_ENV, quoteIdent, withPg } from './stores';

/**
 * With DATABASE_URL, drops the run's template database and every database of the run that is left
 * (a worker that died). The embedded template stays for the next run (global-setup.ts).
 */
export default async function globalTeardown(): Promise<void> {
  const template = process.env[PG_TEMPLATE_ENV];
  const databaseUrl = process.env.DATABASE_URL;
  if (!template || !databaseUrl) return;
  await withPg(databaseUrl, async (client) => {
    const rows: Array<{ datname: string }> = await client.query(
      'SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $2)',
      [template, `${template}_`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
  });
}
