import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { createType } from '../../support/agents';
import {
  checkout,
  CheckoutAnswer,
  enableEpay,
  expire,
  gatewaySign,
  GATEWAY_URL,
  MERCHANT_ID,
  MERCHANT_KEY,
  notify,
  ordersOfCheckout,
  paidNotice,
  PUBLIC_URL,
  refusalsOf,
} from '../../support/shop';
import { SmtpReceiver } from '../../support/smtp-receiver';
import { sdkLogin } from '../../support/standard';
import { startTestApp, TestApp, uniqueAddress } from '../../support/test-app';
import { eventually, Receiver } from '../../support/webhook-receiver';

const {
  BAD_REQUEST,
  CARD_TYPE_NOT_FOR_SALE,
  CHECKOUT_NOT_FOUND,
  PAYMENT_PROVIDER_NOT_ENABLED,
  PAYMENT_PROVIDER_NOT_FOUND,
  PROGRAM_NOT_FOUND,
  PUBLIC_URL_NOT_SET,
  RATE_LIMITED,
} = ErrorCode;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * The storefront with 易支付 end to end (decisions §26), the test playing the gateway: it reads the
 * pay_url the service made and checks its signature with its own MD5 code, and sends the signed
 * notification a gateway would. Both databases (the embedded default, and `DATABASE_URL`).
 */
describe('storefront checkouts paid with epay (decisions §26, e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let type: { id: number; name: string };
  const receiver = new Receiver();
  const smtp = new SmtpReceiver();

  const pay = (c: CheckoutAnswer, override: Record<string, string> = {}, method: 'POST' | 'GET' = 'POST') =>
    notify(t, project.id, paidNotice(c.checkout_id, c.amount_cents, override), method);
  const status = (c: CheckoutAnswer, token?: string) =>
    t.http().get(`/shop/api/checkouts/${c.checkout_id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`);
  const adminCheckouts = async (p: Project = project) =>
    (await author.get(`/admin/v1/projects/${p.id}/checkouts?page_size=100`).expect(200)).body.items as Array<
      Record<string, unknown>
    >;
  const db = () => t.app.get(DataSource);

  beforeAll(async () => {
    await receiver.start();
    await smtp.start();
    t = await startTestApp({
      PUBLIC_URL,
      WEBHOOK_RETRY_DELAYS: '1',
      SMTP_URL: smtp.url('shop', 'smtp-pass-5ecret'),
      MAIL_FROM: 'Card Shop <shop@example.com>',
      MAIL_POLL_MS: '200',
    });
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    type = await createType(author, project.id, { price_cents: 1250, for_sale: true, name: 'Month' }).then((body) => ({
      ...body,
      name: 'Month',
    }));
    await enableEpay(author, project.id);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    await smtp.stop();
  });

  it('keeps the provider secret: stored encrypted, masked in GET, never echoed; unknown providers are named; DELETE', async () => {
    const p = await author.createProject();
    const put = await enableEpay(author, p.id);
    expect(put.body).toEqual({
      provider: 'epay',
      enabled: true,
      settings: { gateway_url: GATEWAY_URL, pid: MERCHANT_ID },
      secrets: { key: `****${MERCHANT_KEY.slice(-4)}` },
      notify_url: `${PUBLIC_URL}/shop/notify/epay/${p.id}`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = await author.get(`/admin/v1/projects/${p.id}/payments`).expect(200);
    expect(listed.body.items).toEqual([put.body]);
    expect(JSON.stringify(listed.body)).not.toContain(MERCHANT_KEY);
    expect(JSON.stringify(put.body)).not.toContain(MERCHANT_KEY);
    const [row] = await db().query(`SELECT settings, secrets_enc FROM payment_providers WHERE project_id = $1`, [p.id]);
    expect(JSON.stringify(row)).not.toContain(MERCHANT_KEY);
    expect(row.secrets_enc).toMatch(/^v1\./);
    // The audit trail keeps the change without the key.
    const audit = await db().query(`SELECT action, changes::text AS changes FROM admin_audit WHERE project_id = $1`, [p.id]);
    expect(audit.map((a: { action: string }) => a.action)).toContain('payments.update');
    expect(JSON.stringify(audit)).not.toContain(MERCHANT_KEY);

    // Fields left out keep their values: switching off needs no key again.
    const off = await author.put(`/admin/v1/projects/${p.id}/payments/epay`, { enabled: false }).expect(200);
    expect(off.body).toMatchObject({
      enabled: false,
      settings: { pid: MERCHANT_ID },
      secrets: { key: expect.stringMatching(/^\*{4}/) },
    });
    expectAdminError(await checkout(t, p.program_id, { card_type_id: type.id }), 409, PAYMENT_PROVIDER_NOT_ENABLED);

    expectAdminError(await author.put(`/admin/v1/projects/${p.id}/payments/paypal`, { enabled: true }), 400, BAD_REQUEST, 'epay');
    expectAdminError(await author.put(`/admin/v1/projects/${p.id}/payments/epay`, { unknown_field: 1 }), 400, BAD_REQUEST);
    expectAdminError(
      await author.put(`/admin/v1/projects/${p.id}/payments/epay`, { gateway_url: 'ftp://x' }),
      400,
      BAD_REQUEST,
      'gateway_url',
    );
    const fresh = await author.createProject();
    expectAdminError(
      await author.put(`/admin/v1/projects/${fresh.id}/payments/epay`, { enabled: true, pid: '1' }),
      400,
      BAD_REQUEST,
      'key',
    );

    // Another author sees nothing of it.
    const other = (await admin.createAuthor()).client;
    expectAdminError(await other.get(`/admin/v1/projects/${p.id}/payments`), 404, ErrorCode.PROJECT_NOT_FOUND);

    await author.delete(`/admin/v1/projects/${p.id}/payments/epay`).expect(204);
    expectAdminError(await author.delete(`/admin/v1/projects/${p.id}/payments/epay`), 404, PAYMENT_PROVIDER_NOT_FOUND);
    expect((await author.get(`/admin/v1/projects/${p.id}/payments`).expect(200)).body).toEqual({ items: [], total: 0 });
  });

  it('asks an author with two-factor sign-in for a fresh code to set or delete a provider, and changes nothing without it', async () => {
    const { client } = await admin.createAuthor();
    const p = await client.createProject();
    const enrol = await client.post('/admin/v1/auth/2fa/enrol').expect(201);
    const code = (offset: number) =>
      new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
        timestamp: Date.now() + offset * 30_000,
      });
    await client.post('/admin/v1/auth/2fa/confirm', { code: code(0) }).expect(200);
    const settings = { enabled: true, gateway_url: GATEWAY_URL, pid: MERCHANT_ID, key: MERCHANT_KEY };
    expectAdminError(await client.put(`/admin/v1/projects/${p.id}/payments/epay`, settings), 403, ErrorCode.TWO_FACTOR_REQUIRED);
    expect((await client.get(`/admin/v1/projects/${p.id}/payments`).expect(200)).body.total).toBe(0);
    await client.put(`/admin/v1/projects/${p.id}/payments/epay`, settings).set('X-Svc-2fa-Code', code(1)).expect(200);
    expectAdminError(await client.delete(`/admin/v1/projects/${p.id}/payments/epay`), 403, ErrorCode.TWO_FACTOR_REQUIRED);
    expect((await client.get(`/admin/v1/projects/${p.id}/payments`).expect(200)).body.total).toBe(1);
  });

  it('makes a checkout whose pay_url carries the standard parameters, signed as a gateway checks them', async () => {
    const res = await checkout(t, project.program_id, { card_type_id: type.id, count: 2, pay_type: 'alipay' }).expect(201);
    const c = res.body as CheckoutAnswer;
    expect(c).toEqual({
      checkout_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      pay_url: expect.any(String),
      amount_cents: 2500,
      currency: 'CNY',
      expires_at: expect.any(String),
      token: expect.any(String),
    });
    const minutes = (Date.parse(c.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15.1);
    const url = new URL(c.pay_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${GATEWAY_URL}submit.php`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      pid: MERCHANT_ID,
      type: 'alipay',
      out_trade_no: c.checkout_id,
      notify_url: `${PUBLIC_URL}/shop/notify/epay/${project.id}`,
      return_url: `${PUBLIC_URL}/shop/${project.program_id}/return?checkout_id=${c.checkout_id}&token=${c.token}`,
      name: 'Month × 2',
      money: '25.00',
      sign: gatewaySign(params, MERCHANT_KEY),
      sign_type: 'MD5',
    });
    // The token is stored only as its hash.
    const [row] = await db().query(`SELECT token_hash FROM checkouts WHERE id = $1`, [c.checkout_id]);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(c.token);
    expect((await status(c).expect(200)).body).toMatchObject({
      status: 'pending',
      amount_cents: 2500,
      count: 2,
      card_type_name: 'Month',
    });
  });

  it('takes the payment: one order as the author, order.paid, the cards mailed and logging in, the token shows them, sales count it', async () => {
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    await author
      .post(`/admin/v1/projects/${project.id}/webhooks`, { url: receiver.url, events: ['order.paid', 'order.created'] })
      .expect(201);
    const c = (await checkout(t, project.program_id, { card_type_id: type.id, count: 2, email: 'paid@example.com' }).expect(201))
      .body as CheckoutAnswer;
    const answer = await pay(c).expect(200);
    expect(answer.text).toBe('success');
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);

    const order = (await author.get(`/admin/v1/projects/${project.id}/orders/${c.checkout_id}`).expect(200)).body;
    expect(order).toMatchObject({ order_id: c.checkout_id, count: 2, agent_id: null, unit_price_cents: 1250, total_cents: 2500 });
    expect(order.items).toHaveLength(2);
    // The buyer's address is the cards' holder e-mail, and the cards are mailed there, once.
    expect(order.items.map((card: { holder_email: string }) => card.holder_email)).toEqual([
      'paid@example.com',
      'paid@example.com',
    ]);
    const mail = await eventually(() => smtp.to('paid@example.com')[0], 10_000, 'the mail at the SMTP server');
    for (const card of order.items as Array<{ code: string }>) expect(mail.text).toContain(card.code);
    expect(mail.text).toContain('Card type: Month (30 days), 2 cards');
    await pay(c).expect(200);

    // Without the token: the status only. With a wrong one: the same. With it: the codes.
    expect((await status(c).expect(200)).body).toEqual(expect.not.objectContaining({ cards: expect.anything() }));
    expect((await status(c).expect(200)).body.status).toBe('paid');
    expect((await status(c, 'not-the-token').expect(200)).body.cards).toBeUndefined();
    const shown = (await status(c, c.token).expect(200)).body;
    expect(shown).toMatchObject({ status: 'paid', paid_at: expect.any(String) });
    expect(shown.cards.map((card: { code: string }) => card.code).sort()).toEqual(
      order.items.map((card: { code: string }) => card.code).sort(),
    );
    // With the cards, where their mail stands: the return page says they were mailed only once sent.
    expect(['pending', 'sent']).toContain(shown.mail);
    await eventually(async () => (await status(c, c.token).expect(200)).body.mail === 'sent', 10_000, 'mail: sent');

    const login = await sdkLogin(t, project.api_secret, {
      app: project.program_id,
      card_key: shown.cards[0].code,
      machine_id: 'buyer-pc',
    }).expect(200);
    expect(login.body).toMatchObject({ code: 0, success: true });

    const paid = await eventually(
      () => receiver.of('order.paid').find((r) => r.json.data.checkout_id === c.checkout_id),
      10_000,
      'order.paid',
    );
    expect(paid.json).toMatchObject({
      project_id: project.id,
      data: {
        order_id: c.checkout_id,
        provider: 'epay',
        card_type_id: String(type.id),
        count: 2,
        amount_cents: 2500,
        currency: 'CNY',
        email: 'paid@example.com',
        card_ids: order.items.map((card: { id: number }) => card.id),
        paid_late: false,
      },
    });
    await eventually(
      () => receiver.of('order.created').find((r) => r.json.data.order_id === c.checkout_id),
      10_000,
      'order.created',
    );

    const stats = (await author.get(`/admin/v1/projects/${project.id}/stats`).expect(200)).body;
    const sales = stats.sales.filter((s: { card_type_id: number }) => s.card_type_id === type.id);
    expect(sales.reduce((sum: number, s: { sold: number }) => sum + s.sold, 0)).toBeGreaterThanOrEqual(2);
    expect(sales.reduce((sum: number, s: { revenue_cents: number }) => sum + s.revenue_cents, 0)).toBeGreaterThanOrEqual(2500);
    expect(sales.every((s: { agent_id: string | null }) => s.agent_id === null)).toBe(true);

    const listed = (await adminCheckouts()).find((x) => x.checkout_id === c.checkout_id);
    expect(listed).toMatchObject({
      status: 'paid',
      provider: 'epay',
      amount_cents: 2500,
      order_id: c.checkout_id,
      paid_late: false,
    });
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: false }).expect(200);
    expect(smtp.to('paid@example.com')).toHaveLength(1);
  });

  it('answers a repeated notification success and changes nothing: one order, the same cards (POST, then GET, then at once)', async () => {
    const c = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    expect((await pay(c).expect(200)).text).toBe('success');
    const cards = (await status(c, c.token).expect(200)).body.cards;
    expect((await pay(c, {}, 'GET').expect(200)).text).toBe('success');
    const again = await Promise.all(Array.from({ length: 5 }, () => pay(c)));
    expect(again.map((r) => r.text)).toEqual(Array(5).fill('success'));
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
    expect((await status(c, c.token).expect(200)).body.cards).toEqual(cards);
  });

  it('takes exactly one order from 10 copies of a notification racing', async () => {
    const c = (await checkout(t, project.program_id, { card_type_id: type.id, count: 3 }).expect(201)).body as CheckoutAnswer;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => pay(c, {}, i % 2 ? 'GET' : 'POST')));
    expect(answers.map((r) => r.text)).toEqual(Array(10).fill('success'));
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
    const [{ n }] = await db().query(
      `SELECT count(*)::int AS n FROM cards c JOIN orders o ON o.id = c.order_id WHERE o.order_id = $1`,
      [c.checkout_id],
    );
    expect(n).toBe(3);
  });

  it('refuses a wrong amount, a bad signature, an unknown checkout, another merchant, an unpaid state: fail, recorded, nothing changed', async () => {
    const p = await author.createProject();
    const t2 = await createType(author, p.id, { price_cents: 990, for_sale: true });
    await enableEpay(author, p.id);
    const c = (await checkout(t, p.program_id, { card_type_id: t2.id }).expect(201)).body as CheckoutAnswer;
    const send = (fields: Record<string, string>) => notify(t, p.id, fields);

    expect((await send(paidNotice(c.checkout_id, 980)).expect(200)).text).toBe('fail');
    const forged = {
      ...paidNotice(c.checkout_id, 990),
      sign: gatewaySign(paidNotice(c.checkout_id, 990), 'not-the-merchant-key'),
    };
    expect((await send(forged).expect(200)).text).toBe('fail');
    const tampered = { ...paidNotice(c.checkout_id, 990), money: '0.01' };
    expect((await send(tampered).expect(200)).text).toBe('fail');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await send(paidNotice(unknown, 990)).expect(200)).text).toBe('fail');
    expect((await send(paidNotice('not-a-checkout', 990)).expect(200)).text).toBe('fail');
    expect((await send(paidNotice(c.checkout_id, 990, { pid: '2002' })).expect(200)).text).toBe('fail');
    expect((await send(paidNotice(c.checkout_id, 990, { trade_status: 'WAIT_BUYER_PAY' })).expect(200)).text).toBe('fail');
    const { sign: _sign, ...unsigned } = paidNotice(c.checkout_id, 990);
    expect((await send(unsigned).expect(200)).text).toBe('fail');
    // A checkout of another project, notified under this one.
    const theirs = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    expect((await send(paidNotice(theirs.checkout_id, 1250)).expect(200)).text).toBe('fail');

    expect((await status(c).expect(200)).body.status).toBe('pending');
    expect((await status(theirs).expect(200)).body.status).toBe('pending');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(0);
    expect(await ordersOfCheckout(t, theirs.checkout_id)).toBe(0);
    expect((await refusalsOf(t, p.id)).map((r) => [r.reason, r.checkout_id])).toEqual([
      ['amount_mismatch', c.checkout_id],
      ['bad_signature', null],
      ['bad_signature', null],
      ['unknown_checkout', null],
      ['unknown_checkout', null],
      ['wrong_merchant', null],
      ['not_paid', null],
      ['malformed', null],
      ['unknown_checkout', null],
    ]);
    const listed = (await author.get(`/admin/v1/projects/${p.id}/payment-refusals?checkout_id=${c.checkout_id}`).expect(200))
      .body;
    expect(listed.items).toEqual([
      expect.objectContaining({ reason: 'amount_mismatch', reference: c.checkout_id, provider: 'epay' }),
    ]);
    // A project without epay settings, and one that does not exist.
    const bare = await author.createProject();
    expect((await notify(t, bare.id, paidNotice(c.checkout_id, 990)).expect(200)).text).toBe('fail');
    expect((await refusalsOf(t, bare.id)).map((r) => r.reason)).toEqual(['provider_not_set_up']);
    expect((await notify(t, '00000000-0000-4000-8000-000000000001', paidNotice(c.checkout_id, 990)).expect(200)).text).toBe(
      'fail',
    );
    expect((await notify(t, 'nope', paidNotice(c.checkout_id, 990)).expect(200)).text).toBe('fail');

    // The right notification still goes through afterwards.
    expect((await send(paidNotice(c.checkout_id, 990)).expect(200)).text).toBe('success');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
  });

  it('records a second, different payment of a paid checkout for a refund, and still answers success', async () => {
    const c = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    expect((await pay(c, { trade_no: 'FIRST' }).expect(200)).text).toBe('success');
    expect((await pay(c, { trade_no: 'SECOND' }).expect(200)).text).toBe('success');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
    const refusals = (await refusalsOf(t, project.id)).filter((r) => r.checkout_id === c.checkout_id);
    expect(refusals.map((r) => r.reason)).toEqual(['duplicate_payment']);
  });

  it('says expired after 15 minutes, and honours a late payment (mint), marked paid_late', async () => {
    const c = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    await expire(t, c.checkout_id);
    expect((await status(c, c.token).expect(200)).body).toEqual(expect.objectContaining({ status: 'expired' }));
    expect((await author.get(`/admin/v1/projects/${project.id}/checkouts?status=expired`).expect(200)).body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ checkout_id: c.checkout_id, status: 'expired' })]),
    );
    expect((await pay(c).expect(200)).text).toBe('success');
    const shown = (await status(c, c.token).expect(200)).body;
    expect(shown.status).toBe('paid');
    expect(shown.cards).toHaveLength(1);
    expect((await adminCheckouts()).find((x) => x.checkout_id === c.checkout_id)).toMatchObject({
      status: 'paid',
      paid_late: true,
    });
  });

  it('refuses checkouts it cannot sell: a type not for sale or disabled, an unknown program, bad fields', async () => {
    const hidden = await createType(author, project.id, { price_cents: 500 });
    expectAdminError(await checkout(t, project.program_id, { card_type_id: hidden.id }), 404, CARD_TYPE_NOT_FOR_SALE);
    const off = await createType(author, project.id, { price_cents: 500, for_sale: true, enabled: false });
    expectAdminError(await checkout(t, project.program_id, { card_type_id: off.id }), 404, CARD_TYPE_NOT_FOR_SALE);
    const elsewhere = await author.createProject();
    const foreign = await createType(author, elsewhere.id, { price_cents: 500, for_sale: true });
    expectAdminError(await checkout(t, project.program_id, { card_type_id: foreign.id }), 404, CARD_TYPE_NOT_FOR_SALE);
    expectAdminError(await checkout(t, '99999999', { card_type_id: type.id }), 404, PROGRAM_NOT_FOUND);
    expectAdminError(
      await checkout(t, project.program_id, { card_type_id: type.id, provider: 'stripe' }),
      409,
      PAYMENT_PROVIDER_NOT_ENABLED,
    );
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id, count: 0 }), 400, BAD_REQUEST, 'count');
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id, count: 101 }), 400, BAD_REQUEST, 'count');
    expectAdminError(
      await checkout(t, project.program_id, { card_type_id: type.id, email: 'nobody' }),
      400,
      BAD_REQUEST,
      'email',
    );
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id, extra: 1 }), 400, BAD_REQUEST);
    // A type for sale needs a price.
    expectAdminError(
      await author.post(`/admin/v1/projects/${project.id}/card-types`, {
        name: 'Free',
        kind: 'time',
        duration_seconds: 60,
        device_limit: 1,
        features: [],
        price_cents: 0,
        for_sale: true,
      }),
      400,
      BAD_REQUEST,
      'for_sale',
    );
    expectAdminError(await t.http().get('/shop/api/checkouts/00000000-0000-4000-8000-000000000000'), 404, CHECKOUT_NOT_FOUND);
    expectAdminError(await t.http().get('/shop/api/checkouts/nope'), 404, CHECKOUT_NOT_FOUND);
  });

  it('keeps a card type that checkouts name, and deletes a project with its checkouts while its orders outlive it', async () => {
    const p = await author.createProject();
    await enableEpay(author, p.id);
    const sold = await createType(author, p.id, { price_cents: 300, for_sale: true });
    const waiting = await createType(author, p.id, { price_cents: 300, for_sale: true });
    const paid = (await checkout(t, p.program_id, { card_type_id: sold.id }).expect(201)).body as CheckoutAnswer;
    expect((await notify(t, p.id, paidNotice(paid.checkout_id, 300)).expect(200)).text).toBe('success');
    const pending = (await checkout(t, p.program_id, { card_type_id: waiting.id }).expect(201)).body as CheckoutAnswer;
    expectAdminError(await author.delete(`/admin/v1/projects/${p.id}/card-types/${waiting.id}`), 409, ErrorCode.CARD_TYPE_IN_USE);

    await author.delete(`/admin/v1/projects/${p.id}`).expect(204);
    expectAdminError(await status(pending), 404, CHECKOUT_NOT_FOUND);
    expectAdminError(await status(paid, paid.token), 404, CHECKOUT_NOT_FOUND);
    const [{ n }] = await db().query(`SELECT count(*)::int AS n FROM checkouts WHERE project_id = $1`, [p.id]);
    expect(n).toBe(0);
    const [order] = await db().query(`SELECT project_id FROM orders WHERE order_id = $1`, [paid.checkout_id]);
    expect(order).toEqual({ project_id: null });
    // A late notification for the deleted project is refused and recorded nowhere.
    expect((await notify(t, p.id, paidNotice(pending.checkout_id, 300)).expect(200)).text).toBe('fail');
  });

  it('takes no payment without PUBLIC_URL, and limits checkouts per address', async () => {
    const bare = await startTestApp({ RATE_LIMIT_SHOP_CHECKOUTS_PER_ADDRESS: '2' }, { clientAddress: uniqueAddress() });
    try {
      const a = await AdminClient.asPlatformAdmin(bare);
      const own = (await a.createAuthor()).client;
      const p = await own.createProject();
      const tp = await createType(own, p.id, { price_cents: 100, for_sale: true });
      expectAdminError(
        await own.put(`/admin/v1/projects/${p.id}/payments/epay`, {
          enabled: true,
          gateway_url: GATEWAY_URL,
          pid: MERCHANT_ID,
          key: MERCHANT_KEY,
        }),
        409,
        PUBLIC_URL_NOT_SET,
      );
      // Set up switched off, it is kept; switched on is what needs the address.
      await own
        .put(`/admin/v1/projects/${p.id}/payments/epay`, {
          enabled: false,
          gateway_url: GATEWAY_URL,
          pid: MERCHANT_ID,
          key: MERCHANT_KEY,
        })
        .expect(200);
      const first = await checkout(bare, p.program_id, { card_type_id: tp.id });
      expectAdminError(first, 409, PUBLIC_URL_NOT_SET);
      await checkout(bare, p.program_id, { card_type_id: tp.id });
      const third = await checkout(bare, p.program_id, { card_type_id: tp.id });
      expectAdminError(third, 429, RATE_LIMITED);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await bare.close();
    }
  });
});
