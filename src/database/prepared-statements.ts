import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';

/**
 * A hot statement that PostgreSQL parses and plans once per connection instead of on every call.
 * Its result columns are listed, never `*`: a plan whose result type changed (a column added by a
 * migration while this instance runs) would fail instead of being re-planned.
 */
export interface PreparedStatement {
  /** Unique per text: a connection keeps the first text it prepared under a name. */
  readonly name: string;
  readonly text: string;
}

interface PgPool {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * Runs prepared statements on TypeORM's own `pg` pool (TypeORM's `query()` only sends unnamed
 * statements). Each runs as one auto-committed statement, outside any transaction. Measured on the
 * repeat card login: PostgreSQL's CPU per login fell from 0.50 to 0.22 ms (docs/performance-history.md).
 *
 * Not on the embedded database: PGlite is one session that outlives the socket connections to it,
 * so a statement prepared by a connection the pool has since closed still exists there, and the
 * next connection's attempt to prepare it again fails. There they run unnamed, as any query.
 */
@Injectable()
export class PreparedStatements {
  private readonly named: boolean;

  constructor(
    private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.named = !config.usesEmbeddedDatabase && config.DATABASE_PREPARED_STATEMENTS === 'true';
  }

  async rows(statement: PreparedStatement, values: unknown[]): Promise<Record<string, unknown>[]> {
    const pool = (this.dataSource.driver as unknown as { master: PgPool }).master;
    // Raw: the pool's named prepared statements, below TypeORM on purpose.
    const result = await pool.query(
      this.named ? { name: statement.name, text: statement.text, values } : { text: statement.text, values },
    );
    return result.rows;
  }
}
