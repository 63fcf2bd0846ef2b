import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { ProjectInterface } from '../projects/project-interface.entity';
import { LoginLog } from './login-log.entity';
import { RequestRowData } from './request-log.view';

/** The filters of a request log page; each one given narrows it. */
export interface RequestFilter {
  requestId?: string;
  /** A card key, or a card id (digits). */
  card?: string;
  machineCode?: string;
  ip?: string;
  resultCode?: number;
  family?: string;
  from?: string;
  to?: string;
}

/** A card as an explanation names it. */
export interface ExplainedCard {
  id: number;
  code: string;
  status: string;
  expires_at: Date | null;
  device_limit: number;
}

/** A blacklist entry as an explanation names it. */
export interface ExplainedBlacklistEntry {
  id: number;
  kind: 'device' | 'address';
  value: string;
  note: string | null;
  expires_at: Date | null;
  created_at: Date;
}

/**
 * The request log (`login_logs`, partitioned by month) and what its explanations read of the
 * project now: its cards, their devices, quotas, blacklist and audit trail. Cards, devices and the
 * blacklist are read by table name, as rows: their folders sit above this one.
 */
@Injectable()
export class RequestLogRepository {
  constructor(@InjectRepository(LoginLog) private readonly logs: Repository<LoginLog>) {}

  /** Newest first, and how many match; on `db` (the primary, or a replica's manager). */
  async page(
    db: EntityManager,
    projectId: string,
    filter: RequestFilter,
    skip: number,
    take: number,
  ): Promise<[RequestRowData[], number]> {
    const query = filtered(db.createQueryBuilder(LoginLog, 'l'), projectId, filter);
    const [rows, count] = await Promise.all([
      query.clone().orderBy('l.id', 'DESC').limit(take).offset(skip).getMany(),
      // count(*), not the builder's count of distinct ids: the log is large and its ids unique anyway.
      query.clone().select('count(*)::int', 'total').getRawOne<{ total: number }>(),
    ]);
    return [rows.map(rowOf), count?.total ?? 0];
  }

  /** The project's latest request with this id. */
  async byRequestId(projectId: string, requestId: string): Promise<RequestRowData | null> {
    const log = await this.logs.findOne({ where: { projectId, requestId }, order: { id: 'DESC' } });
    return log && rowOf(log);
  }

  /** By id, or by code when the log kept no id. */
  async card(projectId: string, cardId: number | null, code: string | null): Promise<ExplainedCard | null> {
    const query = this.logs.manager
      .createQueryBuilder()
      .select([
        'c.id AS id',
        'c.code AS code',
        'c.status AS status',
        'c.expires_at AS expires_at',
        'c.device_limit AS device_limit',
      ])
      .from('cards', 'c')
      .where('c.project_id = :projectId', { projectId });
    if (cardId !== null) query.andWhere('c.id = :cardId', { cardId });
    else query.andWhere('c.code = :code', { code });
    return (await query.getRawOne<ExplainedCard>()) ?? null;
  }

  /** The devices bound to the card by `at`, in binding order. */
  devicesBoundBy(cardId: number, at: Date): Promise<Array<{ machine_code: string; bound_at: Date }>> {
    return this.logs.manager
      .createQueryBuilder()
      .select(['d.machine_code AS machine_code', 'd.bound_at AS bound_at'])
      .from('card_devices', 'd')
      .where('d.card_id = :cardId AND d.bound_at <= :at', { cardId, at })
      .orderBy('d.bound_at')
      .getRawMany();
  }

  async dailyQuota(projectId: string, name: string): Promise<number | null> {
    const row = await this.logs.manager.findOne(ProjectInterface, { select: { dailyQuota: true }, where: { projectId, name } });
    return row?.dailyQuota ?? null;
  }

  blacklist(projectId: string): Promise<ExplainedBlacklistEntry[]> {
    return this.logs.manager
      .createQueryBuilder()
      .select([
        'b.id AS id',
        'b.kind AS kind',
        'b.value AS value',
        'b.note AS note',
        'b.expires_at AS expires_at',
        'b.created_at AS created_at',
      ])
      .from('login_blacklist', 'b')
      .where('b.project_id = :projectId', { projectId })
      .getRawMany();
  }

  /**
   * The ban the audit trail recorded last before `at` (plus a minute: the trail's row is written once
   * the ban has answered): by the card's own PATCH, or a bulk ban naming its id.
   */
  async lastBan(
    projectId: string,
    cardId: number,
    at: Date,
  ): Promise<{ at: Date; actor_username: string | null; actor_role: string | null } | null> {
    // Raw: jsonb operators (->, ->>, @>) on the audit's changes, which the query builder cannot say.
    const [ban] = (await this.logs.query(
      `SELECT at, actor_username, actor_role FROM admin_audit
        WHERE project_id = $1 AND outcome = 'success' AND at <= $3::timestamptz + interval '1 minute'
          AND ((action = 'cards.ban' AND resource_id = $2::text)
            OR (action = 'cards.bulk' AND changes->'after'->>'action' = 'ban' AND changes->'after'->'ids' @> to_jsonb($2::int)))
        ORDER BY at DESC LIMIT 1`,
      [projectId, cardId, at],
    )) as Array<{ at: Date; actor_username: string | null; actor_role: string | null }>;
    return ban ?? null;
  }
}

function filtered(query: SelectQueryBuilder<LoginLog>, projectId: string, f: RequestFilter): SelectQueryBuilder<LoginLog> {
  query.where('l.project_id = :projectId', { projectId });
  if (f.requestId !== undefined) query.andWhere('l.request_id = :requestId', { requestId: f.requestId });
  if (f.card !== undefined) {
    // A key names the card's rows that carry only its id (heartbeats, unbinds) too.
    const byKey = 'l.card_code = :card OR l.card_id IN (SELECT id FROM cards WHERE project_id = :projectId AND code = :card)';
    query.andWhere(/^\d{1,9}$/.test(f.card) ? `(${byKey} OR l.card_id = CAST(:card AS int))` : `(${byKey})`, { card: f.card });
  }
  if (f.machineCode !== undefined) query.andWhere('l.machine_code = :machineCode', { machineCode: f.machineCode });
  if (f.ip !== undefined) query.andWhere('l.ip = :ip', { ip: f.ip });
  if (f.resultCode !== undefined) query.andWhere('l.result_code = :resultCode', { resultCode: f.resultCode });
  if (f.family !== undefined) query.andWhere('l.family = :family', { family: f.family });
  if (f.from !== undefined) query.andWhere('l.created_at >= CAST(:from AS timestamptz)', { from: f.from });
  if (f.to !== undefined) query.andWhere('l.created_at < CAST(:to AS timestamptz)', { to: f.to });
  return query;
}

function rowOf(l: LoginLog): RequestRowData {
  return {
    request_id: l.requestId,
    created_at: l.createdAt,
    family: l.family,
    route: l.route,
    interface: l.interface,
    result_code: l.resultCode,
    reason: l.reason,
    ip: l.ip,
    machine_code: l.machineCode,
    card_id: l.cardId,
    card_code: l.cardCode,
    duration_ms: l.durationMs,
  };
}
