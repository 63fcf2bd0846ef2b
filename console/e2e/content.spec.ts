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

async function newProject(service: Service, author: Account) {
  const { data: project } = await adminApi(service, await apiToken(service, author)).POST('/admin/v1/projects', {
    body: { name: 'Content Program' },
  });
  await openConnect(service, project!.id);
  return project!;
}

/** What an old client gets from a legacy info route (GET, `app` in the query). */
async function legacyGet(
  service: Service,
  route: string,
  query: Record<string, string>,
): Promise<{ code: number; data?: Record<string, unknown> }> {
  return (await (await fetch(`${service.url}/api/${route}?${new URLSearchParams(query)}`)).json()) as {
    code: number;
    data?: Record<string, unknown>;
  };
}

test('an announcement written in the console is what the program reads, until it is hidden', async ({ page, service }) => {
  const author = await newAuthor(service);
  const project = await newProject(service, author);
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/content`);
  await page.getByRole('button', { name: 'New announcement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New announcement' });
  await dialog.getByLabel('Title').fill('Maintenance tonight');
  await dialog.getByLabel('Text').fill('The service pauses from 02:00 to 02:30.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Maintenance tonight' })).toHaveCount(1);
  const shown = await legacyGet(service, 'announcement', { app: project.program_id });
  expect(shown.code).toBe(1);
  expect(shown.data).toEqual({ announcement: 'The service pauses from 02:00 to 02:30.' }); // the legacy answer carries the text

  await page.getByRole('switch', { name: 'Shown to clients Maintenance tonight' }).click();
  await expect(page.getByRole('switch', { name: 'Shown to clients Maintenance tonight' })).not.toBeChecked();
  expect(JSON.stringify(await legacyGet(service, 'announcement', { app: project.program_id }))).not.toContain('02:00 to 02:30');
});

test('a file uploaded in the console becomes a version the program is told to download, byte for byte', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const project = await newProject(service, author);
  const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/content?tab=files`);
  await page
    .getByTestId('file-picker')
    .setInputFiles({ name: 'setup-1.2.0.exe', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(page.getByText('setup-1.2.0.exe uploaded.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'setup-1.2.0.exe' })).toContainText('3.0 MiB');

  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByRole('button', { name: 'New version' }).click();
  const dialog = page.getByRole('dialog', { name: 'New version' });
  await dialog.getByLabel('Version').fill('1.2.0');
  await dialog.getByLabel('What changed').fill('Faster start');
  await dialog.getByLabel('Uploaded file').click();
  await page.getByTitle('setup-1.2.0.exe (3.0 MiB)').click();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('row').filter({ hasText: '1.2.0' })).toContainText('setup-1.2.0.exe');

  const check = await legacyGet(service, 'latest_version', { app: project.program_id, version: '1.0.0' });
  expect(check).toMatchObject({ code: 1, data: { latest_version: '1.2.0', update_available: true } });
  const download = await fetch(new URL(String(check.data!.download_url), service.url));
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`content screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`content in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const project = await newProject(service, author);
      const api = adminApi(service, await apiToken(service, author));
      await api.POST('/admin/v1/projects/{id}/announcements', {
        params: { path: { id: project.id } },
        body: { title: language === 'en' ? 'Welcome' : '欢迎', content: '…', enabled: true },
      });
      await api.POST('/admin/v1/projects/{id}/versions', {
        params: { path: { id: project.id } },
        body: {
          version: '1.1.0',
          changelog: 'fixes',
          force_update: true,
          enabled: true,
          download_url: 'https://example.com/setup.exe',
        },
      });
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/content`);
      await expect(page.getByRole('tab', { name: texts.content.tabs.announcements })).toBeVisible();
      await screenshot(page, 'content-announcements', language);
      await page.getByRole('tab', { name: texts.content.tabs.versions }).click();
      await expect(page.getByRole('row').filter({ hasText: '1.1.0' })).toHaveCount(1);
      await screenshot(page, 'content-versions', language);
    });
  });
}
