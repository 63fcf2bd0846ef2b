import type { Page } from '@playwright/test';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  expect,
  fill,
  menu,
  money,
  newAuthor,
  screenshot,
  signInThroughApi,
  test,
  type Account,
} from './support';

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`agent prices, sales and API keys (${language})`, () => {
    test.use({ locale: language });

    test(`an author sets an agent's own price for a type; the agent pays it, sees its sales and makes its shop's key, in ${language}`, async ({
      page,
      service,
    }) => {
      test.setTimeout(180_000);
      const a = texts.agents;
      const p = texts.agentPrices;
      const k = texts.apiKeys;
      const shot = (name: string) => screenshot(page, name, language);
      const author = await newAuthor(service);
      const authorToken = await apiToken(service, author);
      /** A plain request with a bearer token (the typed client's bodies follow the newest schema). */
      const call = async (token: string, method: string, path: string, body?: object) => {
        const res = await fetch(`${service.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: res.status === 204 ? null : await res.json() };
      };
      const projectName = language === 'en' ? 'Price Program' : '价格程序';
      const typeName = language === 'en' ? 'Month card' : '月卡';
      const project = (await call(authorToken, 'POST', '/admin/v1/projects', { name: projectName })).body;
      const type = (
        await call(authorToken, 'POST', `/admin/v1/projects/${project.id}/card-types`, {
          name: typeName,
          kind: 'time',
          duration_seconds: 30 * 86_400,
          device_limit: 1,
          features: [],
          price_cents: 500,
          agent_allowed: true,
        })
      ).body;
      const agent: Account = { username: `priced${Date.now().toString(36)}`, password: 'agent-password-e2e' };
      const made = (
        await call(authorToken, 'POST', '/admin/v1/agents', { ...agent, project_ids: [project.id], discount_percent: 20 })
      ).body;
      await call(authorToken, 'POST', `/admin/v1/agents/${made.id}/credits`, { amount_cents: 10_000 });

      // The author's page of the agent: its prices per type, 5.00 less 20 %, then 3.50 of its own.
      await signInThroughApi(page, service, author);
      await page.goto(`/console/agents/${made.id}`);
      await expect(page.getByRole('heading', { level: 1, name: fill(a.detail.title, { name: agent.username }) })).toBeVisible();
      await page.getByRole('tab', { name: p.tab }).click();
      const row = page.getByTestId('agent-prices').getByRole('row').filter({ hasText: typeName });
      await expect(row).toContainText(money(5, language));
      await expect(row).toContainText(money(4, language));
      await row.getByRole('button', { name: `${p.set} ${typeName}` }).click();
      const dialog = page.getByRole('dialog', { name: fill(p.form.title, { type: typeName, name: agent.username }) });
      await expect(dialog).toContainText(money(4, language)); // what it pays without a price of its own
      await dialog.getByLabel(p.form.label).fill('3.5');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toContainText(money(3.5, language));
      await expect(row.getByRole('button', { name: `${p.remove} ${typeName}` })).toBeVisible();
      await shot('agent-prices');
      // Removed: back to the discount; set again through the API for the order below.
      await row.getByRole('button', { name: `${p.remove} ${typeName}` }).click();
      await expect(row.getByRole('button', { name: `${p.remove} ${typeName}` })).toHaveCount(0);
      await expect(row).not.toContainText(money(3.5, language));
      expect((await call(authorToken, 'PUT', `/admin/v1/agents/${made.id}/prices/${type.id}`, { price_cents: 350 })).status).toBe(
        200,
      );
      await page.getByRole('button', { name: texts.app.signOut }).click();

      // The agent pays its own price: its shop shows it, an order of 2 costs 7.00.
      const agentToken = await apiToken(service, agent);
      const bought = await call(agentToken, 'POST', `/admin/v1/projects/${project.id}/orders`, {
        order_id: 'priced-1',
        card_type_id: type.id,
        count: 2,
      });
      expect([bought.status, bought.body.total_cents]).toEqual([201, 700]);
      await signInAsAgent(page, agent, a.shop.title);
      await expect(page.getByRole('row').filter({ hasText: typeName })).toContainText(money(3.5, language));

      // Its Sales page: the two cards and what they cost it.
      await page.getByRole('menuitem', { name: menu(p.sales.menu) }).click();
      await expect(page.getByRole('heading', { level: 1, name: p.sales.title })).toBeVisible();
      await expect(page.getByTestId('sales-sold')).toContainText('2');
      await expect(page.getByTestId('sales-revenue')).toContainText(money(7, language));
      // To the agent the amount is what its cards cost it, not revenue.
      await expect(page.getByTestId('sales-revenue')).toContainText(texts.agentPrices.sales.cost);
      await shot('agent-sales');

      // Its API keys, under its name: only the order scopes are offered; the key orders at its price.
      await page.getByRole('button', { name: new RegExp(agent.username) }).click();
      await page.getByRole('menuitem', { name: k.menu }).click();
      await expect(page.getByRole('heading', { level: 1, name: k.title })).toBeVisible();
      await page.getByRole('button', { name: k.new }).click();
      const create = page.getByRole('dialog', { name: k.createTitle });
      await create.getByLabel(k.name).fill('my shop');
      await expect(create.getByRole('checkbox')).toHaveCount(2);
      await create.getByRole('checkbox', { name: /orders:create/ }).check();
      await create.locator('#api-key_project_ids').click();
      await page.locator('.ant-select-item-option').filter({ hasText: projectName }).click();
      await page.keyboard.press('Escape');
      await create.getByRole('button', { name: k.create }).click();
      const shown = page.getByRole('dialog', { name: k.shownTitle });
      const key = (await shown.locator('.secret-value').innerText()).trim();
      expect(key).toMatch(/^ck_[0-9A-Za-z]{40}$/);
      await shown.getByRole('button', { name: texts.shownOnce.saved }).click();
      await expect(shown).toBeHidden();
      const keyRow = page.getByRole('row').filter({ hasText: 'my shop' });
      await expect(keyRow).toContainText('orders:create');
      await expect(keyRow).toContainText(projectName);
      await shot('agent-api-keys');
      const byKey = await call(key, 'POST', `/admin/v1/projects/${project.id}/orders`, {
        order_id: 'priced-2',
        card_type_id: type.id,
        count: 1,
      });
      expect([byKey.status, byKey.body.unit_price_cents]).toEqual([201, 350]);
      expect((await adminApi(service, agentToken).GET('/admin/v1/agents/me')).data!.balance_cents).toBe(10_000 - 700 - 350);
    });
  });
}

async function signInAsAgent(page: Page, account: Account, home: string): Promise<void> {
  await page.goto('/console/sign-in');
  await page.getByLabel(/^(User name|用户名)$/).fill(account.username);
  await page.getByLabel(/^(Password|密码)$/).fill(account.password);
  await page.getByRole('button', { name: /^(Sign in|登录)$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: home })).toBeVisible();
}
