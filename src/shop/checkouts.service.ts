import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { AdminUser } from '../admin-kernel/admin-user.entity';
import { Card } from '../cards/card.entity';
import { CardType } from '../cards/types/card-type.entity';
import { PROGRAM_ID_PATTERN } from '../common/field-rules';
import { Page, pageOf } from '../common/paging';
import { AppConfig } from '../config/app-config';
import { constantTimeEqual, hashToken, newToken } from '../core/crypto/tokens';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { JsonLogger } from '../core/logging/json-logger';
import { MailMessage } from '../mail/mail-message.entity';
import { ProjectAccess } from '../projects/project-access';
import { Project } from '../projects/project.entity';
import { Checkout, checkoutMailKey } from './checkout.entity';
import { CreateCheckoutDto, ListCheckoutsQuery, ListPaymentRefusalsQuery } from './checkout.dto';
import {
  CheckoutCreatedView,
  CheckoutMailStatus,
  CheckoutStatusView,
  CheckoutView,
  PaymentRefusalView,
  PublicCheckoutStatus,
} from './checkout.view';
import { checkoutStatus, CheckoutsRepository } from './checkouts.repository';
import { PaymentRefusalsRepository } from './payment-refusals.repository';
import { PaymentSettingsService } from './payment-settings.service';
import { StockCardsRepository } from './stock-cards.repository';

/**
 * The storefront's checkouts (decisions §26): made by a buyer of a program's type for sale, its
 * price fixed and, in stock mode, its cards reserved at once; read back by its id (the cards only
 * with its secret token); listed for the author. Being paid is PaymentNotificationsService's.
 */
@Injectable()
export class CheckoutsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly settings: PaymentSettingsService,
    private readonly checkouts: CheckoutsRepository,
    private readonly stock: StockCardsRepository,
    private readonly refusals: PaymentRefusalsRepository,
    private readonly access: ProjectAccess,
    private readonly logger: JsonLogger,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    @InjectRepository(CardType) private readonly types: Repository<CardType>,
    @InjectRepository(MailMessage) private readonly mails: Repository<MailMessage>,
  ) {}

  /**
   * A pending checkout and where to pay it. Refused, with nothing made: PUBLIC_URL unset, an unknown
   * or disabled program, a provider the program has not switched on, a type not for sale, and in
   * stock mode fewer unsold cards than `count` (OUT_OF_STOCK, HTTP 409).
   */
  async create(programId: string, input: CreateCheckoutDto): Promise<CheckoutCreatedView> {
    const base = this.config.publicUrl;
    if (!base)
      throw new ServiceError(ErrorCode.PUBLIC_URL_NOT_SET, undefined, {
        details: ['PUBLIC_URL: the service is not set up to take payments'],
      });
    const project = await this.sellingProject(programId);
    const { provider, settings } = await this.settings.forCheckout(project.id, input.provider);
    const type = await this.types.findOneBy({ id: input.card_type_id, projectId: project.id });
    if (!type || !type.forSale || !type.enabled || type.priceCents <= 0)
      throw new ServiceError(ErrorCode.CARD_TYPE_NOT_FOR_SALE, undefined, { details: ['card_type_id'] });
    const id = randomUUID();
    const token = newToken();
    const amountCents = type.priceCents * input.count;
    const stock = type.stockMode === 'stock';
    const expiresAt = await this.dataSource.transaction(async (em) => {
      const until = await this.checkouts.insertPending(em, {
        id,
        projectId: project.id,
        cardTypeId: type.id,
        provider: provider.name,
        count: input.count,
        email: input.email,
        unitPriceCents: type.priceCents,
        amountCents,
        currency: this.config.CURRENCY,
        stock,
        tokenHash: hashToken(token),
      });
      if (stock) {
        const reserved = await this.stock.reserve(em, {
          projectId: project.id,
          cardTypeId: type.id,
          checkoutId: id,
          until,
          count: input.count,
        });
        // Rolls the checkout back with its reservations: nothing of it stays.
        if (reserved.length < input.count)
          throw new ServiceError(ErrorCode.OUT_OF_STOCK, undefined, {
            details: [`count: ${reserved.length} unsold card${reserved.length === 1 ? '' : 's'} of this type left`],
          });
      }
      return until;
    });
    let payUrl: string;
    try {
      payUrl = await provider.payUrl(
        {
          checkoutId: id,
          amountCents,
          currency: this.config.CURRENCY,
          subject: input.count === 1 ? type.name : `${type.name} × ${input.count}`,
          returnUrl: `${base}/shop/${programId}/return?checkout_id=${id}&token=${encodeURIComponent(token)}`,
          notifyUrl: this.settings.notifyUrl(provider.name, project.id)!,
          email: input.email,
          method: input.pay_type,
        },
        settings,
      );
    } catch (error) {
      // Never payable: it stops waiting, and its stock goes back at once.
      await this.dataSource.transaction(async (em) => {
        await this.checkouts.markFailed(em, id, `the ${provider.name} payment address could not be made`);
        await this.stock.release(em, project.id, id);
      });
      this.logger.entry('error', 'storefront payment address failed', {
        project_id: project.id,
        checkout_id: id,
        provider: provider.name,
        error: String(error),
      });
      throw error;
    }
    return {
      checkout_id: id,
      pay_url: payUrl,
      amount_cents: amountCents,
      currency: this.config.CURRENCY,
      expires_at: expiresAt.toISOString(),
      token,
    };
  }

  /** A checkout's status for the buyer; the cards' codes only when paid and `token` is its token. */
  async status(checkoutId: string, token: string | undefined): Promise<CheckoutStatusView> {
    const checkout = await this.checkouts.find(checkoutId);
    if (!checkout) throw new ServiceError(ErrorCode.CHECKOUT_NOT_FOUND);
    const type = await this.types.findOneBy({ id: checkout.cardTypeId });
    const answer: CheckoutStatusView = {
      checkout_id: checkout.id,
      status: publicStatus(checkout),
      card_type_id: checkout.cardTypeId,
      card_type_name: type?.name ?? '',
      count: checkout.count,
      amount_cents: checkout.amountCents,
      currency: checkout.currency,
      expires_at: checkout.expiresAt.toISOString(),
      paid_at: checkout.status === 'paid' ? (checkout.paidAt?.toISOString() ?? null) : null,
    };
    if (checkout.status === 'paid' && checkout.orderId && token && constantTimeEqual(hashToken(token), checkout.tokenHash)) {
      const cards = await this.dataSource
        .getRepository(Card)
        .find({ where: { orderId: checkout.orderId }, order: { id: 'ASC' }, select: { id: true, code: true } });
      answer.cards = cards.map((card) => ({ code: card.code }));
      answer.mail = await this.mailOf(checkout);
    }
    return answer;
  }

  async list(actor: AdminPrincipal, projectId: string, query: ListCheckoutsQuery): Promise<Page<CheckoutView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.checkouts.page(project.id, query.status ?? null, query.skip, query.page_size);
    return pageOf(rows.map(toCheckoutView), total, query);
  }

  async listRefusals(
    actor: AdminPrincipal,
    projectId: string,
    query: ListPaymentRefusalsQuery,
  ): Promise<Page<PaymentRefusalView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.refusals.page(
      project.id,
      query.checkout_id?.toLowerCase() ?? null,
      query.skip,
      query.page_size,
    );
    return pageOf(
      rows.map((r) => ({
        id: Number(r.id),
        provider: r.provider,
        checkout_id: r.checkoutId,
        reference: r.reference,
        reason: r.reason,
        detail: r.detail,
        client_ip: r.clientIp,
        created_at: r.createdAt.toISOString(),
      })),
      total,
      query,
    );
  }

  /** Where the mail of a paid checkout's cards stands; `none` when none was written (no SMTP_URL then). */
  private async mailOf(checkout: Checkout): Promise<CheckoutMailStatus> {
    const mail = await this.mails.findOne({
      where: { projectId: checkout.projectId, dedupeKey: checkoutMailKey(checkout.id) },
      select: { id: true, status: true },
    });
    return mail?.status ?? 'none';
  }

  /** The program a buyer checks out of (or reads the catalogue of): it exists, and neither it nor its author is disabled. */
  async sellingProject(programId: string): Promise<Project> {
    const project = PROGRAM_ID_PATTERN.test(programId) ? await this.projects.findOneBy({ programId }) : null;
    if (!project) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    if (project.status !== 'active') throw new ServiceError(ErrorCode.PROGRAM_DISABLED);
    const owner = await this.dataSource.getRepository(AdminUser).findOneBy({ id: project.ownerId });
    if (owner?.status !== 'active') throw new ServiceError(ErrorCode.AUTHOR_DISABLED);
    return project;
  }
}

function publicStatus(checkout: Checkout): PublicCheckoutStatus {
  const status = checkoutStatus(checkout);
  return status === 'refund_needed' ? 'failed' : status;
}

function toCheckoutView(c: Checkout): CheckoutView {
  return {
    checkout_id: c.id,
    status: checkoutStatus(c),
    provider: c.provider,
    card_type_id: c.cardTypeId,
    count: c.count,
    email: c.email,
    unit_price_cents: c.unitPriceCents,
    amount_cents: c.amountCents,
    currency: c.currency,
    stock: c.stock,
    created_at: c.createdAt.toISOString(),
    expires_at: c.expiresAt.toISOString(),
    paid_at: c.paidAt?.toISOString() ?? null,
    paid_late: c.paidAt !== null && c.paidAt.getTime() > c.expiresAt.getTime(),
    order_id: c.orderId ? c.id : null,
    trade_no: c.tradeNo,
    problem: c.problem,
  };
}
