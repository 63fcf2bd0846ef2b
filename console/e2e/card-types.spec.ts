import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, expect, menu, money, newAuthor, screenshot, signInThroughApi, test } from './support';

const MONTH = 30 * 86_400;

/** How the console writes "30 days" in `language` (Intl, as components/format.ts does). */
const days = (count: number, language: string) =>
  new Intl.NumberFormat(language, { style: 'unit', unit: 'day', unitDisplay: 'long' }).format(count);

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`card types (${language})`, () => {
    test.use({ locale: language });

    test(`an author makes a type from a preset, generates 10 cards from it and sees them with their type, in ${language}`, async ({
      page,
      service,
    }) => {
      const ct = texts.cardTypes;
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', {
        body: { name: language === 'en' ? 'Shop Program' : '商店程序' },
      });
      const projectId = project!.id;
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${projectId}/overview`);
      await page.getByRole('menuitem', { name: menu(ct.menu) }).click();
      await expect(page.getByRole('heading', { level: 1, name: ct.title })).toBeVisible();
      await expect(page.getByText(ct.empty)).toBeVisible();

      // A preset fills the rules and suggests a name; a feature the API would refuse is refused in the form.
      await page.getByRole('button', { name: ct.add }).click();
      const dialog = page.getByRole('dialog', { name: ct.addTitle });
      const presets = dialog.getByRole('radiogroup', { name: ct.form.preset.label });
      const name = dialog.getByLabel(ct.form.name.label);
      await expect(name).toHaveValue(ct.form.presetNames.month); // a new type starts as a month card
      await presets.getByText(ct.form.presets.uses, { exact: true }).click();
      await expect(name).toHaveValue(ct.form.presetNames.uses);
      await expect(dialog.getByLabel(ct.form.uses.label, { exact: true })).toBeVisible(); // N logins: the count asked for
      await presets.getByText(ct.form.presets.month, { exact: true }).click();
      await expect(name).toHaveValue(ct.form.presetNames.month);
      await expect(dialog.getByLabel(ct.form.uses.label, { exact: true })).toBeHidden();
      const features = dialog.getByLabel(ct.form.features.label);
      await features.fill('Pro');
      await features.press('Enter');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog.getByText(ct.form.featureInvalid.replace('{{name}}', 'Pro'))).toBeVisible();
      // Backspace takes the last tag off; one that lands while the error re-renders the field is lost,
      // so press again until the tag goes.
      const refusedTag = dialog.getByTitle('Pro', { exact: true });
      await expect(async () => {
        if (await refusedTag.isVisible()) await features.press('Backspace');
        await expect(refusedTag).toBeHidden({ timeout: 1000 });
      }).toPass();
      for (const name of ['pro', 'export.pdf']) {
        await features.fill(name);
        await features.press('Enter');
      }
      await dialog.getByLabel(ct.form.price.label).fill('19.9');
      await page.setViewportSize({ width: 1280, height: 1950 }); // the whole form: a dialog does not grow a full-page picture
      await screenshot(page, 'card-type-edit', language);
      await page.setViewportSize({ width: 1280, height: 800 });
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();
      const typesNow = async () =>
        (await api.GET('/admin/v1/projects/{id}/card-types', { params: { path: { id: projectId } } })).data!.items;
      const [saved] = await typesNow();
      expect(saved).toMatchObject({
        name: ct.form.presetNames.month,
        kind: 'time',
        duration_seconds: MONTH,
        uses: null,
        features: ['pro', 'export.pdf'],
        price_cents: 1990,
        enabled: true,
      });

      // The list: validity in words, features as tags, the price as money in the service's currency (¥ / CN¥).
      const row = page.getByRole('row').filter({ hasText: ct.form.presetNames.month });
      await expect(row).toContainText(days(30, language));
      await expect(row).toContainText('export.pdf');
      await expect(row).toContainText(money(19.9, language));
      await expect(page.getByRole('switch', { name: `${ct.enabled} ${ct.form.presetNames.month}` })).toBeChecked();
      await screenshot(page, 'card-types', language);

      // An edit changes what was edited, and only that.
      await row.getByRole('button', { name: ct.edit }).click();
      const edit = page.getByRole('dialog', { name: ct.editTitle.replace('{{name}}', ct.form.presetNames.month) });
      await edit.getByLabel(ct.form.price.label).fill('25');
      await edit.getByRole('button', { name: texts.common.save }).click();
      await expect(row).toContainText(money(25, language));
      expect((await typesNow())[0]).toEqual({ ...saved, price_cents: 2500, updated_at: expect.any(String) });

      // Generation starts from the project's type, even when the dialog opens while the cards page
      // still refetches the list it cached before the type was made (held back here so that it does).
      const typesList = '**/admin/v1/projects/*/card-types?*';
      await page.route(typesList, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await page.getByRole('menuitem', { name: menu(texts.app.cards) }).click();
      await page.getByRole('button', { name: texts.cards.generate }).click();
      const generate = page.getByRole('dialog', { name: texts.generate.title });
      await expect(generate.getByRole('radio', { name: ct.generate.fromType })).toBeChecked();
      await page.unroute(typesList);
      await expect(generate.getByText(`${ct.form.presetNames.month} · ${days(30, language)}`)).toBeVisible();
      await screenshot(page, 'cards-generate-type', language);
      await generate.getByRole('button', { name: texts.cards.generate }).click();
      await expect(generate.getByText(texts.generate.doneTitle.replace('{{count}}', '10'))).toBeVisible();
      await generate.getByRole('button', { name: texts.generate.showBatch }).click();

      // The list names each card's type, and the cards carry its rules.
      await expect(page.getByRole('columnheader', { name: ct.column, exact: true })).toBeVisible();
      const rows = page.locator('tbody tr.ant-table-row');
      await expect(rows).toHaveCount(10);
      await expect(rows.filter({ hasText: ct.form.presetNames.month }).filter({ hasText: days(30, language) })).toHaveCount(10);
      const { data: cards } = await api.GET('/admin/v1/projects/{id}/cards', {
        params: { path: { id: projectId }, query: { page_size: 100 } },
      });
      expect(cards!.items.map((card) => [card.card_type_id, card.duration_seconds])).toEqual(Array(10).fill([saved.id, MONTH]));

      // A type cards were made from cannot be deleted: the console says why and disables it instead.
      await page.getByRole('menuitem', { name: menu(ct.menu) }).click();
      await page.getByRole('button', { name: `${texts.common.delete} ${ct.form.presetNames.month}` }).click();
      await page
        .getByRole('dialog', { name: ct.deleteTitle.replace('{{name}}', ct.form.presetNames.month) })
        .getByRole('button', { name: texts.common.delete })
        .click();
      const inUse = page.getByRole('dialog', { name: ct.inUseTitle.replace('{{name}}', ct.form.presetNames.month) });
      await expect(inUse.getByText(ct.inUseText)).toBeVisible();
      await inUse.getByRole('button', { name: ct.disable }).click();
      await expect(page.getByRole('switch', { name: `${ct.enabled} ${ct.form.presetNames.month}` })).not.toBeChecked();
      expect((await typesNow()).map((type) => [type.name, type.enabled])).toEqual([[ct.form.presetNames.month, false]]);
    });
  });
}
