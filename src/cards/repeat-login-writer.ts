import { Injectable } from '@nestjs/common';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
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
 * An error PostgreSQL answered for the statement (it did not commit), as opposed to a lost
 * connection (SQLSTATE class 08, or none), after which the statement may have committed: only the
 * first kind is retried request by request.
 */
function refusedByStatement(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !code.startsWith('57P');
}

/** Most requests in one statement: past it, the rest wait for the next one. */
const MAX_BATCH = 64;
/** Statements under way at once: the others gather the requests that arrive meanwhile. */
const MAX_IN_FLIGHT = 2;

interface Pending {
  login: RepeatLogin;
  resolve: (row: Record<string, unknown> | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of the repeat-login fast path (the common login: a card from its bound device).
 * Requests that arrive in the same turn of the event loop, or while earlier statements run, share
 * one statement and one commit; each is answered only once that statement has committed, so a
 * crash loses no answered login. An idle service sends a lone request at the end of its turn: no
 * added wait at low load. A failed statement is retried one request at a time, so that one
 * request's fault never becomes another's.
 */
@Injectable()
export class RepeatLoginWriter {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly statements: PreparedStatements) {}

  /** The card's row after the login, or null when the card does not admit a repeat login. */
  write(login: RepeatLogin): Promise<Record<string, unknown> | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ login, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(this.pump);
    });
  }

  private readonly pump = (): void => {
    this.scheduled = false;
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  };

  /** Up to MAX_BATCH requests of distinct cards, oldest first; the others keep their place. */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const cards = new Set<string>();
    for (let index = 0; index < this.queue.length && batch.length < MAX_BATCH; ) {
      const card = `${this.queue[index].login.projectId}\n${this.queue[index].login.cardKey}`;
      if (cards.has(card)) {
        index += 1;
        continue;
      }
      cards.add(card);
      batch.push(...this.queue.splice(index, 1));
    }
    return batch;
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      const rows = await this.run(batch.map((pending) => pending.login));
      const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
      batch.forEach((pending, index) => pending.resolve(byOrd.get(index + 1) ?? null));
    } catch (error) {
      if (batch.length === 1 || !refusedByStatement(error)) return batch.forEach((pending) => pending.reject(error));
      for (const pending of batch) {
        await this.run([pending.login]).then((rows) => pending.resolve(rows[0] ?? null), pending.reject);
      }
    }
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
