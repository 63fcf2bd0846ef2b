import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AgentRow } from '../agents/agent-rows';
import { AgentLedgerRepository } from '../agents/agent-ledger.repository';
import { changeBalance, lockBalances } from '../agents/ledger';
import { CardBatchesService } from '../cards/admin/card-batches.service';
import { CardType } from '../cards/types/card-type.entity';
import { DomainEvents } from '../events/domain-events';
import { OrdersRepository } from './orders.repository';
import { SalesCountsRepository } from '../sales/sales-counts.repository';

/** An order to write, its prices already decided by whoever sells (decisions §19, §26). */
export interface NewOrder {
  projectId: string;
  /** The buyer's reference, unique in the project: a replay with it finds this order. */
  orderId: string;
  /** Locked by the caller in its transaction (CardTypesService.usable with the same manager, or FOR SHARE). */
  type: CardType;
  count: number;
  /** Who placed it (the author of a storefront sale). */
  actorId: string | null;
  /** The agent paying from its balance; null: nothing is debited (an author's or a storefront's order). */
  agent: AgentRow | null;
  /** The agent's parent earning `commissionUnitCents` a card; null when none does. */
  commissionAgent: AgentRow | null;
  unitCents: number;
  commissionUnitCents: number;
  /**
   * The type's unsold stock cards to sell, exactly `count` of them, taken by the caller in its
   * transaction; absent: the cards are made from the type.
   */
  stockCardIds?: number[];
}

export interface PlacedOrder {
  /** orders.id */
  id: string;
  /** The order's cards, in id order. */
  cardIds: number[];
  /** The batch its cards were made in; null for cards sold from stock. */
  batchId: string | null;
}

/**
 * Writes an order in the caller's transaction (decisions §19): the order row first (a twin with its
 * order_id waits on the unique index there), the agent's debit and its parent's commission, the
 * cards (made from the type, or the stock cards sold), the sales counters and `order.created`. All
 * or nothing with the caller's transaction. What the order costs and who pays is the caller's
 * decision: an agent's order (OrdersService) or a paid storefront checkout (src/shop).
 */
@Injectable()
export class OrderPlacement {
  constructor(
    private readonly batches: CardBatchesService,
    private readonly events: DomainEvents,
  ) {}

  async place(em: EntityManager, order: NewOrder): Promise<PlacedOrder> {
    const { agent, commissionAgent: parent, type } = order;
    const commissionUnit = parent ? order.commissionUnitCents : 0;
    const total = order.unitCents * order.count;
    const orders = OrdersRepository.in(em);
    const id = await orders.insert({
      projectId: order.projectId,
      orderId: order.orderId,
      cardTypeId: type.id,
      count: order.count,
      agentId: agent?.id ?? null,
      actorId: order.actorId,
      unitPriceCents: order.unitCents,
      totalCents: total,
      commissionAgentId: commissionUnit > 0 ? parent!.id : null,
      commissionUnitCents: commissionUnit,
    });
    const note = `order ${order.orderId}`;
    let balanceAfter: number | null = null;
    if (agent) {
      await lockBalances(em, [agent.id, parent?.id]);
      if (total > 0)
        balanceAfter = await changeBalance(em, {
          agentId: agent.id,
          kind: 'debit',
          cents: total,
          actorId: order.actorId,
          orderId: id,
          note,
        });
      if (commissionUnit > 0) {
        await changeBalance(em, {
          agentId: parent!.id,
          kind: 'commission',
          cents: commissionUnit * order.count,
          actorId: order.actorId,
          orderId: id,
          note,
        });
      }
    }
    const { cardIds, batchId } = order.stockCardIds
      ? { cardIds: await this.sellStock(orders, order, id), batchId: null }
      : await this.mint(em, orders, order, id, note);
    if (agent && batchId) await AgentLedgerRepository.in(em).setBatchOfOrder(id, batchId);
    await SalesCountsRepository.in(em).add({
      projectId: order.projectId,
      agentId: agent?.id ?? null,
      cardTypeId: type.id,
      sold: order.count,
      revenueCents: total,
    });
    await this.events.emit(em, order.projectId, 'order.created', {
      order_id: order.orderId,
      card_type_id: String(type.id),
      count: order.count,
      agent_id: agent?.id ?? null,
      card_ids: cardIds,
    });
    const low = agent?.lowBalanceCents ?? null;
    if (agent && low !== null && balanceAfter !== null && balanceAfter < low && balanceAfter + total >= low) {
      await this.events.emit(em, order.projectId, 'agent.balance_low', { agent_id: agent.id, balance_cents: balanceAfter });
    }
    return { id, cardIds, batchId };
  }

  /** New cards from the type, in a batch of their own, each remembering the order and its agent. */
  private async mint(
    em: EntityManager,
    orders: OrdersRepository,
    order: NewOrder,
    id: string,
    note: string,
  ): Promise<{ cardIds: number[]; batchId: string }> {
    const made = await this.batches.createCardsFromType(em, order.type, order.count, { note });
    await orders.attachBatch(id, made.batchId, order.agent?.id ?? null);
    return { cardIds: made.cards.map((c) => c.id), batchId: made.batchId };
  }

  /**
   * Sells the stock cards (decisions §26): each turns `unused`, out of any reservation, and remembers
   * the order, as a card made for it would. Only cards still unsold stock of the type count; fewer
   * than the order's count is a fault of the caller, and its transaction rolls back.
   */
  private async sellStock(orders: OrdersRepository, order: NewOrder, id: string): Promise<number[]> {
    const sold = await orders.sellStockCards(id, order.agent?.id ?? null, order.projectId, order.type.id, order.stockCardIds!);
    if (sold.length !== order.count)
      throw new Error(`order ${order.orderId}: ${sold.length} of the ${order.count} stock cards were still for sale`);
    return sold;
  }
}
