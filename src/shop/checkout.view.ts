import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { REFUSAL_REASONS, RefusalReason } from './payment-provider';
import { CHECKOUT_STATUSES, CheckoutStatus } from './checkouts.repository';

/** What a buyer is told of a checkout: refund_needed and failed are both `failed` to them. */
export const PUBLIC_CHECKOUT_STATUSES = ['pending', 'paid', 'expired', 'failed'] as const;
export type PublicCheckoutStatus = (typeof PUBLIC_CHECKOUT_STATUSES)[number];

/** `201` of `POST /shop/api/:program_id/checkouts`. */
export class CheckoutCreatedView {
  @ApiProperty({ format: 'uuid', description: "also the gateway's order number and, once paid, the order's order_id" })
  checkout_id!: string;
  @ApiProperty({ description: 'where to send the buyer to pay' }) pay_url!: string;
  @ApiProperty({ type: 'integer', description: 'what the buyer pays, in integer cents of `currency`' }) amount_cents!: number;
  @ApiProperty({ example: 'CNY' }) currency!: string;
  @ApiProperty({ type: String, format: 'date-time', description: '15 minutes from now: unpaid by then, its stock goes back' })
  expires_at!: string;
  @ApiProperty({
    description:
      "the checkout's secret token, shown once (the return address carries it too): `GET /shop/api/checkouts/{checkout_id}?token=…` shows the cards with it",
  })
  token!: string;
}

/** Where the mail of a paid checkout's cards stands (`none`: none was written, the service has no SMTP_URL). */
export const CHECKOUT_MAIL_STATUSES = ['pending', 'sent', 'failed', 'none'] as const;
export type CheckoutMailStatus = (typeof CHECKOUT_MAIL_STATUSES)[number];

export class CheckoutCardView {
  @ApiProperty({ description: 'the card key' }) code!: string;
}

/** `GET /shop/api/checkouts/:checkout_id`: the cards only with the checkout's token. */
export class CheckoutStatusView {
  @ApiProperty({ format: 'uuid' }) checkout_id!: string;
  @ApiProperty({
    enum: PUBLIC_CHECKOUT_STATUSES,
    description:
      '`expired`: not paid within its 15 minutes; `failed`: paid but not deliverable (the seller refunds), or never payable',
  })
  status!: PublicCheckoutStatus;
  @ApiProperty({ type: 'integer' }) card_type_id!: number;
  @ApiProperty({ description: "the card type's name" }) card_type_name!: string;
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty({ type: 'integer' }) amount_cents!: number;
  @ApiProperty() currency!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paid_at!: string | null;
  @ApiPropertyOptional({ type: [CheckoutCardView], description: 'once paid, and only with the right token' })
  cards?: CheckoutCardView[];
  @ApiPropertyOptional({
    enum: CHECKOUT_MAIL_STATUSES,
    description:
      "with the cards: the mail of them to the checkout's address: `pending` (being sent, with retries), `sent` (the mail server took it), `failed` (given up), `none` (not mailed: the service sends no mail)",
  })
  mail?: CheckoutMailStatus;
}

/** A checkout as its author sees it. */
export class CheckoutView {
  @ApiProperty({ format: 'uuid' }) checkout_id!: string;
  @ApiProperty({
    enum: CHECKOUT_STATUSES,
    description:
      '`refund_needed`: paid (late, after its stock went to others) but no cards could be handed out: refund the buyer; `failed`: its payment address could not be made',
  })
  status!: CheckoutStatus;
  @ApiProperty() provider!: string;
  @ApiProperty({ type: 'integer' }) card_type_id!: number;
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty() email!: string;
  @ApiProperty({ type: 'integer' }) unit_price_cents!: number;
  @ApiProperty({ type: 'integer' }) amount_cents!: number;
  @ApiProperty() currency!: string;
  @ApiProperty({ description: "its cards come from the type's stock" }) stock!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paid_at!: string | null;
  @ApiProperty({ description: 'paid after its 15 minutes (honoured when the cards could still be had)' }) paid_late!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "the order it made (`GET /projects/{id}/orders/{order_id}`): the checkout's id",
  })
  order_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "the gateway's number of the payment" }) trade_no!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'why it is refund_needed or failed' }) problem!: string | null;
}

/** A refused gateway notification. */
export class PaymentRefusalView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() provider!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the checkout it named, when the project has it' })
  checkout_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'what it named as the checkout, as sent' }) reference!: string | null;
  @ApiProperty({ enum: REFUSAL_REASONS }) reason!: RefusalReason;
  @ApiProperty({ type: String, nullable: true }) detail!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the address the notification came from' }) client_ip!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}
