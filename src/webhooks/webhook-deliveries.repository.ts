import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainEventType } from '../events/domain-event-types';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { WebhookFormat } from './webhook-formats';

/** A delivery with its event and every attempt, as the delivery log shows it. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  type: DomainEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
  project_id: string;
  data: unknown;
  event_created_at: Date;
  attempt_log: Array<Record<string, unknown>>;
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  event_id: string;
  endpoint_id: string;
  project_id: string;
  project_name: string;
  type: DomainEventType;
  data: unknown;
  created_at: Date;
  url: string;
  format: WebhookFormat;
}

/** What one claim may take: how many, for how long, and the shares of what this instance has in flight. */
export interface ClaimLimits {
  limit: number;
  leaseSeconds: number;
  busyEndpoints: Map<string, number>;
  busyProjects: Map<string, number>;
  perEndpoint: number;
  perProject: number;
}

/** One attempt's outcome: the delivery's next state, and the endpoint's failure clock. */
export interface AttemptRecord {
  delivery: ClaimedDelivery;
  httpStatus: number | null;
  durationMs: number;
  excerpt: string;
  error: string | null;
  status: WebhookDeliveryStatus;
  ok: boolean;
  /** Seconds until the next attempt; null: none. */
  wait: number | null;
  disableAfterSeconds: number;
}

/** The `webhook_deliveries` table with its events and attempts: the delivery log's and the dispatcher's queries. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectRepository(WebhookDelivery) private readonly rows: Repository<WebhookDelivery>) {}

  countOfEndpoint(endpointId: string): Promise<number> {
    return this.rows.count({ where: { endpointId } });
  }

  /** A page of an endpoint's deliveries, newest first. */
  pageOfEndpoint(endpointId: string, take: number, skip: number): Promise<DeliveryRow[]> {
    return this.withAttempts('d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2 OFFSET $3', [endpointId, take, skip]);
  }

  async find(id: string): Promise<DeliveryRow | undefined> {
    return (await this.withAttempts('d.id = $1', [id]))[0];
  }

  /** Makes a delivery of this endpoint due now, whatever its state; false when there is none. */
  async redeliver(id: string, endpointId: string): Promise<boolean> {
    const { affected } = await this.rows.update(
      { id, endpointId },
      { status: 'pending', nextAttemptAt: () => 'now()', deliveredAt: null },
    );
    return (affected ?? 0) > 0;
  }

  /** Records a `webhook.test` event and its one delivery, to this endpoint only; answers the delivery's id. */
  async recordTest(projectId: string, endpointId: string, data: unknown): Promise<string> {
    // Raw: a CTE writes the test event and its delivery in one statement.
    const [{ id }]: Array<{ id: string }> = await this.rows.query(
      `WITH event AS (INSERT INTO webhook_events (project_id, type, data) VALUES ($1, 'webhook.test', $2) RETURNING id)
       INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, $3 FROM event RETURNING id`,
      [projectId, JSON.stringify(data), endpointId],
    );
    return id;
  }

  /**
   * Claims up to `limit` due deliveries, each endpoint and project within its share. Raw: picks the
   * shares with window functions, then claims those rows with FOR UPDATE SKIP LOCKED and UPDATE …
   * RETURNING (a locking clause cannot sit beside a window).
   */
  claim(limits: ClaimLimits): Promise<ClaimedDelivery[]> {
    return this.rows.query(
      `WITH busy_endpoints AS (SELECT * FROM unnest($3::uuid[], $4::int[]) AS b(id, n)),
      busy_projects AS (SELECT * FROM unnest($5::uuid[], $6::int[]) AS b(id, n)),
      shares AS (
        SELECT q.id, q.next_attempt_at,
          row_number() OVER (PARTITION BY q.endpoint_id ORDER BY q.next_attempt_at, q.id) + coalesce(be.n, 0) AS endpoint_slot,
          row_number() OVER (PARTITION BY w.project_id ORDER BY q.next_attempt_at, q.id) + coalesce(bp.n, 0) AS project_slot
        FROM webhook_deliveries q
        JOIN webhook_endpoints w ON w.id = q.endpoint_id AND w.enabled
        LEFT JOIN busy_endpoints be ON be.id = q.endpoint_id
        LEFT JOIN busy_projects bp ON bp.id = w.project_id
        WHERE q.status = 'pending' AND q.next_attempt_at <= now()
      ),
      claimed AS (
        UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
        WHERE d.id IN (
          SELECT q.id FROM webhook_deliveries q
          WHERE q.id IN (SELECT id FROM shares WHERE endpoint_slot <= $7 AND project_slot <= $8 ORDER BY next_attempt_at LIMIT $1)
            AND q.status = 'pending' AND q.next_attempt_at <= now()
          FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.attempts, d.event_id, d.endpoint_id
      )
      SELECT c.*, e.project_id, p.name AS project_name, e.type, e.data, e.created_at, w.url, w.format
      FROM claimed c JOIN webhook_events e ON e.id = c.event_id JOIN webhook_endpoints w ON w.id = c.endpoint_id JOIN projects p ON p.id = e.project_id`,
      [
        limits.limit,
        limits.leaseSeconds,
        [...limits.busyEndpoints.keys()],
        [...limits.busyEndpoints.values()],
        [...limits.busyProjects.keys()],
        [...limits.busyProjects.values()],
        limits.perEndpoint,
        limits.perProject,
      ],
    );
  }

  /**
   * Records an attempt, the delivery's state and the endpoint's failure clock; answers the endpoint's
   * state after it. Raw: one CTE writes all three, so no attempt is recorded without the rest.
   */
  async record(r: AttemptRecord): Promise<{ enabled: boolean; disabled_reason: string | null } | undefined> {
    const [endpoint] = (await this.rows.query(
      `WITH attempt AS (
        INSERT INTO webhook_attempts (delivery_id, attempt, http_status, duration_ms, response_excerpt, error)
        VALUES ($1, $2, $3, $4, $5, $6)
      ), delivery AS (
        UPDATE webhook_deliveries SET status = $7, last_http_status = $3,
          delivered_at = CASE WHEN $8::boolean THEN now() END,
          next_attempt_at = CASE WHEN $9::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $9::float8) END
        WHERE id = $1
      )
      UPDATE webhook_endpoints w SET
        failing_since = CASE WHEN $8::boolean THEN NULL ELSE COALESCE(w.failing_since, now()) END,
        enabled = w.enabled AND ($8::boolean OR w.failing_since IS NULL OR w.failing_since > now() - make_interval(secs => $11)),
        disabled_reason = CASE WHEN NOT $8::boolean AND w.enabled AND w.failing_since <= now() - make_interval(secs => $11) THEN 'failing' ELSE w.disabled_reason END
      WHERE w.id = $10
      RETURNING w.enabled, w.disabled_reason`,
      [
        r.delivery.id,
        r.delivery.attempts,
        r.httpStatus,
        r.durationMs,
        r.excerpt,
        r.error,
        r.status,
        r.ok,
        r.wait,
        r.delivery.endpoint_id,
        r.disableAfterSeconds,
      ],
    )) as [Array<{ enabled: boolean; disabled_reason: string | null }>, number];
    return Array.isArray(endpoint) ? endpoint[0] : undefined;
  }

  /** Raw: deliveries with their attempts as JSON (json_agg), which the query builder cannot say. */
  private withAttempts(where: string, params: unknown[]): Promise<DeliveryRow[]> {
    return this.rows.query(
      `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.delivered_at, d.created_at,
          e.project_id, e.data, e.created_at AS event_created_at,
          COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'attempted_at', a.attempted_at, 'http_status', a.http_status,
            'duration_ms', a.duration_ms, 'response_excerpt', a.response_excerpt, 'error', a.error) ORDER BY a.id)
            FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
        FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE ${where}`,
      params,
    );
  }
}
