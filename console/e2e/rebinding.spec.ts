import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  newAuthor,
  openConnect,
  signInThroughApi,
  test,
  type Service,
} from './support';

const DAY = 86_400;

/** A program with rebinding rules (a day between unbinds, three in 30 days) and a card bound to two devices. */
async function programWithRules(service: Service) {
  const author = await newAuthor(service);
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', {
    body: { name: 'Rebinding Program', device_limit: 2, unbind_cooldown_seconds: DAY, unbind_max_per_30_days: 3 },
  });
  await openConnect(service, project!.id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: project!.id } },
    body: { count: 1, duration_seconds: 30 * DAY },
  });
  const card = batch!.items[0].code;
  for (const machine of ['LAPTOP-A', 'LAPTOP-B'])
    expect(await connectLogin(service, project!.program_id, card, machine)).toMatchObject({ status: true });
  return { author, api, projectId: project!.id, programId: project!.program_id, card };
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`rebinding rules (${language})`, () => {
    test.use({ locale: language });

    test('the portal shows the rules before the holder confirms, then when the next unbind is possible', async ({
      page,
      service,
    }) => {
      const { programId, card } = await programWithRules(service);
      await page.goto(`/portal/${programId}`);
      await page.getByLabel(texts.portal.cardKey).fill(card);
      await page.getByRole('button', { name: texts.portal.show }).click();
      const rules = page.getByTestId('unbind-rules');
      const monthly = texts.portal.unbindMonthly.replace('{{max}}', '3');
      await expect(rules).toContainText(monthly.replace('{{used}}', '0'));
      await expect(rules).toContainText(texts.portal.unbindCooldown.split('{{wait}}')[0]);

      await page.getByRole('button', { name: `${texts.portal.unbind} LAPTOP-A` }).click();
      const confirm = page.getByRole('dialog', { name: texts.portal.unbindTitle.replace('{{device}}', 'LAPTOP-A') });
      await expect(confirm.getByTestId('unbind-terms')).toContainText(monthly.replace('{{used}}', '0'));
      await confirm.getByRole('button', { name: texts.portal.unbind }).click();
      await expect(page.getByRole('row').filter({ hasText: 'LAPTOP-A' })).toHaveCount(0);

      // Inside the cooldown: the next possible time is shown and the other device cannot be unbound yet.
      await expect(rules).toContainText(monthly.replace('{{used}}', '1'));
      await expect(rules).toContainText(
        new RegExp(texts.portal.unbindNext.replace('{{at}}', '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}').replace('.', '\\.')),
      );
      await expect(page.getByRole('button', { name: `${texts.portal.unbind} LAPTOP-B` })).toBeDisabled();
    });

    test('the project settings form sets the rebinding rules and the idle window', async ({ page, service }) => {
      const { author, api, projectId } = await programWithRules(service);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${projectId}/settings`);
      const fields = texts.settings.fields;
      await expect(page.getByText(fields.device_idle_release_seconds.help)).toBeVisible();
      const presets = (label: string) => page.getByRole('group', { name: `${label}: ${texts.time.presets}` }).getByRole('button');
      await presets(fields.unbind_cooldown_seconds.label).nth(1).click(); // an hour
      await page.getByLabel(fields.unbind_max_per_30_days.label).fill('5');
      await presets(fields.device_idle_release_seconds.label).nth(1).click(); // ten minutes
      const patch = page.waitForRequest((request) => request.method() === 'PATCH');
      await page.getByRole('button', { name: texts.settings.saveChanges }).click();
      expect((await patch).postDataJSON()).toEqual({
        unbind_cooldown_seconds: 3600,
        unbind_max_per_30_days: 5,
        device_idle_release_seconds: 600,
      });
      await expect
        .poll(async () => (await api.GET('/admin/v1/projects/{id}', { params: { path: { id: projectId } } })).data)
        .toMatchObject({
          unbind_cooldown_seconds: 3600,
          unbind_max_per_30_days: 5,
          device_idle_release_seconds: 600,
        });
    });
  });
}
