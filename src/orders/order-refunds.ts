import { EntityManager } from 'typeorm';
import { changeBalance, lockBalances } from '../agents/ledger';
import { countSales } from './sales-counts';

/** A card row as a DELETE … RETURNING id, status, order_id gives it back. */
export interface DeletedCard {
  id: number;
  status: string;
  order_id: string | null;
}

export interface RefundTotals {
  cardIds: number[];
  refundedCents: number;
  clawbackCents: number;
}

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
    // Raw: UPDATE … RETURNING adds to the refunded count and reads the order in one statement (orders has no entity).
    const [rows] = (await em.query(
      `UPDATE orders SET refunded_count = refunded_count + $2 WHERE id = $1
       RETURNING project_id, order_id, card_type_id, agent_id, unit_price_cents, commission_agent_id, commission_unit_cents, created_at`,
      [orderId, n],
    )) as [Array<Record<string, unknown>>, number];
    const order = rows[0];
    if (!order) continue; // orders are never deleted: an unknown order has nothing to refund
    const agentId = order.agent_id as string | null;
    const refund = Number(order.unit_price_cents) * n;
    const clawback = Number(order.commission_unit_cents) * n;
    const parentId = order.commission_agent_id as string | null;
    await lockBalances(em, [agentId, parentId]);
    const note = `refund of ${n} card${n === 1 ? '' : 's'} of order ${order.order_id as string}`;
    if (agentId && refund > 0) await changeBalance(em, { agentId, kind: 'refund', cents: refund, actorId, orderId, note });
    if (parentId && clawback > 0)
      await changeBalance(em, { agentId: parentId, kind: 'clawback', cents: clawback, actorId, orderId, note });
    await countSales(em, {
      projectId: order.project_id as string,
      agentId,
      cardTypeId: Number(order.card_type_id),
      sold: -n,
      revenueCents: -refund,
      at: new Date(order.created_at as string),
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
  // Raw: DELETE … RETURNING hands each card to exactly one refunding transaction.
  const [deleted] = (await em.query(
    `DELETE FROM cards WHERE project_id = $1 AND order_id IS NOT NULL AND status = 'unused' RETURNING id, status, order_id`,
    [projectId],
  )) as [DeletedCard[], number];
  const totals = await refundDeletedCards(em, deleted, actorId);
  // Raw: orders has no entity.
  await em.query(`UPDATE orders SET project_id = NULL, card_type_id = NULL WHERE project_id = $1`, [projectId]);
  return totals;
}
