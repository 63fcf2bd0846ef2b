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

async function projectWithCard(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Connect Program' } });
  await openConnect(service, project!.id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: project!.id } },
    body: { count: 1, duration_seconds: 86_400 },
  });
  return { project: project!, card: batch!.items[0].code };
}

/** The Connect answer as an old client reads it: the raw JSON object, whatever its field names. */
async function connectAnswer(service: Service, programId: string, cardKey: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${service.url}/connect/${programId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_key: cardKey, serial: 'OLD-CLIENT-PC' }),
  });
  return (await res.json()) as Record<string, unknown>;
}

test('an author renames the Connect answer fields, sees them in the preview and in a real login, then resets to the default', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const { project, card } = await projectWithCard(service, author);
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/connect`);
  await expect(page.getByTestId('preview-success')).toContainText('"status": true');

  await page.getByLabel('status', { exact: true }).fill('ok');
  await page.getByLabel('reason', { exact: true }).fill('message');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('preview-success')).toContainText('"ok": true');
  await expect(page.getByTestId('preview-failure')).toContainText('"message"');
  const renamed = await connectAnswer(service, project.program_id, card);
  expect(renamed).toMatchObject({ ok: true });
  expect(renamed).not.toHaveProperty('status');

  // A name the API refuses is refused in the form, before any call.
  await page.getByLabel('code', { exact: true }).fill('9starts-with-digit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.ant-form-item-explain-error')).toBeVisible();
  await page.getByLabel('code', { exact: true }).fill('');

  await page.getByRole('button', { name: 'Reset to default' }).click();
  await page
    .getByRole('dialog', { name: 'Reset the Connect answer to the default?' })
    .getByRole('button', { name: 'Reset to default' })
    .click();
  await expect(page.getByTestId('preview-success')).toContainText('"status": true');
  expect(await connectAnswer(service, project.program_id, card)).toMatchObject({ status: true });
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`Connect screenshot (${language})`, () => {
    test.use({ locale: language });

    test(`Connect in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project } = await projectWithCard(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/connect`);
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(texts.connect.title) })).toBeVisible();
      await expect(page.getByTestId('preview-success')).toContainText('"status": true');
      await screenshot(page, 'connect', language);
    });
  });
}
