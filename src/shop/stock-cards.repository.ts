import { Injectable } from '@nestjs/common';
import { EntityManager, In, Raw } from 'typeorm';
import { Card } from '../cards/card.entity';

/** Not reserved, or reserved by a checkout whose time has passed (the database's clock). */
const FREE_NOW = Raw((column) => `(${column} IS NULL OR ${column} <= now())`);

/**
 * A card type's unsold stock (decisions §26): cards with the status `stock`, reserved by a checkout
 * through `cards.reserved_by` until `cards.reserved_until` (migration 1766700000000). A reservation
 * past its time is free for the next checkout: expired checkouts give their cards back lazily, at
 * the next checkout that needs them, with no sweep. The entity selects those two columns only when
 * asked, so no login reads them.
 */
@Injectable()
export class StockCardsRepository {
  /**
   * Reserves up to `count` free stock cards of the type for the checkout until `until`, in the
   * caller's transaction; answers the ids. Checkouts racing for the last cards each lock different
   * rows (a row another transaction holds is skipped, never waited for), so no card is reserved
   * twice and no checkout waits on another; one that gets fewer than it needs rolls back.
   */
  async reserve(
    em: EntityManager,
    pick: { projectId: string; cardTypeId: number; checkoutId: string; until: Date; count: number },
  ): Promise<number[]> {
    if (pick.count <= 0) return [];
    // Raw: UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING.
    const [rows] = (await em.query(
      `UPDATE cards SET reserved_by = $3, reserved_until = $4
       WHERE id IN (
         SELECT id FROM cards
         WHERE project_id = $1 AND card_type_id = $2 AND status = 'stock' AND (reserved_until IS NULL OR reserved_until <= now())
         ORDER BY id LIMIT $5
         FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [pick.projectId, pick.cardTypeId, pick.checkoutId, pick.until, pick.count],
    )) as [Array<{ id: number }>, number];
    return rows.map((r) => Number(r.id));
  }

  /**
   * The stock cards still reserved for the checkout, its time passed or not (nobody else took them),
   * locked in the caller's transaction.
   */
  async reservedFor(em: EntityManager, projectId: string, checkoutId: string): Promise<number[]> {
    const rows = await em.find(Card, {
      select: { id: true },
      where: { reservedBy: checkoutId, projectId, status: 'stock' },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    return rows.map((r) => r.id);
  }

  /** Gives the checkout's reservations back at once (a checkout that will never be paid). */
  async release(em: EntityManager, projectId: string, checkoutId: string): Promise<void> {
    await em.update(Card, { reservedBy: checkoutId, projectId, status: 'stock' }, { reservedBy: null, reservedUntil: null });
  }

  /** Unsold stock cards of a type not reserved now: what a checkout could still take. */
  async available(projectId: string, cardTypeId: number, em: EntityManager): Promise<number> {
    return em.count(Card, { where: { projectId, cardTypeId, status: 'stock', reservedUntil: FREE_NOW } });
  }

  /** Of the given types, those with no unsold stock card free now: the storefront shows them sold out. */
  async soldOut(projectId: string, cardTypeIds: number[], em: EntityManager): Promise<Set<number>> {
    if (cardTypeIds.length === 0) return new Set();
    const rows = await em
      .createQueryBuilder(Card, 'c')
      .select('DISTINCT c.card_type_id', 'id')
      .where({ projectId, cardTypeId: In(cardTypeIds), status: 'stock', reservedUntil: FREE_NOW })
      .getRawMany<{ id: number }>();
    const stocked = new Set(rows.map((r) => Number(r.id)));
    return new Set(cardTypeIds.filter((id) => !stocked.has(id)));
  }
}
