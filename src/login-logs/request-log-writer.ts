import { BeforeApplicationShutdown, Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import type { FinishedRequest } from '../http/finished-request';
import { requestContextOf } from '../http/request-context';
import { RequestObserver } from '../http/request-observer';
import { JsonLogger } from '../core/logging/json-logger';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { StatementBatcher } from '../database/statement-batcher';
import { clientFamilyOfPath } from './request-log.view';

interface RequestRow {
  projectId: string;
  cardId: number | null;
  machineCode: string | null;
  ip: string;
  family: string;
  interface: string;
  resultCode: number;
  requestId: string;
  route: string;
  durationMs: number;
  reason: string | null;
}

/**
 * How long a row waits for company. The log lists rows in the order they were written (by id), and
 * a card login's row is written by the login itself: a longer wait (100 ms was measured) listed a
 * heartbeat after a login that came later, on the card's timeline too. 10 ms keeps the order a
 * reader can see and still puts tens of rows in a statement at a few thousand requests a second.
 */
const GATHER_MS = 10;
/** A full batch goes at once; eleven arrays of this many values stay a small message. */
const MAX_ROWS_PER_STATEMENT = 1000;

const INSERT_REQUESTS: PreparedStatement = {
  name: 'request_log_rows_v2',
  text: `INSERT INTO login_logs (project_id, machine_code, ip, family, interface, result_code, request_id, route, duration_ms, reason, card_id)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::int[], $10::text[], $11::int[])`,
};

/**
 * The request log's rows of every client request of a known program other than a card login
 * (decisions §22): heartbeats, user logins, unbinds, checks, the portal, and refusals before any
 * rule (a bad signature). Written once the answer has gone, batched like the refusal rows
 * (statement-batcher.ts), never awaited by a request: a request pays nothing for its row. A
 * heartbeat's row names its session's card, which the session lookup already read. A card
 * login's row is the one its own login statement writes (card-login.service.ts; its answer or
 * refusal says so, `loggedLogin`), so a login gets no second row and no extra round trip; a login
 * refused before any row (by a guard, or over the guessing limit) gets its row here.
 *
 * The rows are acknowledged to nobody, so they gather for up to GATHER_MS before going as one
 * statement: at a few thousand heartbeats a second, one INSERT and one commit carry hundreds of
 * rows instead of a handful, which is what PostgreSQL's CPU per row was going to (docs/performance.md,
 * "What the request log costs"). A shutdown sends what is gathering; a crash loses at most the rows
 * of the last GATHER_MS, never a card login's row (that one is written before its answer).
 */
@Injectable()
export class RequestLogWriter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly batcher = new StatementBatcher<RequestRow, void>({
    gatherMs: GATHER_MS,
    maxBatch: MAX_ROWS_PER_STATEMENT,
    run: async (rows) => {
      const column = <T>(pick: (row: RequestRow) => T): T[] => rows.map(pick);
      await this.statements.rows(INSERT_REQUESTS, [
        column((r) => r.projectId),
        column((r) => r.machineCode),
        column((r) => r.ip),
        column((r) => r.family),
        column((r) => r.interface),
        column((r) => r.resultCode),
        column((r) => r.requestId),
        column((r) => r.route),
        column((r) => r.durationMs),
        column((r) => r.reason),
        column((r) => r.cardId),
      ]);
      return rows.map(() => undefined);
    },
  });

  constructor(
    private readonly statements: PreparedStatements,
    private readonly observer: RequestObserver,
    private readonly logger: JsonLogger,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.REQUEST_LOG === 'off') return;
    this.observer.onFinished((req, done) => this.record(req, done));
  }

  /** Before the database closes (its module shuts down after this hook): the gathering rows are written. */
  beforeApplicationShutdown(): Promise<void> {
    return this.batcher.drain();
  }

  private record(req: IncomingMessage, done: FinishedRequest): void {
    const context = requestContextOf(req);
    const record = context.clientRecord;
    // No project known (nothing to file it under), or a card login that wrote its own row.
    if (!record || context.cardLoginFamily) return;
    const row: RequestRow = {
      projectId: record.projectId,
      // The card of a heartbeat's session: the card's timeline shows its heartbeats (decisions §22).
      cardId: record.cardId ?? null,
      machineCode: record.device?.slice(0, 128) || null,
      ip: context.clientIp.slice(0, 64),
      family: clientFamilyOfPath(req.url ?? '/'),
      interface: (record.interface ?? '').slice(0, 32),
      resultCode: resultCodeOf(done),
      requestId: context.requestId,
      // Never null: a null route is how the login log and the daily counts tell card logins (migration 1766310000000).
      route: done.route.slice(0, 64) || '/',
      durationMs: Math.round(done.seconds * 1000),
      reason: record.reason?.slice(0, 200) ?? null,
    };
    this.batcher
      .submit(row)
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'request log row not written', request_id: row.requestId, error: String(error) }),
      );
  }
}

/** 0 for an answered success (whatever the family's success code), else the catalog code. */
function resultCodeOf(done: FinishedRequest): number {
  if (done.failed) return done.code ?? ErrorCode.SYSTEM_ERROR;
  if (done.status >= 500) return ErrorCode.SYSTEM_ERROR;
  return done.status >= 400 ? (done.code ?? ErrorCode.BAD_REQUEST) : 0;
}
