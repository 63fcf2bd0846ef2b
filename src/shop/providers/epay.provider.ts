import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsString, Length, Matches, MaxLength } from 'class-validator';
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../../core/crypto/tokens';
import {
  centsOf,
  decimalAmount,
  GatewayNotification,
  isRefusal,
  NotificationRefusal,
  notificationFields,
  PaymentProvider,
  PaymentRequest,
  ProviderAnswer,
  VerifiedPayment,
} from '../payment-provider';

/** `PUT /admin/v1/projects/:id/payments/epay` (decisions §26). */
export class EpaySettingsDto {
  @ApiProperty({ description: 'new checkouts may pay with it' })
  @IsBoolean()
  enabled!: boolean;

  @ApiProperty({
    example: 'https://pay.example.com/',
    description: "the gateway's address; the buyer is sent to `{gateway_url}submit.php?…` (a `/` is added when missing)",
  })
  @IsString()
  @MaxLength(500)
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'gateway_url must be an http:// or https:// address without query or fragment' })
  gateway_url!: string;

  @ApiProperty({ example: '1001', description: 'the merchant id (商户ID) the gateway gave' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'pid must be 1-32 of [A-Za-z0-9_-]' })
  pid!: string;

  @ApiProperty({ description: 'the merchant key (商户密钥); secret: stored encrypted, never answered', writeOnly: true })
  @IsString()
  @Length(8, 128)
  @Matches(/^[\x21-\x7e]+$/, { message: 'key must be printable ASCII without spaces' })
  key!: string;
}

type EpaySettings = Pick<EpaySettingsDto, 'enabled' | 'gateway_url' | 'pid' | 'key'>;

/** Parameters the gateway's signature leaves out. */
const UNSIGNED = new Set(['sign', 'sign_type']);

/**
 * The MD5 signature of the 易支付 protocol: the non-empty parameters other than `sign` and
 * `sign_type`, sorted by name, joined `k=v&…` (values as they are, not URL-encoded), followed
 * directly by the merchant key; lower-case hex.
 */
export function epaySignature(params: Readonly<Record<string, string>>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => !UNSIGNED.has(name) && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/**
 * 易支付 (epay), the redirect-and-notify protocol of the Chinese card shops: the buyer is sent to the
 * gateway's `submit.php` with the signed order, pays there, and the gateway calls the notify address
 * (GET or POST form) with the signed result, expecting the plain text `success`. Amounts are yuan
 * with two decimals; the protocol knows no currency, so it takes CNY only.
 */
@Injectable()
export class EpayProvider implements PaymentProvider<EpaySettings> {
  readonly name = 'epay';
  readonly settings = { dto: EpaySettingsDto, secretFields: ['key'] } as const;
  readonly currencies = ['CNY'] as const;

  async payUrl(payment: PaymentRequest, settings: EpaySettings): Promise<string> {
    const params: Record<string, string> = {
      pid: settings.pid,
      ...(payment.method ? { type: payment.method } : {}),
      out_trade_no: payment.checkoutId,
      notify_url: payment.notifyUrl,
      return_url: payment.returnUrl,
      name: payment.subject,
      money: decimalAmount(payment.amountCents),
    };
    const query = new URLSearchParams({ ...params, sign: epaySignature(params, settings.key), sign_type: 'MD5' });
    const base = settings.gateway_url.endsWith('/') ? settings.gateway_url : `${settings.gateway_url}/`;
    return `${base}submit.php?${query.toString()}`;
  }

  verifyNotification(notification: GatewayNotification, settings: EpaySettings): VerifiedPayment | NotificationRefusal {
    const read = notificationFields(notification);
    if (isRefusal(read)) return read;
    const params = read.fields;
    const reference = params.out_trade_no ?? null;
    const missing = ['pid', 'out_trade_no', 'money', 'trade_status', 'sign'].filter((name) => !params[name]);
    if (missing.length) return { refused: 'malformed', detail: `missing ${missing.join(', ')}`, reference };
    if (params.sign_type !== undefined && params.sign_type.toUpperCase() !== 'MD5')
      return { refused: 'malformed', detail: `sign_type ${params.sign_type.slice(0, 16)} is not MD5`, reference };
    if (!constantTimeEqual(params.sign.toLowerCase(), epaySignature(params, settings.key)))
      return { refused: 'bad_signature', detail: 'the MD5 signature does not match the merchant key', reference };
    if (params.pid !== settings.pid) return { refused: 'wrong_merchant', detail: `pid ${params.pid.slice(0, 32)}`, reference };
    if (params.trade_status !== 'TRADE_SUCCESS')
      return { refused: 'not_paid', detail: `trade_status ${params.trade_status.slice(0, 32)}`, reference };
    const amountCents = centsOf(params.money);
    if (amountCents === null) return { refused: 'malformed', detail: `money ${params.money.slice(0, 32)}`, reference };
    return { checkoutId: params.out_trade_no, amountCents, currency: 'CNY', tradeNo: params.trade_no?.slice(0, 64) || null };
  }

  answer(taken: boolean): ProviderAnswer {
    return { status: 200, contentType: 'text/plain; charset=utf-8', body: taken ? 'success' : 'fail' };
  }
}
