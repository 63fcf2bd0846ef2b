import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ReplicaReads } from '../database/replica-reads';
import { AdminPrincipal, isPlatformAdmin } from '../admin-auth/admin-principal';
import { Page, pageOf } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { BlacklistMatcher } from '../common/blacklist-matcher';
import { ProjectAccess } from '../projects/project-access';
import { ListRequestsQuery } from './request-log.dto';
import { Explanation, ExplanationParams, explanationText } from './request-explanation';
import { RequestExplainedView, RequestLogView, RequestRowData, toRequestLogView } from './request-log.view';
import { LoginLog } from './login-log.entity';

const COLUMNS =
  'request_id, created_at, family, route, interface, result_code, reason, ip, machine_code, card_id, card_code, duration_ms';

/** The request log of a project (decisions §22): every client request, searchable, and why it was answered so. */
@Injectable()
export class RequestLogService {
  constructor(
    @InjectRepository(LoginLog) private readonly logs: Repository<LoginLog>,
    private readonly access: ProjectAccess,
    private readonly replicaReads: ReplicaReads,
  ) {}

  /** Newest first, from the read replica when there is one (ReplicaReads). */
  async list(actor: AdminPrincipal, projectId: string, query: ListRequestsQuery): Promise<Page<RequestLogView>> {
    const project = await this.access.find(actor, projectId);
    const where = ['project_id = $1'];
    const params: unknown[] = [project.id];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (query.request_id !== undefined) add((n) => `request_id = ${n}`, query.request_id);
    if (query.card !== undefined) {
      // A key names the card's rows that carry only its id (heartbeats, unbinds) too.
      const byKey = (n: string) => `card_code = ${n} OR card_id IN (SELECT id FROM cards WHERE project_id = $1 AND code = ${n})`;
      add((n) => (/^\d{1,9}$/.test(query.card!) ? `(${byKey(n)} OR card_id = ${n}::int)` : `(${byKey(n)})`), query.card);
    }
    if (query.machine_code !== undefined) add((n) => `machine_code = ${n}`, query.machine_code);
    if (query.ip !== undefined) add((n) => `ip = ${n}`, query.ip);
    if (query.result_code !== undefined) add((n) => `result_code = ${n}`, query.result_code);
    if (query.family !== undefined) add((n) => `family = ${n}`, query.family);
    if (query.from !== undefined) add((n) => `created_at >= ${n}::timestamptz`, query.from);
    if (query.to !== undefined) add((n) => `created_at < ${n}::timestamptz`, query.to);
    const filter = where.join(' AND ');
    const [rows, [{ total }]] = await this.replicaReads.read(actor.id, (db) =>
      Promise.all([
        // Raw: the page and its count share one WHERE built from the filters, over a partitioned table.
        db.query(
          `SELECT ${COLUMNS} FROM login_logs WHERE ${filter} ORDER BY id DESC LIMIT ${query.page_size} OFFSET ${query.skip}`,
          params,
        ),
        // Raw: the same WHERE as the page above.
        db.query(`SELECT count(*)::int AS total FROM login_logs WHERE ${filter}`, params),
      ]),
    );
    return pageOf((rows as RequestRowData[]).map(toRequestLogView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, requestId: string): Promise<RequestExplainedView> {
    const project = await this.access.find(actor, projectId);
    // Raw: reads the partitioned log by request id with the columns the view takes (snake_case rows throughout).
    const [row] = (await this.logs.query(
      `SELECT ${COLUMNS} FROM login_logs WHERE project_id = $1 AND request_id = $2 ORDER BY id DESC LIMIT 1`,
      [project.id, requestId],
    )) as RequestRowData[];
    if (!row) throw new ServiceError(ErrorCode.NOT_FOUND, 'No request of this project has this id');
    const explanation = await this.explain(project.id, row, isPlatformAdmin(actor));
    return { ...toRequestLogView(row), explain: explanationText(explanation), explanation };
  }

  /** Which rule decided, from the row and what the project holds now (the card, its devices, the quota, the blacklist, the audit trail). */
  private async explain(projectId: string, row: RequestRowData, platformViewer: boolean): Promise<Explanation> {
    const code = row.result_code as ErrorCode;
    switch (code) {
      case 0 as ErrorCode:
        return { code: 'accepted', params: { interface: row.interface || null } };
      case ErrorCode.CARD_INVALID:
        return { code: 'card_unknown', params: { card_code: row.card_code ?? '' } };
      case ErrorCode.CARD_BANNED:
        return { code: 'card_banned', params: await this.banOf(projectId, row, platformViewer) };
      case ErrorCode.CARD_EXPIRED: {
        const card = await this.cardOf(projectId, row);
        const expiresAt = card?.expires_at ? new Date(card.expires_at) : null;
        return {
          code: 'card_expired',
          params: {
            card_code: card?.code ?? null,
            expires_at: expiresAt && iso(expiresAt),
            extended: !!expiresAt && expiresAt > new Date(row.created_at),
          },
        };
      }
      case ErrorCode.DEVICE_LIMIT_REACHED: {
        const card = await this.cardOf(projectId, row);
        if (!card)
          return {
            code: 'device_limit',
            params: { card_code: null, device_limit: null, devices: [], machine_code: row.machine_code },
          };
        // Raw: snake_case rows as the explanation answers them; a rarely read admin path.
        const devices: Array<{ machine_code: string; bound_at: Date }> = await this.logs.query(
          'SELECT machine_code, bound_at FROM card_devices WHERE card_id = $1 AND bound_at <= $2 ORDER BY bound_at',
          [card.id, row.created_at],
        );
        const bound = devices.map((d) => ({ machine_code: d.machine_code, bound_at: iso(d.bound_at) }));
        return {
          code: 'device_limit',
          params: { card_code: card.code, device_limit: card.device_limit, devices: bound, machine_code: row.machine_code },
        };
      }
      case ErrorCode.QUOTA_EXCEEDED: {
        // Raw: one column of a row, as the explanation answers it.
        const [quota] = await this.logs.query('SELECT daily_quota FROM project_interfaces WHERE project_id = $1 AND name = $2', [
          projectId,
          row.interface,
        ]);
        return { code: 'quota_exceeded', params: { interface: row.interface || null, daily_quota: quota?.daily_quota ?? null } };
      }
      case ErrorCode.BLACKLISTED:
        return { code: 'blacklisted', params: await this.blacklistEntryOf(projectId, row) };
      case ErrorCode.SIGNATURE_INVALID:
        return { code: 'signature_invalid', params: {} };
      default:
        return { code: 'refused', params: { result_code: row.result_code } };
    }
  }

  /**
   * The card, and the ban the audit trail recorded last before the request: by its own PATCH, or a
   * bulk ban naming its id. The trail's row is written once the ban has answered, a moment after it
   * took effect, so a ban recorded up to a minute after the request still counts. A platform
   * admin's ban names no one to an author: `banned_by` is then `platform admin`.
   */
  private async banOf(projectId: string, row: RequestRowData, platformViewer: boolean): Promise<ExplanationParams> {
    const card = await this.cardOf(projectId, row);
    if (!card) return { card_code: null, banned_at: null, banned_by: null, still_banned: false };
    // Raw: jsonb operators (->, ->>, @>) on the audit's changes, which the query builder cannot say.
    const [ban]: Array<{ at: Date; actor_username: string | null; actor_role: string | null }> = await this.logs.query(
      `SELECT at, actor_username, actor_role FROM admin_audit
        WHERE project_id = $1 AND outcome = 'success' AND at <= $3::timestamptz + interval '1 minute'
          AND ((action = 'cards.ban' AND resource_id = $2::text)
            OR (action = 'cards.bulk' AND changes->'after'->>'action' = 'ban' AND changes->'after'->'ids' @> to_jsonb($2::int)))
        ORDER BY at DESC LIMIT 1`,
      [projectId, card.id, row.created_at],
    );
    return {
      card_code: card.code,
      banned_at: ban ? iso(ban.at) : null,
      banned_by: ban && ban.actor_role === 'platform_admin' && !platformViewer ? 'platform admin' : (ban?.actor_username ?? null),
      still_banned: card.status === 'banned',
    };
  }

  private async blacklistEntryOf(projectId: string, row: RequestRowData): Promise<ExplanationParams> {
    const entries: Array<{
      id: number;
      kind: 'device' | 'address';
      value: string;
      note: string | null;
      expires_at: Date | null;
      created_at: Date;
      // Raw: snake_case rows as the explanation answers them.
    }> = await this.logs.query(
      'SELECT id, kind, value, note, expires_at, created_at FROM login_blacklist WHERE project_id = $1',
      [projectId],
    );
    const matcher = new BlacklistMatcher(
      entries.map((e) => ({ id: e.id, kind: e.kind, value: e.value, note: e.note, expiresAt: null })),
    );
    const hit = matcher.match(row.ip ?? '', row.machine_code ?? undefined, Date.now());
    const entry = hit && entries.find((e) => e.id === hit.id);
    const request = { machine_code: row.machine_code, ip: row.ip };
    if (!entry) return { kind: null, value: null, entry_id: null, created_at: null, expires_at: null, note: null, ...request };
    return {
      kind: entry.kind,
      value: entry.value,
      entry_id: entry.id,
      created_at: iso(entry.created_at),
      expires_at: entry.expires_at && iso(entry.expires_at),
      note: entry.note,
      ...request,
    };
  }

  private async cardOf(projectId: string, row: RequestRowData) {
    if (row.card_id === null && !row.card_code) return null;
    // Raw: by id, or by code when the log kept no id, in one statement.
    const [card] = await this.logs.query(
      'SELECT id, code, status, expires_at, device_limit FROM cards WHERE project_id = $1 AND (id = $2 OR ($2::int IS NULL AND code = $3))',
      [projectId, row.card_id, row.card_code],
    );
    return (card ?? null) as { id: number; code: string; status: string; expires_at: Date | null; device_limit: number } | null;
  }
}

function iso(date: Date | string): string {
  return new Date(date).toISOString().replace('.000Z', 'Z');
}
