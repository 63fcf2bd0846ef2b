import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AdminClient } from './admin-client';
import { TestApp } from './test-app';

/** The address the test apps are told they are reached at (PUBLIC_URL). */
export const PUBLIC_URL = 'https://shop.example.test';
/** The fake gateway's address: epay is redirect and notify, so nothing is ever sent to it; the test plays it. */
export const GATEWAY_URL = 'https://pay.example.test/';
export const MERCHANT_ID = '1001';
export const MERCHANT_KEY = 'k3y-for-the-fake-epay-gateway-0123456789';

/**
 * The 易支付 signature written here on its own, as a gateway computes it (not the service's code):
 * every parameter but sign and sign_type that is not empty, sorted by name, `k=v` joined with `&`,
 * the merchant key appended, MD5 in lower-case hex.
 */
export function gatewaySign(params: Record<string, string>, key: string): string {
  const names = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const text = names.map((name) => name + '=' + params[name]).join('&') + key;
  return createHash('md5').update(Buffer.from(text, 'utf8')).digest('hex');
}

/** Switches epay on for the project with the fake gateway's settings. */
export async function enableEpay(author: AdminClient, projectId: string, fields: Record<string, unknown> = {}) {
  return author
    .put(`/admin/v1/projects/${projectId}/payments/epay`, {
      enabled: true,
      gateway_url: GATEWAY_URL,
      pid: MERCHANT_ID,
      key: MERCHANT_KEY,
      ...fields,
    })
    .expect(200);
}

export interface CheckoutAnswer {
  checkout_id: string;
  pay_url: string;
  amount_cents: number;
  currency: string;
  expires_at: string;
  token: string;
}

export function checkout(t: TestApp, programId: string, body: Record<string, unknown>) {
  return t
    .http()
    .post(`/shop/api/${programId}/checkouts`)
    .send({ count: 1, email: 'buyer@example.com', provider: 'epay', ...body });
}

/** What the gateway sends when the buyer has paid: the checkout's fields, signed, changed by `override`. */
export function paidNotice(
  checkoutId: string,
  amountCents: number,
  override: Record<string, string> = {},
  key = MERCHANT_KEY,
): Record<string, string> {
  const fields: Record<string, string> = {
    pid: MERCHANT_ID,
    trade_no: `T${checkoutId.replace(/-/g, '').slice(0, 16)}`,
    out_trade_no: checkoutId,
    type: 'alipay',
    name: 'cards',
    money: (amountCents / 100).toFixed(2),
    trade_status: 'TRADE_SUCCESS',
    ...override,
  };
  return { ...fields, sign: gatewaySign(fields, key), sign_type: 'MD5' };
}

/** The gateway's notification, as a form POST (or a GET with the fields in the query). */
export function notify(t: TestApp, projectId: string, fields: Record<string, string>, method: 'POST' | 'GET' = 'POST') {
  const path = `/shop/notify/epay/${projectId}`;
  return method === 'POST'
    ? t.http().post(path).type('form').send(fields)
    : t.http().get(`${path}?${new URLSearchParams(fields).toString()}`);
}

/** Makes a checkout run out now (and the stock it reserved with it), as if its 15 minutes had passed. */
export async function expire(t: TestApp, checkoutId: string): Promise<void> {
  const db = t.app.get(DataSource);
  await db.query(
    `UPDATE checkouts SET expires_at = now() - interval '1 minute', created_at = created_at - interval '16 minutes' WHERE id = $1`,
    [checkoutId],
  );
  await db.query(`UPDATE cards SET reserved_until = now() - interval '1 minute' WHERE reserved_by = $1`, [checkoutId]);
}

export async function ordersOfCheckout(t: TestApp, checkoutId: string): Promise<number> {
  const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM orders WHERE order_id = $1`, [checkoutId]);
  return n;
}

export async function refusalsOf(
  t: TestApp,
  projectId: string,
): Promise<Array<{ reason: string; checkout_id: string | null; reference: string | null }>> {
  return t.app
    .get(DataSource)
    .query(`SELECT reason, checkout_id, reference FROM payment_refusals WHERE project_id = $1 ORDER BY id`, [projectId]);
}
