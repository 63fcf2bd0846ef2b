import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AdminPrincipal } from '../admin-auth/admin-principal';
import { Page, pageOf, PageQuery } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DomainEvents } from '../events/domain-events';
import { PlatformService } from '../platform/platform.service';
import { AppConfig } from '../config/app-config';
import { ProjectAccess } from '../projects/project-access';
import { Project } from '../projects/project.entity';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryView, WebhookView } from './webhook.dto';
import { resolvePublic, TargetRefused, targetHost } from './webhook-targets';
import { mayReadCards, withShortCardKeys } from './webhook-card-keys';

interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  format: WebhookView['format'];
  enabled: boolean;
  disabled_reason: 'failing' | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = 'id, url, events, format, enabled, disabled_reason, failing_since, created_at, updated_at';

/**
 * A project's webhook endpoints and their delivery log (decisions §20). Tenancy is the projects'
 * (ProjectAccess): another author's endpoint is WEBHOOK_NOT_FOUND, its project PROJECT_NOT_FOUND.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly platform: PlatformService,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
  ) {}

  async list(actor: AdminPrincipal, projectId: string): Promise<{ items: WebhookView[]; total: number }> {
    const project = await this.access.find(actor, projectId);
    // Raw: webhook tables have no entities; rows as the view takes them.
    const rows: EndpointRow[] = await this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE project_id = $1 ORDER BY created_at, id`,
      [project.id],
    );
    return { items: rows.map(toView), total: rows.length };
  }

  async get(actor: AdminPrincipal, projectId: string, webhookId: string): Promise<WebhookView> {
    const project = await this.access.find(actor, projectId);
    return toView(await this.find(project.id, webhookId));
  }

  async create(actor: AdminPrincipal, projectId: string, input: CreateWebhookDto): Promise<WebhookView> {
    const project = await this.access.find(actor, projectId);
    const format = input.format ?? 'json';
    await this.checkTarget(input.url, format);
    const limit = this.config.WEBHOOK_ENDPOINTS_PER_PROJECT;
    const row = await this.dataSource.transaction(async (em) => {
      // The project's row, locked against other creations only (logins and orders take no such lock),
      // makes the count and the insert one step: concurrent creations cannot pass the cap together.
      await em.getRepository(Project).findOne({ where: { id: project.id }, lock: { mode: 'for_no_key_update' } });
      // Raw: INSERT … SELECT … RETURNING, only while the project has room (webhook tables have no entities).
      const [created]: EndpointRow[] = await em.query(
        `INSERT INTO webhook_endpoints (project_id, url, events, format, enabled)
         SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhook_endpoints WHERE project_id = $1) < $6
         RETURNING ${ENDPOINT_COLUMNS}`,
        [project.id, input.url, input.events, format, input.enabled ?? true, limit],
      );
      return created;
    });
    if (!row)
      throw new ServiceError(ErrorCode.CONFLICT, `A project has at most ${limit} webhook endpoints`, {
        details: { limit },
      });
    return toView(row);
  }

  async update(actor: AdminPrincipal, projectId: string, webhookId: string, input: UpdateWebhookDto): Promise<WebhookView> {
    const project = await this.access.find(actor, projectId);
    const current = await this.find(project.id, webhookId);
    const url = input.url ?? current.url;
    const format = input.format ?? current.format;
    if (input.url !== undefined || input.format !== undefined) await this.checkTarget(url, format);
    // Switching an endpoint on clears the service's disabling and starts the failure clock again.
    const [[row]]: [EndpointRow[], number] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET url = $3, events = $4, format = $5, enabled = $6, updated_at = now(),
        disabled_reason = CASE WHEN $6 THEN NULL ELSE disabled_reason END,
        failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END
       WHERE project_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [project.id, current.id, url, input.events ?? current.events, format, input.enabled ?? current.enabled],
    );
    return toView(row);
  }

  async remove(actor: AdminPrincipal, projectId: string, webhookId: string): Promise<void> {
    const project = await this.access.find(actor, projectId);
    // Raw: webhook_endpoints has no entity.
    const [, affected]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2',
      [project.id, webhookId],
    );
    if (!affected) throw new ServiceError(ErrorCode.WEBHOOK_NOT_FOUND);
  }

  /** The endpoint's deliveries, newest first, each with every attempt. */
  async deliveries(
    actor: AdminPrincipal,
    projectId: string,
    webhookId: string,
    query: PageQuery,
  ): Promise<Page<WebhookDeliveryView>> {
    const project = await this.access.find(actor, projectId);
    const endpoint = await this.find(project.id, webhookId);
    // Raw: webhook_deliveries has no entity.
    const [{ total }] = await this.dataSource.query(
      'SELECT count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    const rows = await this.deliveryRows(actor, 'd.endpoint_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2 OFFSET $3', [
      endpoint.id,
      query.page_size,
      query.skip,
    ]);
    return pageOf(rows, total, query);
  }

  /**
   * Sends a delivery again: it is due now, whatever its state. A delivery that had used its 15
   * attempts gets this one more; a pending one is merely brought forward.
   */
  async redeliver(actor: AdminPrincipal, projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const project = await this.access.find(actor, projectId);
    const endpoint = await this.find(project.id, webhookId);
    // Raw: webhook_deliveries has no entity.
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), delivered_at = NULL WHERE id = $1 AND endpoint_id = $2`,
      [deliveryId, endpoint.id],
    );
    if (!affected) throw new ServiceError(ErrorCode.WEBHOOK_DELIVERY_NOT_FOUND);
    this.events.recorded();
    return (await this.deliveryRows(actor, 'd.id = $1', [deliveryId]))[0];
  }

  /** A `webhook.test` event delivered to this endpoint only, whatever it subscribes to. */
  async test(actor: AdminPrincipal, projectId: string, webhookId: string): Promise<WebhookDeliveryView> {
    const project = await this.access.find(actor, projectId);
    const endpoint = await this.find(project.id, webhookId);
    const data = { endpoint_id: endpoint.id, message: 'This is a test event from the card-key service.' };
    // Raw: a CTE writes the test event and its delivery in one statement.
    const [{ id }] = await this.dataSource.query(
      `WITH event AS (INSERT INTO webhook_events (project_id, type, data) VALUES ($1, 'webhook.test', $2) RETURNING id)
       INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, $3 FROM event RETURNING id`,
      [project.id, JSON.stringify(data), endpoint.id],
    );
    this.events.recorded();
    return (await this.deliveryRows(actor, 'd.id = $1', [id]))[0];
  }

  private async find(projectId: string, webhookId: string): Promise<EndpointRow> {
    // Raw: webhook_endpoints has no entity.
    const [row]: EndpointRow[] = await this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE project_id = $1 AND id = $2`,
      [projectId, webhookId],
    );
    if (!row) throw new ServiceError(ErrorCode.WEBHOOK_NOT_FOUND);
    return row;
  }

  /** Deliveries as `actor` may see them: card keys in the payloads in full only to whoever may read cards. */
  private async deliveryRows(actor: AdminPrincipal, where: string, params: unknown[]): Promise<WebhookDeliveryView[]> {
    const cardKeys = mayReadCards(actor);
    // Raw: deliveries with their attempts as JSON (json_agg), which the query builder cannot say.
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.delivered_at, d.created_at,
          e.project_id, e.data, e.created_at AS event_created_at,
          COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'attempted_at', a.attempted_at, 'http_status', a.http_status,
            'duration_ms', a.duration_ms, 'response_excerpt', a.response_excerpt, 'error', a.error) ORDER BY a.id)
            FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
        FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE ${where}`,
      params,
    );
    return rows.map((r) => ({
      id: r.id as string,
      event_id: r.event_id as string,
      type: r.type as WebhookDeliveryView['type'],
      status: r.status as WebhookDeliveryView['status'],
      attempts: r.attempts as number,
      next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at as Date) : null,
      delivered_at: r.delivered_at ? iso(r.delivered_at as Date) : null,
      created_at: iso(r.created_at as Date),
      payload: {
        id: r.event_id,
        type: r.type,
        created_at: iso(r.event_created_at as Date),
        project_id: r.project_id,
        data: cardKeys ? r.data : withShortCardKeys(r.data),
      },
      attempt_log: (r.attempt_log as Array<Record<string, unknown>>).map((a) => ({
        attempt: a.attempt as number,
        attempted_at: new Date(a.attempted_at as string).toISOString(),
        http_status: a.http_status as number | null,
        duration_ms: a.duration_ms as number,
        response_excerpt: a.response_excerpt as string,
        error: a.error as string | null,
      })),
    }));
  }

  /** http(s) only, resolving to public addresses unless the platform allows private ones; Telegram needs its chat. */
  private async checkTarget(url: string, format: WebhookView['format']): Promise<void> {
    const allowPrivate = (await this.platform.getSettings()).webhook_private_targets;
    try {
      const target = targetHost(url);
      if (format === 'telegram' && !target.searchParams.get('chat_id'))
        throw new TargetRefused('a telegram URL names its chat: ?chat_id=…');
      await resolvePublic(target.hostname, allowPrivate);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      throw new ServiceError(ErrorCode.WEBHOOK_TARGET_REFUSED, `url: ${error.reason}`, {
        details: { url, reason: error.reason },
      });
    }
  }
}

function iso(value: Date): string {
  return new Date(value).toISOString();
}

function toView(row: EndpointRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookView['events'],
    format: row.format,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    failing_since: row.failing_since ? iso(row.failing_since) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
