import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, connectLogin, expect, newAuthor, openConnect, screenshot, signInThroughApi, test } from './support';

const BLACKLISTED = 40002;

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`login blacklist (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`an author refuses a device and an address block, edits the note and expiry, and lets the device back in (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Blacklist Program' } });
      await openConnect(service, project!.id);
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project!.id } },
        body: { count: 1, duration_seconds: 86_400, device_limit: 2 },
      });
      const key = batch!.items[0].code;
      const t = texts.loginBlacklist;

      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project!.id}/overview`);
      await page.getByRole('menuitem', { name: t.menu }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
      await expect(page.getByText(t.empty)).toBeVisible();

      // A device, with a note: the program on that device is refused at once.
      await page.getByRole('button', { name: t.add }).click();
      let dialog = page.getByRole('dialog', { name: t.addTitle });
      await dialog.getByLabel(t.value).fill('STOLEN-PC');
      await dialog.getByLabel(t.note).fill('chargeback');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();
      const device = page.getByRole('row').filter({ hasText: 'STOLEN-PC' });
      await expect(device).toContainText('chargeback');
      await expect(device).toContainText(t.forGood);
      await expect(device).toContainText(t.active);
      expect((await connectLogin(service, project!.program_id, key, 'STOLEN-PC')).code).toBe(-BLACKLISTED);
      expect((await connectLogin(service, project!.program_id, key, 'OFFICE-PC')).status).toBe(true);

      // An address: a typo is caught in the form; a CIDR block is stored with its host bits cleared.
      await page.getByRole('button', { name: t.add }).click();
      dialog = page.getByRole('dialog', { name: t.addTitle });
      await dialog.getByLabel(t.kind).click();
      await page.locator('.ant-select-item-option').filter({ hasText: t.kinds.address }).click();
      await dialog.getByLabel(t.value).fill('203.0.113.300');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog.getByText(t.badAddress)).toBeVisible();
      await dialog.getByLabel(t.value).fill('203.0.113.77/24');
      await dialog.getByLabel(t.expires).fill('2099-01-02T03:04');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();
      const block = page.getByRole('row').filter({ hasText: '203.0.113.0/24' });
      await expect(block).toContainText('2099-01-02 03:04:00'); // in the chosen zone, to the second
      const stored = (await api.GET('/admin/v1/projects/{id}/login-blacklist', { params: { path: { id: project!.id } } })).data!
        .items;
      expect(stored.find((entry) => entry.kind === 'address')?.expires_at).toBe('2099-01-01T19:04:00.000Z'); // Asia/Shanghai is UTC+8
      await screenshot(page, 'login-blacklist', language);

      // Edit: the note changes, the expiry goes (for good); what is refused stays.
      await block.getByRole('button', { name: `${t.edit} 203.0.113.0/24` }).click();
      dialog = page.getByRole('dialog', { name: t.editTitle.replace('{{value}}', '203.0.113.0/24') });
      await expect(dialog.getByLabel(t.value)).toBeDisabled();
      await dialog.getByLabel(t.note).fill('office network');
      await dialog.getByLabel(t.expires).fill('');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();
      await expect(block).toContainText('office network');
      await expect(block).toContainText(t.forGood);

      // The kind filter, then delete the device after a confirmation: it logs in again.
      await page.locator('.ant-segmented').getByText(t.kinds.device, { exact: true }).click();
      await expect(page.getByRole('row')).toHaveCount(2);
      await device.getByRole('button', { name: `${texts.common.delete} STOLEN-PC` }).click();
      await page
        .getByRole('dialog', { name: t.deleteTitle.replace('{{value}}', 'STOLEN-PC') })
        .getByRole('button', { name: texts.common.delete })
        .click();
      await expect(page.getByText(t.empty)).toBeVisible();
      expect((await connectLogin(service, project!.program_id, key, 'STOLEN-PC')).status).toBe(true);
    });
  });
}
