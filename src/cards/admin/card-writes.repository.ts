import { DataSource, EntityManager } from 'typeorm';
import type { CardKind } from '../card.entity';
import type { BulkAction } from './card-bulk.dto';

/** Lifts a ban atomically: back to active when the card was ever activated, else unused. */
export const UNBAN_SQL = "CASE WHEN status <> 'banned' THEN status WHEN activated_at IS NULL THEN 'unused' ELSE 'active' END";

/**
 * What each action does to one chunk of cards: `$1` the project, `$2` the ids, `$3` the action's
 * value. The condition after the ids is "would this card change": a card already in that state is
 * matched but not changed, so `changed` counts real changes. A consumed top-up card (decisions §13)
 * is never banned, unbanned, extended, given an expiry or uses: it can never log in again. An unsold
 * stock card (decisions §26) is never banned: lifting the ban would make it a card nobody bought.
 */
const ACTION_SQL: Readonly<Record<BulkAction, string>> = {
  ban: `UPDATE cards SET status = 'banned' WHERE project_id = $1 AND id = ANY($2::int[]) AND status NOT IN ('banned', 'consumed', 'stock')
    RETURNING id, code, status`,
  unban: `UPDATE cards SET status = ${UNBAN_SQL} WHERE project_id = $1 AND id = ANY($2::int[]) AND status = 'banned'
    RETURNING id, code, status`,
  // The deleted rows come back for the refunds of unused cards of orders (order-refunds.ts).
  delete: `DELETE FROM cards WHERE project_id = $1 AND id = ANY($2::int[]) RETURNING id, status, order_id`,
  // A card never activated gains duration; an activated one gains time on its expiry; permanent
  // cards (duration 0 before activation, no expiry after it) have nothing to extend. Decided per
  // row in the statement, so a card activated meanwhile is extended the right way.
  extend: `UPDATE cards SET
      duration_seconds = CASE WHEN activated_at IS NULL THEN LEAST(duration_seconds::bigint + $3::integer, 2147483647)::integer ELSE duration_seconds END,
      expires_at = CASE WHEN activated_at IS NULL THEN expires_at ELSE expires_at + make_interval(secs => $3::integer) END
    WHERE project_id = $1 AND id = ANY($2::int[]) AND status <> 'consumed'
      AND CASE WHEN activated_at IS NULL THEN duration_seconds > 0 ELSE expires_at IS NOT NULL END`,
  // Only an activated card has an expiry of its own; one never activated gets it at its first login.
  set_expiry: `UPDATE cards SET expires_at = $3::timestamptz
    WHERE project_id = $1 AND id = ANY($2::int[]) AND status <> 'consumed' AND activated_at IS NOT NULL AND expires_at IS DISTINCT FROM $3::timestamptz`,
  set_uses: `UPDATE cards SET uses_left = $3::integer
    WHERE project_id = $1 AND id = ANY($2::int[]) AND status <> 'consumed' AND kind = 'count' AND uses_left IS DISTINCT FROM $3::integer`,
  set_note: `UPDATE cards SET note = $3::varchar WHERE project_id = $1 AND id = ANY($2::int[]) AND note IS DISTINCT FROM $3::varchar`,
  set_device_limit: `UPDATE cards SET device_limit = $3::integer WHERE project_id = $1 AND id = ANY($2::int[]) AND device_limit <> $3::integer`,
  set_concurrent_limit: `UPDATE cards SET concurrent_limit = $3::integer
    WHERE project_id = $1 AND id = ANY($2::int[]) AND concurrent_limit IS DISTINCT FROM $3::integer`,
};

/** Inserts one chunk of codes; a code the project already holds is skipped and drawn again. */
const INSERT_CODES = `
  INSERT INTO cards (project_id, code, duration_seconds, device_limit, note, batch_id, kind, uses_left, concurrent_limit, card_type_id, status)
  SELECT $1::uuid, fresh.code, $3::integer, $4::integer, $5::varchar, $6::uuid, $7::varchar, $8::integer, $9::integer, $10::integer, $11::varchar
  FROM unnest($2::varchar[]) AS fresh(code)
  ON CONFLICT (project_id, code) DO NOTHING
  RETURNING code`;

/** The fields every card of a generated chunk shares. */
export interface FreshCards {
  projectId: string;
  batchId: string;
  durationSeconds: number;
  deviceLimit: number;
  note: string | null;
  kind: CardKind;
  usesLeft: number | null;
  concurrentLimit: number | null;
  cardTypeId: number | null;
  /** `stock`: the type's unsold stock (decisions §26); otherwise new unused cards. */
  status: 'unused' | 'stock';
}

/**
 * The set-based writes of many cards at once, a chunk per statement in the caller's transaction:
 * a generation's new codes and a bulk action's change. Made per use with `in`.
 */
export class CardWritesRepository {
  private constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): CardWritesRepository {
    return new CardWritesRepository(db instanceof EntityManager ? db : db.manager);
  }

  /**
   * Inserts the codes as new cards; answers how many went in (the rest collided with the project's
   * codes). Raw: INSERT … SELECT over an unnest array, ON CONFLICT DO NOTHING RETURNING.
   */
  async insertFresh(cards: FreshCards, codes: string[]): Promise<number> {
    const inserted = (await this.em.query(INSERT_CODES, [
      cards.projectId,
      codes,
      cards.durationSeconds,
      cards.deviceLimit,
      cards.note,
      cards.batchId,
      cards.kind,
      cards.usesLeft,
      cards.concurrentLimit,
      cards.cardTypeId,
      cards.status,
    ])) as Array<{ code: string }>;
    return inserted.length;
  }

  /**
   * One bulk action on a chunk (`params`: the project, the ids, the action's value): the rows it
   * returned (ban, unban, delete) and how many cards it changed. Raw: a set-based UPDATE or DELETE
   * whose condition per action is "would this card change".
   */
  async bulk(action: BulkAction, params: unknown[]): Promise<{ rows: unknown[]; changed: number }> {
    const result: unknown = await this.em.query(ACTION_SQL[action], params);
    // TypeORM's PostgreSQL driver answers `[rows, count]` for an UPDATE or DELETE.
    if (Array.isArray(result) && result.length === 2 && typeof result[1] === 'number')
      return { rows: result[0] as unknown[], changed: result[1] };
    throw new Error('expected [rows, affected] from an UPDATE or DELETE');
  }
}
