import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, pageOf } from '../common/paging';
import { LiveSessionCounts, LiveSessionView, ListSessionsQuery } from './live-session.view';

/**
 * Live = not revoked and not expired: exactly what a heartbeat accepts before it re-checks the card
 * or user. Every revocation (forced offline, ban, unbind, rebind, seat eviction) sets `revoked_at`
 * in PostgreSQL, which all instances share, so a revoked session is never listed.
 * `sessions_user_idx (project_id, user_id) WHERE revoked_at IS NULL` serves the project condition.
 */
const LIVE = `s.project_id = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`;

/** The author's view of a project's live SDK sessions: the list and the counts of the Overview. */
@Injectable()
export class LiveSessions {
  constructor(private readonly db: DataSource) {}

  /** Newest first, with the card's code or the user's name. */
  async list(projectId: string, query: ListSessionsQuery): Promise<Page<LiveSessionView>> {
    const params: unknown[] = [projectId];
    const where = [LIVE];
    const filter = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (query.type !== undefined) filter('s.type = ?', query.type);
    if (query.card_id !== undefined) filter('s.card_id = ?', query.card_id);
    if (query.user_id !== undefined) filter("s.type = 'app_user' AND s.user_id = ?", query.user_id);
    if (query.machine_id !== undefined) filter('s.machine_code = ?', query.machine_id);
    const condition = where.join(' AND ');
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT s.id, s.type, s.card_id, c.code AS card_code, s.user_id, u.username, s.machine_code, s.created_at, s.last_seen_at, s.expires_at, s.address, s.last_heartbeat_at
          FROM sessions s
            LEFT JOIN cards c ON c.id = s.card_id
            LEFT JOIN app_users u ON u.id = s.user_id AND u.project_id = s.project_id
          WHERE ${condition}
          ORDER BY s.created_at DESC, s.id DESC
          LIMIT ${query.page_size} OFFSET ${query.skip}`,
        params,
      ),
      this.db.query(`SELECT count(*)::integer AS total FROM sessions s WHERE ${condition}`, params),
    ]);
    return pageOf((rows as SessionRow[]).map(toView), total as number, query);
  }

  async counts(projectId: string): Promise<LiveSessionCounts> {
    const rows: Array<{ type: keyof LiveSessionCounts; count: number }> = await this.db.query(
      `SELECT s.type, count(*)::integer AS count FROM sessions s WHERE ${LIVE} GROUP BY s.type`,
      [projectId],
    );
    const counts: LiveSessionCounts = { card: 0, app_user: 0 };
    for (const row of rows) if (row.type in counts) counts[row.type] = row.count;
    return counts;
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
