import { Injectable, StreamableFile } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { Brackets, Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { AdminPrincipal } from '../admin-kernel/admin-principal';
import { csvField } from '../common/csv';
import { Page, pageOf } from '../common/paging';
import { ServiceError } from '../core/errors/service-error';
import { routePatternOf } from '../http/finished-request';
import { requestContextOf } from '../http/request-context';
import { JsonLogger } from '../core/logging/json-logger';
import { Project } from '../projects/project.entity';
import { AuditEntry } from './audit-entry.entity';
import { ActorNote, changeNotesOf, ChangeNote } from '../common/audit-note';
import { signedInActorOf } from '../admin-kernel/sign-in-client';
import { AuditQuery, AuditEntryView, AUDIT_CSV_COLUMNS } from './audit.dto';
import { redact } from './redact';
import { targetOf } from './audit-route';

type Changes = AuditEntry['changes'];
const EXPORT_PAGE = 1000;
/** Answer fields no before/after compares: they change on every write. */
const IGNORED = new Set(['updated_at']);

interface AdapterRequest {
  method: string;
  params?: Record<string, string>;
  body?: unknown;
  raw?: unknown;
}

/**
 * The admin audit trail: one append-only row per admin write (and per refusal worth keeping), with
 * who, from where, what, on which resource of which project, and the changed fields before and
 * after, secrets redacted. Written by AuditInterceptor (every @AdminAuth write) and the guards (their
 * refusals never reach an interceptor); read by platform admins (everything) and authors (their
 * projects' rows and their own account's).
 */
@Injectable()
export class AuditTrail {
  constructor(
    @InjectRepository(AuditEntry) private readonly entries: Repository<AuditEntry>,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    private readonly logger: JsonLogger,
  ) {}

  /** A write that succeeded: `answer` is what the handler answered, `secretFields` the body DTO's. */
  async recordSuccess(
    request: AdapterRequest,
    principal: AdminPrincipal | undefined,
    answer: unknown,
    secretFields: ReadonlySet<string>,
  ): Promise<void> {
    const context = requestContextOf(request);
    const notes = changeNotesOf(principal, context);
    const body =
      request.body && typeof request.body === 'object' && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : null;
    const base = this.base(request, principal ?? signedInActorOf(request), answer);
    if (!notes.length) {
      await this.insert({ ...base, outcome: 'success', changes: bodyChanges(request.method, body, answer, secretFields) });
      return;
    }
    for (const note of notes)
      await this.insert({ ...base, ...noted(note), outcome: 'success', changes: diff(note, secretFields) });
  }

  async recordRefusal(
    request: AdapterRequest,
    principal: AdminPrincipal | ActorNote | undefined,
    error: ServiceError,
  ): Promise<void> {
    await this.insert({ ...this.base(request, principal, null), outcome: 'refused', resultCode: error.code, changes: null });
  }

  async list(actor: AdminPrincipal, query: AuditQuery): Promise<Page<AuditEntryView>> {
    const [rows, total] = await this.filtered(actor, query)
      .orderBy('a.at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .skip(query.skip)
      .take(query.page_size)
      .getManyAndCount();
    return pageOf(rows.map(toView), total, query);
  }

  exportCsv(actor: AdminPrincipal, query: AuditQuery): StreamableFile {
    const pages = async function* (this: AuditTrail) {
      yield AUDIT_CSV_COLUMNS.join(',') + '\r\n';
      for (let before: string | null = null; ;) {
        const q = this.filtered(actor, query).orderBy('a.id', 'DESC').take(EXPORT_PAGE);
        if (before !== null) q.andWhere('a.id < :before', { before });
        const rows = await q.getMany();
        if (!rows.length) return;
        yield rows.map((r) => AUDIT_CSV_COLUMNS.map((c) => csvField(csvValue(toView(r)[c]))).join(',') + '\r\n').join('');
        if (rows.length < EXPORT_PAGE) return;
        before = rows[rows.length - 1].id;
      }
    }.call(this);
    const stream = Readable.from(pages, { objectMode: false, highWaterMark: 1 });
    stream.on('error', (error) => this.logger.entry('error', 'audit export failed part-way', { error: String(error) }));
    return new StreamableFile(stream, { type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="audit.csv"' });
  }

  private filtered(actor: AdminPrincipal, query: AuditQuery): SelectQueryBuilder<AuditEntry> {
    const q = this.entries.createQueryBuilder('a');
    if (actor.role !== 'platform_admin') {
      const owned = this.projects.createQueryBuilder('p').select('p.id').where('p.owner_id = :owner');
      q.andWhere(new Brackets((w) => w.where(`a.project_id IN (${owned.getQuery()})`).orWhere('a.actor_id = :owner')), {
        owner: actor.id,
      });
    }
    if (query.actor) q.andWhere('(a.actor_username = :actor OR a.actor_id::text = :actor)', { actor: query.actor });
    if (query.action) q.andWhere('a.action LIKE :action', { action: `${query.action.replace(/[%_\\]/g, '\\$&')}%` });
    if (query.resource_type) q.andWhere('a.resource_type = :type', { type: query.resource_type });
    if (query.resource_id) q.andWhere('a.resource_id = :rid', { rid: query.resource_id });
    if (query.project_id) q.andWhere('a.project_id = :project', { project: query.project_id });
    if (query.outcome) q.andWhere('a.outcome = :outcome', { outcome: query.outcome });
    if (query.from) q.andWhere('a.at >= :from', { from: query.from });
    if (query.to) q.andWhere('a.at < :to', { to: query.to });
    return q;
  }

  private base(request: AdapterRequest, actor: (ActorNote & Pick<AdminPrincipal, 'apiKey'>) | undefined, answer: unknown) {
    const context = requestContextOf(request);
    const route = routePatternOf((request.raw ?? request) as never);
    const target = targetOf(request.method, route, request.params ?? {}, answer);
    return {
      actorId: actor?.id ?? null,
      actorUsername: actor?.username ?? null,
      actorRole: actor?.role ?? null,
      actorApiKeyId: actor?.apiKey?.id ?? null,
      ...target,
      resultCode: null,
      method: request.method,
      route: route.slice(0, 200),
      ip: context.clientIp.slice(0, 64),
      requestId: context.requestId,
    };
  }

  private async insert(row: Partial<AuditEntry>): Promise<void> {
    // TypeORM's deep-partial type cannot follow a jsonb column's Record<string, unknown>.
    await this.entries.insert(row as QueryDeepPartialEntity<AuditEntry>);
  }
}

function noted(note: ChangeNote): Partial<AuditEntry> {
  return { ...(note.action ? { action: note.action } : {}), ...(note.resourceId ? { resourceId: note.resourceId } : {}) };
}

/** Without a service's note: a creation keeps the fields given, an update the asked fields as they now are. */
function bodyChanges(
  method: string,
  body: Record<string, unknown> | null,
  answer: unknown,
  secretFields: ReadonlySet<string>,
): Changes {
  if (!body || !Object.keys(body).length) return null;
  const asked = redact(body, secretFields) as Record<string, unknown>;
  if ((method === 'PATCH' || method === 'PUT') && answer && typeof answer === 'object') {
    const now = Object.fromEntries(
      Object.keys(body).map((k) => [k, k in answer ? (answer as Record<string, unknown>)[k] : body[k]]),
    );
    return { before: null, after: redact(now, secretFields) as Record<string, unknown> };
  }
  return { before: null, after: asked };
}

/** Only the fields that changed, each before and after. */
function diff(note: ChangeNote, secretFields: ReadonlySet<string>): Changes {
  const before = (redact(note.before ?? {}, secretFields) ?? {}) as Record<string, unknown>;
  const after = (redact(note.after ?? {}, secretFields) ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => !IGNORED.has(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return {
    before: note.before ? Object.fromEntries(keys.map((k) => [k, before[k] ?? null])) : null,
    after: note.after ? Object.fromEntries(keys.map((k) => [k, after[k] ?? null])) : null,
  };
}

function csvValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : (value as string | number);
}

function toView(row: AuditEntry): AuditEntryView {
  return {
    id: Number(row.id),
    at: row.at.toISOString(),
    actor_id: row.actorId,
    actor_username: row.actorUsername,
    actor_role: row.actorRole,
    actor_api_key_id: row.actorApiKeyId,
    action: row.action,
    outcome: row.outcome,
    result_code: row.resultCode,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    project_id: row.projectId,
    method: row.method,
    route: row.route,
    changes: row.changes,
    ip: row.ip,
    request_id: row.requestId,
  };
}
