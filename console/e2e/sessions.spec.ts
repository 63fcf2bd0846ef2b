import { createRequire } from 'node:module';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  expect,
  newAuthor,
  openConnect,
  platformAdmin,
  screenshot,
  signIn,
  signInThroughApi,
  test,
  type Account,
  type Service,
} from './support';

// The official client (sdk/, CommonJS TypeScript) signs as a real program does; these ES-module tests load it with require.
const { Client, ErrorCode } = createRequire(import.meta.url)('../../sdk/src') as typeof import('../../sdk/src');

/**
 * A project with a daily quota of 10 card logins, in which the official client logged in once with a
 * card and once with a program user, each over HTTP as a program does.
 */
async function programWithSessions(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Sessions Program' } });
  const projectId = project!.id;
  await openConnect(service, projectId); // the basic package, which the SDK routes need
  const platform = adminApi(service, await apiToken(service, platformAdmin(service)));
  const { error } = await platform.PUT('/admin/v1/projects/{id}/interfaces/{name}', {
    params: { path: { id: projectId, name: 'card_login' } },
    body: { authorized: true, daily_quota: 10 },
  });
  expect(error).toBeUndefined();
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: projectId } },
    body: { count: 1, duration_seconds: 86_400 },
  });
  const cardKey = batch!.items[0].code;
  const clientOptions = { baseUrl: service.url, programId: project!.program_id, apiSecret: project!.api_secret, retries: 0 };

  const cardClient = new Client(clientOptions);
  expect(await cardClient.cardLogin({ cardKey, machineId: 'OFFICE-PC-1' })).toMatchObject({ success: true });
  const userClient = new Client(clientOptions);
  const user = { username: `player${Date.now().toString(36)}`, password: 'user-pass-1', machineId: 'HOME-PC-2' };
  expect(await userClient.userRegister(user)).toMatchObject({ success: true });
  expect(await userClient.userLogin(user)).toMatchObject({ success: true });
  const liveSessions = async () =>
    (await api.GET('/admin/v1/projects/{id}/sessions', { params: { path: { id: projectId } } })).data!;
  return { projectId, cardKey, cardClient, userClient, user, liveSessions };
}

test('the Overview shows live sessions and quota use; an author forces a card, then everyone, offline and the program is refused', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const { projectId, cardKey, cardClient, userClient, user, liveSessions } = await programWithSessions(service, author);
  await signIn(page, author);

  // The Overview: one session of each type, 1 of the 10 card logins of today, the other interfaces unlimited.
  await page.goto(`/console/projects/${projectId}/overview`);
  await expect(page.getByTestId('card-sessions')).toContainText('1');
  await expect(page.getByTestId('user-sessions')).toContainText('1');
  await expect(page.getByTestId('quota-card_login')).toContainText('1 / 10');
  await expect(page.getByLabel('card_login: 1 of 10 calls today')).toBeVisible();
  await expect(page.getByTestId('quota-unlimited')).toContainText('user_login');

  // The sessions page, from the menu: both sessions, and the type filter.
  await page.getByRole('menuitem', { name: 'Sessions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Live sessions' })).toBeVisible();
  const cardRow = page.getByRole('row').filter({ hasText: cardKey });
  const userRow = page.getByRole('row').filter({ hasText: user.username });
  await expect(cardRow).toContainText('OFFICE-PC-1');
  await expect(userRow).toContainText('HOME-PC-2');
  await page.getByLabel('Any type').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'program user' }).click(); // antd's visible option (the role=option ones are its hidden a11y list)
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/type=app_user/);
  await expect(cardRow).toBeHidden();
  await expect(userRow).toBeVisible();
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(cardRow).toBeVisible();

  // Force the card offline, after a confirmation: its row goes, its next heartbeat is refused, the user stays.
  await page.getByRole('button', { name: `Force offline ${cardKey}` }).click();
  await page
    .getByRole('dialog', { name: `End every session of card ${cardKey}?` })
    .getByRole('button', { name: 'Force offline' })
    .click();
  await expect(page.getByText('Sessions ended: 1')).toBeVisible();
  await expect(cardRow).toBeHidden();
  expect(await cardClient.cardHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
  expect(await userClient.userHeartbeat()).toMatchObject({ success: true });
  expect((await liveSessions()).items.map((row) => row.type)).toEqual(['app_user']);

  // Everyone offline: the dialog names the count; then the list is empty and the user's heartbeat is refused.
  await page.getByRole('button', { name: 'Force everyone offline' }).click();
  await page
    .getByRole('dialog', { name: 'End all 1 live sessions of this project?' })
    .getByRole('button', { name: 'Force everyone offline' })
    .click();
  await expect(userRow).toBeHidden();
  await expect(page.getByText('No live session matches.')).toBeVisible();
  expect(await userClient.userHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
  expect((await liveSessions()).total).toBe(0);

  await page.getByRole('menuitem', { name: 'Overview' }).click();
  await expect(page.getByTestId('card-sessions')).toContainText('0');
  await expect(page.getByTestId('user-sessions')).toContainText('0');
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`sessions screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`sessions and overview in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { projectId, cardKey, user } = await programWithSessions(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${projectId}/sessions`);
      await expect(page.getByRole('heading', { level: 1, name: texts.sessions.title })).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: cardKey })).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: user.username })).toBeVisible();
      await screenshot(page, 'sessions', language);

      await page.goto(`/console/projects/${projectId}/overview`);
      await expect(page.getByTestId('quota-card_login')).toContainText('1 / 10');
      await expect(page.getByTestId('user-sessions')).toContainText('1');
      await expect(page.getByTestId('logins-chart').locator('canvas')).toBeVisible();
      await screenshot(page, 'overview-live', language);
    });
  });
}
