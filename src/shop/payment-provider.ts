import type { Type } from '@nestjs/common';

/**
 * A payment gateway as the storefront uses it (decisions §26): one file per provider, listed in
 * payment-providers.ts. The storefront owns everything else (checkouts, stock, the order made when
 * paid, idempotency, refusals); a provider only turns a checkout into the address the buyer pays
 * at, and a gateway's notification into a verified payment or a refusal, and words its answer.
 */
export interface PaymentProvider<S extends ProviderSettings = ProviderSettings> {
  /** The `:provider` of the admin routes and of the notify address (`/shop/notify/{name}/{project_id}`). */
  readonly name: string;
  /** Its settings: a class-validator DTO of the whole object (`enabled` included), and which fields are secret. */
  readonly settings: ProviderSettingsSpec;
  /** The currencies it takes (ISO 4217). A checkout in another currency is refused before anything is made. */
  readonly currencies: readonly string[];
  /** Where the buyer pays: a gateway address carrying the checkout, its amount and the two return addresses. */
  payUrl(payment: PaymentRequest, settings: S): Promise<string>;
  /** The gateway's notification, checked against the project's settings: who it says paid what, or why it is refused. */
  verifyNotification(notification: GatewayNotification, settings: S): VerifiedPayment | NotificationRefusal | NotificationIgnored;
  /** What the gateway is answered: `taken` when the payment was taken now or before, otherwise a refusal it retries. */
  answer(taken: boolean): ProviderAnswer;
}

/** A provider's settings as stored and validated: `enabled` plus its own fields, secret ones included. */
export interface ProviderSettings {
  enabled: boolean;
  [field: string]: unknown;
}

export interface ProviderSettingsSpec {
  /** Validates the merged settings (whitelisted, unknown fields refused). */
  dto: Type<object>;
  /** Fields stored encrypted and never answered (masked in GET). */
  secretFields: readonly string[];
}

/** What a provider needs to make a payment address. */
export interface PaymentRequest {
  /** The checkout's id: the gateway's order number (e.g. epay's `out_trade_no`). */
  checkoutId: string;
  amountCents: number;
  currency: string;
  /** What the buyer pays for, e.g. `Month × 2`. */
  subject: string;
  /** `{PUBLIC_URL}/shop/{program_id}/return?checkout_id=…&token=…`: the page that shows the cards once paid. */
  returnUrl: string;
  /** `{PUBLIC_URL}/shop/notify/{provider}/{project_id}`: where the gateway says it was paid. */
  notifyUrl: string;
  /** The buyer's address, for a gateway that fills in its form with it (Stripe's `customer_email`). */
  email: string;
  /** The payment method the buyer picked, for a gateway that offers several (epay's `type`); absent: the gateway asks. */
  method?: string;
}

/** A notification as it arrived, whatever its method and body type. */
export interface GatewayNotification {
  method: string;
  /** Query parameters, as parsed. */
  query: Record<string, unknown>;
  /** The parsed body (a form's fields, a JSON object), or undefined. */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes as they arrived, for a gateway that signs them (Stripe); absent without a body. */
  rawBody?: Buffer;
}

/** A notification whose signature and merchant checked out, saying this checkout was paid this much. */
export interface VerifiedPayment {
  checkoutId: string;
  amountCents: number;
  currency: string;
  /** The gateway's own number for the payment, when it gives one. */
  tradeNo: string | null;
}

/** Why a notification is refused, as recorded in payment_refusals. */
export const REFUSAL_REASONS = [
  /** A field it must carry is missing or malformed. */
  'malformed',
  'bad_signature',
  /** Signed for another merchant account than the project's. */
  'wrong_merchant',
  /** Signed, but not a completed payment (e.g. epay's trade_status other than TRADE_SUCCESS). */
  'not_paid',
  /** The project has no settings for this provider. */
  'provider_not_set_up',
  /** No checkout of the project has this id. */
  'unknown_checkout',
  /** The checkout was made for another provider. */
  'provider_mismatch',
  'amount_mismatch',
  'currency_mismatch',
  /** A second, different payment of a checkout already paid: the buyer paid twice, the author refunds one. */
  'duplicate_payment',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface NotificationRefusal {
  refused: RefusalReason;
  /** Why, in a few words (no secret): recorded with the refusal. */
  detail: string;
  /** The checkout the notification named, as it named it. */
  reference?: string | null;
}

/**
 * A signed notification that is no payment to take, e.g. an event type the gateway sends every
 * endpoint (Stripe's): acknowledged as taken so that the gateway stops sending it, nothing recorded.
 */
export interface NotificationIgnored {
  /** Why, in a few words: logged. */
  ignored: string;
}

export function isRefusal<T extends object>(result: T | NotificationRefusal): result is NotificationRefusal {
  return 'refused' in result;
}

export function isIgnored(result: VerifiedPayment | NotificationRefusal | NotificationIgnored): result is NotificationIgnored {
  return 'ignored' in result;
}

/** The gateway's answer: its own protocol's (epay: plain `success` or `fail`), not the admin envelope. */
export interface ProviderAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * The fields of a form-style notification (epay's, Alipay's): a POST's form, or the query of a GET
 * (or of a POST with an empty body). Each must be given once, as text; anything else is malformed.
 */
export function notificationFields(notification: GatewayNotification): { fields: Record<string, string> } | NotificationRefusal {
  const body = notification.body;
  const form = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length ? body : null;
  const source = notification.method === 'POST' && form ? (form as Record<string, unknown>) : notification.query;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (typeof value !== 'string') return { refused: 'malformed', detail: `${name} is given more than once or is not text` };
    fields[name] = value;
  }
  return { fields };
}

/** Amounts as decimal text with two places (yuan and fen, dollars and cents), from integer cents. */
export function decimalAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Integer cents from decimal text of at most two places (`10`, `10.5`, `10.50`); null when it is not one. */
export function centsOf(text: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
