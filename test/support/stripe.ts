import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AdminClient } from './admin-client';
import { TestApp } from './test-app';

export const STRIPE_SECRET_KEY = 'sk_test_51FakeAccountKeyForTheTests0123456789';
export const STRIPE_WEBHOOK_SECRET = 'whsec_fakeEndpointSigningSecret0123456789abcdef';

/** One Checkout Session request as the fake Stripe API received it. */
export interface SessionRequest {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The form fields, names as sent (`line_items[0][price_data][currency]`). */
  fields: Record<string, string>;
  session: { id: string; url: string } | null;
}

/**
 * A stand-in for Stripe's API on 127.0.0.1: `POST /v1/checkout/sessions` (form-encoded, Bearer key)
 * answers a session with its `url`, as Stripe does; a wrong key is Stripe's 401. `failWith` makes it
 * answer that status to everything (a gateway in trouble).
 */
export class FakeStripe {
  readonly requests: SessionRequest[] = [];
  failWith: number | null = null;
  private server: Server | null = null;
  private sessions = 0;

  constructor(private readonly secretKey = STRIPE_SECRET_KEY) {}

  get apiBase(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The requests that named this checkout as their client_reference_id. */
  of(checkoutId: string): SessionRequest[] {
    return this.requests.filter((r) => r.fields.client_reference_id === checkoutId);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    const request: SessionRequest = {
      authorization: header('authorization'),
      idempotencyKey: header('idempotency-key'),
      fields,
      session: null,
    };
    this.requests.push(request);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (this.failWith !== null)
      return answer(this.failWith, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions')
      return answer(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` },
      });
    if (request.authorization !== `Bearer ${this.secretKey}`)
      return answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    const id = `cs_test_${String(++this.sessions).padStart(6, '0')}${Date.now().toString(36)}`;
    request.session = { id, url: `https://checkout.stripe.test/c/pay/${id}` };
    answer(200, {
      id,
      object: 'checkout.session',
      mode: fields.mode,
      client_reference_id: fields.client_reference_id ?? null,
      amount_total: Number(fields['line_items[0][price_data][unit_amount]']),
      currency: fields['line_items[0][price_data][currency]'],
      payment_status: 'unpaid',
      status: 'open',
      success_url: fields.success_url,
      cancel_url: fields.cancel_url,
      url: request.session.url,
    });
  }
}

/**
 * `Stripe-Signature` written here on its own, as Stripe signs: HMAC-SHA256 under the endpoint's
 * signing secret of `{t}.{raw body}`, hex, in `t=…,v1=…` (not the service's code nor the library's).
 */
export function stripeSignature(rawBody: string, secret = STRIPE_WEBHOOK_SECRET, at = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${at}.${rawBody}`, 'utf8').digest('hex');
  return `t=${at},v1=${v1}`;
}

/** A `checkout.session.completed` event of a paid session for the checkout, changed by `session` and `event`. */
export function sessionEvent(
  checkoutId: string,
  amountCents: number,
  currency: string,
  session: Record<string, unknown> = {},
  event: Record<string, unknown> = {},
): string {
  const id = `cs_test_${checkoutId.replace(/-/g, '').slice(0, 20)}`;
  return JSON.stringify(
    {
      id: `evt_${checkoutId.replace(/-/g, '').slice(0, 16)}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.completed',
      data: {
        object: {
          id,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          client_reference_id: checkoutId,
          metadata: { checkout_id: checkoutId },
          amount_subtotal: amountCents,
          amount_total: amountCents,
          currency: currency.toLowerCase(),
          payment_intent: `pi_${checkoutId.replace(/-/g, '').slice(0, 20)}`,
          customer_details: { email: 'buyer@example.com', name: null },
          ...session,
        },
      },
      ...event,
    },
    null,
    2, // Stripe's own bodies are pretty-printed: the signature is over these bytes, not a re-serialisation.
  );
}

/** Stripe's webhook call: the JSON body as these bytes, with its signature header (none when null). */
export function notifyStripe(
  t: TestApp,
  projectId: string,
  rawBody: string,
  signature: string | null = stripeSignature(rawBody),
) {
  const req = t.http().post(`/shop/notify/stripe/${projectId}`).set('Content-Type', 'application/json; charset=utf-8');
  if (signature !== null) req.set('Stripe-Signature', signature);
  return req.send(rawBody);
}

/** Switches Stripe on for the project against the fake API. */
export async function enableStripe(
  author: AdminClient,
  projectId: string,
  apiBase: string,
  fields: Record<string, unknown> = {},
) {
  return author
    .put(`/admin/v1/projects/${projectId}/payments/stripe`, {
      enabled: true,
      secret_key: STRIPE_SECRET_KEY,
      webhook_secret: STRIPE_WEBHOOK_SECRET,
      api_base: apiBase,
      ...fields,
    })
    .expect(200);
}
