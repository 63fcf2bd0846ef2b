import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, connectLogin, expect, newAuthor, openConnect, screenshot, test, type Service } from './support';

const HOUR = 3600;

/** A program whose holders may unbind twice, an hour taken off each time; a bound card and a spare one. */
async function programWithBoundCard(service: Service) {
  const api = adminApi(service, await apiToken(service, await newAuthor(service)));
  const { data: project } = await api.POST('/admin/v1/projects', {
    body: { name: 'Portal Program', unbind_enabled: true, unbind_deduct_seconds: HOUR, unbind_max: 2 },
  });
  await openConnect(service, project!.id);
  const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: project!.id } },
    body: { count: 2, duration_seconds: 30 * 86_400 },
  });
  const [card, spare] = batch!.items.map((item) => item.code);
  expect(await connectLogin(service, project!.program_id, card, 'OLD-LAPTOP')).toMatchObject({ status: true });
  return { programId: project!.program_id, card, spare };
}

test('a card holder unbinds a device with the deduction shown first, then logs in from a new device', async ({
  page,
  service,
}) => {
  const { programId, card } = await programWithBoundCard(service);
  // Device limit 1: a new device is refused until the old one is freed.
  expect((await connectLogin(service, programId, card, 'NEW-DESKTOP')).status).toBe(false);

  await page.goto(`/portal/${programId}`);
  await expect(page.getByLabel('Program ID')).toHaveValue(programId);
  await page.getByLabel('Card key').fill(card);
  await page.getByRole('button', { name: 'Show my card' }).click();
  await expect(page.getByTestId('card-status')).toHaveText('active');
  const expiresBefore = await page.getByTestId('card-expires').innerText();
  await expect(page.getByRole('row').filter({ hasText: 'OLD-LAPTOP' })).toHaveCount(1);

  await page.getByRole('button', { name: 'Unbind OLD-LAPTOP' }).click();
  const confirm = page.getByRole('dialog', { name: 'Unbind OLD-LAPTOP?' });
  await expect(confirm.getByTestId('unbind-terms')).toHaveText(/deducts 1 hour from the card's validity.*Unbinds left: 2\./);
  await confirm.getByRole('button', { name: 'Unbind' }).click();
  await expect(page.getByText('No device is bound to this card.')).toBeVisible();
  const expiresAfter = await page.getByTestId('card-expires').innerText();
  expect(Date.parse(expiresBefore.replace(' ', 'T')) - Date.parse(expiresAfter.replace(' ', 'T'))).toBe(HOUR * 1000);

  expect(await connectLogin(service, programId, card, 'NEW-DESKTOP')).toMatchObject({ status: true });
  await page.getByRole('button', { name: 'Show my card' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'NEW-DESKTOP' })).toHaveCount(1);
});

test('a wrong card key is refused with the catalog message and its request id; nothing is shown', async ({ page, service }) => {
  const { programId } = await programWithBoundCard(service);
  await page.goto('/portal');
  await page.getByLabel('Program ID').fill(programId);
  await page.getByLabel('Card key').fill('NOT-A-CARD-OF-MINE');
  await page.getByRole('button', { name: 'Show my card' }).click();
  await expect(page.getByRole('alert')).toContainText('20001');
  await expect(page.getByTestId('request-id')).toHaveText(/^[0-9a-f]{32}$/);
  await expect(page.getByTestId('card-status')).toHaveCount(0);
});

test('a holder renews the card with a spare one, which is consumed', async ({ page, service }) => {
  const { programId, card, spare } = await programWithBoundCard(service);
  await page.goto(`/portal/${programId}`);
  await page.getByLabel('Card key').fill(card);
  await page.getByRole('button', { name: 'Show my card' }).click();
  const before = Date.parse((await page.getByTestId('card-expires').innerText()).replace(' ', 'T'));
  await page.getByLabel('Card key to add').fill(spare);
  await page.getByRole('button', { name: 'Renew', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Renew' }).click();
  await expect(page.getByText('The card was renewed.')).toBeVisible();
  await expect
    .poll(async () => Date.parse((await page.getByTestId('card-expires').innerText()).replace(' ', 'T')))
    .toBe(before + 30 * 86_400_000);
  expect((await connectLogin(service, programId, spare, 'ELSEWHERE')).status).toBe(false);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`portal screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`the portal in ${language}`, async ({ page, service }) => {
      const { programId, card } = await programWithBoundCard(service);
      await page.goto(`/portal/${programId}`);
      await page.getByLabel(texts.portal.cardKey).fill(card);
      await page.getByRole('button', { name: texts.portal.show }).click();
      await expect(page.getByRole('row').filter({ hasText: 'OLD-LAPTOP' })).toHaveCount(1);
      await screenshot(page, 'portal', language);
      await page.getByRole('button', { name: `${texts.portal.unbind} OLD-LAPTOP` }).click();
      await expect(page.getByTestId('unbind-terms')).toBeVisible();
      await screenshot(page, 'portal-unbind', language);
    });
  });
}
