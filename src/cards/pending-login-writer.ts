import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { StatementBatcher } from '../database/statement-batcher';
import { RefusalRow } from './refusal-log-writer';
import { cardFeaturesSql } from '../database/card-features-sql';
import { isDeadlock } from '../database/pg-errors';

/** Runs of a login statement before a deadlock is answered as the fault it is. */
const DEADLOCK_ATTEMPTS = 3;

/** One card login waiting for its statement: the card, the device, and its log row's fields. */
export interface PendingLogin {
  projectId: string;
  cardKey: string;
  machine: string;
  /** Cards with a seat limit are left to the locked path (CardLoginRequest.seated). */
  seated: boolean;
  /** The success log row it writes if admitted (the fields of a refusal's row, and the token's hash). */
  log: Omit<RefusalRow, 'projectId'> & { tokenHash: string };
}

/** The columns of the card a login answers with (`cardFromRow` reads them). */
export const CARD_COLUMNS = [
  'id',
  'project_id',
  'code',
  'kind',
  'uses_left',
  'concurrent_limit',
  'duration_seconds',
  'device_limit',
  'status',
  'activated_at',
  'expires_at',
  'use_count',
  'unbind_count',
  'last_login_at',
  'note',
  'batch_id',
  'card_type_id',
  'trial',
];

/** What a login statement answers for each request `hit` admits: its `ord`, CARD_COLUMNS and the type's features. */
export const HIT_ANSWERS = `SELECT ord, ${CARD_COLUMNS.join(', ')}, ${cardFeaturesSql('hit')} AS features FROM hit`;

/**
 * The pending logins of a statement as rows `req` (one per request, `ord` = its place), from the
 * twelve array parameters `pendingLoginValues` gives. A statement over them starts `WITH ${PENDING_LOGINS}, …`.
 */
export const PENDING_LOGINS = `req AS (
      SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
        $10::int[], $11::text[], $12::text[]) WITH ORDINALITY
        AS r(project_id, card_key, machine, seated, card_code, machine_code, ip, family, interface, result_code, request_id, token_hash, ord)
    )`;

/**
 * `locked`: the rows of `req` whose card `admits` the login (a condition on `c` and `req`), each
 * with its card's id as `card_id`, the cards locked first and in id order. Two statements under way
 * at once then take the cards they share in one order whatever plan each runs: an UPDATE … FROM
 * locks in the order its plan joins the rows, which a nested loop takes from `req` and a hash join
 * from the table's pages, and two statements with different plans could each hold the card the
 * other waits for (a deadlock PostgreSQL breaks only after a second, failing one of them). The
 * UPDATE that follows joins `locked` and re-checks `admits` on the row it then holds.
 */
export const lockedLogins = (admits: string) => `locked AS MATERIALIZED (
      SELECT req.*, c.id AS card_id FROM req JOIN cards c ON c.project_id = req.project_id AND c.code = req.card_key
      WHERE ${admits}
      ORDER BY c.id FOR NO KEY UPDATE OF c
    )`;

/** Writes the success log row of every request `hit` (with its `ord` and card `id`) answers. */
export const LOG_HITS = `INSERT INTO login_logs (project_id, card_id, card_code, machine_code, ip, family, interface, result_code, request_id, token_hash)
      SELECT r.project_id, hit.id, r.card_code, r.machine_code, r.ip, r.family, r.interface, r.result_code, r.request_id, r.token_hash
      FROM hit JOIN req r ON r.ord = hit.ord`;

export function pendingLoginValues(logins: PendingLogin[]): unknown[][] {
  const column = <T>(pick: (login: PendingLogin) => T): T[] => logins.map(pick);
  return [
    column((l) => l.projectId),
    column((l) => l.cardKey),
    column((l) => l.machine),
    column((l) => l.seated),
    column((l) => l.log.cardCode),
    column((l) => l.log.machineCode),
    column((l) => l.log.ip),
    column((l) => l.log.family),
    column((l) => l.log.interface),
    column((l) => l.log.resultCode),
    column((l) => l.log.requestId),
    column((l) => l.log.tokenHash),
  ];
}

/**
 * Group commit of a one-statement login path: the logins pending at the same time share one
 * prepared statement and one commit, each answered after it (statement-batcher.ts). Two logins of
 * one card never share a statement (an UPDATE … FROM changes a row once however many requests name
 * it), so each counts once. The statement returns HIT_ANSWERS for each request it admits.
 */
export abstract class PendingLoginWriter {
  private readonly batcher = new StatementBatcher<PendingLogin, Record<string, unknown> | null>({
    keyOf: (login) => `${login.projectId}\n${login.cardKey}`,
    run: async (logins) => {
      const rows = await this.rowsRetryingDeadlocks(pendingLoginValues(logins));
      const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
      return logins.map((_, index) => byOrd.get(index + 1) ?? null);
    },
  });

  protected constructor(
    private readonly statements: PreparedStatements,
    private readonly statement: PreparedStatement,
  ) {}

  /**
   * The statement's rows, run again when PostgreSQL broke a deadlock by failing it (a failed
   * statement changed nothing). Locking the cards in id order leaves one: two statements that both
   * wait for one card while a third holds it can each hold the tuple lock the other needs once the
   * first commits (READ COMMITTED's re-check of an updated row); about one run in ten of 50 racing
   * logins of one count card on two instances met it.
   */
  private async rowsRetryingDeadlocks(values: unknown[]): Promise<Record<string, unknown>[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.statements.rows(this.statement, values);
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
      }
    }
  }

  /** Runs the statement for no login: it matches nothing and writes nothing, but fails as a login would on a schema that lost its tables. */
  async probe(): Promise<void> {
    await this.statements.rows(this.statement, pendingLoginValues([]));
  }

  /** The card's row after the login, or null when this path does not admit it (the locked path decides). */
  write(login: PendingLogin): Promise<Record<string, unknown> | null> {
    return this.batcher.submit(login);
  }
}
