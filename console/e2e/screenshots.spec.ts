import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { connectLogin, expect, newAuthor, openConnect, screenshot, test } from './support';

/**
 * Every page of the console in both languages, as docs/console.md shows them (docs/console/*.png),
 * taken while an author does the usual work: the browser's language picks the console's.
 */
for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`every page in ${language}`, async ({ page, service }) => {
      const shot = (name: string) => screenshot(page, name, language);
      const author = await newAuthor(service);

      await page.goto('/console/sign-in');
      await expect(page.getByRole('button', { name: texts.signIn.submit })).toBeVisible();
      await shot('sign-in');
      await page.getByLabel(texts.signIn.username).fill(author.username);
      await page.getByLabel(texts.signIn.password).fill(author.password);
      await page.getByRole('button', { name: texts.signIn.submit }).click();

      await page.getByRole('button', { name: texts.projects.new }).click();
      const create = page.getByRole('dialog', { name: texts.projects.createTitle });
      await create.getByLabel(texts.projects.name).fill(language === 'en' ? 'My Program' : '我的程序');
      await shot('project-new');
      await create.getByRole('button', { name: texts.common.create }).click();
      const once = page.getByRole('dialog').filter({ hasText: texts.shownOnce.saved });
      await expect(once.locator('.secret-value')).toHaveCount(4);
      const programId = (await once.locator('.secret-value').first().innerText()).trim();
      await shot('project-created');
      await once.getByRole('button', { name: texts.shownOnce.saved }).click();
      await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/settings$/);
      const projectId = new URL(page.url()).pathname.split('/').at(-2)!;
      await openConnect(service, projectId);
      await page.reload();
      await expect(page.getByTestId('settings-form')).toBeVisible();
      await shot('project-settings');
      await page.getByRole('tab', { name: texts.projects.tabs.secrets }).click();
      await shot('project-secrets');

      await page.getByRole('button', { name: texts.projects.openCards }).click();
      await page.getByRole('button', { name: texts.cards.generate }).click();
      const generate = page.getByRole('dialog', { name: texts.generate.title });
      await generate.getByLabel(texts.generate.note.label).fill(language === 'en' ? 'launch batch' : '首发批次');
      await page.setViewportSize({ width: 1280, height: 1100 }); // the whole form: a dialog does not grow a full-page picture
      await shot('cards-generate');
      await page.setViewportSize({ width: 1280, height: 800 });
      await generate.getByRole('button', { name: texts.cards.generate }).click();
      const codes = (await generate.getByTestId('generated-codes').inputValue()).split('\n');
      await shot('cards-generated');
      await generate.getByRole('button', { name: texts.generate.showBatch }).click();
      await connectLogin(service, programId, codes[0], 'DESKTOP-7F3K2');
      await connectLogin(service, programId, codes[1], 'LAPTOP-MX11');
      await page.reload();
      await expect(page.getByRole('row')).toHaveCount(11);
      await shot('cards');

      await page.getByRole('link', { name: codes[0] }).click();
      await expect(page.getByRole('row').filter({ hasText: 'DESKTOP-7F3K2' })).toHaveCount(1);
      await shot('card');
      await page.getByRole('button', { name: texts.cards.ban }).click();
      await expect(page.getByRole('dialog', { name: texts.cards.banTitle })).toBeVisible();
      await shot('card-ban-confirm');
      await page.getByRole('dialog', { name: texts.cards.banTitle }).getByRole('button', { name: texts.cards.ban }).click();
      await expect(page.getByRole('button', { name: texts.cards.unban })).toBeVisible();

      await page.getByRole('menuitem', { name: texts.app.projects }).click();
      await expect(page.getByRole('link', { name: language === 'en' ? 'My Program' : '我的程序' })).toBeVisible();
      await shot('projects');

      await page.goto('/console/projects/00000000-0000-4000-8000-000000000000/settings');
      await expect(page.getByTestId('request-id')).toBeVisible();
      await shot('error');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/console/projects/${projectId}/cards`);
      await page.getByRole('button', { name: texts.app.menu }).click();
      await expect(page.getByRole('dialog').getByRole('menuitem', { name: texts.app.cards })).toBeVisible();
      await shot('phone-menu');
      await page.getByRole('dialog').getByRole('menuitem', { name: texts.app.cards }).click();
      await shot('phone-cards');
    });
  });
}
