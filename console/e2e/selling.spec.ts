import { createHash } from 'node:crypto';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { authenticator } from './authenticator';
import { ADMIN_PASSWORD, startService } from './service-process';
import {
  adminApi,
  apiToken,
  expect,
  fill,
  menu,
  money,
  newAuthor,
  openConnect,
  screenshot,
  signInThroughApi,
  signInWithCode,
  test as base,
  type Service,
} from './support';

/** Where buyers and gateways reach the service, as its operator would set it. */
const PUBLIC_URL = 'https://keys.example.com';
const GATEWAY_URL = 'https://pay.example.com/';
const MERCHANT_ID = '1001';
/** 16 or more characters: the console shows its last four. */
const MERCHANT_KEY = 'e2e-merchant-key-0123456789abcd';

/** This file's service has PUBLIC_URL set, so a provider can be switched on. */
const test = base.extend<object, { service: Service }>({
  service: [
    async ({}, use) => {
      const running = await startService({ PUBLIC_URL });
      try {
        await use({ url: running.url, adminPassword: ADMIN_PASSWORD });
      } finally {
        await running.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

/**
 * The 易支付 signature as a gateway computes it (decisions §26), written here rather than imported:
 * the non-empty fields other than sign and sign_type, sorted by name, `k=v&…`, then the key; MD5 hex.
 */
function epaySign(fields: Record<string, string>, key: string): string {
  const text = Object.keys(fields)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** The gateway's notification of a payment, as a form POST; answers its plain-text reply. */
async function notify(service: Service, projectId: string, fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${service.url}/shop/notify/epay/${projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return (await res.text()).trim();
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`selling online (${language})`, () => {
    test.use({ locale: language });

    test(`an author with two-factor sign-in puts a type on sale from stock, sets up 易支付, a buyer pays, and the checkout and a forged notification are listed (${language})`, async ({
      page,
      service,
    }) => {
      test.setTimeout(120_000);
      const p = texts.selling.payments;
      const c = texts.selling.checkouts;
      const r = texts.selling.refusals;
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', {
        body: { name: language === 'en' ? 'Shop Program' : '商店程序' },
      });
      const projectId = project!.id;
      await openConnect(service, projectId);
      const { data: type } = await api.POST('/admin/v1/projects/{id}/card-types', {
        params: { path: { id: projectId } },
        body: {
          name: language === 'en' ? 'Month card' : '月卡',
          kind: 'time',
          duration_seconds: 30 * 86_400,
          device_limit: 1,
          features: [],
          price_cents: 1990,
          agent_allowed: false,
          prefix: '',
          enabled: true,
        },
      });
      // The author turns two-factor sign-in on: saving and deleting payment settings then need a fresh code.
      const { data: enrolment } = await api.POST('/admin/v1/auth/2fa/enrol');
      const app = authenticator(enrolment!.secret);
      await api.POST('/admin/v1/auth/2fa/confirm', { body: { code: await app.code() } });
      await signInWithCode(page, texts, author, await app.code());

      // The type goes on sale, from stock, in its edit form; 10 stock cards are generated for it.
      const ct = texts.cardTypes;
      await page.goto(`/console/projects/${projectId}/card-types`);
      await page.getByRole('button', { name: `${ct.edit} ${type!.name}` }).click();
      const edit = page.getByRole('dialog', { name: fill(ct.editTitle, { name: type!.name }) });
      await edit.getByRole('switch', { name: ct.form.for_sale.label }).click();
      await edit.getByText(ct.form.stock_mode.stock, { exact: true }).click();
      await edit.getByRole('button', { name: texts.common.save }).click();
      await expect(edit).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: type!.name })).toContainText(ct.form.stock_mode.stock);
      await page.getByRole('menuitem', { name: menu(texts.app.cards) }).click();
      await page.getByRole('button', { name: texts.cards.generate }).click();
      const generate = page.getByRole('dialog', { name: texts.generate.title });
      await generate.getByRole('switch', { name: ct.generate.stock.label }).click();
      await generate.getByRole('button', { name: texts.cards.generate }).click();
      await expect(generate.getByText(fill(texts.generate.doneTitle, { count: 10 }))).toBeVisible();
      await generate.getByRole('button', { name: texts.generate.showBatch }).click();
      await expect(page.locator('tbody tr.ant-table-row').filter({ hasText: texts.cards.statuses.stock })).toHaveCount(10);

      // The Payments page: the storefront's address and preview, and 易支付 not set up yet.
      await page.getByRole('menuitem', { name: menu(p.menu) }).click();
      await expect(page.getByRole('heading', { level: 1, name: p.title })).toBeVisible();
      const storefront = `${service.url}/shop/${project!.program_id}`;
      await expect(page.getByTestId('storefront-url')).toHaveText(storefront);
      await expect(page.getByRole('link', { name: texts.selling.storefront.open })).toHaveAttribute('href', storefront);
      await expect(page.getByTitle(texts.selling.storefront.preview)).toHaveAttribute('src', `/shop/${project!.program_id}`);
      await expect(page.locator('.storefront-card')).toContainText(type!.name);
      const epay = page.getByTestId('provider-epay');
      await expect(epay).toContainText(p.notSetUp);
      const preview = page.frameLocator('.storefront-preview');
      await expect(preview.getByText(texts.storefront.noProvider)).toBeVisible();

      // Fills the form; saving asks for a code, then shows the key masked and the notify address.
      await epay.getByRole('switch', { name: p.enabled }).click();
      await epay.getByLabel(p.fields.gateway_url).fill(GATEWAY_URL);
      await epay.getByLabel(p.fields.pid).fill(MERCHANT_ID);
      await epay.getByLabel(p.fields.key).fill(MERCHANT_KEY);
      await epay.getByRole('button', { name: p.save }).click();
      const prompt = page.getByRole('dialog', { name: texts.twoFactor.stepUp.title });
      await prompt.getByLabel(texts.twoFactor.code, { exact: true }).fill(await app.code());
      await prompt.getByRole('button', { name: texts.twoFactor.stepUp.submit }).click();
      await expect(prompt).toBeHidden();
      await expect(epay).toContainText(p.on);
      await expect(epay.getByTestId('mask-epay-key')).toContainText(`****${MERCHANT_KEY.slice(-4)}`);
      await expect(epay.getByTestId('notify-url-epay')).toHaveText(`${PUBLIC_URL}/shop/notify/epay/${projectId}`);
      await expect(epay.getByLabel(p.fields.key)).toHaveValue(''); // write-only: never shown again
      await expect(epay.getByLabel(p.fields.pid)).toHaveValue(MERCHANT_ID);
      // The preview is loaded again: the storefront now takes payments.
      await expect(preview.getByText(type!.name)).toBeVisible();
      await expect(preview.getByText(texts.storefront.noProvider)).toBeHidden();
      // A fresh load for the picture (a frame replaced in place keeps Playwright's network-idle wait waiting).
      await page.reload();
      await expect(preview.getByText(type!.name)).toBeVisible();
      await screenshot(page, 'payments', language);

      // A buyer starts a checkout in the storefront's API and the gateway says it was paid.
      const email = `buyer-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;
      const made = await fetch(`${service.url}/shop/api/${project!.program_id}/checkouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_type_id: type!.id, count: 2, email, provider: 'epay' }),
      });
      expect(made.status).toBe(201);
      const checkout = (await made.json()) as { checkout_id: string; amount_cents: number; pay_url: string };
      expect(checkout.amount_cents).toBe(3980);
      const { data: stock } = await api.GET('/admin/v1/projects/{id}/cards', {
        params: { path: { id: projectId }, query: { status: 'stock' } },
      });
      expect(stock!.total).toBe(10); // reserved, not yet sold
      expect(checkout.pay_url.startsWith(`${GATEWAY_URL}submit.php?`)).toBe(true);
      const paid = {
        pid: MERCHANT_ID,
        trade_no: `T${Date.now()}`,
        out_trade_no: checkout.checkout_id,
        type: 'alipay',
        name: 'Month card x 2',
        money: '39.80',
        trade_status: 'TRADE_SUCCESS',
      };
      expect(await notify(service, projectId, { ...paid, sign: epaySign(paid, MERCHANT_KEY), sign_type: 'MD5' })).toBe('success');
      const { data: left } = await api.GET('/admin/v1/projects/{id}/cards', {
        params: { path: { id: projectId }, query: { status: 'stock' } },
      });
      expect(left!.total).toBe(8); // 2 sold from stock
      // A forged one: signed with another key.
      const forged = { ...paid, trade_no: `F${Date.now()}`, money: '0.01' };
      expect(
        await notify(service, projectId, { ...forged, sign: epaySign(forged, 'not-the-merchant-key'), sign_type: 'MD5' }),
      ).toBe('fail');

      // The Checkouts page shows it paid, with its amount and the gateway's trade number.
      await page.getByRole('menuitem', { name: menu(c.menu) }).click();
      await expect(page.getByRole('heading', { level: 1, name: c.title })).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: email });
      await expect(row).toContainText(c.statuses.paid);
      await expect(row).toContainText(money(39.8, language));
      await expect(row).toContainText(paid.trade_no);
      // Filtered by status: a pending list does not have it.
      await page.getByLabel(c.status).click();
      await page.locator('.ant-select-item-option').filter({ hasText: c.statuses.pending }).click();
      await expect(page.getByText(c.empty)).toBeVisible();
      await page.getByLabel(c.status).click();
      await page.locator('.ant-select-item-option').filter({ hasText: c.statuses.paid }).click();
      await expect(row).toBeVisible();
      await page.keyboard.press('Escape');
      await screenshot(page, 'checkouts', language);

      // The refused notifications: the forged one, with why and the checkout it named (its signature ties it to none).
      await page.getByRole('tab', { name: c.tabs.refusals }).click();
      const refusal = page.locator('.payment-refusals').getByRole('row').filter({ hasText: r.reasons.bad_signature });
      await expect(refusal).toHaveCount(1);
      await expect(refusal).toContainText(checkout.checkout_id);
      // The checkout's own refusals: none (the forged one proved nothing about it).
      await page.getByRole('tab', { name: c.tabs.checkouts }).click();
      await row.getByRole('button', { name: c.refusalsOf }).click();
      await expect(page.getByTestId('refusals-filter')).toContainText(checkout.checkout_id);
      await expect(page.locator('.payment-refusals').getByText(r.empty)).toBeVisible();
    });
  });

  base.describe(`selling online without PUBLIC_URL (${language})`, () => {
    base.use({ locale: language });

    base(
      `switching a provider on is refused in words that name PUBLIC_URL, and a provider kept off says it has no notify address (${language})`,
      async ({ page, service }) => {
        const p = texts.selling.payments;
        const author = await newAuthor(service);
        const api = adminApi(service, await apiToken(service, author));
        const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'No Public URL' } });
        await signInThroughApi(page, service, author);
        await page.goto(`/console/projects/${project!.id}/payments`);
        const epay = page.getByTestId('provider-epay');
        await epay.getByRole('switch', { name: p.enabled }).click();
        await epay.getByLabel(p.fields.gateway_url).fill(GATEWAY_URL);
        await epay.getByLabel(p.fields.pid).fill(MERCHANT_ID);
        await epay.getByLabel(p.fields.key).fill(MERCHANT_KEY);
        await epay.getByRole('button', { name: p.save }).click();
        await expect(epay.getByRole('alert')).toContainText(p.publicUrlRefused);
        await expect(epay.getByRole('alert')).toContainText('11305');
        // Kept off, the settings are saved; the page then says no provider can take payments yet.
        await epay.getByRole('switch', { name: p.enabled }).click();
        await epay.getByRole('button', { name: p.save }).click();
        await expect(page.getByRole('alert').filter({ hasText: p.publicUrlUnset })).toBeVisible();
        await expect(epay.getByTestId('mask-epay-key')).toContainText(`****${MERCHANT_KEY.slice(-4)}`);
        await expect(epay.getByTestId('notify-url-epay')).toHaveCount(0);
      },
    );
  });
}
