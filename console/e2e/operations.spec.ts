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

/** A project with a few cards, logins made over HTTP by a program: one success, one refusal. */
async function projectWithLogins(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Log Program' } });
  await openConnect(service, project!.id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: project!.id } },
    body: { count: 3, duration_seconds: 86_400 },
  });
  expect((await connectLogin(service, project!.program_id, batch!.items[0].code, 'OFFICE-PC-7')).status).toBe(true);
  expect((await connectLogin(service, project!.program_id, 'NO-SUCH-CARD', 'OFFICE-PC-8')).status).toBe(false);
  return { project: project! };
}

test('the log finds an attempt by its request id, and a refusal by its code', async ({ page, service }) => {
  const author = await newAuthor(service);
  const { project } = await projectWithLogins(service, author);
  const res = await fetch(`${service.url}/connect/${project.program_id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_key: 'ANOTHER-WRONG-KEY', serial: 'SUPPORT-CASE' }),
  });
  const { request_id: requestId } = (await res.json()) as { request_id: string };
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/logs`);
  await expect(page.getByRole('row')).toHaveCount(4); // the header and three attempts
  await page.getByRole('textbox', { name: 'Request id' }).fill(requestId);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('row').nth(1)).toContainText('SUPPORT-CASE');
  await expect(page).toHaveURL(new RegExp(`request_id=${requestId}`));

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).not.toHaveURL(/request_id=/);
  await expect(page.getByRole('row')).toHaveCount(4);
  // The result is chosen by its code or its words (the request log's list of catalog codes).
  await page.getByLabel('Result').fill('card key');
  await page.locator('.ant-select-item-option').filter({ hasText: '20001' }).click();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/result_code=20001/);
  await expect(page.getByRole('row').filter({ hasText: 'SUPPORT-CASE' })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'OFFICE-PC-7' })).toHaveCount(0); // the success is not listed
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`overview and log screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`overview and log in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project } = await projectWithLogins(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/overview`);
      await expect(page.getByRole('heading', { level: 1, name: texts.operations.overview.title })).toBeVisible();
      await expect(page.getByTestId('logins-today')).toContainText('2');
      await expect(page.getByTestId('refused-today')).toContainText('1');
      await expect(page.getByTestId('logins-chart').locator('canvas')).toBeVisible();
      await screenshot(page, 'overview', language);
      await page.getByRole('menuitem', { name: texts.operations.menu.logs }).click();
      await expect(page.getByRole('row')).toHaveCount(3); // the request log's pictures: request-log.spec.ts
    });
  });
}
