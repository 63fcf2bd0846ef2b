import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, expect, newAuthor, platformAdmin, screenshot, signIn, test, type Service } from './support';

/** The backups the API lists, newest first. */
async function listed(service: Service) {
  const { data, error } = await adminApi(service, await apiToken(service, platformAdmin(service))).GET(
    '/admin/v1/platform/backups',
  );
  if (!data) throw new Error(`backups not listed: ${JSON.stringify(error)}`);
  return data.items;
}

/**
 * Platform · Backups (decisions §24) in both languages: a platform admin makes a backup, sees it
 * listed, downloads the very archive the API describes, and deletes it after a confirmation.
 */
for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`backups (${language})`, () => {
    test.use({ locale: language });

    test(`a platform admin makes, downloads and deletes a backup in ${language}`, async ({ page, service }) => {
      const t = texts.backups;
      await signIn(page, platformAdmin(service));
      await page.getByRole('menuitem', { name: t.menu }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();

      const before = new Set((await listed(service)).map((b) => b.id));
      await page.getByRole('button', { name: t.make }).click();
      await expect.poll(async () => (await listed(service)).filter((b) => !before.has(b.id))).toHaveLength(1);
      const made = (await listed(service)).find((b) => !before.has(b.id))!;
      expect(made.trigger).toBe('manual');
      const row = page.getByRole('row').filter({ hasText: made.sha256.slice(0, 12) });
      await expect(row).toContainText(t.triggers.manual);
      await expect(row).toContainText(made.schema);
      await expect(row).toContainText(/\d/);
      // The picture without the toast that says the backup was made (it names the file).
      await expect(page.getByText(t.made.replace('{{file}}', made.file))).toHaveCount(0);
      await screenshot(page, 'platform-backups', language);

      const download = page.waitForEvent('download');
      await row.getByRole('button', { name: `${t.download} ${made.file}` }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toBe(made.file);
      const bytes = readFileSync(await saved.path());
      expect(bytes.length).toBe(made.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(made.sha256);

      await row.getByRole('button', { name: `${t.delete} ${made.file}` }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: t.deleteContent });
      await confirm.getByRole('button', { name: t.delete }).click();
      await expect(row).toHaveCount(0);
      expect((await listed(service)).map((b) => b.id)).not.toContain(made.id);
    });
  });
}

test('an author has no backups page', async ({ page, service }) => {
  await signIn(page, await newAuthor(service));
  await expect(page.getByRole('menuitem', { name: en.backups.menu })).toHaveCount(0);
});
