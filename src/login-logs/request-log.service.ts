import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-auth/admin-principal';
import { Page, pageOf } from '../common/paging';
import { ERROR_CATALOG, ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { BlacklistMatcher } from '../login-blacklist/login-blacklist-matcher';
import { ProjectAccess } from '../projects/project-access';
import { ListRequestsQuery } from './request-log.dto';
import { RequestExplainedView, RequestLogView, RequestRowData, toRequestLogView } from './request-log.view';
import { LoginLog } from './login-log.entity';

const COLUMNS = 'request_id, created_at, family, route, interface, result_code, reason, ip, machine_code, card_id, card_code, duration_ms';

/** The request log of a project (decisions §22): every client request, searchable, and why it was answered so. */
@Injectable()
export class RequestLogService {
  constructor(
    @InjectRepository(LoginLog) private readonly logs: Repository<LoginLog>,
    private readonly access: ProjectAccess,
  ) {}

  /** Newest first. */
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
      add((n) => (/^\d{1,9}$/.test(query.card!) ? `(card_code = ${n} OR card_id = ${n}::int)` : `card_code = ${n}`), query.card);
    }
    if (query.machine_code !== undefined) add((n) => `machine_code = ${n}`, query.machine_code);
    if (query.ip !== undefined) add((n) => `ip = ${n}`, query.ip);
    if (query.result_code !== undefined) add((n) => `result_code = ${n}`, query.result_code);
    if (query.family !== undefined) add((n) => `family = ${n}`, query.family);
    if (query.from !== undefined) add((n) => `created_at >= ${n}::timestamptz`, query.from);
    if (query.to !== undefined) add((n) => `created_at < ${n}::timestamptz`, query.to);
    const filter = where.join(' AND ');
    const [rows, [{ total }]] = await Promise.all([
      this.logs.query(`SELECT ${COLUMNS} FROM login_logs WHERE ${filter} ORDER BY id DESC LIMIT ${query.page_size} OFFSET ${query.skip}`, params),
      this.logs.query(`SELECT count(*)::int AS total FROM login_logs WHERE ${filter}`, params),
    ]);
    return pageOf((rows as RequestRowData[]).map(toRequestLogView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, requestId: string): Promise<RequestExplainedView> {
    const project = await this.access.find(actor, projectId);
    const [row] = (await this.logs.query(`SELECT ${COLUMNS} FROM login_logs WHERE project_id = $1 AND request_id = $2 ORDER BY id DESC LIMIT 1`, [
      project.id, requestId,
    ])) as RequestRowData[];
    if (!row) throw new ServiceError(ErrorCode.NOT_FOUND, 'No request of this project has this id');
    return { ...toRequestLogView(row), explain: await this.explain(project.id, row) };
  }

  /** Which rule decided, from the row and what the project holds now (the card, its devices, the quota, the blacklist). */
  private async explain(projectId: string, row: RequestRowData): Promise<string> {
    const code = row.result_code as ErrorCode;
    const card = await this.cardOf(projectId, row);
    switch (code) {
      case 0 as ErrorCode:
        return `Accepted${row.interface ? ` (${row.interface})` : ''}.`;
      case ErrorCode.CARD_INVALID:
        return `No card of this project has the key "${row.card_code ?? ''}": a mistyped key, or a key of another program.`;
      case ErrorCode.CARD_BANNED:
        // The ban's actor and time come from the admin audit trail once it exists; the card row keeps neither.
        return card
          ? `The card ${card.code} was banned before this request${card.status === 'banned' ? ' and still is' : ' (it has been unbanned since)'}; unban it on the card's page to let it in.`
          : 'The card was banned (it has since been deleted).';
      case ErrorCode.CARD_EXPIRED:
        return card?.expires_at
          ? `The card ${card.code} expired on ${iso(card.expires_at)}${new Date(card.expires_at) > new Date(row.created_at) ? ' (it has been extended since)' : ''}; extend or renew it.`
          : 'The card had expired.';
      case ErrorCode.DEVICE_LIMIT_REACHED: {
        if (!card) return 'The card had no device slot left for this device.';
        const devices: Array<{ machine_code: string; bound_at: Date }> = await this.logs.query(
          'SELECT machine_code, bound_at FROM card_devices WHERE card_id = $1 AND bound_at <= $2 ORDER BY bound_at', [card.id, row.created_at],
        );
        const bound = devices.map((d) => `${d.machine_code} since ${iso(d.bound_at)}`).join(', ');
        return `Device limit ${card.device_limit} reached: bound to ${bound || 'devices since unbound'}; ${row.machine_code ?? 'this device'} was refused. Unbind a device or raise the limit.`;
      }
      case ErrorCode.QUOTA_EXCEEDED: {
        const [quota] = await this.logs.query('SELECT daily_quota FROM project_interfaces WHERE project_id = $1 AND name = $2', [projectId, row.interface]);
        return `The daily quota of ${row.interface}${quota?.daily_quota != null ? ` (${quota.daily_quota} a day)` : ''} was used up; it resets at midnight, or the platform admin can raise it.`;
      }
      case ErrorCode.BLACKLISTED:
        return this.explainBlacklist(projectId, row);
      case ErrorCode.SIGNATURE_INVALID:
        return "The request's signature did not match the program's secret: the client signs with a wrong key or secret (or the request was changed on its way). Check the API secret built into the program.";
      default:
        return ERROR_CATALOG[code]?.message ?? `Answered ${row.result_code}.`;
    }
  }

  private async explainBlacklist(projectId: string, row: RequestRowData): Promise<string> {
    const entries: Array<{ id: number; kind: 'device' | 'address'; value: string; note: string | null; expires_at: Date | null; created_at: Date }> =
      await this.logs.query('SELECT id, kind, value, note, expires_at, created_at FROM login_blacklist WHERE project_id = $1', [projectId]);
    const matcher = new BlacklistMatcher(entries.map((e) => ({ id: e.id, kind: e.kind, value: e.value, note: e.note, expiresAt: null })));
    const hit = matcher.match(row.ip ?? '', row.machine_code ?? undefined, Date.now());
    const entry = hit && entries.find((e) => e.id === hit.id);
    if (!entry) return `The ${row.machine_code ? `device ${row.machine_code} or ` : ''}address ${row.ip ?? ''} was on the login blacklist (the entry has since been removed).`;
    const what = entry.kind === 'device' ? `device ${entry.value}` : `address ${entry.value}`;
    const until = entry.expires_at ? ` until ${iso(entry.expires_at)}` : ' for good';
    return `The ${what} is on the login blacklist (entry ${entry.id}, added ${iso(entry.created_at)}${until}${entry.note ? `: "${entry.note}"` : ''}); remove the entry to let it in.`;
  }

  private async cardOf(projectId: string, row: RequestRowData) {
    if (row.card_id === null && !row.card_code) return null;
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
