import { DataSource, EntityManager } from 'typeorm';
import { Card } from '../cards/card.entity';
import type { DeletedCard } from '../cards/deleted-card-refunds';
import { Order } from './order.entity';

/** What a refund reads of its order, as it adds the refunded cards to it. */
export type RefundedOrder = Pick<
  Order,
  | 'projectId'
  | 'orderId'
  | 'cardTypeId'
  | 'agentId'
  | 'unitPriceCents'
  | 'commissionAgentId'
  | 'commissionUnitCents'
  | 'createdAt'
>;

/**
 * The orders and the cards they made (`orders`, `cards.order_id`): made per use with `in`, on the
 * data source or a transaction's manager.
 */
export class OrdersRepository {
  constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): OrdersRepository {
    return new OrdersRepository(db instanceof EntityManager ? db : db.manager);
  }

  /** The project's order with the buyer's reference `orderId`. */
  find(projectId: string, orderId: string): Promise<Order | null> {
    return this.em.findOneBy(Order, { projectId, orderId });
  }

  byId(id: string): Promise<Order | null> {
    return this.em.findOneBy(Order, { id });
  }

  /** Newest first; of one agent when `agentId` is given. */
  page(projectId: string, agentId: string | null, skip: number, take: number): Promise<[Order[], number]> {
    return this.em.findAndCount(Order, {
      where: agentId === null ? { projectId } : { projectId, agentId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip,
      take,
    });
  }

  /** Answers its id; a twin with the same (project, order_id) fails on the unique index (waiting for it first). */
  async insert(
    order: Pick<
      Order,
      | 'projectId'
      | 'orderId'
      | 'cardTypeId'
      | 'count'
      | 'agentId'
      | 'actorId'
      | 'unitPriceCents'
      | 'totalCents'
      | 'commissionAgentId'
      | 'commissionUnitCents'
    >,
  ): Promise<string> {
    const { identifiers } = await this.em.insert(Order, order);
    return identifiers[0].id as string;
  }

  /** The order's cards are the batch's: each remembers the order and its agent. */
  async attachBatch(orderId: string, batchId: string, agentId: string | null): Promise<void> {
    await this.em.update(Card, { batchId }, { orderId, agentId });
    await this.em.update(Order, { id: orderId }, { batchId });
  }

  /**
   * Sells unsold stock cards of the type to the order (decisions §26): each still `stock` turns
   * `unused`, out of any reservation, and remembers the order and its agent; answers their ids in
   * id order. The conditional UPDATE … RETURNING sells each card once, to whichever transaction
   * gets it.
   */
  async sellStockCards(
    orderId: string,
    agentId: string | null,
    projectId: string,
    cardTypeId: number,
    cardIds: number[],
  ): Promise<number[]> {
    const { raw } = await this.em
      .createQueryBuilder()
      .update(Card)
      .set({ status: 'unused', orderId, agentId, reservedBy: null, reservedUntil: null })
      .where("project_id = :projectId AND card_type_id = :cardTypeId AND id = ANY(:cardIds) AND status = 'stock'", {
        projectId,
        cardTypeId,
        cardIds,
      })
      .returning(['id'])
      .execute();
    return (raw as Array<{ id: number }>).map((c) => Number(c.id)).sort((a, b) => a - b);
  }

  /**
   * Deletes the order's unused cards (those of `cardIds` only, when given) and hands them over:
   * two deletions of one card queue on its row, and only the first gets it back.
   */
  async deleteUnusedCards(projectId: string, orderId: string, cardIds: number[] | null): Promise<DeletedCard[]> {
    const query = this.em
      .createQueryBuilder()
      .delete()
      .from(Card)
      .where('project_id = :projectId AND order_id = :orderId AND status = :status', { projectId, orderId, status: 'unused' });
    if (cardIds !== null) query.andWhere('id = ANY(CAST(:cardIds AS int[]))', { cardIds });
    const { raw } = await query.returning(['id', 'status', 'orderId']).execute();
    return raw as DeletedCard[];
  }

  /** The project's unused cards of any order, deleted and handed over as `deleteUnusedCards` does. */
  async deleteUnusedCardsOfProject(projectId: string): Promise<DeletedCard[]> {
    const { raw } = await this.em
      .createQueryBuilder()
      .delete()
      .from(Card)
      .where('project_id = :projectId AND order_id IS NOT NULL AND status = :status', { projectId, status: 'unused' })
      .returning(['id', 'status', 'orderId'])
      .execute();
    return raw as DeletedCard[];
  }

  /** Adds `n` refunded cards to the order and reads it in the same statement; null: no such order. */
  async addRefunded(orderId: string, n: number): Promise<RefundedOrder | null> {
    const { raw } = await this.em
      .createQueryBuilder()
      .update(Order)
      .set({ refundedCount: () => 'refunded_count + :n' })
      .setParameter('n', n)
      .where('id = :orderId', { orderId })
      .returning([
        'projectId',
        'orderId',
        'cardTypeId',
        'agentId',
        'unitPriceCents',
        'commissionAgentId',
        'commissionUnitCents',
        'createdAt',
      ])
      .execute();
    const row = (raw as Array<Record<string, unknown>>)[0];
    if (!row) return null;
    return {
      projectId: (row.project_id as string | null) ?? null,
      orderId: row.order_id as string,
      cardTypeId: row.card_type_id === null ? null : Number(row.card_type_id),
      agentId: (row.agent_id as string | null) ?? null,
      unitPriceCents: Number(row.unit_price_cents),
      commissionAgentId: (row.commission_agent_id as string | null) ?? null,
      commissionUnitCents: Number(row.commission_unit_cents),
      createdAt: new Date(row.created_at as string),
    };
  }

  /** The project's orders outlive it: project and card type unset. */
  async detachFromProject(projectId: string): Promise<void> {
    await this.em.update(Order, { projectId }, { projectId: null, cardTypeId: null });
  }
}
