import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEventData, DomainEventType } from './domain-event-types';

/** Something that runs SQL: the EntityManager of the transaction where the rule writes (or a DataSource). */
export type Queryable = Pick<EntityManager, 'query'>;

/**
 * SQL for a statement that records events beside its own writes (the login writers): `source` names
 * a CTE with columns `project_id uuid, type text, data jsonb`; this adds the CTEs that store each
 * event a project's enabled endpoints subscribe to and one pending delivery per such endpoint. An
 * event nobody subscribes to writes nothing. Follows a `WITH … ,` list (it starts with a CTE name).
 */
export function outboxCtes(source: string): string {
  return `outbox_events AS (
      INSERT INTO webhook_events (project_id, type, data)
      SELECT s.project_id, s.type, s.data FROM ${source} s
      WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = s.project_id AND w.enabled AND s.type = ANY(w.events))
      RETURNING id, project_id, type
    ), outbox_deliveries AS (
      INSERT INTO webhook_deliveries (event_id, endpoint_id)
      SELECT e.id, w.id FROM outbox_events e JOIN webhook_endpoints w ON w.project_id = e.project_id AND w.enabled AND e.type = ANY(w.events)
    )`;
}

/** An ISO 8601 UTC string of a timestamptz expression in SQL, as JavaScript's toISOString writes it (null stays null). */
export function isoSql(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

const EMIT = `WITH source AS (SELECT $1::uuid AS project_id, $2::text AS type, d AS data FROM unnest($3::jsonb[]) d), ${outboxCtes('source')}
  SELECT count(*)::int AS events FROM outbox_events`;

/**
 * The seam between the rules and what reacts to them (webhooks, decisions §20). A rule calls
 * `emit` with the EntityManager of the transaction in which it writes its change: the event and its
 * deliveries commit or roll back with the change, so an acknowledged change always has its event
 * and a rolled-back one never does. Nothing is sent here: the webhook dispatcher of any instance
 * picks the deliveries up (src/webhooks/webhook-dispatcher.ts), so no request waits for a receiver.
 * Emit from the service where the rule lives, never from a controller.
 */
@Injectable()
export class DomainEvents {
  private readonly listeners: Array<() => void> = [];

  /** One event of `type` about `projectId`. */
  emit<T extends DomainEventType>(em: Queryable, projectId: string, type: T, data: DomainEventData[T]): Promise<number> {
    return this.emitMany(em, projectId, type, [data]);
  }

  /** Several events of one type in one statement (bulk bans, a project forced offline). Answers how many were recorded. */
  async emitMany<T extends DomainEventType>(
    em: Queryable,
    projectId: string,
    type: T,
    data: Array<DomainEventData[T]>,
  ): Promise<number> {
    if (data.length === 0) return 0;
    // Raw: the outbox CTEs write every event and its deliveries in one statement, over unnest.
    const [row] = (await em.query(EMIT, [projectId, type, data.map((d) => JSON.stringify(d))])) as Array<{ events: number }>;
    if (row.events > 0) this.recorded();
    return row.events;
  }

  /**
   * Tells this instance's dispatcher that deliveries may be waiting (it polls anyway, for other
   * instances' events; this only shortens the wait). Writers that record events in their own
   * statements call it after the statement.
   */
  recorded(): void {
    for (const listener of this.listeners) listener();
  }

  onRecorded(listener: () => void): void {
    this.listeners.push(listener);
  }
}
