import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, expect, newAuthor, signInThroughApi, test } from './support';

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`card code shapes (${language})`, () => {
    test.use({ locale: language });

    test(`an author makes a type of 13-digit codes, told first that 12 are too few, in ${language}`, async ({
      page,
      service,
    }) => {
      const ct = texts.cardTypes;
      const form = ct.form;
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Digits Program' } });
      const projectId = project!.id;
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${projectId}/card-types`);
      await page.getByRole('button', { name: ct.add }).click();
      const dialog = page.getByRole('dialog', { name: ct.addTitle });
      // The default is the alphabet codes always had, 20 characters of it.
      await expect(dialog.getByLabel(form.key_length.label)).toHaveValue('20');
      await dialog.getByLabel(form.key_alphabet.label).click();
      await page.locator('.ant-select-dropdown').getByTitle(`${form.alphabets.digits} (10)`, { exact: true }).click();
      await dialog.getByLabel(form.key_length.label).fill('12');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog.getByText(form.key_length.tooShort_other.replace('{{count}}', '13'))).toBeVisible();
      await dialog.getByLabel(form.key_length.label).fill('13');
      await expect(dialog.getByText(form.key_length.bits.replaceAll('{{bits}}', '43'))).toBeVisible();
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();

      const row = page.getByRole('row').filter({ hasText: form.presetNames.month });
      await expect(row).toContainText(ct.keyShapeText.replace('{{count}}', '13').replace('{{alphabet}}', form.alphabets.digits));
      const { data: types } = await api.GET('/admin/v1/projects/{id}/card-types', { params: { path: { id: projectId } } });
      expect(types!.items[0]).toMatchObject({ key_length: 13, key_alphabet: 'digits' });
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: projectId } },
        body: { count: 3, card_type_id: types!.items[0].id },
      });
      for (const card of batch!.items) expect(card.code).toMatch(/^\d{13}$/);
    });
  });
}
