import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, connectLogin, expect, newAuthor, openConnect, screenshot, signIn, test, type Account, type Service } from './support';

const CARD_BANNED = 20003;

/** Two batches of a project with Connect open: the filter of one must never touch the other. */
async function twoBatches(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Bulk Program' } });
  await openConnect(service, project!.id);
  const batch = async (note: string) =>
    (await api.POST('/admin/v1/projects/{id}/cards', { params: { path: { id: project!.id } }, body: { count: 3, duration_seconds: 86_400, note } })).data!;
  return { project: project!, first: await batch('first batch'), second: await batch('second batch') };
}

test('an author bans everything a filter matches, and one selected card; the program is refused for exactly those', async ({ page, service }) => {
  const author = await newAuthor(service);
  const { project, first, second } = await twoBatches(service, author);
  await signIn(page, author);
  await page.goto(`/console/projects/${project.id}/cards?batch_id=${first.batch_id}`);
  await expect(page.getByRole('row')).toHaveCount(4);

  await page.getByRole('radio', { name: 'All 3 the filters match' }).check();
  await page.getByRole('button', { name: 'Apply' }).click();
  const confirm = page.getByRole('dialog', { name: 'Ban: 3 cards?' });
  await confirm.getByRole('button', { name: 'Ban' }).click();
  await expect(page.getByText('Matched: 3, changed: 3.')).toBeVisible();
  for (const card of first.items) expect(await connectLogin(service, project.program_id, card.code, 'BULK-PC')).toMatchObject({ status: false, code: -CARD_BANNED });
  expect((await connectLogin(service, project.program_id, second.items[0].code, 'BULK-PC')).status).toBe(true);

  // One card of the other batch, selected in the list.
  await page.goto(`/console/projects/${project.id}/cards?batch_id=${second.batch_id}`);
  await page.getByRole('row').filter({ hasText: second.items[1].code }).getByRole('checkbox').check();
  await page.getByRole('radio', { name: 'The 1 selected' }).check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('dialog', { name: 'Ban: 1 card?' }).getByRole('button', { name: 'Ban' }).click();
  await expect(page.getByText('Matched: 1, changed: 1.')).toBeVisible();
  expect(await connectLogin(service, project.program_id, second.items[1].code, 'BULK-PC')).toMatchObject({ status: false, code: -CARD_BANNED });
  expect((await connectLogin(service, project.program_id, second.items[2].code, 'BULK-PC-2')).status).toBe(true);
});

for (const [language, texts] of [['en', en], ['zh-CN', zhCN]] as const) {
  test.describe(`bulk actions screenshot (${language})`, () => {
    test.use({ locale: language });

    test(`bulk actions in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project, first } = await twoBatches(service, author);
      await signIn(page, author);
      await page.goto(`/console/projects/${project.id}/cards?batch_id=${first.batch_id}`);
      await page.getByRole('row').filter({ hasText: first.items[0].code }).getByRole('checkbox').check();
      await page.getByRole('button', { name: texts.bulk.apply }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await screenshot(page, 'cards-bulk', language);
    });
  });
}
