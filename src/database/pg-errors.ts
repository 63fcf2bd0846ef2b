/** Whether a PostgreSQL error has this SQLSTATE, as the driver gives it or as TypeORM wraps it. */
function hasSqlState(error: unknown, state: string): boolean {
  const e = error as { code?: string; driverError?: { code?: string } } | undefined;
  return e?.code === state || e?.driverError?.code === state;
}

/** PostgreSQL SQLSTATE 23505: a unique constraint refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, '23505');
}

/** SQLSTATE 23503: a foreign key refused the change. */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, '23503');
}

/** SQLSTATE 40P01: PostgreSQL broke a deadlock by failing this statement, which changed nothing. */
export function isDeadlock(error: unknown): boolean {
  return hasSqlState(error, '40P01');
}

/** SQLSTATE 42P01: the table does not exist (a database no start has migrated yet). */
export function isUndefinedTable(error: unknown): boolean {
  return hasSqlState(error, '42P01');
}
