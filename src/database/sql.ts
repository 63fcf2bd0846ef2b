import type { QueryRunner } from 'typeorm';

/**
 * One statement run and its rows, for code handed statements to run without knowing where: the
 * backup (on a query runner, or on a copy of the embedded database) and the log maintenance (on the
 * runner that holds its lock).
 */
export type Sql = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The statements of a TypeORM query runner (or data source, or entity manager) as an Sql. */
export function sqlOn(runner: Pick<QueryRunner, 'query'>): Sql {
  return (text, params) => runner.query(text, params) as Promise<Array<Record<string, unknown>>>;
}
