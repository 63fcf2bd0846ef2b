import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
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

const DAY = 86_400;

/**
 * A project with Connect open and three cards: `soon` (1 day) and `later` (2 days) activated by a
 * Connect login, `fresh` never used (no expiry).
 */
async function threeCards(service: Service, author: Account) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Manage Program' } });
  await openConnect(service, project!.id);
  const generate = async (duration: number) =>
    (
      await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project!.id } },
        body: { count: 1, duration_seconds: duration },
      })
    ).data!.items[0];
  const later = await generate(2 * DAY);
  const soon = await generate(DAY);
  const fresh = await generate(DAY);
  for (const card of [later, soon])
    expect((await connectLogin(service, project!.program_id, card.code, 'MANAGE-PC')).status).toBe(true);
  const card = async (id: number) =>
    (await api.GET('/admin/v1/projects/{id}/cards/{cardId}', { params: { path: { id: project!.id, cardId: id } } })).data!;
  return { api, project: project!, later, soon, fresh, card };
}

/** The value beside a label of the card page's description table. */
function described(page: Page, label: string) {
  return page
    .locator('th.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::td[1]');
}

/** The codes of the list's rows, top to bottom. */
async function listedCodes(page: Page, codes: string[]): Promise<string[]> {
  const rows = await page.locator('tbody tr.ant-table-row').allTextContents();
  return rows.map((text) => codes.find((code) => text.includes(code)) ?? text);
}

test('the card list is ordered by clicking a column header, and the order is kept in the address', async ({ page, service }) => {
  const author = await newAuthor(service);
  const { project, later, soon, fresh } = await threeCards(service, author);
  const codes = [later.code, soon.code, fresh.code];
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/cards`);
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(3);
  expect(await listedCodes(page, codes)).toEqual([fresh.code, soon.code, later.code]); // newest first
  await expect(page.getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'descending');

  await page.getByRole('columnheader', { name: 'Expires' }).click();
  await expect(page).toHaveURL(/[?&]sort=expires_at(&|$)/);
  await expect.poll(() => listedCodes(page, codes)).toEqual([soon.code, later.code, fresh.code]); // no expiry last
  await page.getByRole('columnheader', { name: 'Expires' }).click();
  await expect(page).toHaveURL(/[?&]sort=-expires_at(&|$)/);
  await expect.poll(() => listedCodes(page, codes)).toEqual([later.code, soon.code, fresh.code]); // no expiry still last

  await page.getByRole('columnheader', { name: 'Code' }).click();
  await expect(page).toHaveURL(/[?&]sort=code(&|$)/);
  await expect.poll(() => listedCodes(page, codes)).toEqual([...codes].sort());
  await page.reload(); // the order is the address's
  await expect(page.getByRole('columnheader', { name: 'Code' })).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => listedCodes(page, codes)).toEqual([...codes].sort());

  // A filter keeps the order.
  await page.getByLabel('Code contains').fill(fresh.code.slice(0, 12));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/sort=code/);
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(1);
});

test.describe('a card edited in the console', () => {
  test.use({ timezoneId: 'Asia/Shanghai' });

  test('changes what was edited, and only that, as the API reads it', async ({ page, service }) => {
    const author = await newAuthor(service);
    const { project, soon, card } = await threeCards(service, author);
    await signInThroughApi(page, service, author);
    await page.goto(`/console/projects/${project.id}/cards/${soon.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit card ${soon.code}` });

    // Checked as the API checks it: nothing is sent.
    await dialog.getByLabel('Devices allowed').fill('1001');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('A whole number from 1 to 1000')).toBeVisible();

    await dialog.getByLabel('Devices allowed').fill('5');
    await dialog.getByLabel('Expires').fill('2031-01-02T03:04');
    await dialog.getByRole('checkbox', { name: 'No seat limit' }).uncheck(); // the project's default: unlimited
    await dialog.getByLabel('Sessions at once').fill('2');
    await dialog.getByLabel('Note').fill('VIP customer');
    const sent = page.waitForRequest((request) => request.method() === 'PATCH');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await sent).postDataJSON()).toEqual({
      note: 'VIP customer',
      device_limit: 5,
      concurrent_limit: 2,
      expires_at: '2031-01-01T19:04:00.000Z',
    });
    await expect(dialog).toBeHidden();

    // The page shows the saved values, and so does the API.
    await expect(page.getByText('VIP customer')).toBeVisible();
    const saved = await card(soon.id);
    expect(saved).toMatchObject({
      note: 'VIP customer',
      device_limit: 5,
      concurrent_limit: 2,
      expires_at: '2031-01-01T19:04:00.000Z',
    });
    await expect(described(page, 'Devices allowed')).toHaveText('5');
    await expect(described(page, 'Sessions at once')).toHaveText('2');
    await expect(described(page, 'Expires')).toContainText('2031');

    // An extension with a new expiry is refused in the form (the API takes one of them).
    await page.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByLabel('Expires').fill('2032-01-01T00:00');
    await dialog.getByLabel('Extend by').fill('3');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Change the expiry or extend it, not both', { exact: true })).toBeVisible();
    await dialog.getByLabel('Expires').fill('2031-01-02T03:04'); // back to the card's: only the extension is sent
    const extended = page.waitForRequest((request) => request.method() === 'PATCH');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await extended).postDataJSON()).toEqual({ extend_seconds: 3 * DAY });
    await expect(dialog).toBeHidden();
    expect((await card(soon.id)).expires_at).toBe('2031-01-04T19:04:00.000Z');
  });

  test('offers the logins left of a count card never used, and no expiry before its first login', async ({ page, service }) => {
    const author = await newAuthor(service);
    const { api, project } = await threeCards(service, author);
    const { data } = await api.POST('/admin/v1/projects/{id}/cards', {
      params: { path: { id: project.id } },
      body: { count: 1, duration_seconds: 0, kind: 'count', uses: 5 },
    });
    const counted = data!.items[0];
    await signInThroughApi(page, service, author);
    await page.goto(`/console/projects/${project.id}/cards/${counted.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit card ${counted.code}` });
    await expect(dialog.getByText('This card has not logged in yet')).toBeVisible();
    await expect(dialog.getByLabel('Expires')).toHaveCount(0);
    await expect(dialog.getByLabel('Extend the validity by')).toHaveCount(0); // permanent: nothing to extend
    await dialog.getByLabel('Logins left').fill('9');
    const sent = page.waitForRequest((request) => request.method() === 'PATCH');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await sent).postDataJSON()).toEqual({ uses_left: 9 });
    await expect(dialog).toBeHidden();
    await expect(described(page, 'Validity')).toHaveText('count · 9');
    expect(
      (await api.GET('/admin/v1/projects/{id}/cards/{cardId}', { params: { path: { id: project.id, cardId: counted.id } } }))
        .data!.uses_left,
    ).toBe(9);
  });
});

/** A CSV of three new codes; `bad` makes the second row's validity negative. */
function importCsv(tag: string, bad: boolean): { codes: string[]; csv: Buffer } {
  const codes = [1, 2, 3].map((n) => `IMPORTED-${tag}-${n}`);
  const rows = [
    'code,duration_seconds,note',
    `${codes[0]},86400,from the old shop`,
    `${codes[1]},${bad ? '-5' : '86400'},`,
    `${codes[2]},172800,"a note, with a comma"`,
  ];
  return { codes, csv: Buffer.from(`${rows.join('\r\n')}\r\n`) };
}

async function chooseCsv(page: Page, name: string, csv: Buffer): Promise<void> {
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: csv });
}

test('a CSV is checked, its problems shown by line, then imported after a confirmation; an imported code logs in', async ({
  page,
  service,
}) => {
  const author = await newAuthor(service);
  const { api, project } = await threeCards(service, author);
  const tag = Date.now().toString(36).toUpperCase();
  await signInThroughApi(page, service, author);
  await page.goto(`/console/projects/${project.id}/cards`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import cards from a CSV file' });
  await expect(dialog).toContainText('duration_seconds');
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();

  const bad = importCsv(tag, true);
  await chooseCsv(page, 'cards.csv', bad.csv);
  await expect(dialog.getByText('1 problem in 3 rows (2 valid)')).toBeVisible();
  const problem = dialog.getByTestId('import-report').locator('tbody tr.ant-table-row');
  await expect(problem).toHaveCount(1);
  await expect(problem.locator('td').nth(0)).toHaveText('3'); // the file's line: 1 is the header
  await expect(problem.locator('td').nth(1)).toHaveText('duration_seconds');
  await expect(problem.locator('td').nth(2)).toHaveText('Must be a whole number from 0 to 2147483647');
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();
  expect(
    (await api.GET('/admin/v1/projects/{id}/cards', { params: { path: { id: project.id }, query: { q: tag } } })).data!.total,
  ).toBe(0); // a dry run writes nothing

  const good = importCsv(tag, false);
  await chooseCsv(page, 'cards-fixed.csv', good.csv);
  await expect(dialog.getByText('3 rows checked: all valid.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('dialog', { name: 'Import 3 cards?' }).getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByText('3 cards imported')).toBeVisible();
  await dialog.getByRole('button', { name: 'Show this batch' }).click();
  await expect(page).toHaveURL(/batch_id=/);
  await expect.poll(() => listedCodes(page, good.codes)).toEqual([...good.codes].reverse());
  await expect(page.getByRole('row').filter({ hasText: good.codes[2] })).toContainText('a note, with a comma');

  const listed = await api.GET('/admin/v1/projects/{id}/cards', { params: { path: { id: project.id }, query: { q: tag } } });
  expect(listed.data!.items.map((c) => [c.code, c.duration_seconds, c.status])).toEqual([
    [good.codes[2], 2 * DAY, 'unused'],
    [good.codes[1], DAY, 'unused'],
    [good.codes[0], DAY, 'unused'],
  ]);
  expect((await connectLogin(service, project.program_id, good.codes[0], 'IMPORTED-PC')).status).toBe(true);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`card management screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`sorted list, edit form and import report in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project, soon } = await threeCards(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/cards?sort=expires_at`);
      await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(3);
      await screenshot(page, 'cards-sorted', language);

      await page.goto(`/console/projects/${project.id}/cards/${soon.id}`);
      await page.getByRole('button', { name: texts.cardsManage.edit.open }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await screenshot(page, 'card-edit', language);

      await page.goto(`/console/projects/${project.id}/cards`);
      await page.getByRole('button', { name: texts.cardsManage.import.open }).click();
      await chooseCsv(page, 'cards.csv', importCsv(Date.now().toString(36).toUpperCase(), true).csv);
      await expect(page.getByTestId('import-report')).toBeVisible();
      // The problem in the chosen language, from the service's reason and values.
      const problem = texts.importProblem.whole_number.replace('{{min}}', '0').replace('{{max}}', '2147483647');
      await expect(page.getByTestId('import-report').locator('tbody tr.ant-table-row td').nth(2)).toHaveText(problem);
      await screenshot(page, 'cards-import', language);
    });

    test(`exports the filtered list for Excel and as card keys in ${language}`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project, soon, later } = await threeCards(service, author);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/cards?status=active`);
      await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(2);
      const exported = async (format: 'excel' | 'txt') => {
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: texts.cards.exportAs }).click();
        await page.getByRole('menuitem', { name: texts.cards.exportFormats[format] }).click();
        return readFileSync(await (await download).path());
      };
      const excel = await exported('excel');
      expect([...excel.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = excel.subarray(3).toString('utf8').trim().split('\r\n');
      expect(lines[0]).toMatch(/^id,code,status,card_type,duration_days,duration_seconds,device_limit,activated_at \(.+\),/);
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/^\d+,\w+,active,,2,172800,/);
      const keys = (await exported('txt')).toString('utf8');
      expect(keys).toBe(`${later.code}\r\n${soon.code}\r\n`);
    });
  });
}
