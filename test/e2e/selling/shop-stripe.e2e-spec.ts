import { DataSource } from 'typeorm';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { createType } from '../../support/agents';
import { checkout, CheckoutAnswer, expire, ordersOfCheckout, PUBLIC_URL, refusalsOf } from '../../support/shop';
import { withPlatformSettings } from '../../support/platform-state';
import { sdkLogin } from '../../support/standard';
import {
  enableStripe,
  FakeStripe,
  notifyStripe,
  sessionEvent,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  stripeSignature,
} from '../../support/stripe';
import { startTestApp, TestApp } from '../../support/test-app';

const { BAD_REQUEST, PAYMENT_GATEWAY_UNAVAILABLE, PAYMENT_PROVIDER_NOT_ENABLED } = ErrorCode;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * The storefront with Stripe Checkout end to end (decisions §26): the service makes its Checkout
 * Sessions at a fake Stripe API the test runs on 127.0.0.1, and the test sends the webhook events
 * Stripe would, signed with its own HMAC code. Both databases, and both HTTP adapters (the raw body
 * the signature covers must reach the provider on each).
 */
describe('storefront checkouts paid with Stripe (decisions §26, e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let type: { id: number };
  const stripe = new FakeStripe();

  const buy = async (p: Project, typeId: number, body: Record<string, unknown> = {}) =>
    (await checkout(t, p.program_id, { card_type_id: typeId, provider: 'stripe', ...body }).expect(201)).body as CheckoutAnswer;
  const pay = (c: CheckoutAnswer, session: Record<string, unknown> = {}, p: Project = project) =>
    notifyStripe(t, p.id, sessionEvent(c.checkout_id, c.amount_cents, c.currency, session));
  const status = (c: CheckoutAnswer, token?: string) =>
    t.http().get(`/shop/api/checkouts/${c.checkout_id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`);
  const listed = async (p: Project, c: CheckoutAnswer) =>
    (
      (await author.get(`/admin/v1/projects/${p.id}/checkouts?page_size=100`).expect(200)).body.items as Array<
        Record<string, unknown>
      >
    ).find((x) => x.checkout_id === c.checkout_id);
  const db = () => t.app.get(DataSource);

  beforeAll(async () => {
    await stripe.start();
    t = await startTestApp({ PUBLIC_URL, CURRENCY: 'USD' });
    admin = await AdminClient.asPlatformAdmin(t);
    // The fake Stripe listens on 127.0.0.1: a private address, which the service calls only when allowed.
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    type = await createType(author, project.id, { price_cents: 1250, for_sale: true, name: 'Month' });
    await enableStripe(author, project.id, stripe.apiBase);
  });
  afterAll(async () => {
    await t?.close();
    await stripe.stop();
  });

  it('keeps both secrets encrypted and masked, never echoed; checks their shapes and the API address', async () => {
    const p = await author.createProject();
    const put = await enableStripe(author, p.id, stripe.apiBase);
    expect(put.body).toEqual({
      provider: 'stripe',
      enabled: true,
      settings: { api_base: stripe.apiBase },
      secrets: { secret_key: `****${STRIPE_SECRET_KEY.slice(-4)}`, webhook_secret: `****${STRIPE_WEBHOOK_SECRET.slice(-4)}` },
      notify_url: `${PUBLIC_URL}/shop/notify/stripe/${p.id}`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await author.get(`/admin/v1/projects/${p.id}/payments`).expect(200);
    expect(got.body.items).toEqual([put.body]);
    for (const secret of [STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET]) {
      expect(JSON.stringify(got.body)).not.toContain(secret);
      const [row] = await db().query(`SELECT settings, secrets_enc FROM payment_providers WHERE project_id = $1`, [p.id]);
      expect(JSON.stringify(row)).not.toContain(secret);
      const audit = await db().query(`SELECT changes::text AS changes FROM admin_audit WHERE project_id = $1`, [p.id]);
      expect(JSON.stringify(audit)).not.toContain(secret);
    }

    const put400 = async (fields: Record<string, unknown>, field: string) =>
      expectAdminError(await author.put(`/admin/v1/projects/${p.id}/payments/stripe`, fields), 400, BAD_REQUEST, field);
    await put400({ secret_key: 'pk_test_1234567890abcdef' }, 'secret_key');
    await put400({ webhook_secret: 'not-a-signing-secret' }, 'webhook_secret');
    await put400({ api_base: 'https://api.stripe.com/v1' }, 'api_base');
    await put400({ api_base: 'ftp://api.stripe.com' }, 'api_base');
    await put400({ api_base: 'https://api.stripe.com?x=1' }, 'api_base');
    const fresh = await author.createProject();
    expectAdminError(
      await author.put(`/admin/v1/projects/${fresh.id}/payments/stripe`, { enabled: true, secret_key: STRIPE_SECRET_KEY }),
      400,
      BAD_REQUEST,
      'webhook_secret',
    );
    // Without api_base it talks to Stripe itself; a later PUT may leave the secrets out.
    const real = await author
      .put(`/admin/v1/projects/${fresh.id}/payments/stripe`, {
        enabled: false,
        secret_key: STRIPE_SECRET_KEY,
        webhook_secret: STRIPE_WEBHOOK_SECRET,
      })
      .expect(200);
    expect(real.body.settings).toEqual({});
    const on = await author.put(`/admin/v1/projects/${fresh.id}/payments/stripe`, { enabled: true }).expect(200);
    expect(on.body.secrets).toEqual(put.body.secrets);
  });

  it('makes a Checkout Session for the checkout: its url is the pay_url, with the amount, currency and return address', async () => {
    const c = await buy(project, type.id, { count: 2 });
    expect(c).toMatchObject({ amount_cents: 2500, currency: 'USD' });
    const [sent] = stripe.of(c.checkout_id);
    expect(c.pay_url).toBe(sent.session!.url);
    expect(sent.authorization).toBe(`Bearer ${STRIPE_SECRET_KEY}`);
    expect(sent.idempotencyKey).toEqual(expect.stringContaining(c.checkout_id));
    const returnUrl = `${PUBLIC_URL}/shop/${project.program_id}/return?checkout_id=${c.checkout_id}&token=${c.token}`;
    expect(sent.fields).toMatchObject({
      mode: 'payment',
      client_reference_id: c.checkout_id,
      'metadata[checkout_id]': c.checkout_id,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][product_data][name]': 'Month × 2',
      success_url: returnUrl,
      cancel_url: returnUrl,
      customer_email: 'buyer@example.com',
    });
    // Stripe keeps a session open 30 minutes at the least: it closes a minute after that.
    const closes = Number(sent.fields.expires_at) * 1000 - Date.now();
    expect(closes).toBeGreaterThan(30 * 60_000);
    expect(closes).toBeLessThanOrEqual(31 * 60_000 + 1000);
    expect((await status(c).expect(200)).body.status).toBe('pending');
  });

  it('calls an API address on a private network only where the platform allows private targets, as for webhooks', async () => {
    const sent = stripe.requests.length;
    await withPlatformSettings(admin, { webhook_private_targets: false }, async () => {
      expectAdminError(
        await checkout(t, project.program_id, { card_type_id: type.id, provider: 'stripe' }),
        502,
        PAYMENT_GATEWAY_UNAVAILABLE,
      );
    });
    expect(stripe.requests).toHaveLength(sent);
    const failures = t.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'stripe checkout session failed');
    expect(failures.at(-1).error).toBe(
      'api_base: the host does not resolve to a public address (platform setting webhook_private_targets)',
    );
    const allowed = await buy(project, type.id);
    expect(stripe.of(allowed.checkout_id)).toHaveLength(1);
  });

  it('takes the paid session: 200 {received: true}, one order as the author, the cards behind the token log in', async () => {
    const c = await buy(project, type.id, { count: 2, email: 'paid@example.com' });
    const answer = await pay(c).expect(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ received: true });

    const shown = (await status(c, c.token).expect(200)).body;
    expect(shown).toMatchObject({ status: 'paid', paid_at: expect.any(String), amount_cents: 2500, currency: 'USD' });
    expect(shown.cards).toHaveLength(2);
    expect((await status(c).expect(200)).body.cards).toBeUndefined();

    const order = (await author.get(`/admin/v1/projects/${project.id}/orders/${c.checkout_id}`).expect(200)).body;
    expect(order).toMatchObject({ order_id: c.checkout_id, count: 2, agent_id: null, unit_price_cents: 1250, total_cents: 2500 });
    expect(order.items.map((card: { code: string }) => card.code).sort()).toEqual(
      shown.cards.map((card: { code: string }) => card.code).sort(),
    );
    const login = await sdkLogin(t, project.api_secret, {
      app: project.program_id,
      card_key: shown.cards[0].code,
      machine_id: 'stripe-buyer',
    }).expect(200);
    expect(login.body).toMatchObject({ code: 0, success: true });
    expect(await listed(project, c)).toMatchObject({
      status: 'paid',
      provider: 'stripe',
      amount_cents: 2500,
      currency: 'USD',
      order_id: c.checkout_id,
      trade_no: `pi_${c.checkout_id.replace(/-/g, '').slice(0, 20)}`,
      paid_late: false,
    });
  });

  it('answers a repeated event 200 and changes nothing: the same cards, one order, also when the copies race', async () => {
    const c = await buy(project, type.id);
    await pay(c).expect(200);
    const cards = (await status(c, c.token).expect(200)).body.cards;
    const again = await Promise.all(Array.from({ length: 6 }, () => pay(c)));
    expect(again.map((r) => [r.status, r.body])).toEqual(Array(6).fill([200, { received: true }]));
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
    expect((await status(c, c.token).expect(200)).body.cards).toEqual(cards);

    const raced = await buy(project, type.id, { count: 3 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => pay(raced)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await ordersOfCheckout(t, raced.checkout_id)).toBe(1);
    expect((await status(raced, raced.token).expect(200)).body.cards).toHaveLength(3);
  });

  it('refuses a wrong amount or currency, a bad, missing or stale signature, an unknown checkout: 400, recorded, nothing changed', async () => {
    const p = await author.createProject();
    const cheap = await createType(author, p.id, { price_cents: 990, for_sale: true });
    await enableStripe(author, p.id, stripe.apiBase);
    const c = await buy(p, cheap.id);
    const send = (body: string, signature?: string | null) => notifyStripe(t, p.id, body, signature);
    const event = (session: Record<string, unknown> = {}) => sessionEvent(c.checkout_id, 990, 'USD', session);

    const refused = [
      await send(event({ amount_total: 980 })),
      await send(event({ currency: 'eur' })),
      await send(event(), stripeSignature(event(), 'whsec_notTheEndpointSecret000000')),
      // Signed rightly, then the amount changed on the way.
      await send(event({ amount_total: 1 }), stripeSignature(event())),
      await send(event(), null),
      await send(event(), stripeSignature(event(), STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301)),
      await send(sessionEvent('00000000-0000-4000-8000-000000000000', 990, 'USD')),
      await send(sessionEvent('not-a-checkout', 990, 'USD')),
      await send(event({ client_reference_id: null, metadata: {} })),
    ];
    expect(refused.map((r) => [r.status, r.body])).toEqual(Array(refused.length).fill([400, { received: false }]));

    expect((await status(c).expect(200)).body.status).toBe('pending');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(0);
    expect((await refusalsOf(t, p.id)).map((r) => [r.reason, r.checkout_id])).toEqual([
      ['amount_mismatch', c.checkout_id],
      ['currency_mismatch', c.checkout_id],
      ['bad_signature', null],
      ['bad_signature', null],
      ['bad_signature', null],
      ['bad_signature', null],
      ['unknown_checkout', null],
      ['unknown_checkout', null],
      ['malformed', null],
    ]);
    const page = (await author.get(`/admin/v1/projects/${p.id}/payment-refusals?page_size=100`).expect(200)).body;
    expect(page.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ provider: 'stripe', reason: 'amount_mismatch', reference: c.checkout_id }),
        expect.objectContaining({ provider: 'stripe', reason: 'bad_signature', detail: expect.stringMatching(/5 minutes/) }),
      ]),
    );
    expect(JSON.stringify(page)).not.toContain(STRIPE_WEBHOOK_SECRET);

    // A project without Stripe settings records it; the right event still goes through afterwards.
    const bare = await author.createProject();
    expect((await notifyStripe(t, bare.id, event()).expect(400)).body).toEqual({ received: false });
    expect((await refusalsOf(t, bare.id)).map((r) => r.reason)).toEqual(['provider_not_set_up']);
    expect((await send(event()).expect(200)).body).toEqual({ received: true });
    expect((await status(c).expect(200)).body.status).toBe('paid');
  });

  it('acknowledges events that are no payment without recording them, and takes a delayed payment when it succeeds', async () => {
    const p = await author.createProject();
    const tp = await createType(author, p.id, { price_cents: 700, for_sale: true });
    await enableStripe(author, p.id, stripe.apiBase);
    const c = await buy(p, tp.id);
    const other = sessionEvent(c.checkout_id, 700, 'USD', {}, { type: 'payment_intent.succeeded' });
    expect((await notifyStripe(t, p.id, other).expect(200)).body).toEqual({ received: true });
    // A bank debit: the session completes unpaid, and the money comes with async_payment_succeeded.
    const unpaid = sessionEvent(c.checkout_id, 700, 'USD', { payment_status: 'unpaid' });
    expect((await notifyStripe(t, p.id, unpaid).expect(200)).body).toEqual({ received: true });
    expect((await status(c).expect(200)).body.status).toBe('pending');
    expect(await refusalsOf(t, p.id)).toEqual([]);

    const succeeded = sessionEvent(c.checkout_id, 700, 'USD', {}, { type: 'checkout.session.async_payment_succeeded' });
    expect((await notifyStripe(t, p.id, succeeded).expect(200)).body).toEqual({ received: true });
    expect((await status(c, c.token).expect(200)).body).toMatchObject({ status: 'paid', cards: [expect.anything()] });
    // Its completed event arriving late (a retry) changes nothing.
    await pay(c, {}, p).expect(200);
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
    expect(await refusalsOf(t, p.id)).toEqual([]);
  });

  it('honours a session paid after the checkout expired, marked paid_late', async () => {
    const c = await buy(project, type.id);
    await expire(t, c.checkout_id);
    expect((await status(c).expect(200)).body.status).toBe('expired');
    expect((await pay(c).expect(200)).body).toEqual({ received: true });
    expect((await status(c, c.token).expect(200)).body).toMatchObject({ status: 'paid', cards: [expect.anything()] });
    expect(await listed(project, c)).toMatchObject({ status: 'paid', paid_late: true });
  });

  it('answers 502 PAYMENT_GATEWAY_UNAVAILABLE when Stripe fails or refuses: the checkout failed, its stock back at once', async () => {
    const p = await author.createProject();
    await enableStripe(author, p.id, stripe.apiBase);
    const stocked = await createType(author, p.id, { price_cents: 500, for_sale: true, stock_mode: 'stock' });
    await author.post(`/admin/v1/projects/${p.id}/cards`, { count: 2, card_type_id: stocked.id, stock: true }).expect(201);
    const attempt = () => checkout(t, p.program_id, { card_type_id: stocked.id, count: 2, provider: 'stripe' });

    stripe.failWith = 500;
    const before = stripe.requests.length;
    const down = await attempt();
    stripe.failWith = null;
    expectAdminError(down, 502, PAYMENT_GATEWAY_UNAVAILABLE, 'provider');
    expect(JSON.stringify(down.body)).not.toMatch(/unknown error|sk_test/i);
    // One retry at most, and the same idempotency key for both.
    const tries = stripe.requests.slice(before);
    expect(tries.length).toBeLessThanOrEqual(2);
    expect(new Set(tries.map((r) => r.idempotencyKey)).size).toBe(1);

    const [failed] = await db().query(`SELECT id, status FROM checkouts WHERE project_id = $1`, [p.id]);
    expect((await listed(p, { checkout_id: failed.id } as CheckoutAnswer))?.status).toBe('failed');
    expect((await status({ checkout_id: failed.id } as CheckoutAnswer).expect(200)).body.status).toBe('failed');
    // Its two stock cards went back at once: the next checkout gets them.
    const next = (await attempt().expect(201)).body as CheckoutAnswer;
    expect((await pay(next, {}, p).expect(200)).body).toEqual({ received: true });
    expect((await status(next, next.token).expect(200)).body.cards).toHaveLength(2);

    // A key Stripe refuses (revoked), and Stripe not listening at all: the same answer.
    await author.put(`/admin/v1/projects/${p.id}/payments/stripe`, { secret_key: 'sk_test_revokedKey000000000000' }).expect(200);
    const plain = await createType(author, p.id, { price_cents: 500, for_sale: true });
    expectAdminError(
      await checkout(t, p.program_id, { card_type_id: plain.id, provider: 'stripe' }),
      502,
      PAYMENT_GATEWAY_UNAVAILABLE,
    );
    await author.put(`/admin/v1/projects/${p.id}/payments/stripe`, { api_base: 'http://127.0.0.1:9' }).expect(200);
    expectAdminError(
      await checkout(t, p.program_id, { card_type_id: plain.id, provider: 'stripe' }),
      502,
      PAYMENT_GATEWAY_UNAVAILABLE,
    );
    const states = await db().query(`SELECT status FROM checkouts WHERE project_id = $1 AND card_type_id = $2`, [p.id, plain.id]);
    expect(states.map((s: { status: string }) => s.status)).toEqual(['failed', 'failed']);
  });

  it('takes two-decimal currencies only: with CURRENCY=JPY Stripe cannot be switched on', async () => {
    const yen = await startTestApp({ PUBLIC_URL, CURRENCY: 'JPY' });
    try {
      const a = await AdminClient.asPlatformAdmin(yen);
      const own = (await a.createAuthor()).client;
      const p = await own.createProject();
      expectAdminError(
        await own.put(`/admin/v1/projects/${p.id}/payments/stripe`, {
          enabled: true,
          secret_key: STRIPE_SECRET_KEY,
          webhook_secret: STRIPE_WEBHOOK_SECRET,
        }),
        409,
        PAYMENT_PROVIDER_NOT_ENABLED,
        'provider',
      );
    } finally {
      await yen.close();
    }
  });
});
