import { DataSource } from 'typeorm';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import {
  ALIPAY_APP_ID,
  ALIPAY_GATEWAY_URL,
  alipayNotice,
  alipayNotify,
  alipaySignedText,
  bareBase64,
  enableAlipay,
  rsa2Sign,
  rsa2Verifies,
  rsaPair,
} from '../../support/alipay';
import { createType } from '../../support/agents';
import { checkout, CheckoutAnswer, expire, ordersOfCheckout, PUBLIC_URL, refusalsOf } from '../../support/shop';
import { sdkLogin } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * The storefront with Alipay 电脑网站支付 end to end (decisions §26), the test playing Alipay with
 * its own RSA2 code: it holds "Alipay's" key pair and the application's, checks the pay_url's
 * signature with the application's public key, and signs the notifications as Alipay does. Both
 * databases (the embedded default, and `DATABASE_URL`).
 */
describe('storefront checkouts paid with Alipay (decisions §26, e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let project: Project;
  let type: { id: number };
  const app = rsaPair();
  const alipay = rsaPair();

  const db = () => t.app.get(DataSource);
  const buy = async (p: Project, typeId: number, count = 1) =>
    (await checkout(t, p.program_id, { card_type_id: typeId, count, provider: 'alipay' }).expect(201)).body as CheckoutAnswer;
  const status = (c: CheckoutAnswer, token?: string) =>
    t.http().get(`/shop/api/checkouts/${c.checkout_id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`);
  const pay = (p: Project, c: CheckoutAnswer, override: Record<string, string> = {}) =>
    alipayNotify(t, p.id, alipayNotice(c.checkout_id, c.amount_cents, alipay.privateKey, override));

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL });
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    type = await createType(author, project.id, { price_cents: 1250, for_sale: true, name: 'Month' });
    await enableAlipay(author, project.id, app, alipay).expect(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps the application's private key encrypted and masked, shows Alipay's public key, refuses keys that are no RSA keys", async () => {
    const p = await author.createProject();
    const put = (await enableAlipay(author, p.id, app, alipay).expect(200)).body;
    const privateKey = bareBase64(app.privateKey);
    expect(put).toMatchObject({
      provider: 'alipay',
      enabled: true,
      settings: { app_id: ALIPAY_APP_ID, alipay_public_key: bareBase64(alipay.publicKey), gateway_url: ALIPAY_GATEWAY_URL },
      secrets: { private_key: `****${privateKey.slice(-4)}` },
      notify_url: `${PUBLIC_URL}/shop/notify/alipay/${p.id}`,
    });
    const listed = (await author.get(`/admin/v1/projects/${p.id}/payments`).expect(200)).body;
    expect(JSON.stringify(listed)).not.toContain(privateKey.slice(0, 64));
    const [row] = await db().query(
      `SELECT settings::text AS settings, secrets_enc FROM payment_providers WHERE project_id = $1`,
      [p.id],
    );
    expect(row.settings).not.toContain(privateKey.slice(0, 64));
    expect(row.secrets_enc).toMatch(/^v1\./);

    // PEM is taken as well as bare base64; a key that is no key, a short one, or swapped ones are refused.
    await enableAlipay(author, p.id, app, alipay, {
      private_key: app.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      alipay_public_key: alipay.publicKey.export({ type: 'spki', format: 'pem' }),
    }).expect(200);
    expectAdminError(
      await enableAlipay(author, p.id, app, alipay, { private_key: 'MIIEvQIBADANBgkq' }),
      400,
      ErrorCode.BAD_REQUEST,
      'private_key',
    );
    expectAdminError(
      await enableAlipay(author, p.id, app, alipay, { private_key: bareBase64(rsaPair(1024).privateKey) }),
      400,
      ErrorCode.BAD_REQUEST,
      'private_key',
    );
    expectAdminError(
      await enableAlipay(author, p.id, app, alipay, { alipay_public_key: bareBase64(alipay.privateKey) }),
      400,
      ErrorCode.BAD_REQUEST,
      'alipay_public_key',
    );
    expectAdminError(
      await enableAlipay(author, p.id, app, alipay, {
        alipay_public_key: alipay.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      }),
      400,
      ErrorCode.BAD_REQUEST,
      'alipay_public_key',
    );
    expectAdminError(await enableAlipay(author, p.id, app, alipay, { app_id: 'app-1' }), 400, ErrorCode.BAD_REQUEST, 'app_id');
    // Left out, the gateway is Alipay's own.
    const fresh = await author.createProject();
    const defaulted = (await enableAlipay(author, fresh.id, app, alipay, { gateway_url: undefined }).expect(200)).body;
    expect(defaulted.settings.gateway_url).toBeUndefined();
    const c = await buy(fresh, (await createType(author, fresh.id, { price_cents: 100, for_sale: true })).id);
    expect(c.pay_url.startsWith('https://openapi.alipay.com/gateway.do?')).toBe(true);
  });

  it("makes a pay_url of alipay.trade.page.pay signed RSA2 with the application's key, as Alipay checks it", async () => {
    const c = await buy(project, type.id, 2);
    const url = new URL(c.pay_url);
    expect(`${url.origin}${url.pathname}`).toBe(ALIPAY_GATEWAY_URL);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      app_id: ALIPAY_APP_ID,
      method: 'alipay.trade.page.pay',
      charset: 'utf-8',
      sign_type: 'RSA2',
      version: '1.0',
      notify_url: `${PUBLIC_URL}/shop/notify/alipay/${project.id}`,
      return_url: `${PUBLIC_URL}/shop/${project.program_id}/return?checkout_id=${c.checkout_id}&token=${c.token}`,
    });
    expect(JSON.parse(params.biz_content)).toMatchObject({
      out_trade_no: c.checkout_id,
      product_code: 'FAST_INSTANT_TRADE_PAY',
      total_amount: '25.00',
      subject: expect.stringContaining('× 2'),
    });
    expect(rsa2Verifies(alipaySignedText(params, { keepSignType: true }), params.sign, app.publicKey)).toBe(true);
    expect(
      rsa2Verifies(alipaySignedText({ ...params, biz_content: '{}' }, { keepSignType: true }), params.sign, app.publicKey),
    ).toBe(false);
    expect(c).toMatchObject({ amount_cents: 2500, currency: 'CNY' });
  });

  it('takes a verified payment: success, one order as the author, the cards shown with the token, and they log in', async () => {
    const c = await buy(project, type.id, 2);
    const answer = await pay(project, c).expect(200);
    expect(answer.text).toBe('success');
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    const order = (await author.get(`/admin/v1/projects/${project.id}/orders/${c.checkout_id}`).expect(200)).body;
    expect(order).toMatchObject({ order_id: c.checkout_id, count: 2, agent_id: null, total_cents: 2500 });
    const shown = (await status(c, c.token).expect(200)).body;
    expect(shown.status).toBe('paid');
    expect(shown.cards.map((card: { code: string }) => card.code).sort()).toEqual(
      order.items.map((card: { code: string }) => card.code).sort(),
    );
    const login = await sdkLogin(t, project.api_secret, {
      app: project.program_id,
      card_key: shown.cards[0].code,
      machine_id: 'pc',
    });
    expect(login.body).toMatchObject({ code: 0, success: true });
    const listed = (await author.get(`/admin/v1/projects/${project.id}/checkouts?status=paid`).expect(200)).body.items;
    expect(listed.find((x: { checkout_id: string }) => x.checkout_id === c.checkout_id)).toMatchObject({
      provider: 'alipay',
      amount_cents: 2500,
      trade_no: alipayNotice(c.checkout_id, 2500, alipay.privateKey).trade_no,
    });
  });

  it('answers repeats success and changes nothing: the same notice racing, then TRADE_FINISHED of the same trade', async () => {
    const c = await buy(project, type.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(project, c)));
    expect(answers.map((r) => r.text)).toEqual(Array(6).fill('success'));
    const cards = (await status(c, c.token).expect(200)).body.cards;
    expect((await pay(project, c, { trade_status: 'TRADE_FINISHED' }).expect(200)).text).toBe('success');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
    expect((await status(c, c.token).expect(200)).body.cards).toEqual(cards);
    expect((await refusalsOf(t, project.id)).filter((r) => r.checkout_id === c.checkout_id)).toEqual([]);
  });

  it('refuses a forged or tampered signature, a wrong amount, another app, an unpaid trade, an unknown checkout: fail, recorded, nothing changed', async () => {
    const p = await author.createProject();
    const cheap = await createType(author, p.id, { price_cents: 990, for_sale: true });
    await enableAlipay(author, p.id, app, alipay).expect(200);
    const c = await buy(p, cheap.id);
    const send = (fields: Record<string, string>) => alipayNotify(t, p.id, fields);
    const notice = (override: Record<string, string> = {}) => alipayNotice(c.checkout_id, 990, alipay.privateKey, override);

    // Signed with the application's own key (anyone who stole it), not Alipay's.
    expect((await send(alipayNotice(c.checkout_id, 990, app.privateKey)).expect(200)).text).toBe('fail');
    expect((await send({ ...notice(), total_amount: '0.01' }).expect(200)).text).toBe('fail');
    expect((await send(notice({ total_amount: '9.80' })).expect(200)).text).toBe('fail');
    expect((await send(notice({ app_id: '2021000999999999' })).expect(200)).text).toBe('fail');
    expect((await send(notice({ trade_status: 'WAIT_BUYER_PAY' })).expect(200)).text).toBe('fail');
    expect((await send(alipayNotice('00000000-0000-4000-8000-000000000000', 990, alipay.privateKey)).expect(200)).text).toBe(
      'fail',
    );
    const { sign: _sign, ...unsigned } = notice();
    expect((await send(unsigned).expect(200)).text).toBe('fail');
    // A notice signed over fields as sent, but for another sign type, is not RSA2.
    const rsa1 = { ...notice(), sign_type: 'RSA' };
    expect(
      (await send({ ...rsa1, sign: rsa2Sign(alipaySignedText(rsa1, { keepSignType: false }), alipay.privateKey) }).expect(200))
        .text,
    ).toBe('fail');

    expect((await status(c).expect(200)).body.status).toBe('pending');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(0);
    expect((await refusalsOf(t, p.id)).map((r) => [r.reason, r.checkout_id])).toEqual([
      ['bad_signature', null],
      ['bad_signature', null],
      ['amount_mismatch', c.checkout_id],
      ['wrong_merchant', null],
      ['not_paid', null],
      ['unknown_checkout', null],
      ['malformed', null],
      ['malformed', null],
    ]);
    const listed = (await author.get(`/admin/v1/projects/${p.id}/payment-refusals`).expect(200)).body.items;
    expect(listed.every((r: { provider: string }) => r.provider === 'alipay')).toBe(true);

    // The genuine notice still goes through afterwards.
    expect((await send(notice()).expect(200)).text).toBe('success');
    expect(await ordersOfCheckout(t, c.checkout_id)).toBe(1);
  });

  it('honours a payment that arrives after the checkout expired (mint), marked paid_late', async () => {
    const c = await buy(project, type.id);
    await expire(t, c.checkout_id);
    expect((await status(c).expect(200)).body.status).toBe('expired');
    expect((await pay(project, c).expect(200)).text).toBe('success');
    expect((await status(c, c.token).expect(200)).body).toMatchObject({ status: 'paid', cards: [expect.anything()] });
    const listed = (await author.get(`/admin/v1/projects/${project.id}/checkouts?status=paid`).expect(200)).body.items;
    expect(listed.find((x: { checkout_id: string }) => x.checkout_id === c.checkout_id)).toMatchObject({ paid_late: true });
  });

  it('takes CNY only: a service in another currency refuses to switch Alipay on', async () => {
    const usd = await startTestApp({ PUBLIC_URL, CURRENCY: 'USD' });
    try {
      const admin = await AdminClient.asPlatformAdmin(usd);
      const own = (await admin.createAuthor()).client;
      const p = await own.createProject();
      const refused = await enableAlipay(own, p.id, app, alipay);
      expectAdminError(refused, 409, ErrorCode.PAYMENT_PROVIDER_NOT_ENABLED, 'CNY');
    } finally {
      await usd.close();
    }
  });
});
