import { createSign, createVerify, generateKeyPairSync, KeyObject } from 'node:crypto';
import { AdminClient } from './admin-client';
import { TestApp } from './test-app';

/** The fake gateway's address: Alipay's page payment is redirect and notify, so nothing is sent to it. */
export const ALIPAY_GATEWAY_URL = 'https://openapi.alipay.example.test/gateway.do';
export const ALIPAY_APP_ID = '2021000123456789';

export interface RsaPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export const rsaPair = (bits = 2048): RsaPair => generateKeyPairSync('rsa', { modulusLength: bits });

/** A key as Alipay's key tool prints it: bare base64, no PEM lines (PKCS#1 for the private key, as for non-Java apps). */
export const bareBase64 = (key: KeyObject): string =>
  key.type === 'private'
    ? key.export({ type: 'pkcs1', format: 'der' }).toString('base64')
    : key.export({ type: 'spki', format: 'der' }).toString('base64');

/**
 * The text Alipay signs, written here on its own (not the service's or its SDK's code): every
 * parameter but `sign` (and `sign_type` for a notification) that is not empty, sorted by name,
 * `k=v` joined with `&`, the values as they are.
 */
export function alipaySignedText(params: Record<string, string>, { keepSignType }: { keepSignType: boolean }): string {
  return Object.keys(params)
    .filter((name) => name !== 'sign' && (keepSignType || name !== 'sign_type') && params[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

export const rsa2Sign = (text: string, key: KeyObject): string =>
  createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

export const rsa2Verifies = (text: string, signature: string, key: KeyObject): boolean =>
  createVerify('RSA-SHA256').update(text, 'utf8').verify(key, signature, 'base64');

/** Switches Alipay on with the app's private key and "Alipay's" public key of the fake gateway. */
export function enableAlipay(
  author: AdminClient,
  projectId: string,
  app: RsaPair,
  alipay: RsaPair,
  fields: Record<string, unknown> = {},
) {
  return author.put(`/admin/v1/projects/${projectId}/payments/alipay`, {
    enabled: true,
    app_id: ALIPAY_APP_ID,
    private_key: bareBase64(app.privateKey),
    alipay_public_key: bareBase64(alipay.publicKey),
    gateway_url: ALIPAY_GATEWAY_URL,
    ...fields,
  });
}

/** What Alipay posts when the buyer has paid: the checkout's fields, signed RSA2 with `key`, changed by `override`. */
export function alipayNotice(
  checkoutId: string,
  amountCents: number,
  key: KeyObject,
  override: Record<string, string> = {},
): Record<string, string> {
  const fields: Record<string, string> = {
    notify_time: '2026-11-29 20:00:00',
    notify_type: 'trade_status_sync',
    notify_id: `n${checkoutId.replace(/-/g, '')}`,
    app_id: ALIPAY_APP_ID,
    charset: 'utf-8',
    version: '1.0',
    sign_type: 'RSA2',
    trade_no: `2026112922001${checkoutId.replace(/-/g, '').slice(0, 15)}`,
    out_trade_no: checkoutId,
    total_amount: (amountCents / 100).toFixed(2),
    receipt_amount: (amountCents / 100).toFixed(2),
    subject: '月卡 Month',
    trade_status: 'TRADE_SUCCESS',
    gmt_payment: '2026-11-29 19:59:58',
    ...override,
  };
  return { ...fields, sign: rsa2Sign(alipaySignedText(fields, { keepSignType: false }), key) };
}

export function alipayNotify(t: TestApp, projectId: string, fields: Record<string, string>) {
  return t.http().post(`/shop/notify/alipay/${projectId}`).type('form').send(fields);
}
