import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, connectLogin, expect, newAuthor, openConnect, screenshot, signInThroughApi, test } from './support';

/** `YYYY-MM-DD` of the UTC day `back` days before today (the browser's and the service's zone here). */
const daysAgo = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`the Overview's days are chosen (${language})`, () => {
    test.use({ locale: language, timezoneId: 'UTC' });

    test(`presets of 7, 30 and 90 days ask the statistics for those days and chart them, in ${language}`, async ({
      page,
      service,
    }) => {
      const o = texts.operations.overview;
      const preset = (count: number) => o.days.replace('{{count}}', String(count));
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: `Range ${Date.now().toString(36)}` } });
      await openConnect(service, project!.id);
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project!.id } },
        body: { count: 1, duration_seconds: 86_400 },
      });
      expect((await connectLogin(service, project!.program_id, batch!.items[0].code, 'PC-1')).status).toBe(true);

      await page.addInitScript(() => localStorage.setItem('cardkey.console.time-zone', 'UTC'));
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project!.id}/overview`);
      const card = page.getByTestId('logins-chart-card');
      const chart = page.getByTestId('logins-chart');
      const chartDays = async () => (await chart.getAttribute('data-days'))!.split(',');
      await expect(chart).toHaveAttribute('data-days', new RegExp(`^${daysAgo(13)},.*,${daysAgo(0)}$`)); // 14 days until one is chosen
      await expect(card).toContainText(preset(14));

      // The 30 days' answer is held back for a moment: until it is in, the card says it is loading
      // rather than charting those days with no logins.
      let answer30!: () => void;
      const held30 = new Promise<void>((resolve) => (answer30 = resolve));
      await page.route('**/stats?*', async (route) => {
        if (new URL(route.request().url()).searchParams.get('from') === daysAgo(29)) await held30;
        await route.continue();
      });
      for (const count of [30, 90, 7]) {
        const asked = page.waitForRequest((request) => {
          const url = new URL(request.url());
          return url.pathname.endsWith('/stats') && url.searchParams.get('from') === daysAgo(count - 1);
        });
        await card.locator('.ant-picker').click();
        const presets = page.locator('.ant-picker-presets');
        if (count === 90) await screenshot(page, 'overview-range', language);
        await presets.getByText(preset(count), { exact: true }).click();
        expect(new URL((await asked).url()).searchParams.get('to')).toBe(daysAgo(0));
        if (count === 30) {
          await expect(card.getByRole('status')).toBeVisible();
          await expect(chart).toHaveCount(0);
          answer30();
        }
        await expect(chart).toHaveAttribute('data-days', new RegExp(`^${daysAgo(count - 1)},.*,${daysAgo(0)}$`));
        expect(await chartDays()).toHaveLength(count);
        await expect(card).toContainText(`${daysAgo(count - 1)} – ${daysAgo(0)}`);
        // Today's login is on the last day, whatever the window.
        expect(Number((await chart.getAttribute('data-totals'))!.split(',').at(-1))).toBe(1);
      }
      // "Logins today" keeps counting today.
      await expect(page.getByTestId('logins-today')).toContainText('1');
    });
  });
}
