import { centsOf, decimalAmount, isRefusal, VerifiedPayment } from '../payment-provider';
import { EpayProvider, epaySignature } from './epay.provider';

/** Vectors computed outside this code (Python's hashlib over the same rule), so both sides are checked. */
const KEY = 'merchant-key-123';
const CHECKOUT = '3f2b7c1e-0d4a-4c8e-9a51-2b6f0e7d9c10';
const settings = { enabled: true, gateway_url: 'https://pay.example.com', pid: '1001', key: KEY };
const notice = {
  pid: '1001',
  trade_no: '2026112920000001',
  out_trade_no: CHECKOUT,
  type: 'alipay',
  name: '月卡 × 2',
  money: '25.00',
  trade_status: 'TRADE_SUCCESS',
  param: '',
  sign: 'e331c314ffb33c4e53e9d611331b1c6d',
  sign_type: 'MD5',
};

describe(EpayProvider.name, () => {
  const epay = new EpayProvider();
  const verify = (fields: Record<string, unknown>, method = 'POST') =>
    epay.verifyNotification(
      { method, query: method === 'GET' ? fields : {}, body: method === 'POST' ? fields : undefined, headers: {} },
      settings,
    );

  it('signs the sorted non-empty parameters with the key appended, as the gateway does', () => {
    expect(epaySignature(notice, KEY)).toBe('e331c314ffb33c4e53e9d611331b1c6d');
  });

  it('makes the pay address: submit.php under the gateway, the standard parameters, signed', async () => {
    const url = new URL(
      await epay.payUrl(
        {
          checkoutId: CHECKOUT,
          amountCents: 2500,
          currency: 'CNY',
          subject: '月卡 × 2',
          returnUrl: `https://keys.example.com/shop/12345678/return?checkout_id=${CHECKOUT}&token=abc`,
          notifyUrl: 'https://keys.example.com/shop/notify/epay/0b6c1f0e-5a8d-4f21-9d3e-7c2a1b4e6f80',
          email: 'buyer@example.com',
          method: 'alipay',
        },
        settings,
      ),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://pay.example.com/submit.php');
    expect(url.searchParams.get('sign')).toBe('5f63f709ca9a7b7adfb9ac5a77cb27f4');
    expect(url.searchParams.get('sign_type')).toBe('MD5');
    expect(url.searchParams.get('money')).toBe('25.00');
    expect(url.searchParams.get('return_url')).toContain('token=abc');
  });

  it('takes a signed TRADE_SUCCESS notification, by POST or GET, with the amount in cents', () => {
    const expected: VerifiedPayment = { checkoutId: CHECKOUT, amountCents: 2500, currency: 'CNY', tradeNo: '2026112920000001' };
    expect(verify(notice)).toEqual(expected);
    expect(verify(notice, 'GET')).toEqual(expected);
    expect(verify({ ...notice, sign: notice.sign.toUpperCase() })).toEqual(expected);
  });

  it('refuses with why: a changed field, another key, another merchant, an unpaid state, missing or repeated fields', () => {
    const reason = (fields: Record<string, unknown>) => {
      const result = verify(fields);
      return isRefusal(result) ? result.refused : 'taken';
    };
    expect(reason({ ...notice, money: '0.01' })).toBe('bad_signature');
    expect(reason({ ...notice, sign: epaySignature(notice, 'another-key') })).toBe('bad_signature');
    const other = { ...notice, pid: '2002' };
    expect(reason({ ...other, sign: epaySignature(other, KEY) })).toBe('wrong_merchant');
    const waiting = { ...notice, trade_status: 'WAIT_BUYER_PAY' };
    expect(reason({ ...waiting, sign: epaySignature(waiting, KEY) })).toBe('not_paid');
    expect(reason({ ...notice, sign: '' })).toBe('malformed');
    expect(reason({ ...notice, sign_type: 'RSA' })).toBe('malformed');
    expect(reason({ ...notice, money: ['25.00', '1.00'] })).toBe('malformed');
  });

  it('answers success or fail in plain text', () => {
    expect(epay.answer(true)).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' });
    expect(epay.answer(false).body).toBe('fail');
  });

  it('writes and reads amounts in yuan with two decimals', () => {
    expect([0, 1, 99, 100, 2500, 123456].map(decimalAmount)).toEqual(['0.00', '0.01', '0.99', '1.00', '25.00', '1234.56']);
    expect(['25', '25.5', '25.50', '0.01', '1.234', '-1', '1e3', ''].map(centsOf)).toEqual([
      2500,
      2550,
      2550,
      1,
      null,
      null,
      null,
      null,
    ]);
  });
});
