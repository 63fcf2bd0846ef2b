import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { Checkout } from './checkout.entity';

/** How long a checkout waits for its payment, its stock reserved (decisions §26: 15 minutes). */
export const CHECKOUT_MINUTES = 15;

/** The checkout statuses a reader sees: the stored ones, and `expired` for a pending checkout past its time. */
export const CHECKOUT_STATUSES = ['pending', 'expired', 'paid', 'refund_needed', 'failed'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export type NewCheckout = Pick<
  Checkout,
  | 'id'
  | 'projectId'
  | 'cardTypeId'
  | 'provider'
  | 'count'
  | 'email'
  | 'unitPriceCents'
  | 'amountCents'
  | 'currency'
  | 'stock'
  | 'tokenHash'
>;

/** The `checkouts` table: every query the storefront makes on it. */
@Injectable()
export class CheckoutsRepository {
  constructor(@InjectRepository(Checkout) private readonly rows: Repository<Checkout>) {}

  /** Inserts a pending checkout expiring CHECKOUT_MINUTES from the database's now; answers its expiry. */
  async insertPending(em: EntityManager, c: NewCheckout): Promise<Date> {
    // Raw: INSERT … RETURNING the expiry the database set (one clock for the checkout and its reservations).
    const [row] = (await em.query(
      `INSERT INTO checkouts (id, project_id, card_type_id, provider, count, email, unit_price_cents, amount_cents, currency, stock, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(mins => $12)) RETURNING expires_at`,
      [
        c.id,
        c.projectId,
        c.cardTypeId,
        c.provider,
        c.count,
        c.email,
        c.unitPriceCents,
        c.amountCents,
        c.currency,
        c.stock,
        c.tokenHash,
        CHECKOUT_MINUTES,
      ],
    )) as Array<{ expires_at: Date | string }>;
    return new Date(row.expires_at);
  }

  find(id: string): Promise<Checkout | null> {
    return this.rows.findOneBy({ id });
  }

  /** The project's checkout, its row locked until the caller's transaction ends: one notification settles it at a time. */
  lockOfProject(em: EntityManager, projectId: string, id: string): Promise<Checkout | null> {
    return em.getRepository(Checkout).findOne({ where: { id, projectId }, lock: { mode: 'pessimistic_write' } });
  }

  async markPaid(em: EntityManager, id: string, orderId: string, tradeNo: string | null): Promise<Date> {
    // Raw: UPDATE … RETURNING the time the database set.
    const [rows] = (await em.query(
      `UPDATE checkouts SET status = 'paid', order_id = $2, trade_no = $3, paid_at = now(), problem = NULL WHERE id = $1 RETURNING paid_at`,
      [id, orderId, tradeNo],
    )) as [Array<{ paid_at: Date | string }>, number];
    return new Date(rows[0].paid_at);
  }

  /** Paid, but no cards can be handed out: the author refunds the buyer. */
  async markRefundNeeded(em: EntityManager, id: string, problem: string, tradeNo: string | null): Promise<void> {
    await em.update(Checkout, { id }, { status: 'refund_needed', problem, tradeNo, paidAt: () => 'now()' });
  }

  /** Never payable (its payment address could not be made): it stops waiting at once. */
  async markFailed(em: EntityManager, id: string, problem: string): Promise<void> {
    await em.update(Checkout, { id, status: 'pending' }, { status: 'failed', problem });
  }

  /** Newest first; of one status when given (`expired`: pending past its time, `pending`: before it). */
  page(projectId: string, status: CheckoutStatus | null, skip: number, take: number): Promise<[Checkout[], number]> {
    const now = new Date();
    const where: FindOptionsWhere<Checkout> =
      status === null
        ? { projectId }
        : status === 'pending'
          ? { projectId, status: 'pending', expiresAt: MoreThan(now) }
          : status === 'expired'
            ? { projectId, status: 'pending', expiresAt: LessThanOrEqual(now) }
            : { projectId, status };
    return this.rows.findAndCount({ where, order: { createdAt: 'DESC', id: 'DESC' }, skip, take });
  }
}

/** What a reader is told of a checkout: its stored status, with a pending one past its time `expired`. */
export function checkoutStatus(checkout: Pick<Checkout, 'status' | 'expiresAt'>, now = Date.now()): CheckoutStatus {
  return checkout.status === 'pending' && checkout.expiresAt.getTime() <= now ? 'expired' : checkout.status;
}
