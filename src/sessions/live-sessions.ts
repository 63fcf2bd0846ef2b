import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { Page, pageOf } from '../common/paging';
import { LiveSessionCounts, LiveSessionView, ListSessionsQuery } from './live-session.view';
import { Session } from './session.entity';

/**
 * Live = not revoked and not expired: exactly what a heartbeat accepts before it re-checks the card
 * or user. Every revocation (forced offline, ban, unbind, rebind, seat eviction) sets `revoked_at`
 * in PostgreSQL, which all instances share, so a revoked session is never listed.
 * `sessions_user_idx (project_id, user_id) WHERE revoked_at IS NULL` serves the project condition.
 */
const LIVE = `s.project_id = :projectId AND s.revoked_at IS NULL AND s.expires_at > now()`;

/** The author's view of a project's live SDK sessions: the list and the counts of the Overview. */
@Injectable()
export class LiveSessions {
  constructor(@InjectRepository(Session) private readonly sessions: Repository<Session>) {}

  /** Newest first, with the card's code or the user's name. */
  async list(projectId: string, query: ListSessionsQuery): Promise<Page<LiveSessionView>> {
    const live = this.live(projectId);
    if (query.type !== undefined) live.andWhere('s.type = :type', { type: query.type });
    if (query.card_id !== undefined) live.andWhere('s.card_id = :cardId', { cardId: query.card_id });
    if (query.user_id !== undefined) live.andWhere("s.type = 'app_user' AND s.user_id = :userId", { userId: query.user_id });
    if (query.machine_id !== undefined) live.andWhere('s.machine_code = :machine', { machine: query.machine_id });
    const [rows, count] = await Promise.all([
      live
        .clone()
        .select(
          [
            's.id',
            's.type',
            's.card_id',
            's.user_id',
            's.machine_code',
            's.created_at',
            's.last_seen_at',
            's.expires_at',
            's.address',
            's.last_heartbeat_at',
          ].map((c) => `${c} AS ${c.slice(2)}`),
        )
        .addSelect('c.code', 'card_code')
        .addSelect('u.username', 'username')
        .leftJoin('cards', 'c', 'c.id = s.card_id')
        .leftJoin('app_users', 'u', 'u.id = s.user_id AND u.project_id = s.project_id')
        .orderBy('s.created_at', 'DESC')
        .addOrderBy('s.id', 'DESC')
        .limit(query.page_size)
        .offset(query.skip)
        .getRawMany<SessionRow>(),
      live.clone().select('count(*)::integer', 'total').getRawOne<{ total: number }>(),
    ]);
    return pageOf(rows.map(toView), count?.total ?? 0, query);
  }

  async counts(projectId: string): Promise<LiveSessionCounts> {
    const rows = await this.live(projectId)
      .select('s.type', 'type')
      .addSelect('count(*)::integer', 'count')
      .groupBy('s.type')
      .getRawMany<{ type: keyof LiveSessionCounts; count: number }>();
    const counts: LiveSessionCounts = { card: 0, app_user: 0 };
    for (const row of rows) if (row.type in counts) counts[row.type] = row.count;
    return counts;
  }

  private live(projectId: string): SelectQueryBuilder<Session> {
    return this.sessions.createQueryBuilder('s').where(LIVE, { projectId });
  }
}

interface SessionRow {
  id: string;
  type: LiveSessionView['type'];
  card_id: number | null;
  card_code: string | null;
  user_id: number | null;
  username: string | null;
  machine_code: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  address: string;
  last_heartbeat_at: Date | null;
}

function toView(row: SessionRow): LiveSessionView {
  return {
    id: Number(row.id),
    type: row.type,
    card_id: row.card_id,
    card_code: row.type === 'card' ? row.card_code : null,
    user_id: row.user_id,
    username: row.type === 'app_user' ? row.username : null,
    machine_id: row.machine_code,
    created_at: new Date(row.created_at).toISOString(),
    last_seen_at: new Date(row.last_seen_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    address: row.address,
    last_heartbeat_at: row.last_heartbeat_at === null ? null : new Date(row.last_heartbeat_at).toISOString(),
  };
}
