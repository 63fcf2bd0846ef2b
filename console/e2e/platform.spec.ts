import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  newAuthor,
  openConnect,
  platformAdmin,
  screenshot,
  signIn,
  test,
  type Account,
  type Service,
} from './support';

const CONNECT_NOT_ENABLED = 10208;
const INTERFACE_NOT_AUTHORIZED = 10206;

/** A project of `author` with Connect open and one card, as a program's author would have it. */
async function projectWithCard(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Platform Journey' } });
  await openConnect(service, project!.id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: project!.id } },
    body: { count: 1, duration_seconds: 86_400 },
  });
  return { project: project!, card: batch!.items[0].code };
}

/** The platform settings are the whole service's: put the default opening mode back whatever a test did. */
async function restoreOpeningMode(service: Service) {
  await adminApi(service, await apiToken(service, platformAdmin(service))).PUT('/admin/v1/platform/settings', {
    body: { connect_opening_mode: 'base_package' },
  });
}

test('a platform admin creates an author, switches the Connect opening mode and refuses an interface for a project', async ({
  page,
  service,
}) => {
  try {
    await signIn(page, platformAdmin(service));
    await page.getByRole('menuitem', { name: 'Authors' }).click();
    await page.getByRole('button', { name: 'New author' }).click();
    const create = page.getByRole('dialog', { name: 'New author' });
    const author = { username: `journey${Date.now().toString(36)}`, password: 'journey-password-1' };
    await create.getByLabel('User name').fill(author.username);
    await create.getByLabel('Password').fill(author.password);
    await create.getByLabel('Daily API quota').fill('5000');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('row').filter({ hasText: author.username })).toContainText('5000');

    // The new author works: a project of theirs, and a program logging in over Connect.
    const { project, card } = await projectWithCard(service, author);
    expect(await connectLogin(service, project.program_id, card, 'platform-pc')).toMatchObject({ status: true });

    // Self-service opening: Connect is off where the author has not switched it on.
    await page.getByRole('menuitem', { name: 'Platform settings' }).click();
    await page.getByRole('radio', { name: /^Self-service/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved')).toBeVisible();
    expect(await connectLogin(service, project.program_id, card, 'platform-pc')).toMatchObject({
      status: false,
      code: -CONNECT_NOT_ENABLED,
    });
    await page.getByRole('radio', { name: /^Basic package/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await connectLogin(service, project.program_id, card, 'platform-pc')).status).toBe(true);

    // The project's card_login refused: the program is refused.
    await page.goto(`/console/projects/${project.id}/settings`);
    await page.getByRole('tab', { name: 'Interfaces' }).click();
    await page.getByRole('switch', { name: 'card_login Authorized' }).click();
    await page.getByRole('button', { name: 'Save card_login' }).click();
    await expect(page.getByRole('button', { name: 'Save card_login' })).toBeDisabled();
    expect(await connectLogin(service, project.program_id, card, 'platform-pc')).toMatchObject({
      status: false,
      code: -INTERFACE_NOT_AUTHORIZED,
    });

    // Disabling the author, after a confirmation, refuses their sign-in.
    await page.getByRole('menuitem', { name: 'Authors' }).click();
    await page.getByRole('button', { name: `Disable ${author.username}` }).click();
    await page
      .getByRole('dialog', { name: `Disable ${author.username}?` })
      .getByRole('button', { name: 'Disable' })
      .click();
    await expect(page.getByRole('row').filter({ hasText: author.username })).toContainText('disabled');
    await expect(apiToken(service, author)).rejects.toThrow(/refused/);
  } finally {
    await restoreOpeningMode(service);
  }
});

test('an author sees the interface authorizations read-only and no platform menu', async ({ page, service }) => {
  const author = await newAuthor(service);
  const { project } = await projectWithCard(service, author);
  await signIn(page, author);
  await expect(page.getByRole('menuitem', { name: 'Authors' })).toHaveCount(0);
  await page.goto(`/console/projects/${project.id}/settings`);
  await page.getByRole('tab', { name: 'Interfaces' }).click();
  await expect(page.getByRole('switch', { name: 'card_login Authorized' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save card_login' })).toHaveCount(0);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`platform screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`authors, platform settings and interfaces in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project } = await projectWithCard(service, author);
      await signIn(page, platformAdmin(service));
      await page.getByRole('menuitem', { name: texts.platform.menu.authors }).click();
      await expect(page.getByRole('row').filter({ hasText: author.username })).toHaveCount(1);
      await screenshot(page, 'platform-authors', language);
      await page.getByRole('menuitem', { name: texts.platform.menu.settings }).click();
      await expect(page.getByRole('switch', { name: `card_login ${texts.platform.settings.enabled}` })).toBeVisible();
      await screenshot(page, 'platform-settings', language);
      await page.goto(`/console/projects/${project.id}/settings`);
      await page.getByRole('tab', { name: texts.platform.interfaces.tab }).click();
      await expect(page.getByRole('switch', { name: `card_login ${texts.platform.interfaces.authorized}` })).toBeEnabled();
      await screenshot(page, 'project-interfaces', language);
    });
  });
}
