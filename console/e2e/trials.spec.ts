import { createRequire } from 'node:module';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, expect, newAuthor, openConnect, signInThroughApi, test, type Service } from './support';

// The official client (sdk/, CommonJS TypeScript) asks for a trial as a real program does.
const { Client } = createRequire(import.meta.url)('../../sdk/src') as typeof import('../../sdk/src');

/** A program with two card types (one disabled) and trials off. */
async function programWithTypes(service: Service) {
  const author = await newAuthor(service);
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Trial Program' } });
  const projectId = project!.id;
  await openConnect(service, projectId); // the basic package, which the SDK routes need
  const type = (name: string, enabled: boolean) =>
    api.POST('/admin/v1/projects/{id}/card-types', {
      params: { path: { id: projectId } },
      body: {
        name,
        kind: 'time',
        duration_seconds: 3 * 86_400,
        device_limit: 1,
        features: ['trial'],
        price_cents: 0,
        agent_allowed: false,
        prefix: '',
        enabled,
      },
    });
  const trialType = (await type('Three-day trial', true)).data!;
  await type('Old trial', false);
  const client = new Client({ baseUrl: service.url, programId: project!.program_id, apiSecret: project!.api_secret, retries: 0 });
  return { author, api, projectId, programId: project!.program_id, trialType, client };
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`trials (${language})`, () => {
    test.use({ locale: language });

    test('the author picks the trial type among the enabled types, the Overview counts trials, the portal marks a trial card', async ({
      page,
      service,
    }) => {
      const { author, api, projectId, programId, trialType, client } = await programWithTypes(service);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${projectId}/settings`);
      const field = texts.settings.fields.trial_card_type_id;
      await expect(page.getByText(field.help)).toBeVisible();
      await page.getByLabel(field.label).click();
      const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await expect(options).toHaveText(['Three-day trial']); // the disabled type is not offered
      await options.filter({ hasText: 'Three-day trial' }).click();
      // The answer, not only the request: a trial asked for before the service has saved the setting
      // is refused (CI, once: the click's PATCH still on its way when the client asked).
      const patch = page.waitForResponse((response) => response.request().method() === 'PATCH');
      await page.getByRole('button', { name: texts.settings.saveChanges }).click();
      const saved = await patch;
      expect(saved.request().postDataJSON()).toEqual({ trial_card_type_id: trialType.id });
      expect(saved.status()).toBe(200);

      const trial = await client.cardTrial({ machineId: 'TRIAL-PC' });
      expect(trial).toMatchObject({ success: true, trial: true });
      expect((await client.cardTrial({ machineId: 'OTHER-PC' })).success).toBe(true);
      await page.goto(`/console/projects/${projectId}`);
      await expect(page.getByTestId('trials-given')).toContainText('2');
      await expect(page.getByText(texts.sessions.overview.trials)).toBeVisible();

      await page.goto(`/portal/${programId}`);
      await page.getByLabel(texts.portal.cardKey).fill(trial.data!.code);
      await page.getByRole('button', { name: texts.portal.show }).click();
      await expect(page.getByTestId('card-trial')).toHaveText(texts.portal.trial);

      // Cleared: trials off, and the refusal says so.
      await page.goto(`/console/projects/${projectId}/settings`);
      const item = page.locator('.ant-form-item').filter({ hasText: field.label });
      await item.locator('.ant-select').hover();
      await item.locator('.ant-select-clear').click();
      const off = page.waitForRequest((request) => request.method() === 'PATCH');
      await page.getByRole('button', { name: texts.settings.saveChanges }).click();
      expect((await off).postDataJSON()).toEqual({ trial_card_type_id: null });
      await expect
        .poll(
          async () =>
            (await api.GET('/admin/v1/projects/{id}', { params: { path: { id: projectId } } })).data?.trial_card_type_id,
        )
        .toBeNull();
    });
  });
}
