import { Global, Injectable, Module } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { changeBalance, lockBalances } from '../agents/ledger';
import { DeletedCard, DeletedCardRefunds } from '../cards/deleted-card-refunds';
import { ProjectOrdersSettlement, RefundTotals } from '../projects/project-orders-settlement';
import { SalesCountsRepository } from '../sales/sales-counts.repository';
import { OrdersRepository } from './orders.repository';

/**
 * The money side of deleting cards, in the deleting transaction (decisions §19): every card that
 * was unused and came from an order credits its price back to the order's agent (`refund`) and
 * takes the parent's commission on it back (`clawback`), and leaves the order's sales. The DELETE
 * that handed the rows over is what makes it exactly once: two requests deleting one card queue on
 * its row, and only the first gets it back. A clawback the parent's balance no longer covers is
 * refused (INSUFFICIENT_BALANCE) and the caller's transaction, deletion included, rolls back.
 */
export async function refundDeletedCards(
  em: EntityManager,
  deleted: DeletedCard[],
  actorId: string | null,
): Promise<RefundTotals> {
  const totals: RefundTotals = { cardIds: [], refundedCents: 0, clawbackCents: 0 };
  const byOrder = new Map<string, number[]>();
  for (const card of deleted) {
    if (card.status !== 'unused' || !card.order_id) continue;
    byOrder.set(card.order_id, [...(byOrder.get(card.order_id) ?? []), Number(card.id)]);
  }
  for (const [orderId, cardIds] of [...byOrder].sort(([a], [b]) => a.localeCompare(b))) {
    const n = cardIds.length;
    const order = await OrdersRepository.in(em).addRefunded(orderId, n);
    if (!order) continue; // orders are never deleted: an unknown order has nothing to refund
    const { agentId, commissionAgentId: parentId } = order;
    const refund = order.unitPriceCents * n;
    const clawback = order.commissionUnitCents * n;
    await lockBalances(em, [agentId, parentId]);
    const note = `refund of ${n} card${n === 1 ? '' : 's'} of order ${order.orderId}`;
    if (agentId && refund > 0) await changeBalance(em, { agentId, kind: 'refund', cents: refund, actorId, orderId, note });
    if (parentId && clawback > 0)
      await changeBalance(em, { agentId: parentId, kind: 'clawback', cents: clawback, actorId, orderId, note });
    await SalesCountsRepository.in(em).add({
      projectId: order.projectId!,
      agentId,
      cardTypeId: order.cardTypeId!,
      sold: -n,
      revenueCents: -refund,
      at: order.createdAt,
    });
    totals.cardIds.push(...cardIds);
    totals.refundedCents += refund;
    totals.clawbackCents += clawback;
  }
  return totals;
}

/**
 * The money side of deleting a project, in the deleting transaction: its unused order cards are
 * refunded as any deleted card is, then its orders are detached (project and card type unset), so
 * that they and every ledger entry naming them outlive the project. Used cards go without refund.
 */
export async function settleOrdersOfDeletedProject(
  em: EntityManager,
  projectId: string,
  actorId: string | null,
): Promise<RefundTotals> {
  const orders = OrdersRepository.in(em);
  const totals = await refundDeletedCards(em, await orders.deleteUnusedCardsOfProject(projectId), actorId);
  await orders.detachFromProject(projectId);
  return totals;
}

/** The refunds as the cards and projects below the orders name them (their ports). */
@Injectable()
export class OrderRefunds implements DeletedCardRefunds, ProjectOrdersSettlement {
  refund(em: EntityManager, deleted: DeletedCard[], actorId: string | null): Promise<RefundTotals> {
    return refundDeletedCards(em, deleted, actorId);
  }

  settle(em: EntityManager, projectId: string, actorId: string | null): Promise<RefundTotals> {
    return settleOrdersOfDeletedProject(em, projectId, actorId);
  }
}

/** Global, as SessionsModule is for CardSessions: the cards and projects modules get the refunds without importing orders. */
@Global()
@Module({
  providers: [
    OrderRefunds,
    { provide: DeletedCardRefunds, useExisting: OrderRefunds },
    { provide: ProjectOrdersSettlement, useExisting: OrderRefunds },
  ],
  exports: [DeletedCardRefunds, ProjectOrdersSettlement],
})
export class OrderRefundsModule {}
