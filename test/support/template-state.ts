/**
 * What a migrated template database holds besides its schema (seeded rows, sequence positions) and
 * a fingerprint of the schema, so that a test database can be emptied back to the template instead
 * of being made again (embedded-pool.ts, postgres-pool.ts). A database whose schema a test changed
 * does not match the fingerprint and is made again instead.
 */
export type Sql = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface TemplateState {
  fingerprint: string;
  /** The statements that put the template's rows and sequences back, in one transaction. */
  reset: Array<{ sql: string; params?: unknown[] }>;
}

export async function readTemplate(query: Sql): Promise<TemplateState> {
  const tables = (
    await query<{ name: string }>(
      `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    )
  ).map((row) => row.name);
  // Triggers that refuse TRUNCATE (admin_audit is append-only) are off for the reset only, inside
  // its transaction: left on, every database given back failed its reset and was made afresh.
  const truncateGuards = (
    await query<{ statement: string }>(
      `SELECT format('ALTER TABLE %s %%s TRIGGER %I', tgrelid::regclass, tgname) AS statement FROM pg_trigger
        WHERE NOT tgisinternal AND tgenabled <> 'D' AND tgtype & 32 <> 0 ORDER BY 1`,
    )
  ).map((row) => row.statement);
  const reset: TemplateState['reset'] = truncateGuards.map((statement) => ({ sql: statement.replace('%s', 'DISABLE') }));
  if (tables.length) reset.push({ sql: `TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE` });
  reset.push(...truncateGuards.map((statement) => ({ sql: statement.replace('%s', 'ENABLE') })));
  for (const table of tables) {
    const [{ rows }] = await query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${table} t`);
    if (rows === null) continue;
    const columns = await query<{ name: string }>(
      `SELECT quote_ident(attname) AS name FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [table],
    );
    const list = columns.map((column) => column.name).join(', ');
    reset.push({
      sql: `INSERT INTO ${table} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      params: [rows],
    });
  }
  const sequences = await query<{ name: string; last_value: string | null }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text FROM pg_sequences WHERE schemaname = 'public'`,
  );
  for (const { name, last_value } of sequences) {
    reset.push({ sql: last_value === null ? `ALTER SEQUENCE ${name} RESTART` : `SELECT setval('${name}', ${last_value}, true)` });
  }
  return { fingerprint: await fingerprint(query), reset };
}

/** Everything a test could change besides rows: relations, columns, triggers, functions, schemas, roles, settings. */
export async function fingerprint(query: Sql): Promise<string> {
  const [{ digest }] = await query<{ digest: string }>(
    `SELECT md5(string_agg(x, ',' ORDER BY x)) AS digest FROM (
       SELECT 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       UNION ALL
       SELECT 'a:' || a.attrelid::regclass || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull || ':' ||
              coalesce(pg_get_expr(d.adbin, d.adrelid), '')
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
       UNION ALL SELECT 't:' || tgrelid::regclass || '.' || tgname || ':' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
       UNION ALL SELECT 'p:' || p.oid::regprocedure || ':' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
       UNION ALL SELECT 'n:' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%temp\\_%'
       UNION ALL SELECT 'r:' || rolname FROM pg_roles
       UNION ALL SELECT 's:' || (setdatabase = 0)::text || ':' || setrole || ':' || array_to_string(setconfig, ';') FROM pg_db_role_setting
        WHERE setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
     ) s(x)`,
  );
  return digest;
}
