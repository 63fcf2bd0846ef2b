import { Injectable } from '@nestjs/common';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, pageOf, PageQuery } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DomainEvents } from '../events/domain-events';
import { PlatformService } from '../platform/platform.service';
import { AppConfig } from '../config/app-config';
import { ProjectAccess } from '../projects/project-access';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryView, WebhookView } from './webhook.dto';
import { resolvePublic, TargetRefused, targetHost } from '../common/outbound-targets';
import { mayReadCards, withShortCardKeys } from './webhook-card-keys';
import { DeliveryRow, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * A project's webhook endpoints and their delivery log (decisions §20). Tenancy is the projects'
 * (ProjectAccess): another author's endpoint is WEBHOOK_NOT_FOUND, its project PROJECT_NOT_FOUND.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveryLog: WebhookDeliveriesRepository,
    private readonly access: ProjectAccess,
    private readonly platform: PlatformService,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
  ) {}

  async list(actor: AdminPrincipal, projectId: string): Promise<{ items: WebhookView[]; total: number }> {
    const project = await this.access.find(actor, projectId);
    const rows = await this.endpoints.listOfProject(project.id);
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
    const row = await this.endpoints.createWithinLimit(
      project.id,
      { url: input.url, events: input.events, format, enabled: input.enabled ?? true },
      limit,
    );
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
    const row = await this.endpoints.update(project.id, current.id, {
      url,
      events: input.events ?? current.events,
      format,
      enabled: input.enabled ?? current.enabled,
    });
    return toView(row);
  }

  async remove(actor: AdminPrincipal, projectId: string, webhookId: string): Promise<void> {
    const project = await this.access.find(actor, projectId);
    if (!(await this.endpoints.delete(project.id, webhookId))) throw new ServiceError(ErrorCode.WEBHOOK_NOT_FOUND);
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
    const total = await this.deliveryLog.countOfEndpoint(endpoint.id);
    const rows = await this.deliveryLog.pageOfEndpoint(endpoint.id, query.page_size, query.skip);
    return pageOf(rows.map(deliveryView(actor)), total, query);
  }

  /**
   * Sends a delivery again: it is due now, whatever its state. A delivery that had used its 15
   * attempts gets this one more; a pending one is merely brought forward.
   */
  async redeliver(actor: AdminPrincipal, projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const project = await this.access.find(actor, projectId);
    const endpoint = await this.find(project.id, webhookId);
    if (!(await this.deliveryLog.redeliver(deliveryId, endpoint.id)))
      throw new ServiceError(ErrorCode.WEBHOOK_DELIVERY_NOT_FOUND);
    this.events.recorded();
    return this.delivery(actor, deliveryId);
  }

  /** A `webhook.test` event delivered to this endpoint only, whatever it subscribes to. */
  async test(actor: AdminPrincipal, projectId: string, webhookId: string): Promise<WebhookDeliveryView> {
    const project = await this.access.find(actor, projectId);
    const endpoint = await this.find(project.id, webhookId);
    const data = { endpoint_id: endpoint.id, message: 'This is a test event from the card-key service.' };
    const id = await this.deliveryLog.recordTest(project.id, endpoint.id, data);
    this.events.recorded();
    return this.delivery(actor, id);
  }

  private async find(projectId: string, webhookId: string): Promise<WebhookEndpoint> {
    const row = await this.endpoints.find(projectId, webhookId);
    if (!row) throw new ServiceError(ErrorCode.WEBHOOK_NOT_FOUND);
    return row;
  }

  /** One delivery as `actor` may see it. */
  private async delivery(actor: AdminPrincipal, deliveryId: string): Promise<WebhookDeliveryView> {
    const row = await this.deliveryLog.find(deliveryId);
    return (row ? [row] : []).map(deliveryView(actor))[0];
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

function toView(row: WebhookEndpoint): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    format: row.format,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    failing_since: row.failingSince ? iso(row.failingSince) : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** Deliveries as `actor` may see them: card keys in the payloads in full only to whoever may read cards. */
function deliveryView(actor: AdminPrincipal): (r: DeliveryRow) => WebhookDeliveryView {
  const cardKeys = mayReadCards(actor);
  return (r) => ({
    id: r.id,
    event_id: r.event_id,
    type: r.type as WebhookDeliveryView['type'],
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    delivered_at: r.delivered_at ? iso(r.delivered_at) : null,
    created_at: iso(r.created_at),
    payload: {
      id: r.event_id,
      type: r.type,
      created_at: iso(r.event_created_at),
      project_id: r.project_id,
      data: cardKeys ? r.data : withShortCardKeys(r.data),
    },
    attempt_log: r.attempt_log.map((a) => ({
      attempt: a.attempt as number,
      attempted_at: new Date(a.attempted_at as string).toISOString(),
      http_status: a.http_status as number | null,
      duration_ms: a.duration_ms as number,
      response_excerpt: a.response_excerpt as string,
      error: a.error as string | null,
    })),
  });
}
