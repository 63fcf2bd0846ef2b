import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CardType } from '../cards/types/card-type.entity';
import { JsonLogger } from '../core/logging/json-logger';
import { DomainEvents } from '../events/domain-events';
import { OrderPlacement } from '../orders/order-placement';
import { Project } from '../projects/project.entity';
import { CheckoutDelivery } from './checkout-delivery';
import { Checkout } from './checkout.entity';
import { CheckoutsRepository } from './checkouts.repository';
import {
  GatewayNotification,
  isIgnored,
  isRefusal,
  NotificationRefusal,
  ProviderAnswer,
  VerifiedPayment,
} from './payment-provider';
import { PaymentProviders } from './payment-providers';
import { PaymentRefusalsRepository } from './payment-refusals.repository';
import { PaymentSettingsService } from './payment-settings.service';
import { StockCardsRepository } from './stock-cards.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A checkout just paid, as work done in its transaction sees it. */
export interface PaidCheckout {
  checkout: Checkout;
  /** orders.id of the order it made. */
  orderId: string;
  cardIds: number[];
}

/** What reacts to a payment in the paying transaction: all of it commits with the order, or none. */
export type PaidListener = (em: EntityManager, paid: PaidCheckout) => Promise<void>;

/** How a verified payment was settled. */
type Settlement =
  | { taken: true; outcome: 'paid' | 'already_taken' | 'refund_needed' }
  | { taken: false; refusal: NotificationRefusal; checkoutId: string | null };

/**
 * A gateway's notification (decisions §26), verified by its provider with the project's settings,
 * then settled in one transaction on the checkout's locked row: the first verified payment of the
 * checkout's amount and currency makes the §19 order as the author's (no balance moves; its
 * order_id is the checkout's id), sells the reserved stock or makes the cards, marks the checkout
 * paid, gives the cards the buyer's address and mails them (with SMTP_URL), and records
 * `order.paid`. A repeated, late or out-of-order notification finds the checkout settled and
 * changes nothing. Everything refused (a bad signature, another merchant, a wrong
 * amount, an unknown checkout, …) is recorded in payment_refusals with why, and changes nothing.
 * An expired checkout paid late is honoured while its cards can still be had (mint: always; stock:
 * its reservation if nobody took it, else other unsold stock); otherwise it becomes `refund_needed`,
 * which its author sees, and the gateway is still told the payment was taken.
 */
@Injectable()
export class PaymentNotificationsService {
  private readonly paidListeners: PaidListener[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: PaymentSettingsService,
    private readonly providers: PaymentProviders,
    private readonly checkouts: CheckoutsRepository,
    private readonly stock: StockCardsRepository,
    private readonly refusals: PaymentRefusalsRepository,
    private readonly placement: OrderPlacement,
    private readonly delivery: CheckoutDelivery,
    private readonly events: DomainEvents,
    private readonly logger: JsonLogger,
  ) {}

  /** Lets a module act on each payment in its transaction, without this module knowing it. */
  onPaid(listener: PaidListener): void {
    this.paidListeners.push(listener);
  }

  /**
   * The gateway's answer to its notification: taken (now or before), or refused. Never throws: a
   * fault (the database gone a moment) is answered as a refusal, which the gateway retries.
   */
  async notify(
    providerName: string,
    projectId: string,
    notification: GatewayNotification,
    clientIp: string,
  ): Promise<ProviderAnswer> {
    const provider = this.providers.find(providerName);
    if (!provider) throw new Error(`no payment provider ${providerName}`); // the routes name known providers only
    const id = projectId.toLowerCase();
    try {
      const exists = UUID.test(id) && (await this.dataSource.getRepository(Project).existsBy({ id }));
      // A project that does not exist has nowhere to record the refusal: it is only answered.
      if (!exists) return provider.answer(false);
      const found = await this.settings.forNotification(id, provider.name);
      if (!found) {
        await this.record(id, provider.name, clientIp, null, {
          refused: 'provider_not_set_up',
          detail: `the project has no ${provider.name} settings`,
        });
        return provider.answer(false);
      }
      const verified = provider.verifyNotification(notification, found.settings);
      if (isIgnored(verified)) {
        // Signed, but no payment (another event type): acknowledged so the gateway stops resending it.
        this.logger.entry('info', 'payment notification ignored', {
          project_id: id,
          provider: provider.name,
          detail: verified.ignored,
        });
        return provider.answer(true);
      }
      if (isRefusal(verified)) {
        await this.record(id, provider.name, clientIp, null, verified);
        return provider.answer(false);
      }
      const settled = await this.settle(id, provider.name, verified);
      if (!settled.taken) {
        await this.record(id, provider.name, clientIp, settled.checkoutId, settled.refusal);
        return provider.answer(false);
      }
      return provider.answer(true);
    } catch (error) {
      this.logger.entry('error', 'payment notification failed', {
        project_id: id,
        provider: provider.name,
        error: String(error),
      });
      return provider.answer(false);
    }
  }

  /** The payment's effect on its checkout, in one transaction under the checkout's row lock. */
  private settle(projectId: string, providerName: string, payment: VerifiedPayment): Promise<Settlement> {
    const reference = payment.checkoutId.slice(0, 64);
    if (!UUID.test(payment.checkoutId))
      return Promise.resolve(refused(null, { refused: 'unknown_checkout', detail: 'not a checkout id', reference }));
    const checkoutId = payment.checkoutId.toLowerCase();
    return this.dataSource.transaction(async (em) => {
      const checkout = await this.checkouts.lockOfProject(em, projectId, checkoutId);
      if (!checkout)
        return refused(null, { refused: 'unknown_checkout', detail: 'no checkout of the project has this id', reference });
      if (checkout.provider !== providerName)
        return refused(checkout.id, {
          refused: 'provider_mismatch',
          detail: `the checkout pays with ${checkout.provider}`,
          reference,
        });
      if (payment.currency !== checkout.currency)
        return refused(checkout.id, {
          refused: 'currency_mismatch',
          detail: `paid in ${payment.currency.slice(0, 8)}, the checkout is in ${checkout.currency}`,
          reference,
        });
      if (payment.amountCents !== checkout.amountCents)
        return refused(checkout.id, {
          refused: 'amount_mismatch',
          detail: `paid ${payment.amountCents} cents, the checkout is ${checkout.amountCents}`,
          reference,
        });
      if (checkout.status === 'paid' || checkout.status === 'refund_needed') {
        // The same payment again (a retry, a late or reordered copy): taken already, nothing changes.
        if (!payment.tradeNo || !checkout.tradeNo || payment.tradeNo === checkout.tradeNo)
          return { taken: true, outcome: 'already_taken' };
        // Another payment of a settled checkout: the buyer paid twice. Taken (the gateway must stop), recorded for a refund.
        await this.refusals.record(
          {
            projectId,
            provider: providerName,
            checkoutId: checkout.id,
            reference,
            reason: 'duplicate_payment',
            detail: `trade ${payment.tradeNo} after trade ${checkout.tradeNo}: refund one`,
            clientIp: null,
          },
          em,
        );
        return { taken: true, outcome: 'already_taken' };
      }
      return this.fulfil(em, checkout, payment.tradeNo);
    });
  }

  /** The first payment of a pending (or expired, or failed) checkout: its cards, its order, its state. */
  private async fulfil(em: EntityManager, checkout: Checkout, tradeNo: string | null): Promise<Settlement> {
    // Share-locked: the type cannot change under the cards made from it (as an order's type is).
    const type = await em
      .getRepository(CardType)
      .findOne({ where: { id: checkout.cardTypeId }, lock: { mode: 'pessimistic_read' } });
    const project = await em.getRepository(Project).findOneBy({ id: checkout.projectId });
    let stockCardIds: number[] | undefined;
    if (checkout.stock) {
      stockCardIds = await this.stock.reservedFor(em, checkout.projectId, checkout.id);
      if (stockCardIds.length < checkout.count) {
        // Its reservation ran out and others took some of it: other unsold stock, when there is some.
        const more = await this.stock.reserve(em, {
          projectId: checkout.projectId,
          cardTypeId: checkout.cardTypeId,
          checkoutId: checkout.id,
          until: checkout.expiresAt,
          count: checkout.count - stockCardIds.length,
        });
        stockCardIds = [...stockCardIds, ...more];
      }
    }
    if (!type || !project || (stockCardIds && stockCardIds.length < checkout.count)) {
      const problem =
        !type || !project
          ? 'the card type is gone'
          : `paid late: only ${stockCardIds!.length} of ${checkout.count} stock cards were left`;
      await this.stock.release(em, checkout.projectId, checkout.id);
      await this.checkouts.markRefundNeeded(em, checkout.id, problem, tradeNo);
      this.logger.entry('warn', 'storefront payment taken but not deliverable: refund needed', {
        project_id: checkout.projectId,
        checkout_id: checkout.id,
        problem,
      });
      return { taken: true, outcome: 'refund_needed' };
    }
    const placed = await this.placement.place(em, {
      projectId: checkout.projectId,
      orderId: checkout.id,
      type,
      count: checkout.count,
      actorId: project.ownerId,
      agent: null,
      commissionAgent: null,
      unitCents: checkout.unitPriceCents,
      commissionUnitCents: 0,
      stockCardIds,
    });
    const paidAt = await this.checkouts.markPaid(em, checkout.id, placed.id, tradeNo);
    await this.delivery.deliver(em, checkout, project, type, placed.id);
    await this.events.emit(em, checkout.projectId, 'order.paid', {
      order_id: checkout.id,
      checkout_id: checkout.id,
      provider: checkout.provider,
      card_type_id: String(checkout.cardTypeId),
      count: checkout.count,
      amount_cents: checkout.amountCents,
      currency: checkout.currency,
      email: checkout.email,
      card_ids: placed.cardIds,
      paid_late: paidAt.getTime() > checkout.expiresAt.getTime(),
    });
    const paid = {
      checkout: Object.assign(checkout, { status: 'paid', paidAt, orderId: placed.id, tradeNo }),
      orderId: placed.id,
      cardIds: placed.cardIds,
    };
    for (const listener of this.paidListeners) await listener(em, paid);
    return { taken: true, outcome: 'paid' };
  }

  private async record(
    projectId: string,
    provider: string,
    clientIp: string,
    checkoutId: string | null,
    refusal: NotificationRefusal,
  ): Promise<void> {
    await this.refusals.record({
      projectId,
      provider,
      checkoutId,
      reference: refusal.reference ?? null,
      reason: refusal.refused,
      detail: refusal.detail,
      clientIp: clientIp || null,
    });
    this.logger.entry('warn', 'payment notification refused', {
      project_id: projectId,
      provider,
      checkout_id: checkoutId,
      reason: refusal.refused,
      detail: refusal.detail,
    });
  }
}

function refused(checkoutId: string | null, refusal: NotificationRefusal): Settlement {
  return { taken: false, refusal, checkoutId };
}
