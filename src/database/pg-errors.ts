/** PostgreSQL SQLSTATE 23505: a unique constraint refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.code === '23505' || e?.driverError?.code === '23505';
}

/** SQLSTATE 23503: a foreign key refused the change. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.code === '23503' || e?.driverError?.code === '23503';
}

/** SQLSTATE 40P01: PostgreSQL broke a deadlock by failing this statement, which changed nothing. */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.code === '40P01' || e?.driverError?.code === '40P01';
}
