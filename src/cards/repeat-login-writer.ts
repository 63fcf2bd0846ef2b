import { Injectable } from '@nestjs/common';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { StatementBatcher } from '../database/statement-batcher';
import { cardSql } from './card-rule';

/** One repeat login waiting for its statement: the card, the device, and its log row's fields. */
export interface RepeatLogin {
  projectId: string;
  cardKey: string;
  machine: string;
  /** Cards with a seat limit are left to the locked path (CardLoginRequest.seated). */
  seated: boolean;
  log: {
    cardCode: string;
    machineCode: string;
    ip: string;
    family: string;
    interface: string;
    resultCode: number;
    requestId: string;
    tokenHash: string;
  };
}

/** The columns of the card a repeat login answers with (`cardFromRow` reads them). */
export const CARD_COLUMNS = [
  'id', 'project_id', 'code', 'kind', 'uses_left', 'concurrent_limit', 'duration_seconds', 'device_limit', 'status', 'activated_at', 'expires_at',
  'use_count', 'unbind_count', 'last_login_at', 'note', 'batch_id',
];

/**
 * Every pending repeat login in one statement: each card that admits its bound device counts the
 * use (and takes one of a count card) and gets its log row; `ord` says which request a row answers.
 * A request without a row goes on to the locked path. Requests of one batch are of distinct cards
 * (an UPDATE … FROM changes a row once however many requests name it).
 */
const REPEAT_LOGINS: PreparedStatement = {
  name: 'card_repeat_logins_v1',
  text: `WITH req AS (
      SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
        $10::int[], $11::text[], $12::text[]) WITH ORDINALITY
        AS r(project_id, card_key, machine, seated, card_code, machine_code, ip, family, interface, result_code, request_id, token_hash, ord)
    ), hit AS (
      UPDATE cards c SET use_count = c.use_count + 1, last_login_at = now(), uses_left = ${cardSql.takeUse('c')}
      FROM req
      WHERE c.project_id = req.project_id AND c.code = req.card_key AND ${cardSql.admitsRepeatLogin('c', 'req.machine')}
        AND NOT (req.seated AND c.concurrent_limit IS NOT NULL)
      RETURNING req.ord, ${CARD_COLUMNS.map((column) => `c.${column}`).join(', ')}
    ), logged AS (
      INSERT INTO login_logs (project_id, card_id, card_code, machine_code, ip, family, interface, result_code, request_id, token_hash)
      SELECT r.project_id, hit.id, r.card_code, r.machine_code, r.ip, r.family, r.interface, r.result_code, r.request_id, r.token_hash
      FROM hit JOIN req r ON r.ord = hit.ord
    )
    SELECT ord, ${CARD_COLUMNS.join(', ')} FROM hit`,
};

/**
 * Group commit of the repeat-login fast path (the common login: a card from its bound device): the
 * repeat logins pending at the same time share one statement and one commit, each answered after it
 * (statement-batcher.ts). Two logins of one card never share a statement, so each counts once.
 */
@Injectable()
export class RepeatLoginWriter {
  private readonly batcher = new StatementBatcher<RepeatLogin, Record<string, unknown> | null>({
    keyOf: (login) => `${login.projectId}\n${login.cardKey}`,
    run: async (logins) => {
      const rows = await this.run(logins);
      const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
      return logins.map((_, index) => byOrd.get(index + 1) ?? null);
    },
  });

  constructor(private readonly statements: PreparedStatements) {}

  /** The card's row after the login, or null when the card does not admit a repeat login. */
  write(login: RepeatLogin): Promise<Record<string, unknown> | null> {
    return this.batcher.submit(login);
  }

  private run(logins: RepeatLogin[]): Promise<Record<string, unknown>[]> {
    const column = <T>(pick: (login: RepeatLogin) => T): T[] => logins.map(pick);
    return this.statements.rows(REPEAT_LOGINS, [
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
    ]);
  }
}
