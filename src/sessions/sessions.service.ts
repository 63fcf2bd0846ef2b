import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Repository } from 'typeorm';
import type { CardStatus } from '../cards/card.entity';
import { HEARTBEAT_RECORD_MS } from '../cards/card-sessions';
import { cardFeaturesSql, featuresOf } from '../database/card-features-sql';
import type { SeatPolicy } from '../projects/project.entity';
import { hashToken, newToken } from '../core/crypto/tokens';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { StatementBatcher } from '../database/statement-batcher';
import { AppConfig } from '../config/app-config';
import { endingOfSession, SessionEnd, sessionEnded } from './session-end';
import { Session, SessionType } from './session.entity';
import { SessionSeatsRepository } from './session-seats.repository';

/**
 * Every heartbeat in one statement: the session and, for a card session, the card's state and its
 * device binding, for a user session the user's state and bound machine. The heartbeats pending at
 * the same time share it (statement-batcher.ts): one token hash each.
 *
 * The hashes are joined as a set (unnest) and each device is found by its key (LATERAL). With
 * `token_hash = ANY($1)` and an EXISTS, the planner scanned a small sessions table making sixteen
 * char(64) comparisons a row, and hashed every device for the EXISTS: 1.3 ms of PostgreSQL per 16
 * heartbeats, against 0.25 ms now (pgbench on the bench's 384 sessions and 1,280 devices). Card,
 * device and user are each a LATERAL probe by key with a LIMIT, which PostgreSQL never flattens into
 * a join: a plain join of the devices was merge-joined with the whole device index at a million
 * cards, 16 ms a statement (bench:scale), wherever the statistics tipped the plan.
 */
const RESOLVE_SESSIONS: PreparedStatement = {
  name: 'session_resolve_v9',
  text: `SELECT s.token_hash, s.id, s.type, s.project_id, s.card_id, s.user_id, s.machine_code, s.expires_at, s.revoked_at, s.ended_by, s.last_seen_at, s.last_heartbeat_at,
      c.status AS card_status, c.expires_at AS card_expires_at, c.features AS card_features, c.trial AS card_trial,
      d.bound IS NOT NULL AS device_bound, d.last_seen_at AS device_last_seen_at,
      u.id AS user_row_id, u.status AS user_status, u.bound_machine_id AS user_bound_machine_id
    FROM unnest($1::char(64)[]) AS wanted(token_hash)
      JOIN sessions s ON s.token_hash = wanted.token_hash
      LEFT JOIN LATERAL (SELECT c.status, c.expires_at, c.trial, ${cardFeaturesSql('c')} AS features FROM cards c WHERE c.id = s.card_id LIMIT 1) c ON true
      LEFT JOIN LATERAL (
        SELECT true AS bound, d.last_seen_at FROM card_devices d WHERE d.card_id = s.card_id AND d.machine_code = s.machine_code LIMIT 1
      ) d ON true
      LEFT JOIN LATERAL (
        SELECT u.id, u.status, u.bound_machine_id FROM app_users u WHERE u.id = s.user_id AND u.project_id = s.project_id LIMIT 1
      ) u ON true`,
};

export interface OpenSession {
  token: string;
  session: Session;
}

/** What a card heartbeat re-checks, read in the same query as the session. */
export interface SessionCardState {
  status: CardStatus;
  expiresAt: Date | null;
  deviceBound: boolean;
  /** Its type's features (decisions §19), answered by the heartbeat. */
  features: string[];
  /** A trial card (decisions §21), answered by the heartbeat. */
  trial: boolean;
  /** The bound device's last login or heartbeat (idle devices, decisions §21); null when not bound. */
  deviceLastSeenAt: Date | null;
}

/** What a user heartbeat re-checks, read in the same query as the session. */
export interface SessionUserState {
  id: number;
  status: string;
  boundMachineId: string | null;
}

export interface LiveSession {
  session: Session;
  /** For a card session: its card, null when the card is gone. */
  card: SessionCardState | null;
  /** For a user session: its program user, null when the user is gone. */
  user: SessionUserState | null;
}

/**
 * SDK sessions (decisions §5): opened at SDK login, renewed by heartbeats, revoked by forced
 * offline, unbinding or a ban. Every check reads PostgreSQL, which all instances share, so a
 * revocation is seen by the next heartbeat on any instance.
 */
@Injectable()
export class SessionsService {
  private readonly lookups = new StatementBatcher<string, Record<string, unknown> | undefined>({
    run: async (tokenHashes) => {
      const rows = await this.statements.rows(RESOLVE_SESSIONS, [tokenHashes]);
      const byHash = new Map(rows.map((row) => [row.token_hash as string, row]));
      return tokenHashes.map((tokenHash) => byHash.get(tokenHash));
    },
  });

  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    private readonly statements: PreparedStatements,
    private readonly config: AppConfig,
  ) {}

  /** Opens a session; inside `em`'s transaction when given (a seat taken under the card's lock). */
  async open(
    fields: {
      type: SessionType;
      projectId: string;
      cardId?: number;
      userId?: number;
      machine: string;
      expiresAt: Date;
      address?: string;
    },
    em?: EntityManager,
  ): Promise<OpenSession> {
    const token = newToken();
    const repository = em ? em.getRepository(Session) : this.sessions;
    const session = await repository.save(
      repository.create({
        tokenHash: hashToken(token),
        type: fields.type,
        projectId: fields.projectId,
        cardId: fields.cardId ?? null,
        userId: fields.userId ?? null,
        machineCode: fields.machine,
        expiresAt: fields.expiresAt,
        lastSeenAt: new Date(),
        lastHeartbeatAt: null,
        address: (fields.address ?? '').slice(0, 64),
      }),
    );
    return { token, session };
  }

  /**
   * The live session behind a bearer token, of the expected type and machine. Unknown, expired and
   * revoked are SESSION_INVALID saying why (decisions §18); the other type is SESSION_TYPE_MISMATCH;
   * another machine is MACHINE_MISMATCH. `programOf` is asked for the session's program as soon as
   * the session is found, so that every refusal after it, an ended session's included, is that
   * program's answer (signed, decisions §15): a client with pinned keys believes it and stops.
   * A refusal names the session's card (`ServiceError.cardId`): the per-card timeline shows
   * heartbeats, refused ones too; the card id comes with the session, no query.
   */
  async resolve<P>(
    token: string,
    type: SessionType,
    machine: string,
    programOf: (projectId: string) => Promise<P>,
  ): Promise<LiveSession & { program: P }> {
    const row = await this.lookups.submit(hashToken(token));
    if (!row) throw sessionEnded({ endedBy: 'unknown', at: null }, this.config.APP_TIMEZONE);
    const session = sessionFromRow(row);
    const program = await programOf(session.projectId);
    const ending = endingOfSession(session, session.cardId === null ? null : (row.card_expires_at as Date | null));
    if (ending) throw sessionEnded(ending, this.config.APP_TIMEZONE).concerning(session.cardId);
    if (session.type !== type) throw new ServiceError(ErrorCode.SESSION_TYPE_MISMATCH).concerning(session.cardId);
    if (session.machineCode !== machine) throw new ServiceError(ErrorCode.MACHINE_MISMATCH).concerning(session.cardId);
    const card =
      session.cardId === null || row.card_status === null
        ? null
        : {
            status: row.card_status as CardStatus,
            expiresAt: row.card_expires_at as Date | null,
            deviceBound: row.device_bound === true,
            features: featuresOf(row.card_features),
            trial: row.card_trial === true,
            deviceLastSeenAt: (row.device_last_seen_at as Date | null) ?? null,
          };
    const user =
      row.user_row_id === null
        ? null
        : {
            id: row.user_row_id as number,
            status: row.user_status as string,
            boundMachineId: row.user_bound_machine_id as string | null,
          };
    return { session, card, user, program };
  }

  /**
   * Extends a session to `now + ttl` (capped) and records the heartbeat from `address`. To keep
   * heartbeats off the write path, the expiry is only written once less than half the lifetime is
   * left, and the heartbeat only once a minute (HEARTBEAT_RECORD_MS); in between nothing is written.
   */
  async renew(session: Session, ttlSeconds: number, cap: Date | null, address: string): Promise<Date> {
    const now = Date.now();
    const renewing = session.expiresAt.getTime() - now <= (ttlSeconds * 1000) / 2;
    const target = renewing ? new Date(Math.min(now + ttlSeconds * 1000, cap?.getTime() ?? Infinity)) : session.expiresAt;
    const extending = target.getTime() > session.expiresAt.getTime();
    const recorded = (session.lastHeartbeatAt ?? session.lastSeenAt).getTime();
    const recording = now - recorded >= HEARTBEAT_RECORD_MS;
    if (!extending && !recording) return session.expiresAt;
    const at = new Date(now);
    await this.sessions.update(
      { id: session.id },
      { ...(extending ? { expiresAt: target, lastSeenAt: at } : {}), lastHeartbeatAt: at, address: address.slice(0, 64) },
    );
    session.expiresAt = target;
    return session.expiresAt;
  }

  /** Ends a session for `endedBy`; one already ended keeps its first reason. */
  async revoke(id: string, endedBy: SessionEnd): Promise<void> {
    await this.sessions.update({ id, revokedAt: IsNull() }, { revokedAt: new Date(), endedBy });
  }

  /** Ends a session a heartbeat found unusable and answers the heartbeat's refusal. */
  async end(session: Session, endedBy: SessionEnd): Promise<ServiceError> {
    await this.revoke(session.id, endedBy);
    return sessionEnded({ endedBy, at: new Date() }, this.config.APP_TIMEZONE).concerning(session.cardId);
  }

  /**
   * Seats (decisions §13): makes room for one more live session of a card with a seat limit, under
   * the card's row lock held by the caller's transaction `em`. Full: `refuse` gives false;
   * `evict_oldest` revokes the oldest live sessions until one seat is free.
   */
  async takeSeat(em: EntityManager, cardId: number, limit: number, policy: SeatPolicy): Promise<boolean> {
    const seats = SessionSeatsRepository.in(em);
    const live = await seats.live(cardId);
    if (live.length < limit) return true;
    if (policy !== 'evict_oldest') return false;
    await seats.evict(live.slice(0, live.length - limit + 1));
    return true;
  }
}

/** The entity from a resolve row; a plain assign, where TypeORM's create() walks the metadata on every heartbeat. */
function sessionFromRow(row: Record<string, unknown>): Session {
  return Object.assign(new Session(), {
    id: String(row.id),
    type: row.type as SessionType,
    projectId: row.project_id as string,
    cardId: row.card_id as number | null,
    userId: row.user_id as number | null,
    machineCode: row.machine_code as string,
    expiresAt: row.expires_at as Date,
    revokedAt: row.revoked_at as Date | null,
    endedBy: row.ended_by as SessionEnd | null,
    lastSeenAt: row.last_seen_at as Date,
    lastHeartbeatAt: row.last_heartbeat_at as Date | null,
  });
}
