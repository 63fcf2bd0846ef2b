import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  expect,
  newAuthor,
  platformAdmin,
  screenshot,
  signInThroughApi,
  test,
  type Account,
  type Service,
} from './support';

const BLACKLISTED = 40002;
const SITE_NOT_AUTHORIZED = 40001;

/** A project entitled to licence verification (/api/verify), as the platform admin grants it. */
async function verifyingProject(service: Service, author: Account) {
  const { data: project } = await adminApi(service, await apiToken(service, author)).POST('/admin/v1/projects', {
    body: { name: 'Access Program' },
  });
  await adminApi(service, await apiToken(service, platformAdmin(service))).PUT('/admin/v1/projects/{id}/entitlements', {
    params: { path: { id: project!.id } },
    body: { basic_package: true, plan_level: 1, licence_verify: true },
  });
  return project!;
}

/** What a site's old licence check gets from /api/verify. */
async function verify(service: Service, programId: string, domain: string): Promise<{ code: number }> {
  const res = await fetch(`${service.url}/api/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ app: programId, domain }),
  });
  return (await res.json()) as { code: number };
}

test('sites authorized and blacklisted in the console decide what licence verification answers; a key rotation keeps the old key retiring', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const project = await verifyingProject(service, author);
  expect(await verify(service, project.program_id, 'www.example.com')).toMatchObject({ code: SITE_NOT_AUTHORIZED });

  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/access?tab=sites`);
  await page.getByLabel('Domain').fill('*.example.com');
  await page.getByLabel('Note').fill('customer site');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('row').filter({ hasText: '*.example.com' })).toHaveCount(1);
  expect(await verify(service, project.program_id, 'www.example.com')).toMatchObject({ code: 1 });

  await page.getByRole('tab', { name: 'Verification blacklist' }).click();
  await page.getByLabel('Domain or address').fill('shop.example.com');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'shop.example.com' })).toHaveCount(1);
  expect(await verify(service, project.program_id, 'shop.example.com')).toMatchObject({ code: BLACKLISTED });
  expect(await verify(service, project.program_id, 'www.example.com')).toMatchObject({ code: 1 });

  await page.getByRole('tab', { name: 'Remote variables' }).click();
  await page.getByLabel('Name', { exact: true }).fill('9-not-a-name');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.locator('.ant-form-item-explain-error')).toBeVisible(); // refused in the form, as the API would
  await page.getByLabel('Name', { exact: true }).fill('update_channel');
  await page.getByLabel('Value', { exact: true }).fill('stable');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'update_channel' })).toContainText('stable');

  await page.getByRole('tab', { name: 'Signing keys' }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('dialog', { name: 'Rotate the signing key?' }).getByRole('button', { name: 'Rotate' }).click();
  await expect(page.getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('row').filter({ hasText: 'retiring' })).toHaveCount(1);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`access screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`access and data in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const project = await verifyingProject(service, author);
      const api = adminApi(service, await apiToken(service, author));
      await api.POST('/admin/v1/projects/{id}/variables', {
        params: { path: { id: project.id } },
        body: { name: 'update_channel', value: 'stable', public: true },
      });
      await api.POST('/admin/v1/projects/{id}/sites', {
        params: { path: { id: project.id } },
        body: { domain: '*.example.com', note: 'customer' },
      });
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/access`);
      await expect(page.getByRole('row').filter({ hasText: 'update_channel' })).toHaveCount(1);
      await screenshot(page, 'access-variables', language);
      await page.getByRole('tab', { name: texts.access.tabs.keys }).click();
      await expect(page.getByRole('row')).toHaveCount(2);
      await screenshot(page, 'access-signing-keys', language);
    });
  });
}
