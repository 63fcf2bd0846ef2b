import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, expect, newAuthor, screenshot, screenshotOf, signIn, test } from './support';

const NOT_ACCEPTED = 11017;

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`API keys (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`an author makes a key limited to a project and an address, sees it once, it works and is used, then revokes it (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Keys Program' } });
      await api.POST('/admin/v1/projects', { body: { name: 'Other Program' } });
      const t = texts.apiKeys;
      const withKey = (key: string, path: string) =>
        fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

      await signIn(page, author);
      await page.getByRole('button', { name: new RegExp(author.username) }).click();
      await page.getByRole('menuitem', { name: t.menu }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
      await expect(page.getByText(t.empty)).toBeVisible();

      await page.getByRole('button', { name: t.new }).click();
      const dialog = page.getByRole('dialog', { name: t.createTitle });
      await dialog.getByLabel(t.name).fill('my shop');
      await dialog.getByRole('checkbox', { name: /cards:read/ }).check();
      await dialog.locator('#api-key_project_ids').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Keys Program' }).click();
      await page.keyboard.press('Escape');
      // A typo in an address is caught in the form; Backspace takes it back out.
      const addresses = dialog.locator('#api-key_allowed_cidrs');
      await addresses.fill('shop.example');
      await addresses.press('Enter');
      const typo = dialog.getByText(t.badAddress.replace('{{value}}', 'shop.example'));
      await expect(typo).toBeVisible();
      // A Backspace that lands while the error re-renders the field is lost: press again until the tag goes.
      await expect(async () => {
        if (await typo.isVisible()) await addresses.press('Backspace');
        await expect(typo).toBeHidden({ timeout: 1000 });
      }).toPass();
      await addresses.fill('127.0.0.1');
      await addresses.press('Enter');
      await dialog.getByLabel(t.expires).fill('2099-01-02T03:04');
      await dialog.getByRole('button', { name: t.create }).click();

      // The key, once, with a copy button and the warning; only "I have stored it" closes it.
      const shown = page.getByRole('dialog', { name: t.shownTitle });
      await expect(shown.getByText(t.shownWarning)).toBeVisible();
      await expect(shown.locator('.ant-typography-copy')).toBeVisible();
      const key = (await shown.locator('.secret-value').innerText()).trim();
      expect(key).toMatch(/^ck_[0-9A-Za-z]{40}$/);
      await screenshotOf(shown, 'api-key-shown', language);
      await shown.getByRole('button', { name: texts.shownOnce.saved }).click();
      await expect(shown).toBeHidden();

      const row = page.getByRole('row').filter({ hasText: 'my shop' });
      await expect(row).toContainText(key.slice(0, 11));
      await expect(row).not.toContainText(key.slice(11));
      await expect(row).toContainText('cards:read');
      await expect(row).toContainText('Keys Program');
      await expect(row).not.toContainText('Other Program');
      await expect(row).toContainText('127.0.0.1');
      await expect(row).toContainText('2099-01-02 03:04:00'); // in the chosen zone
      await expect(row).toContainText(t.neverUsed);
      const stored = (await api.GET('/admin/v1/api-keys')).data!.items[0];
      expect(stored).toMatchObject({
        scopes: ['cards:read'],
        project_ids: [project!.id],
        allowed_cidrs: ['127.0.0.1'],
        expires_at: '2099-01-01T19:04:00.000Z',
      });

      // The key works within its limits, and not on account routes; the list then shows its use.
      expect((await withKey(key, `/admin/v1/projects/${project!.id}/cards`)).status).toBe(200);
      const me = await withKey(key, '/admin/v1/auth/me');
      expect({ status: me.status, code: (await me.json()).error.code }).toEqual({ status: 403, code: NOT_ACCEPTED });
      await page.reload();
      await expect(row).not.toContainText(t.neverUsed);
      await expect(row).toContainText(t.statuses.active);
      await screenshot(page, 'api-keys', language);

      // Revoke, confirmed: the key is refused from then on.
      await row.getByRole('button', { name: `${t.revoke} my shop` }).click();
      await page
        .getByRole('dialog', { name: t.revokeTitle.replace('{{name}}', 'my shop') })
        .getByRole('button', { name: t.revoke })
        .click();
      await expect(row).toContainText(t.statuses.revoked);
      await expect(row.getByRole('button', { name: `${t.revoke} my shop` })).toHaveCount(0);
      expect((await withKey(key, `/admin/v1/projects/${project!.id}/cards`)).status).toBe(401);
    });
  });
}
