import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '../database/replica-reads';
import { AdminPrincipal, isPlatformAdmin } from '../admin-kernel/admin-principal';
import { Page, pageOf } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { BlacklistMatcher } from '../common/blacklist-matcher';
import { ProjectAccess } from '../projects/project-access';
import { ListRequestsQuery } from './request-log.dto';
import { Explanation, ExplanationParams, explanationText } from './request-explanation';
import { RequestExplainedView, RequestLogView, RequestRowData, toRequestLogView } from './request-log.view';
import { RequestLogRepository } from './request-log.repository';

/** The request log of a project (decisions §22): every client request, searchable, and why it was answered so. */
@Injectable()
export class RequestLogService {
  constructor(
    private readonly requests: RequestLogRepository,
    private readonly access: ProjectAccess,
    private readonly replicaReads: ReplicaReads,
  ) {}

  /** Newest first, from the read replica when there is one (ReplicaReads). */
  async list(actor: AdminPrincipal, projectId: string, query: ListRequestsQuery): Promise<Page<RequestLogView>> {
    const project = await this.access.find(actor, projectId);
    const filter = {
      requestId: query.request_id,
      card: query.card,
      machineCode: query.machine_code,
      ip: query.ip,
      resultCode: query.result_code,
      family: query.family,
      from: query.from,
      to: query.to,
    };
    const [rows, total] = await this.replicaReads.read(actor.id, (db) =>
      this.requests.page(db, project.id, filter, query.skip, query.page_size),
    );
    return pageOf(rows.map(toRequestLogView), total, query);
  }
  async get(actor: AdminPrincipal, projectId: string, requestId: string): Promise<RequestExplainedView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.requests.byRequestId(project.id, requestId);
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
        const devices = await this.requests.devicesBoundBy(card.id, row.created_at);
        const bound = devices.map((d) => ({ machine_code: d.machine_code, bound_at: iso(d.bound_at) }));
        return {
          code: 'device_limit',
          params: { card_code: card.code, device_limit: card.device_limit, devices: bound, machine_code: row.machine_code },
        };
      }
      case ErrorCode.QUOTA_EXCEEDED: {
        const dailyQuota = await this.requests.dailyQuota(projectId, row.interface);
        return { code: 'quota_exceeded', params: { interface: row.interface || null, daily_quota: dailyQuota } };
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
    const ban = await this.requests.lastBan(projectId, card.id, row.created_at);
    return {
      card_code: card.code,
      banned_at: ban ? iso(ban.at) : null,
      banned_by: ban && ban.actor_role === 'platform_admin' && !platformViewer ? 'platform admin' : (ban?.actor_username ?? null),
      still_banned: card.status === 'banned',
    };
  }

  private async blacklistEntryOf(projectId: string, row: RequestRowData): Promise<ExplanationParams> {
    const entries = await this.requests.blacklist(projectId);
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
    return this.requests.card(projectId, row.card_id, row.card_code);
  }
}

function iso(date: Date | string): string {
  return new Date(date).toISOString().replace('.000Z', 'Z');
}
