import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Card } from '../cards/card.entity';
import { CardType } from '../cards/types/card-type.entity';
import { MailOutbox } from '../mail/mail-outbox';
import { Project } from '../projects/project.entity';
import { Checkout, checkoutMailKey } from './checkout.entity';

/**
 * A paid checkout's cards reaching the buyer (decisions §26): the buyer's address becomes the
 * cards' holder e-mail, and with mail set up (SMTP_URL) the cards are mailed to it, through the
 * outbox in the paying transaction, once per checkout.
 */
@Injectable()
export class CheckoutDelivery {
  constructor(private readonly mail: MailOutbox) {}

  async deliver(em: EntityManager, checkout: Checkout, project: Project, type: CardType, orderId: string): Promise<void> {
    await em.update(Card, { orderId }, { holderEmail: checkout.email });
    if (!this.mail.enabled) return;
    const cards = await em.find(Card, { where: { orderId }, order: { id: 'ASC' }, select: { id: true, code: true } });
    await this.mail.enqueue(em, {
      projectId: checkout.projectId,
      to: checkout.email,
      template: 'cards_delivered',
      data: {
        program_name: project.name,
        card_type_name: type.name,
        // Whole days for the usual types; a tenth of a day for the rest; null: permanent.
        days: type.durationSeconds === 0 ? null : Math.round(type.durationSeconds / 8640) / 10,
        codes: cards.map((card) => card.code),
      },
      dedupeKey: checkoutMailKey(checkout.id),
    });
  }
}
