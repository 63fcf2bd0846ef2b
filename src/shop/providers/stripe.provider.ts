import { Injectable } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import Stripe from 'stripe';
import { pinnedLookup, resolvePublic, TargetRefused } from '../../common/outbound-targets';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { JsonLogger } from '../../core/logging/json-logger';
import { PlatformService } from '../../platform/platform.service';
import {
  GatewayNotification,
  NotificationIgnored,
  NotificationRefusal,
  PaymentProvider,
  PaymentRequest,
  ProviderAnswer,
  VerifiedPayment,
} from '../payment-provider';

export const STRIPE_API_BASE = 'https://api.stripe.com';

/** `PUT /admin/v1/projects/:id/payments/stripe` (decisions §26). */
export class StripeSettingsDto {
  @ApiProperty({ description: 'new checkouts may pay with it' })
  @IsBoolean()
  enabled!: boolean;

  @ApiProperty({
    example: 'sk_live_…',
    description:
      "the account's secret key (`sk_…`) or a restricted key (`rk_…`) that may write Checkout Sessions; secret: stored encrypted, never answered",
    writeOnly: true,
  })
  @IsString()
  @Matches(/^(sk|rk)_[A-Za-z0-9_]{8,250}$/, { message: 'secret_key must be a Stripe secret key (sk_…) or restricted key (rk_…)' })
  secret_key!: string;

  @ApiProperty({
    example: 'whsec_…',
    description:
      "the signing secret (`whsec_…`) of the webhook endpoint added in Stripe's dashboard; secret: stored encrypted, never answered",
    writeOnly: true,
  })
  @IsString()
  @Matches(/^whsec_[\x21-\x7e]{8,250}$/, { message: 'webhook_secret must be the endpoint signing secret (whsec_…)' })
  webhook_secret!: string;

  @ApiPropertyOptional({
    example: STRIPE_API_BASE,
    description: `the API's address, \`${STRIPE_API_BASE}\` when left out (another only for a test double)`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^https?:\/\/[^\s/?#@]+\/?$/, {
    message: 'api_base must be an http:// or https:// origin, without path, query or fragment',
  })
  api_base?: string;
}

type StripeSettings = Pick<StripeSettingsDto, 'enabled' | 'secret_key' | 'webhook_secret' | 'api_base'>;

/** Seconds a notification's signature stays good (Stripe's own default, the contract's 5 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** The buyer waits on the answer: a short timeout, and one retry (the library makes it idempotent). */
const API_TIMEOUT_MS = 10_000;
const API_RETRIES = 1;
/**
 * Stripe keeps a Checkout Session open 30 minutes at the least; ours is 15. The session closes at
 * 31 (a minute of clock difference), so a payment after the checkout expired is the rare late one.
 */
const SESSION_LIFETIME_SECONDS = 31 * 60;
/** The events that carry a completed payment; a delayed method's money comes with the second. */
const PAYMENT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * Stripe Checkout: the buyer is sent to a Checkout Session made for the checkout (its `url`), and
 * Stripe calls the webhook with a signed `checkout.session.completed` event. The library `stripe`
 * makes the session and checks the signature. Only two-decimal currencies: the service's amounts
 * are hundredths of the CURRENCY, which are Stripe's minor units for these alone (decisions.md).
 */
@Injectable()
export class StripeProvider implements PaymentProvider<StripeSettings> {
  readonly name = 'stripe';
  readonly settings = { dto: StripeSettingsDto, secretFields: ['secret_key', 'webhook_secret'] } as const;
  readonly currencies = [
    'USD', 'EUR', 'GBP', 'CNY', 'HKD', 'SGD', 'AUD', 'CAD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN',
    'CZK', 'RON', 'MXN', 'BRL', 'INR', 'MYR', 'THB', 'PHP', 'ZAR', 'AED', 'SAR', 'ILS', 'TRY',
  ] as const; // prettier-ignore

  constructor(
    private readonly logger: JsonLogger,
    private readonly platform: PlatformService,
  ) {}

  /**
   * The Checkout Session's address. Stripe unreachable, too slow or refusing (a revoked key, a
   * currency the account cannot take) is PAYMENT_GATEWAY_UNAVAILABLE: the buyer tries again later,
   * and the cause goes to the log with the failed checkout, never to the buyer.
   */
  async payUrl(payment: PaymentRequest, settings: StripeSettings): Promise<string> {
    try {
      return await this.sessionUrl(payment, settings);
    } catch (error) {
      this.logger.entry('error', 'stripe checkout session failed', {
        checkout_id: payment.checkoutId,
        error:
          error instanceof TargetRefused
            ? `api_base: ${error.reason} (platform setting webhook_private_targets)`
            : error instanceof Error
              ? `${error.constructor.name}: ${error.message}`
              : String(error),
      });
      throw new ServiceError(ErrorCode.PAYMENT_GATEWAY_UNAVAILABLE, undefined, {
        details: ['provider: stripe made no Checkout Session'],
        cause: error,
      });
    }
  }

  private async sessionUrl(payment: PaymentRequest, settings: StripeSettings): Promise<string> {
    const client = await this.client(settings);
    const session = await client.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: payment.checkoutId,
        metadata: { checkout_id: payment.checkoutId },
        // Stripe's page then asks for no address, and its receipt goes where the cards' mail goes.
        customer_email: payment.email,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: payment.currency.toLowerCase(),
              unit_amount: payment.amountCents,
              product_data: { name: payment.subject },
            },
          },
        ],
        // The return page shows the cards once paid; a buyer who cancels sees the checkout still pending there.
        success_url: payment.returnUrl,
        cancel_url: payment.returnUrl,
        expires_at: Math.floor(Date.now() / 1000) + SESSION_LIFETIME_SECONDS,
      },
      // A retry of the request makes no second session.
      { idempotencyKey: `checkout-${payment.checkoutId}` },
    );
    if (!session.url) throw new Error(`Stripe answered session ${session.id} without a url`);
    return session.url;
  }

  verifyNotification(
    notification: GatewayNotification,
    settings: StripeSettings,
  ): VerifiedPayment | NotificationRefusal | NotificationIgnored {
    const header = notification.headers['stripe-signature'];
    if (typeof header !== 'string' || !header) return { refused: 'bad_signature', detail: 'no Stripe-Signature header' };
    if (!notification.rawBody?.length) return { refused: 'malformed', detail: 'no body' };
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(notification.rawBody, header, settings.webhook_secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (error) {
      // Signed rightly but not JSON: malformed; anything else is the signature.
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError))
        return { refused: 'malformed', detail: 'the body is not a JSON event' };
      return { refused: 'bad_signature', detail: signatureProblem(error) };
    }
    if (!PAYMENT_EVENTS.has(event.type)) return { ignored: `event ${String(event.type).slice(0, 64)}` };
    const session = event.data.object as Partial<Stripe.Checkout.Session>;
    const reference = text(session.client_reference_id) ?? text(session.metadata?.checkout_id);
    if (session.payment_status !== 'paid')
      // A delayed method (a bank debit): its money comes later with async_payment_succeeded.
      return { ignored: `session ${text(session.id) ?? '?'} payment_status ${text(session.payment_status) ?? '?'}` };
    if (!reference) return { refused: 'malformed', detail: 'the session has no client_reference_id' };
    if (!Number.isSafeInteger(session.amount_total) || (session.amount_total as number) < 0)
      return { refused: 'malformed', detail: 'amount_total is not a whole amount', reference };
    if (!text(session.currency)) return { refused: 'malformed', detail: 'no currency', reference };
    const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    return {
      checkoutId: reference,
      amountCents: session.amount_total as number,
      currency: session.currency!.toUpperCase(),
      tradeNo: (text(paymentIntent) ?? text(session.id))?.slice(0, 64) ?? null,
    };
  }

  /**
   * A client for the project's key and API address: short timeout, one retry, no telemetry headers.
   * The address is an author's (tests point it at a fake Stripe), so the call keeps to the webhooks'
   * rule: its host must resolve to public addresses unless the platform allows private targets, and
   * the connection goes only to the addresses checked.
   */
  private async client(settings: StripeSettings): Promise<Stripe> {
    const base = new URL(settings.api_base || STRIPE_API_BASE);
    const { webhook_private_targets: allowPrivate } = await this.platform.getSettings();
    const lookup = pinnedLookup(await resolvePublic(base.hostname, allowPrivate));
    const protocol = base.protocol === 'http:' ? 'http' : 'https';
    return new Stripe(settings.secret_key, {
      host: base.hostname,
      port: base.port || (protocol === 'http' ? 80 : 443),
      protocol,
      httpAgent: protocol === 'http' ? new HttpAgent({ lookup }) : new HttpsAgent({ lookup }),
      timeout: API_TIMEOUT_MS,
      maxNetworkRetries: API_RETRIES,
      telemetry: false,
    });
  }

  answer(taken: boolean): ProviderAnswer {
    // Stripe retries any answer but 2xx, for days: a refusal it should send again is a 400.
    return { status: taken ? 200 : 400, contentType: 'application/json', body: JSON.stringify({ received: taken }) };
  }
}

function signatureProblem(error: Error): string {
  const message = error.message;
  if (/tolerance/i.test(message)) return 'the signature is older than 5 minutes';
  if (/no signatures found matching/i.test(message)) return 'the signature does not match the webhook secret';
  return 'the Stripe-Signature header cannot be read';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
