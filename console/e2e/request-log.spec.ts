import { createRequire } from 'node:module';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  newAuthor,
  openConnect,
  screenshot,
  signInThroughApi,
  test,
  type Account,
  type Service,
} from './support';

// The official client (sdk/, CommonJS TypeScript) signs as a real program does; these ES-module tests load it with require.
const { Client } = createRequire(import.meta.url)('../../sdk/src') as typeof import('../../sdk/src');

const CARD_INVALID = 20001;
const CARD_BANNED = 20003;
const BLACKLISTED = 40002;
const SECOND = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;
const AT = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`;

/** Why a request was refused, as the drawer words it in each language (times in the user's zone, to the second). */
const EXPLAINED = {
  en: {
    blacklisted: new RegExp(
      `^The device STOLEN-PC is on the login blacklist \\(entry \\d+, added ${AT}, for good\\); remove the entry to let it in\\. Note: "chargeback"\\.$`,
    ),
    banned: (code: string, by: string) =>
      new RegExp(`^The card ${code} was banned on ${AT} by ${by} and still is; unban it on the card's page to let it in\\.$`),
  },
  'zh-CN': {
    blacklisted: new RegExp(
      `^设备 STOLEN-PC 在登录黑名单中（条目 \\d+，添加于 ${AT}，永久有效）；删除该条目即可放行。备注：“chargeback”。$`,
    ),
    banned: (code: string, by: string) =>
      new RegExp(`^卡密 ${code} 于 ${AT} 被 ${by} 封禁，至今仍被封禁；在卡密页面解封即可放行。$`),
  },
} as const;

/**
 * Over Connect, as a program calls: a success, an unknown key; over the SDK the card's login and one
 * heartbeat (whose row names the card by its session); a blacklisted device; then the card banned and refused.
 */
async function projectWithRequests(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Request Log Program' } });
  const id = project!.id;
  await openConnect(service, id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id } },
    body: { count: 2, duration_seconds: 86_400 },
  });
  const [card, other] = batch!.items;
  expect((await connectLogin(service, project!.program_id, card.code, 'OFFICE-PC-7')).status).toBe(true);
  expect((await connectLogin(service, project!.program_id, other.code, 'HOME-PC-1')).status).toBe(true);
  expect((await connectLogin(service, project!.program_id, 'NO-SUCH-CARD', 'OFFICE-PC-8')).code).toBe(-CARD_INVALID);
  const sdk = new Client({ baseUrl: service.url, programId: project!.program_id, apiSecret: project!.api_secret, retries: 0 });
  expect(await sdk.cardLogin({ cardKey: card.code, machineId: 'OFFICE-PC-7' })).toMatchObject({ success: true });
  expect(await sdk.cardHeartbeat()).toMatchObject({ success: true });
  await api.POST('/admin/v1/projects/{id}/login-blacklist', {
    params: { path: { id } },
    body: { kind: 'device', value: 'STOLEN-PC', note: 'chargeback' },
  });
  expect((await connectLogin(service, project!.program_id, card.code, 'STOLEN-PC')).code).toBe(-BLACKLISTED);
  await api.PATCH('/admin/v1/projects/{id}/cards/{cardId}', {
    params: { path: { id, cardId: card.id } },
    body: { status: 'banned' },
  });
  expect((await connectLogin(service, project!.program_id, card.code, 'OFFICE-PC-7')).code).toBe(-CARD_BANNED);
  return { id, card };
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`request log (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`finds a refusal by its result and explains it, filters by card and time, and a card shows its timeline (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const { id, card } = await projectWithRequests(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${id}/overview`);
      await page.getByRole('menuitem', { name: texts.operations.menu.logs }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.requests.title })).toBeVisible();
      await expect(page.getByRole('row')).toHaveCount(8); // the header and seven requests
      // Refusals read as their text in the chosen language, times to the second.
      const unknown = page.getByRole('row').filter({ hasText: 'OFFICE-PC-8' });
      await expect(unknown).toContainText(texts.catalog[CARD_INVALID]);
      await expect(unknown.getByRole('cell').first()).toHaveText(SECOND);
      await screenshot(page, 'request-log', language);

      // By result: only the blacklisted device; its details say which entry refused it.
      await page.getByLabel(texts.requests.filters.result).fill(String(BLACKLISTED));
      await page.locator('.ant-select-item-option').filter({ hasText: texts.catalog[BLACKLISTED] }).click();
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page).toHaveURL(new RegExp(`result_code=${BLACKLISTED}`));
      await expect(page.getByRole('row')).toHaveCount(2);
      const blocked = page.getByRole('row').filter({ hasText: 'STOLEN-PC' });
      await expect(blocked).toContainText(texts.catalog[BLACKLISTED]);
      await blocked.getByRole('button', { name: texts.requests.details }).click();
      const drawer = page.getByRole('dialog');
      // In the chosen language, the entry's time in the user's zone (decisions §22).
      await expect(drawer.getByTestId('explain')).toHaveText(EXPLAINED[language].blacklisted);
      await screenshot(page, 'request-detail', language);
      await drawer.getByRole('button', { name: /close|关闭/i }).click();

      // By card (its key): its five requests only, the blacklisted one and the heartbeat too; then a range that starts in the future: nothing.
      await page.getByRole('button', { name: texts.common.reset }).click();
      await page.getByLabel(texts.requests.filters.card).fill(card.code);
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page).not.toHaveURL(/result_code=/);
      await expect(page.getByRole('row')).toHaveCount(6);
      await expect(page.getByRole('row').filter({ hasText: 'card_heartbeat' })).toHaveCount(1);
      await expect(page.getByRole('row').filter({ hasText: 'OFFICE-PC-8' })).toHaveCount(0);
      await expect(page.getByRole('row').filter({ hasText: texts.catalog[CARD_BANNED] })).toHaveCount(1);
      await page.getByLabel(texts.requests.filters.from).first().fill('2099-01-01T00:00');
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page).toHaveURL(/from=2099-01-01T00%3A00/);
      await expect(page.getByText(texts.requests.empty)).toBeVisible();

      // The card's page: its requests as a timeline, the refusal in words, each with its explanation.
      await page.goto(`/console/projects/${id}/cards/${card.id}`);
      const timeline = page.getByTestId('card-timeline');
      const items = timeline.locator('.ant-timeline-item');
      await expect(items).toHaveCount(5);
      await expect(items.first()).toContainText(texts.catalog[CARD_BANNED]);
      await expect(items.nth(1)).toContainText(texts.catalog[BLACKLISTED]);
      await expect(items.nth(2)).toContainText('card_heartbeat'); // the heartbeat, by its session's card
      await expect(items.nth(2)).toContainText(texts.requests.success);
      await expect(items.nth(3)).toContainText('card_login');
      await expect(items.last()).toContainText(texts.requests.success);
      await expect(timeline.locator('.ant-timeline-item').first()).toContainText(SECOND);
      await timeline.getByRole('button', { name: texts.requests.details }).first().click();
      // Who banned it and when, from the audit trail.
      await expect(page.getByRole('dialog').getByTestId('explain')).toHaveText(
        EXPLAINED[language].banned(card.code, author.username),
      );
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /close|关闭/i })
        .click();
      await items.nth(2).getByRole('button', { name: texts.requests.details }).click();
      await expect(page.getByRole('dialog').getByTestId('explain')).toHaveText(
        texts.requests.explain.acceptedVia.replace('{{interface}}', 'card_heartbeat'),
      );
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /close|关闭/i })
        .click();
      await screenshot(page, 'card-timeline', language);
    });
  });
}
