import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** What is stored of a checkout's state; `expired` is a pending checkout past its time, never stored. */
export const STORED_CHECKOUT_STATUSES = ['pending', 'paid', 'refund_needed', 'failed'] as const;
export type StoredCheckoutStatus = (typeof STORED_CHECKOUT_STATUSES)[number];

/** The outbox key of a paid checkout's mail of its cards: written once, however often it is paid. */
export const checkoutMailKey = (checkoutId: string): string => `checkout:${checkoutId}`;

const bigintAsNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A buyer's checkout in a program's storefront (decisions §26); see migration 1766700000001. */
@Entity('checkouts')
export class Checkout {
  /** Also the gateway's order number and the `order_id` of the order it makes when paid. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'card_type_id', type: 'integer' })
  cardTypeId: number;

  @Column({ type: 'varchar', length: 16 })
  provider: string;

  @Column({ type: 'integer' })
  count: number;

  /** Where the cards are mailed when mail is set up (the e-mail outbox reads it). */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** The type's price when the checkout was made: a later price change does not change what is owed. */
  @Column({ name: 'unit_price_cents', type: 'integer' })
  unitPriceCents: number;

  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintAsNumber })
  amountCents: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** Its cards come from the type's stock (reserved at once), not made when paid. */
  @Column({ type: 'boolean' })
  stock: boolean;

  /** SHA-256 of the secret token that shows its cards (hashToken); the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: StoredCheckoutStatus;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  /** The gateway's own number of the payment taken. */
  @Column({ name: 'trade_no', type: 'varchar', length: 64, nullable: true })
  tradeNo: string | null;

  /** The order it made (orders.id), once paid. */
  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId: string | null;

  /** Why it is refund_needed or failed, for the author. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  problem: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
