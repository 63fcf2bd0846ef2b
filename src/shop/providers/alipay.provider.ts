import { Injectable } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AlipaySdk } from 'alipay-sdk';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, Validate } from 'class-validator';
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
import { IsRsaPrivateKey, IsRsaPublicKey, pkcs8Pem, spkiPem } from './rsa-keys';

/** Alipay's open-platform gateway; its sandbox is `https://openapi-sandbox.dl.alipaydev.com/gateway.do`. */
export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

/** `PUT /admin/v1/projects/:id/payments/alipay` (decisions §26). */
export class AlipaySettingsDto {
  @ApiProperty({ description: 'new checkouts may pay with it' })
  @IsBoolean()
  enabled!: boolean;

  @ApiProperty({ example: '2021000000000000', description: "the application's APPID (开放平台应用 ID)" })
  @IsString()
  @Matches(/^\d{10,32}$/, { message: 'app_id must be the 10-32 digits of the Alipay application id' })
  app_id!: string;

  @ApiProperty({
    description:
      "the application's RSA private key (应用私钥, 2048 bits), PEM or the bare base64 Alipay's key tool gives (PKCS#8 or PKCS#1); secret: stored encrypted, never answered",
    writeOnly: true,
  })
  @IsString()
  @MaxLength(8192)
  @Validate(IsRsaPrivateKey)
  private_key!: string;

  @ApiProperty({
    description:
      "Alipay's public key (支付宝公钥, not the application's), PEM or bare base64: notifications are verified with it",
  })
  @IsString()
  @MaxLength(4096)
  @Validate(IsRsaPublicKey)
  alipay_public_key!: string;

  @ApiPropertyOptional({
    example: ALIPAY_GATEWAY,
    description: `the gateway the buyer is sent to; default \`${ALIPAY_GATEWAY}\` (the sandbox's: \`https://openapi-sandbox.dl.alipaydev.com/gateway.do\`)`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'gateway_url must be an http:// or https:// address without query or fragment' })
  gateway_url?: string;
}

type AlipaySettings = Pick<AlipaySettingsDto, 'enabled' | 'app_id' | 'private_key' | 'alipay_public_key' | 'gateway_url'>;

/** The trade states of a paid trade: paid (refundable), and paid for good (no refund any more). */
const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/**
 * Alipay 电脑网站支付 (alipay.trade.page.pay), RSA2, through Alipay's own SDK: the buyer is sent to
 * the gateway with the signed request (a GET address), pays there, and Alipay posts the signed
 * result to the notify address as a form, expecting the plain text `success`. `total_amount` is
 * yuan with two decimals: it takes CNY only. Keys are accepted as PEM or bare base64, PKCS#8 or
 * PKCS#1, and handed to the SDK as PEM.
 */
@Injectable()
export class AlipayProvider implements PaymentProvider<AlipaySettings> {
  readonly name = 'alipay';
  readonly settings = { dto: AlipaySettingsDto, secretFields: ['private_key'] } as const;
  readonly currencies = ['CNY'] as const;

  async payUrl(payment: PaymentRequest, settings: AlipaySettings): Promise<string> {
    return this.sdk(settings).pageExecute('alipay.trade.page.pay', 'GET', {
      bizContent: {
        out_trade_no: payment.checkoutId,
        product_code: 'FAST_INSTANT_TRADE_PAY',
        total_amount: decimalAmount(payment.amountCents),
        subject: payment.subject.slice(0, 256),
        // The checkout's own 15 minutes: Alipay closes the trade when it is no longer worth paying.
        timeout_express: '15m',
      },
      returnUrl: payment.returnUrl,
      notifyUrl: payment.notifyUrl,
    });
  }

  verifyNotification(notification: GatewayNotification, settings: AlipaySettings): VerifiedPayment | NotificationRefusal {
    const read = notificationFields(notification);
    if (isRefusal(read)) return read;
    const params = read.fields;
    const reference = params.out_trade_no ?? null;
    const missing = ['app_id', 'out_trade_no', 'total_amount', 'trade_status', 'sign'].filter((name) => !params[name]);
    if (missing.length) return { refused: 'malformed', detail: `missing ${missing.join(', ')}`, reference };
    if (params.sign_type !== undefined && params.sign_type !== 'RSA2')
      return { refused: 'malformed', detail: `sign_type ${params.sign_type.slice(0, 16)} is not RSA2`, reference };
    // The values as they arrived, decoded once by the body parser: the SDK must not decode them again.
    if (!this.sdk(settings).checkNotifySignV2(params))
      return { refused: 'bad_signature', detail: "the RSA2 signature does not verify with Alipay's public key", reference };
    if (params.app_id !== settings.app_id)
      return { refused: 'wrong_merchant', detail: `app_id ${params.app_id.slice(0, 32)}`, reference };
    if (!PAID_STATES.has(params.trade_status))
      return { refused: 'not_paid', detail: `trade_status ${params.trade_status.slice(0, 32)}`, reference };
    const amountCents = centsOf(params.total_amount);
    if (amountCents === null)
      return { refused: 'malformed', detail: `total_amount ${params.total_amount.slice(0, 32)}`, reference };
    return { checkoutId: params.out_trade_no, amountCents, currency: 'CNY', tradeNo: params.trade_no?.slice(0, 64) || null };
  }

  answer(taken: boolean): ProviderAnswer {
    return { status: 200, contentType: 'text/plain; charset=utf-8', body: taken ? 'success' : 'fail' };
  }

  private sdk(settings: AlipaySettings): AlipaySdk {
    return new AlipaySdk({
      appId: settings.app_id,
      privateKey: pkcs8Pem(settings.private_key),
      keyType: 'PKCS8',
      alipayPublicKey: spkiPem(settings.alipay_public_key),
      gateway: settings.gateway_url ?? ALIPAY_GATEWAY,
      signType: 'RSA2',
    });
  }
}
