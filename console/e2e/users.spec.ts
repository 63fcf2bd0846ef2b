import { createRequire } from 'node:module';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
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
const { Client, ErrorCode } = createRequire(import.meta.url)('../../sdk/src') as typeof import('../../sdk/src');

/** A project whose program registered a user on a device, through the official client as a program does. */
async function programWithUser(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Users Program' } });
  await openConnect(service, project!.id); // the basic package, which the SDK user routes need
  const client = new Client({ baseUrl: service.url, programId: project!.program_id, apiSecret: project!.api_secret, retries: 0 });
  const user = { username: `player${Date.now().toString(36)}`, password: 'user-pass-1', machineId: 'GAME-PC-1' };
  expect(await client.userRegister(user)).toMatchObject({ success: true });
  return { project: project!, client, user };
}

test('an author bans a program user, forces them offline and unbinds their device; the program sees each', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const { project, client, user } = await programWithUser(service, author);
  expect(await client.userLogin(user)).toMatchObject({ success: true });

  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/users`);
  const row = page.getByRole('row').filter({ hasText: user.username });
  await expect(row).toContainText('GAME-PC-1');

  // Forced offline: the session ends, the account stays usable.
  await page.getByRole('button', { name: `Force offline ${user.username}` }).click();
  await page
    .getByRole('dialog', { name: `End every session of ${user.username}?` })
    .getByRole('button', { name: 'Force offline' })
    .click();
  await expect(page.getByText('Done')).toBeVisible();
  expect(await client.userHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });

  // Banned, after a confirmation: every login is refused; unbanned, it works again.
  await page.getByRole('button', { name: `Ban ${user.username}` }).click();
  await page
    .getByRole('dialog', { name: `Ban ${user.username}?` })
    .getByRole('button', { name: 'Ban' })
    .click();
  await expect(row).toContainText('banned');
  expect(await client.userLogin(user)).toMatchObject({ success: false, code: ErrorCode.USER_BANNED });
  await page.getByRole('button', { name: `Unban ${user.username}` }).click();
  await expect(row).toContainText('active');

  // A new password, then the device unbound: the user logs in with it from another machine.
  await page.getByRole('button', { name: `Reset password ${user.username}` }).click();
  const reset = page.getByRole('dialog', { name: `Reset password · ${user.username}` });
  await reset.getByLabel('New password').fill('brand-new-pass');
  await reset.getByRole('button', { name: 'Save' }).click();
  await expect(reset).toBeHidden();
  expect(await client.userLogin(user)).toMatchObject({ success: false, code: ErrorCode.BAD_CREDENTIALS });
  await page.getByRole('button', { name: `Unbind device ${user.username}` }).click();
  await page
    .getByRole('dialog', { name: `Unbind ${user.username}'s device?` })
    .getByRole('button', { name: 'Unbind device' })
    .click();
  await expect(row).not.toContainText('GAME-PC-1');
  expect(await client.userLogin({ ...user, password: 'brand-new-pass', machineId: 'NEW-PC-2' })).toMatchObject({ success: true });
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: user.username })).toContainText('NEW-PC-2');
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`program users screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`program users in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project, user } = await programWithUser(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/users`);
      await expect(page.getByRole('row').filter({ hasText: user.username })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: texts.users.title })).toBeVisible();
      await screenshot(page, 'users', language);
    });
  });
}
