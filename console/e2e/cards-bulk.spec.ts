import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import type { Page } from '@playwright/test';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  newAuthor,
  openConnect,
  screenshot,
  signInThroughApi,
  test,
  type Account,
  type Service,
} from './support';

const CARD_BANNED = 20003;

/** Two batches of a project with Connect open: the filter of one must never touch the other. */
async function twoBatches(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Bulk Program' } });
  await openConnect(service, project!.id);
  const batch = async (note: string) =>
    (
      await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project!.id } },
        body: { count: 3, duration_seconds: 86_400, note },
      })
    ).data!;
  return { project: project!, first: await batch('first batch'), second: await batch('second batch') };
}

async function chooseAction(page: Page, action: string): Promise<void> {
  await page.getByRole('combobox', { name: /^(Action|操作)$/ }).click();
  // The visible item of antd's list (its role="option" twins are an invisible list for screen readers).
  await page.locator('.ant-select-dropdown').getByTitle(action, { exact: true }).click();
}

test('an author bans everything a filter matches, and one selected card; the program is refused for exactly those', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const { project, first, second } = await twoBatches(service, author);
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/cards?batch_id=${first.batch_id}`);
  await expect(page.getByRole('row')).toHaveCount(4);

  await page.getByRole('radio', { name: 'All 3 the filters match' }).check();
  await chooseAction(page, 'Ban');
  await page.getByRole('button', { name: 'Apply' }).click();
  const confirm = page.getByRole('dialog', { name: 'Ban: 3 cards?' });
  await confirm.getByLabel('Type 3 to confirm').fill('3');
  await confirm.getByRole('button', { name: 'Ban' }).click();
  await expect(page.getByText('Matched: 3, changed: 3.')).toBeVisible();
  for (const card of first.items)
    expect(await connectLogin(service, project.program_id, card.code, 'BULK-PC')).toMatchObject({
      status: false,
      code: -CARD_BANNED,
    });
  expect((await connectLogin(service, project.program_id, second.items[0].code, 'BULK-PC')).status).toBe(true);

  // One card of the other batch, selected in the list.
  await page.goto(`/console/projects/${project.id}/cards?batch_id=${second.batch_id}`);
  await page.getByRole('row').filter({ hasText: second.items[1].code }).getByRole('checkbox').check();
  await expect(page.getByRole('radio', { name: 'The 1 selected' })).toBeChecked();
  await chooseAction(page, 'Ban');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('dialog', { name: 'Ban: 1 card?' }).getByRole('button', { name: 'Ban' }).click();
  await expect(page.getByText('Matched: 1, changed: 1.')).toBeVisible();
  expect(await connectLogin(service, project.program_id, second.items[1].code, 'BULK-PC')).toMatchObject({
    status: false,
    code: -CARD_BANNED,
  });
  expect((await connectLogin(service, project.program_id, second.items[2].code, 'BULK-PC-2')).status).toBe(true);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`bulk actions (${language})`, () => {
    test.use({ locale: language });

    test(`start on the selection with no action, and the whole stock needs its count typed, in ${language}`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const { project, first, second } = await twoBatches(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/cards`);
      await expect(page.getByRole('row')).toHaveCount(7);

      // Nothing chosen: the selection (empty), no action, Apply disabled; two clicks change nothing.
      await expect(page.getByRole('radio', { name: texts.bulk.selected.replace('{{count}}', '0') })).toBeChecked();
      await expect(page.getByRole('combobox', { name: texts.bulk.action })).toHaveValue('');
      await expect(page.locator('.bulk-actions')).toContainText(texts.bulk.choose);
      const apply = page.getByRole('button', { name: texts.bulk.apply });
      await expect(apply).toBeDisabled();
      await chooseAction(page, texts.bulk.actions.ban);
      await expect(apply).toBeDisabled();

      // Every card of the project: the count shown large, and the ban waits for it to be typed.
      await page.getByRole('radio', { name: texts.bulk.everything.replace('{{count}}', '6') }).check();
      await apply.click();
      const confirm = page.getByRole('dialog');
      await expect(confirm.getByTestId('bulk-count')).toContainText('6');
      await expect(confirm).toContainText(texts.bulk.scopeEverything);
      const ban = confirm.getByRole('button', { name: texts.bulk.actions.ban });
      await expect(ban).toBeDisabled();
      const typed = confirm.getByLabel(texts.bulk.typeCount.replace('{{count}}', '6'));
      await typed.fill('5');
      await expect(ban).toBeDisabled();
      await typed.fill('6');
      await expect(ban).toBeEnabled();
      await screenshot(page, 'cards-bulk', language);
      await confirm.getByRole('button', { name: texts.common.cancel }).click();
      for (const card of [...first.items, ...second.items])
        expect((await connectLogin(service, project.program_id, card.code, 'BULK-KEEP')).status).toBe(true);
    });
  });
}
