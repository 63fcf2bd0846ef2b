import { readFileSync } from 'node:fs';
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
  screenshotOf,
  signIn,
  test,
  type Account,
} from './support';

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`agents (${language})`, () => {
    test.use({ locale: language });

    test(`an author makes a type and an agent and credits it; the agent orders 10 cards and exports them, in ${language}`, async ({
      page,
      service,
    }) => {
      test.setTimeout(240_000); // two accounts' journeys on a shared two-core machine
      const a = texts.agents;
      const ct = texts.cardTypes;
      const shot = (name: string) => screenshot(page, name, language);
      const author = await newAuthor(service);
      const authorApi = adminApi(service, await apiToken(service, author));
      const projectName = language === 'en' ? 'Shop Program' : '商店程序';
      const { data: project } = await authorApi.POST('/admin/v1/projects', { body: { name: projectName } });
      const projectId = project!.id;
      await signIn(page, author);

      // A month type agents may sell, at 5.00, made in the console.
      await page.goto(`/console/projects/${projectId}/card-types`);
      await page.getByRole('button', { name: ct.add }).click();
      const typeDialog = page.getByRole('dialog', { name: ct.addTitle });
      await typeDialog.getByLabel(ct.form.price.label).fill('5');
      await typeDialog.getByLabel(ct.form.agent_allowed.label).click();
      await typeDialog.getByRole('button', { name: texts.common.save }).click();
      await expect(typeDialog).toBeHidden();
      const typeName = ct.form.presetNames.month;

      // The agent: the projects it sells for, 20% off.
      await page.getByRole('menuitem', { name: menu(a.menu.agents) }).click();
      await expect(page.getByRole('heading', { level: 1, name: a.list.title })).toBeVisible();
      await expect(page.getByText(a.list.empty)).toBeVisible();
      const agent: Account = { username: `agent${Date.now().toString(36)}`, password: 'agent-password-e2e' };
      await page.getByRole('button', { name: a.list.new }).click();
      const create = page.getByRole('dialog', { name: a.form.title });
      await create.getByLabel(a.form.username.label).fill(agent.username);
      await create.getByLabel(a.form.password.label).fill(agent.password);
      await expect(create.locator('.ant-select-selection-item').filter({ hasText: projectName })).toBeVisible(); // the author's only project, chosen
      await create.getByLabel(a.form.discount.label).fill('20');
      await shot('agent-new');
      await create.getByRole('button', { name: texts.common.create }).click();
      await expect(create).toBeHidden();
      const row = page.getByRole('row').filter({ hasText: agent.username });
      await expect(row).toContainText(money(0, language));
      await expect(row).toContainText('20%');
      await expect(row).toContainText(projectName);

      // Credited 100.00 with a note: the list shows the balance.
      await row.getByRole('button', { name: a.list.credit }).click();
      const creditDialog = page.getByRole('dialog', { name: fill(a.credit.title, { name: agent.username }) });
      await creditDialog.getByLabel(a.credit.amount.label).fill('100');
      await creditDialog.getByLabel(a.credit.note.label).fill(language === 'en' ? 'paid by bank transfer' : '银行转账');
      await shot('agent-credit');
      await creditDialog.getByRole('button', { name: a.credit.credit, exact: true }).click();
      await expect(creditDialog).toBeHidden();
      await expect(row).toContainText(money(100, language));
      await shot('agents');
      await page.getByRole('button', { name: texts.app.signOut }).click();

      // The agent signs in to its own reduced console: what it sells at its price, and its balance.
      await signInAsAgent(page, agent, a.shop.title);
      const menuItems = page.getByRole('menu', { name: texts.app.menu }).getByRole('menuitem');
      await expect(menuItems).toHaveText([
        a.menu.shop,
        a.menu.myCards,
        texts.agentPrices.sales.menu,
        a.menu.ledger,
        a.menu.subAgents,
      ]);
      await expect(page.getByTestId('agent-balance')).toContainText(money(100, language));
      const typeRow = page.getByRole('row').filter({ hasText: typeName });
      await expect(typeRow).toContainText(money(5, language)); // the list price
      await expect(typeRow).toContainText(money(4, language)); // less 20%
      await shot('agent-shop');

      // 1,000 cards cost more than the balance: said in words, nothing charged.
      await typeRow.getByRole('button', { name: `${a.shop.order} ${typeName}` }).click();
      const order = page.getByRole('dialog', { name: fill(a.order.title, { name: typeName }) });
      await order.getByLabel(a.order.count.label).fill('1000');
      await expect(order.getByTestId('order-total')).toHaveText(money(4000, language));
      await order.getByRole('button', { name: a.order.submit }).click();
      await expect(
        order
          .getByRole('alert')
          .filter({ hasText: fill(a.order.insufficient, { cost: money(4000, language), balance: money(100, language) }) }),
      ).toBeVisible();
      await expect(order.getByText('11301')).toBeVisible();
      await page.setViewportSize({ width: 1280, height: 1000 }); // the whole dialog
      await shot('agent-order-refused');
      await page.setViewportSize({ width: 1280, height: 800 });

      // 10 cards; the first answer is lost on its way back, and the retry (same order id) gets the same order.
      await order.getByLabel(a.order.count.label).fill('10');
      await expect(order.getByTestId('order-total')).toHaveText(money(40, language));
      let lost = false;
      await page.route('**/admin/v1/projects/*/orders', async (route) => {
        if (lost) return route.continue();
        lost = true;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await order.getByRole('button', { name: a.order.submit }).click();
      await expect(order.getByText(texts.errors.unreachable, { exact: false })).toBeVisible();
      await order.getByRole('button', { name: a.order.submit }).click();
      await expect(order.getByText(fill(a.order.doneTitle, { count: 10 }))).toBeVisible();
      const codes = (await order.getByTestId('ordered-codes').inputValue()).split('\n');
      expect(codes).toHaveLength(10);
      await shot('agent-ordered');
      const { data: orders } = await authorApi.GET('/admin/v1/projects/{id}/orders', { params: { path: { id: projectId } } });
      expect(orders!.items.map((placed) => [placed.count, placed.total_cents])).toEqual([[10, 4000]]);

      // Its cards: the order's ten, searchable, exported as CSV.
      await order.getByRole('button', { name: a.order.showCards }).click();
      await expect(page.getByRole('heading', { level: 1, name: a.myCards.title })).toBeVisible();
      const cardRows = page.locator('tbody tr.ant-table-row');
      await expect(cardRows).toHaveCount(10);
      await expect(cardRows.filter({ hasText: typeName })).toHaveCount(10);
      await shot('agent-cards');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: texts.cards.export }).click();
      const csv = readFileSync(await (await download).path(), 'utf8')
        .trim()
        .split(/\r?\n/);
      expect(csv).toHaveLength(11); // the header and the ten cards
      for (const code of codes) expect(csv.some((line) => line.includes(code))).toBe(true);
      await page.getByRole('textbox', { name: texts.cards.filters.code }).fill(codes[3]);
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(cardRows).toHaveCount(1);
      await expect(cardRows).toContainText(codes[3]);

      // Its ledger: the credit and the order, with the balance each left.
      await page.getByRole('menuitem', { name: menu(a.menu.ledger) }).click();
      await expect(page.getByTestId('agent-balance')).toContainText(money(60, language));
      const entries = page.getByTestId('ledger').locator('tbody tr.ant-table-row');
      await expect(entries).toHaveCount(2);
      await expect(entries.nth(0)).toContainText(`−${money(40, language)}`);
      await expect(entries.nth(1)).toContainText(`+${money(100, language)}`);
      await shot('agent-ledger');

      // Nothing of the author's: an address of theirs leads back to the agent's own page.
      await page.goto(`/console/projects/${projectId}/cards`);
      await expect(page).toHaveURL(/\/console\/agent$/);
      await page.getByRole('button', { name: texts.app.signOut }).click();

      // The author sees the sale: the agent's page and the Overview.
      await signIn(page, author);
      await page.getByRole('menuitem', { name: menu(a.menu.agents) }).click();
      await page.getByRole('link', { name: agent.username }).click();
      await expect(page.getByRole('heading', { level: 1, name: fill(a.detail.title, { name: agent.username }) })).toBeVisible();
      await expect(page.getByTestId('agent-balance')).toHaveText(money(60, language));
      await expect(page.getByTestId('sales-sold')).toContainText('10');
      await expect(page.getByTestId('sales-revenue')).toContainText(money(40, language));
      await shot('agent-detail');
      await page.goto(`/console/projects/${projectId}/overview`);
      await expect(page.getByTestId('sales-sold')).toContainText('10');
      await expect(page.getByTestId('sales-per-agent').getByRole('row').filter({ hasText: agent.username })).toContainText(
        money(40, language),
      );
      await screenshotOf(page.getByTestId('project-sales'), 'overview-sales', language);

      // Disabled after a confirmation: it can no longer sign in.
      await page.getByRole('menuitem', { name: menu(a.menu.agents) }).click();
      await row.getByRole('button', { name: a.list.disable }).click();
      await page
        .getByRole('dialog', { name: fill(a.list.disableTitle, { name: agent.username }) })
        .getByRole('button', { name: a.list.disable })
        .click();
      await expect(row).toContainText(a.statuses.disabled);
      const { error: refused } = await adminApi(service).POST('/admin/v1/auth/login', { body: agent });
      expect(refused).toMatchObject({ error: { code: 11004 } }); // ACCOUNT_DISABLED
    });

    test(`an agent makes a sub-agent, credits it from its own balance and sees its sales and the commission, in ${language}`, async ({
      page,
      service,
    }) => {
      test.setTimeout(180_000);
      const a = texts.agents;
      const author = await newAuthor(service);
      const authorApi = adminApi(service, await apiToken(service, author));
      const projectName = language === 'en' ? 'Reseller Program' : '代理程序';
      const { data: project } = await authorApi.POST('/admin/v1/projects', { body: { name: projectName } });
      const { data: type } = await authorApi.POST('/admin/v1/projects/{id}/card-types', {
        params: { path: { id: project!.id } },
        body: {
          name: language === 'en' ? 'Week card' : '周卡',
          kind: 'time',
          duration_seconds: 7 * 86_400,
          device_limit: 1,
          features: [],
          price_cents: 500,
          agent_allowed: true,
          prefix: '',
          enabled: true,
        },
      });
      const parent: Account = { username: `parent${Date.now().toString(36)}`, password: 'agent-password-e2e' };
      const { data: made } = await authorApi.POST('/admin/v1/agents', {
        body: {
          ...parent,
          project_ids: [project!.id],
          discount_percent: 20,
          can_create_sub_agents: true,
          can_ban: true,
          can_unbind: false,
        },
      });
      await authorApi.POST('/admin/v1/agents/{id}/credits', {
        params: { path: { id: made!.id } },
        body: { amount_cents: 10_000 },
      });

      // The parent makes a sub-agent within its own terms and credits it 30.00 from its balance.
      await signInAsAgent(page, parent, a.shop.title);
      await page.getByRole('menuitem', { name: menu(a.menu.subAgents) }).click();
      await expect(page.getByRole('heading', { level: 1, name: a.list.subTitle })).toBeVisible();
      await expect(page.getByText(a.list.subEmpty)).toBeVisible();
      const sub: Account = { username: `sub${Date.now().toString(36)}`, password: 'agent-password-e2e' };
      await page.getByRole('button', { name: a.list.new }).click();
      const create = page.getByRole('dialog', { name: a.form.title });
      await expect(create.getByLabel(a.form.parent.label)).toHaveCount(0); // it is the parent
      await create.getByLabel(a.form.username.label).fill(sub.username);
      await create.getByLabel(a.form.password.label).fill(sub.password);
      await expect(create.locator('.ant-select-selection-item').filter({ hasText: projectName })).toBeVisible();
      await create.getByLabel(a.form.discount.label).fill('10');
      await create.getByRole('button', { name: texts.common.create }).click();
      await expect(create).toBeHidden();
      const row = page.getByRole('row').filter({ hasText: sub.username });
      await expect(row).toContainText(fill(a.list.under, { name: parent.username }));
      await row.getByRole('button', { name: a.list.credit }).click();
      const creditDialog = page.getByRole('dialog', { name: fill(a.credit.title, { name: sub.username }) });
      await expect(creditDialog.getByText(a.credit.amount.fromYours)).toBeVisible();
      await expect(creditDialog.getByRole('radio', { name: a.credit.debit })).toHaveCount(0); // only the author debits
      await creditDialog.getByLabel(a.credit.amount.label).fill('30');
      await creditDialog.getByRole('button', { name: a.credit.credit, exact: true }).click();
      await expect(creditDialog).toBeHidden();
      await expect(row).toContainText(money(30, language));

      // The sub-agent sells 5 cards at 4.50: the parent sees its sales and earns 0.50 a card.
      const { data: subAccount } = await adminApi(service, await apiToken(service, parent)).GET('/admin/v1/agents', {
        params: { query: { q: sub.username } },
      });
      const subApi = adminApi(service, await apiToken(service, sub));
      const { response } = await subApi.POST('/admin/v1/projects/{id}/orders', {
        params: { path: { id: project!.id } },
        body: { order_id: 'sub-order-1', card_type_id: type!.id, count: 5 },
      });
      expect(response.status).toBe(201);
      await page.getByRole('link', { name: sub.username }).click();
      await expect(page.getByRole('heading', { level: 1, name: fill(a.detail.title, { name: sub.username }) })).toBeVisible();
      await expect(page.getByTestId('agent-balance')).toHaveText(money(7.5, language));
      await expect(page.getByTestId('sales-sold')).toContainText('5');
      await expect(page.getByTestId('sales-revenue')).toContainText(money(22.5, language));
      await page.setViewportSize({ width: 1280, height: 640 });
      await screenshot(page, 'agent-sub-agent', language);
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(subAccount!.items.map((agent) => agent.level)).toEqual([2]);

      await page.getByRole('menuitem', { name: menu(a.menu.ledger) }).click();
      await expect(page.getByTestId('agent-balance')).toContainText(money(100 - 30 + 2.5, language));
      const entries = page.getByTestId('ledger').locator('tbody tr.ant-table-row');
      await expect(entries.nth(0)).toContainText(a.ledger.kinds.commission);
      await expect(entries.nth(0)).toContainText(`+${money(2.5, language)}`);
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
