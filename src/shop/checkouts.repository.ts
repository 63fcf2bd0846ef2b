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
    // RETURNING the expiry the database set: one clock for the checkout and its reservations.
    const { raw } = await em
      .createQueryBuilder()
      .insert()
      .into(Checkout)
      .values({ ...c, expiresAt: () => `now() + make_interval(mins => ${CHECKOUT_MINUTES})` })
      .returning(['expiresAt'])
      .updateEntity(false)
      .execute();
    return new Date((raw as Array<{ expires_at: Date | string }>)[0].expires_at);
  }

  find(id: string): Promise<Checkout | null> {
    return this.rows.findOneBy({ id });
  }

  /** The project's checkout, its row locked until the caller's transaction ends: one notification settles it at a time. */
  lockOfProject(em: EntityManager, projectId: string, id: string): Promise<Checkout | null> {
    return em.getRepository(Checkout).findOne({ where: { id, projectId }, lock: { mode: 'pessimistic_write' } });
  }

  async markPaid(em: EntityManager, id: string, orderId: string, tradeNo: string | null): Promise<Date> {
    // RETURNING the time the database set.
    const { raw } = await em
      .createQueryBuilder()
      .update(Checkout)
      .set({ status: 'paid', orderId, tradeNo, paidAt: () => 'now()', problem: null })
      .where('id = :id', { id })
      .returning(['paidAt'])
      .execute();
    return new Date((raw as Array<{ paid_at: Date | string }>)[0].paid_at);
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
