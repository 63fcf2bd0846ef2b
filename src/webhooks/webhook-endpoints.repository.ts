import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainEventType } from '../events/domain-event-types';
import { Project } from '../projects/project.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookFormat } from './webhook-formats';

/** An endpoint's writable fields, as the author's API sets them. */
export interface EndpointFields {
  url: string;
  events: DomainEventType[];
  format: WebhookFormat;
  enabled: boolean;
}

interface EndpointRow {
  id: string;
  url: string;
  events: DomainEventType[];
  format: WebhookFormat;
  enabled: boolean;
  disabled_reason: 'failing' | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = 'id, url, events, format, enabled, disabled_reason, failing_since, created_at, updated_at';

/** The `webhook_endpoints` table: every query the webhooks' API makes on it. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectRepository(WebhookEndpoint) private readonly rows: Repository<WebhookEndpoint>) {}

  /** A project's endpoints, oldest first. */
  listOfProject(projectId: string): Promise<WebhookEndpoint[]> {
    return this.rows.find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(projectId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.rows.findOneBy({ projectId, id });
  }

  /** The new endpoint, or null when the project already has `limit` of them. */
  async createWithinLimit(projectId: string, fields: EndpointFields, limit: number): Promise<WebhookEndpoint | null> {
    const row = await this.rows.manager.transaction(async (em) => {
      // The project's row, locked against other creations only (logins and orders take no such lock),
      // makes the count and the insert one step: concurrent creations cannot pass the cap together.
      await em.getRepository(Project).findOne({ where: { id: projectId }, lock: { mode: 'for_no_key_update' } });
      // Raw: INSERT … SELECT … RETURNING inserts only while the project has room, in one statement.
      const [created]: EndpointRow[] = await em.query(
        `INSERT INTO webhook_endpoints (project_id, url, events, format, enabled)
         SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhook_endpoints WHERE project_id = $1) < $6
         RETURNING ${ENDPOINT_COLUMNS}`,
        [projectId, fields.url, fields.events, fields.format, fields.enabled, limit],
      );
      return created;
    });
    return row ? endpointOf(projectId, row) : null;
  }

  /**
   * Sets the fields. Switching an endpoint on clears the service's disabling and starts the failure
   * clock again. Raw: a conditional UPDATE … RETURNING, whose rules read the row's current values.
   */
  async update(projectId: string, id: string, fields: EndpointFields): Promise<WebhookEndpoint> {
    const [[row]]: [EndpointRow[], number] = await this.rows.query(
      `UPDATE webhook_endpoints SET url = $3, events = $4, format = $5, enabled = $6, updated_at = now(),
        disabled_reason = CASE WHEN $6 THEN NULL ELSE disabled_reason END,
        failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END
       WHERE project_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [projectId, id, fields.url, fields.events, fields.format, fields.enabled],
    );
    return endpointOf(projectId, row);
  }

  /** Whether a row was deleted (false: there was none). */
  async delete(projectId: string, id: string): Promise<boolean> {
    const { affected } = await this.rows.delete({ projectId, id });
    return (affected ?? 0) > 0;
  }
}

function endpointOf(projectId: string, row: EndpointRow): WebhookEndpoint {
  return Object.assign(new WebhookEndpoint(), {
    id: row.id,
    projectId,
    url: row.url,
    events: row.events,
    format: row.format,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
