import { readFileSync } from 'node:fs';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, expect, newAuthor, platformAdmin, signIn, test } from './support';

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`audit trail (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`a platform admin filters the trail, opens a ban's before and after and exports it; an author sees only their own (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const other = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: `Audited ${language}` } });
      const id = project!.id;
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id } },
        body: { count: 1, duration_seconds: 86_400 },
      });
      const card = batch!.items[0];
      await api.PATCH('/admin/v1/projects/{id}/cards/{cardId}', {
        params: { path: { id, cardId: card.id } },
        body: { status: 'banned' },
      });
      await adminApi(service, await apiToken(service, other)).POST('/admin/v1/projects', {
        body: { name: `Not yours ${language}` },
      });

      // The platform admin: everything, narrowed by who and what.
      await signIn(page, platformAdmin(service));
      await page.getByRole('menuitem', { name: texts.audit.menu }).click();
      await expect(page.getByRole('row').filter({ hasText: other.username }).first()).toBeVisible();
      await page.getByLabel(texts.audit.filters.actor).fill(author.username);
      await page.getByLabel(texts.audit.filters.action).fill('cards.ban');
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page).toHaveURL(/action=cards\.ban/);
      await expect(page.getByRole('row')).toHaveCount(2); // the header and the ban
      const ban = page.getByRole('row').nth(1);
      await expect(ban).toContainText(`${author.username} · ${texts.roles.author}`);
      await expect(ban).toContainText(String(card.id));
      await expect(ban).toContainText(`Audited ${language}`);
      await expect(ban).toContainText(texts.audit.outcomes.success);
      await ban.locator('.ant-table-row-expand-icon').click();
      const status = page.getByTestId('audit-changes').getByRole('row').filter({ hasText: 'status' });
      await expect(status.getByRole('cell')).toHaveText(['status', 'unused', 'banned']);

      // The export holds what the filters match.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: texts.audit.export }).click();
      const csv = readFileSync(await (await download).path(), 'utf8')
        .trim()
        .split('\r\n');
      expect(csv[0]).toMatch(/^id,at,actor_username/);
      expect(csv).toHaveLength(2);
      expect(csv[1]).toContain('cards.ban');

      // A range that starts in the future: nothing.
      await page.getByLabel(texts.audit.filters.from).first().fill('2099-01-01T00:00');
      await page.getByRole('button', { name: texts.common.search }).click();
      await expect(page.getByText(texts.audit.empty)).toBeVisible();

      // The author: their own rows, never another author's.
      await page.getByRole('button', { name: texts.app.signOut }).click();
      await signIn(page, author);
      await page.getByRole('menuitem', { name: texts.audit.menu }).click();
      await expect(page.getByRole('row').filter({ hasText: 'cards.ban' })).toHaveCount(1);
      await expect(page.getByRole('row').filter({ hasText: other.username })).toHaveCount(0);
      await expect(page.getByRole('row').filter({ hasText: `Not yours ${language}` })).toHaveCount(0);
    });
  });
}
