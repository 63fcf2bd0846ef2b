import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { ADMIN_PASSWORD, startService } from './service-process';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  money,
  newAuthor,
  openConnect,
  screenshot,
  test as base,
  type Service,
} from './support';

const MERCHANT_ID = '1001';
const MERCHANT_KEY = 'k3y-of-the-fake-epay-gateway-console-e2e';

/**
 * The 易支付 signature written here on its own, as a gateway computes it (not the service's code; as
 * test/support/shop.ts): the non-empty parameters but sign and sign_type, sorted by name, `k=v`
 * joined with `&`, the key appended, MD5 in lower-case hex.
 */
function gatewaySign(params: Record<string, string>, key: string): string {
  const text =
    Object.keys(params)
      .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => `${name}=${params[name]}`)
      .join('&') + key;
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** A held-back payment: where to report it, and the signed report. */
interface HeldPayment {
  notifyUrl: string;
  fields: Record<string, string>;
}

/**
 * A fake 易支付 gateway on 127.0.0.1: `/submit.php` checks the service's signature with the test's
 * own code, reports the payment to notify_url as a gateway does (a signed TRADE_SUCCESS form; held
 * back while `hold` is set, for the test to send later), then sends the browser back to return_url.
 */
class FakeEpay {
  private server?: Server;
  url = '';
  hold = false;
  readonly held: HeldPayment[] = [];
  readonly paid: Array<Record<string, string>> = [];

  async start(): Promise<void> {
    this.server = createServer(
      (req, res) =>
        void this.handle(req.url ?? '/').then(
          ({ status, location, text }) => {
            res.writeHead(status, location ? { Location: location } : { 'Content-Type': 'text/plain' });
            res.end(text);
          },
          (error: unknown) => {
            res.writeHead(500, { 'Content-Type': 'text/plain' });
            res.end(String(error));
          },
        ),
    );
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/`;
  }

  stop(): void {
    this.server?.close();
  }

  /** Sends the held-back payments' reports now. */
  async release(): Promise<void> {
    for (const payment of this.held.splice(0)) await this.report(payment);
  }

  private async handle(path: string): Promise<{ status: number; location?: string; text?: string }> {
    const url = new URL(path, this.url);
    if (url.pathname !== '/submit.php') return { status: 404, text: 'not found' };
    const params = Object.fromEntries(url.searchParams);
    if (params.pid !== MERCHANT_ID || params.sign_type !== 'MD5' || params.sign !== gatewaySign(params, MERCHANT_KEY))
      return { status: 400, text: 'bad signature' };
    this.paid.push(params);
    const fields: Record<string, string> = {
      pid: MERCHANT_ID,
      trade_no: `T${Date.now()}`,
      out_trade_no: params.out_trade_no,
      type: params.type || 'alipay',
      name: params.name,
      money: params.money,
      trade_status: 'TRADE_SUCCESS',
    };
    const payment = {
      notifyUrl: params.notify_url,
      fields: { ...fields, sign: gatewaySign(fields, MERCHANT_KEY), sign_type: 'MD5' },
    };
    if (this.hold) this.held.push(payment);
    else await this.report(payment);
    return { status: 302, location: params.return_url, text: 'paid' };
  }

  private async report({ notifyUrl, fields }: HeldPayment): Promise<void> {
    const answer = await fetch(notifyUrl, { method: 'POST', body: new URLSearchParams(fields) });
    const text = await answer.text();
    if (text !== 'success') throw new Error(`the service answered the payment report with ${answer.status} ${text}`);
  }
}

/** This file's service knows its own address (PUBLIC_URL: the gateway's return and notify addresses lead to it) and a fake gateway. */
const test = base.extend<object, { service: Service; gateway: FakeEpay }>({
  gateway: [
    async ({}, use) => {
      const gateway = new FakeEpay();
      await gateway.start();
      try {
        await use(gateway);
      } finally {
        gateway.stop();
      }
    },
    { scope: 'worker' },
  ],
  service: [
    async ({}, use) => {
      const running = await startService((url) => ({
        PUBLIC_URL: url,
        RATE_LIMIT_SHOP_CHECKOUTS_PER_ADDRESS: '100000',
        RATE_LIMIT_SHOP_STATUS_PER_ADDRESS: '100000',
      }));
      try {
        await use({ url: running.url, adminPassword: ADMIN_PASSWORD });
      } finally {
        await running.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

const TYPE = {
  kind: 'time' as const,
  duration_seconds: 30 * 86400,
  device_limit: 1,
  features: [] as string[],
  price_cents: 0,
  agent_allowed: false,
  prefix: '',
  enabled: true,
};

/** An author's program with a type for sale (made, then put on sale as the console does) and epay on, pointing at the fake. */
async function shop(service: Service, gateway: FakeEpay, name: string) {
  const author = await newAuthor(service);
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name } });
  await openConnect(service, project!.id);
  const forSale = async (body: { name: string; price_cents: number; stock_mode?: 'mint' | 'stock' }) => {
    const { data: type } = await api.POST('/admin/v1/projects/{id}/card-types', {
      params: { path: { id: project!.id } },
      body: { ...TYPE, name: body.name, ...(body.stock_mode ? { stock_mode: body.stock_mode } : {}) },
    });
    const { error } = await api.PATCH('/admin/v1/projects/{id}/card-types/{typeId}', {
      params: { path: { id: project!.id, typeId: type!.id } },
      body: { for_sale: true, price_cents: body.price_cents },
    });
    if (error) throw new Error(`type not put on sale: ${JSON.stringify(error)}`);
    return type!;
  };
  const month = await forSale({ name: 'Month', price_cents: 1250 });
  const lifetime = await forSale({ name: 'Lifetime', price_cents: 9900, stock_mode: 'stock' });
  const { error } = await api.PUT('/admin/v1/projects/{id}/payments/{provider}', {
    params: { path: { id: project!.id, provider: 'epay' } },
    body: { enabled: true, gateway_url: gateway.url, pid: MERCHANT_ID, key: MERCHANT_KEY } as never,
  });
  if (error) throw new Error(`epay not switched on: ${JSON.stringify(error)}`);
  return { api, project: project!, month, lifetime };
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  const s = texts.storefront;

  test.describe(`storefront (${language})`, () => {
    test.use({ locale: language, viewport: { width: 390, height: 844 }, hasTouch: true });

    test(`a buyer on a phone buys a card, pays at the gateway, comes back to it and logs in with it, in ${language}`, async ({
      page,
      service,
      gateway,
    }) => {
      const name = language === 'en' ? 'Paint Studio' : '绘图工作室';
      const { project } = await shop(service, gateway, name);
      gateway.hold = false;

      await page.goto(`/shop/${project.program_id}`);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(page.getByRole('radio', { name: /Month/ })).toBeChecked();
      await expect(page.locator('.shop-type').filter({ hasText: 'Month' })).toContainText(money(12.5, language));
      await expect(page.getByTestId('shop-total')).toHaveText(money(12.5, language));
      // The stock type has no stock: sold out, not selectable.
      await expect(page.getByRole('radio', { name: /Lifetime/ })).toBeDisabled();
      await expect(page.locator('.shop-type').filter({ hasText: 'Lifetime' })).toContainText(s.soldOut);
      await expect(page.getByRole('radio', { name: s.providers.epay })).toBeChecked();

      await page.getByLabel(s.count).fill('2');
      await expect(page.getByTestId('shop-total')).toHaveText(money(25, language));
      await page.getByLabel(s.email).fill('not-an-address');
      await page.getByRole('button', { name: s.buy }).click();
      await expect(page.getByText(s.emailInvalid)).toBeVisible();
      await page.getByLabel(s.email).fill('buyer@example.com');
      await page.getByLabel(s.payType).click();
      await page.locator('.ant-select-item-option').filter({ hasText: s.payTypes.alipay }).click();
      await screenshot(page, 'storefront', language);

      await page.getByRole('button', { name: s.buy }).click();
      await page.waitForURL(new RegExp(`/shop/${project.program_id}/return\\?checkout_id=[0-9a-f-]{36}&token=`));
      const asked = gateway.paid.at(-1)!;
      expect({ type: asked.type, money: asked.money }).toEqual({ type: 'alipay', money: '25.00' });

      await expect(page.getByTestId('checkout-status')).toHaveText(s.statuses.paid);
      const codes = page.getByTestId('card-code');
      await expect(codes).toHaveCount(2);
      // This service sends no mail: the page says to keep them, never that they were mailed.
      await expect(page.getByTestId('mail-note')).toHaveText(s.notMailed);
      await expect(page.getByText(money(25, language))).toBeVisible();
      await screenshot(page, 'storefront-return', language);

      const code = (await codes.first().locator('code').innerText()).trim();
      expect(await connectLogin(service, project.program_id, code, `shop-phone-${language}`)).toMatchObject({ status: true });
      await page.getByRole('link', { name: s.backToShop }).click();
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    });

    test(`a checkout refused as out of stock says so, and the return page of a pending payment turns paid by itself, in ${language}`, async ({
      page,
      service,
      gateway,
    }) => {
      const { api, project, lifetime } = await shop(service, gateway, `Stock ${language}`);
      // One stock card: in stock when the page loads, gone (to another buyer) before this one buys.
      await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project.id } },
        body: { count: 1, card_type_id: lifetime.id, stock: true },
      });
      await page.goto(`/shop/${project.program_id}`);
      await page.getByRole('radio', { name: /Lifetime/ }).check();
      await page.getByLabel(s.email).fill('late@example.com');
      const rival = await fetch(`${service.url}/shop/api/${project.program_id}/checkouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_type_id: lifetime.id, count: 1, email: 'first@example.com', provider: 'epay' }),
      });
      expect(rival.status).toBe(201);
      await page.getByRole('button', { name: s.buy }).click();
      const refusal = page.getByRole('alert');
      await expect(refusal).toContainText(s.failures[11303]);
      await expect(refusal).toContainText('11303');
      await expect(page).toHaveURL(new RegExp(`/shop/${project.program_id}$`));
      await page.reload();
      await expect(page.getByRole('radio', { name: /Lifetime/ })).toBeDisabled();

      // The gateway holds the payment's report back: the buyer comes back before it is paid.
      gateway.hold = true;
      await page.getByRole('radio', { name: /Month/ }).check();
      await page.getByLabel(s.email).fill('waiting@example.com');
      await page.getByRole('button', { name: s.buy }).click();
      await page.waitForURL(/\/return\?/);
      await expect(page.getByTestId('checkout-status')).toHaveText(s.statuses.pending);
      await expect(page.getByText(s.pendingHelp)).toBeVisible();
      await expect(page.getByTestId('card-code')).toHaveCount(0);
      gateway.hold = false;
      await gateway.release();
      await expect(page.getByTestId('checkout-status')).toHaveText(s.statuses.paid, { timeout: 10_000 });
      await expect(page.getByTestId('card-code')).toHaveCount(1);
    });
  });
}

test('the storefront follows the language switch, and a shop that does not exist says so', async ({ page }) => {
  await page.goto('/shop/99999999');
  await expect(page.getByRole('alert')).toContainText(en.storefront.failures[10201]);
  await page.getByTestId('language-switch').click();
  await page.getByRole('option', { name: '中文' }).click();
  await expect(page.getByRole('alert')).toContainText(zhCN.storefront.failures[10201]);
  await page.goto('/shop/99999999/return');
  await expect(page.getByRole('alert').first()).toContainText(zhCN.storefront.incompleteLink);
});
