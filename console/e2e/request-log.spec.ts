import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, connectLogin, expect, newAuthor, openConnect, screenshot, signIn, test, type Account, type Service } from './support';

const CARD_INVALID = 20001;
const CARD_BANNED = 20003;
const BLACKLISTED = 40002;
const SECOND = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

/** Over Connect, as a program calls: a success, an unknown key, a blacklisted device, then the card banned and refused. */
async function projectWithRequests(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Request Log Program' } });
  const id = project!.id;
  await openConnect(service, id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', { params: { path: { id } }, body: { count: 2, duration_seconds: 86_400 } });
  const [card, other] = batch!.items;
  expect((await connectLogin(service, project!.program_id, card.code, 'OFFICE-PC-7')).status).toBe(true);
  expect((await connectLogin(service, project!.program_id, other.code, 'HOME-PC-1')).status).toBe(true);
  expect((await connectLogin(service, project!.program_id, 'NO-SUCH-CARD', 'OFFICE-PC-8')).code).toBe(-CARD_INVALID);
  await api.POST('/admin/v1/projects/{id}/login-blacklist', { params: { path: { id } }, body: { kind: 'device', value: 'STOLEN-PC', note: 'chargeback' } });
  expect((await connectLogin(service, project!.program_id, card.code, 'STOLEN-PC')).code).toBe(-BLACKLISTED);
  await api.PATCH('/admin/v1/projects/{id}/cards/{cardId}', { params: { path: { id, cardId: card.id } }, body: { status: 'banned' } });
  expect((await connectLogin(service, project!.program_id, card.code, 'OFFICE-PC-7')).code).toBe(-CARD_BANNED);
  return { id, card };
}

for (const [language, texts] of [['en', en], ['zh-CN', zhCN]] as const) {
  test.describe(`request log (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`finds a refusal by its result and explains it, filters by card and time, and a card shows its timeline (${language})`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { id, card } = await projectWithRequests(service, author);
      await signIn(page, author);
      await page.goto(`/console/projects/${id}/overview`);
      await page.getByRole('menuitem', { name: texts.operations.menu.logs }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.requests.title })).toBeVisible();
      await expect(page.getByRole('row')).toHaveCount(6); // the header and five requests
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
      await expect(drawer.getByTestId('explain')).toContainText('device STOLEN-PC is on the login blacklist');
      await expect(drawer.getByTestId('explain')).toContainText('"chargeback"');
      await screenshot(page, 'request-detail', language);
      await drawer.getByRole('button', { name: /close|关闭/i }).click();

      // By card (its key): its three requests only, the blacklisted one too; then a range that starts in the future: nothing.
      await page.getByRole('button', { name: texts.common.reset }).click();
      await page.getByLabel(texts.requests.filters.card).fill(card.code);
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page).not.toHaveURL(/result_code=/);
      await expect(page.getByRole('row')).toHaveCount(4);
      await expect(page.getByRole('row').filter({ hasText: 'OFFICE-PC-8' })).toHaveCount(0);
      await expect(page.getByRole('row').filter({ hasText: texts.catalog[CARD_BANNED] })).toHaveCount(1);
      await page.getByLabel(texts.requests.filters.from).first().fill('2099-01-01T00:00');
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page).toHaveURL(/from=2099-01-01T00%3A00/);
      await expect(page.getByText(texts.requests.empty)).toBeVisible();

      // The card's page: its requests as a timeline, the refusal in words, each with its explanation.
      await page.goto(`/console/projects/${id}/cards/${card.id}`);
      const timeline = page.getByTestId('card-timeline');
      await expect(timeline.locator('.ant-timeline-item')).toHaveCount(3);
      await expect(timeline.locator('.ant-timeline-item').first()).toContainText(texts.catalog[CARD_BANNED]);
      await expect(timeline.locator('.ant-timeline-item').nth(1)).toContainText(texts.catalog[BLACKLISTED]);
      await expect(timeline.locator('.ant-timeline-item').last()).toContainText(texts.requests.success);
      await expect(timeline.locator('.ant-timeline-item').first()).toContainText(SECOND);
      await timeline.getByRole('button', { name: texts.requests.details }).first().click();
      await expect(page.getByRole('dialog').getByTestId('explain')).toContainText(`The card ${card.code} was banned`);
      await page.getByRole('dialog').getByRole('button', { name: /close|关闭/i }).click();
      await screenshot(page, 'card-timeline', language);
    });
  });
}
