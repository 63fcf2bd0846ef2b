import { createHmac } from 'node:crypto';
import { JsonLogger } from '../../core/logging/json-logger';
import { PlatformService } from '../../platform/platform.service';
import { GatewayNotification } from '../payment-provider';
import { StripeProvider } from './stripe.provider';

const SECRET = 'whsec_unitTestSigningSecret0123456789';
const settings = { enabled: true, secret_key: 'sk_test_0123456789abcdef', webhook_secret: SECRET };
// Only the notifications are tested here: they read no platform setting.
const provider = new StripeProvider(new JsonLogger('error', () => undefined), {} as PlatformService);
const CHECKOUT = '3f2b7c1e-0000-4000-8000-000000000001';

/** Signed as Stripe signs (HMAC-SHA256 of `t.body`), written here on its own. */
function notification(body: string, at = Math.floor(Date.now() / 1000), secret = SECRET): GatewayNotification {
  const v1 = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return {
    method: 'POST',
    query: {},
    body: undefined,
    headers: { 'stripe-signature': `t=${at},v1=${v1}` },
    rawBody: Buffer.from(body),
  };
}

function event(session: Record<string, unknown> = {}, type = 'checkout.session.completed'): string {
  return JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type,
    data: {
      object: {
        id: 'cs_test_1',
        object: 'checkout.session',
        payment_status: 'paid',
        client_reference_id: CHECKOUT,
        amount_total: 1250,
        currency: 'usd',
        payment_intent: 'pi_1',
        ...session,
      },
    },
  });
}

describe('StripeProvider', () => {
  it('reads a paid session: its checkout, amount in minor units, currency in capitals, the payment intent', () => {
    expect(provider.verifyNotification(notification(event()), settings)).toEqual({
      checkoutId: CHECKOUT,
      amountCents: 1250,
      currency: 'USD',
      tradeNo: 'pi_1',
    });
    // Without a payment intent the session's id; without client_reference_id the metadata's checkout id.
    expect(
      provider.verifyNotification(
        notification(event({ payment_intent: null, client_reference_id: null, metadata: { checkout_id: CHECKOUT } })),
        settings,
      ),
    ).toMatchObject({ checkoutId: CHECKOUT, tradeNo: 'cs_test_1' });
  });

  it('takes the delayed payment event too, and ignores other events and unpaid sessions', () => {
    expect(
      provider.verifyNotification(notification(event({}, 'checkout.session.async_payment_succeeded')), settings),
    ).toMatchObject({ checkoutId: CHECKOUT });
    expect(provider.verifyNotification(notification(event({}, 'checkout.session.expired')), settings)).toEqual({
      ignored: 'event checkout.session.expired',
    });
    expect(provider.verifyNotification(notification(event({ payment_status: 'unpaid' })), settings)).toEqual({
      ignored: expect.stringContaining('unpaid'),
    });
  });

  it('refuses a signature of another secret, an old one, none, a signed body that is no JSON, a session without amount', () => {
    const refused = (n: GatewayNotification) => provider.verifyNotification(n, settings);
    expect(refused(notification(event(), undefined, 'whsec_another0000000000'))).toMatchObject({ refused: 'bad_signature' });
    expect(refused(notification(event(), Math.floor(Date.now() / 1000) - 301))).toEqual({
      refused: 'bad_signature',
      detail: 'the signature is older than 5 minutes',
    });
    expect(refused({ ...notification(event()), headers: {} })).toMatchObject({ refused: 'bad_signature' });
    expect(refused({ ...notification(event()), headers: { 'stripe-signature': 'garbage' } })).toMatchObject({
      refused: 'bad_signature',
    });
    expect(refused({ ...notification(event()), rawBody: undefined })).toMatchObject({ refused: 'malformed' });
    expect(refused(notification('not json'))).toMatchObject({ refused: 'malformed' });
    expect(refused(notification(event({ amount_total: 12.5 })))).toMatchObject({ refused: 'malformed', reference: CHECKOUT });
    expect(refused(notification(event({ client_reference_id: null })))).toMatchObject({ refused: 'malformed' });
  });

  it('takes two-decimal currencies only: the service counts hundredths, which zero- and three-decimal ones are not', () => {
    for (const code of ['USD', 'EUR', 'CNY', 'GBP']) expect(provider.currencies).toContain(code);
    for (const code of ['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'HUF', 'TWD', 'UGX', 'BHD', 'KWD', 'JOD', 'OMR', 'TND'])
      expect(provider.currencies).not.toContain(code);
  });

  it('answers Stripe 200 when taken and 400 (which it retries) when refused, in JSON', () => {
    expect(provider.answer(true)).toEqual({ status: 200, contentType: 'application/json', body: '{"received":true}' });
    expect(provider.answer(false)).toEqual({ status: 400, contentType: 'application/json', body: '{"received":false}' });
  });
});
