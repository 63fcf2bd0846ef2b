import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { adminApi, apiToken, connectLogin, expect, newAuthor, openConnect, signInThroughApi, test } from './support';

/** `YYYY-MM-DD` of now in a zone. */
const dayIn = (zone: string, at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/**
 * A display zone whose day is not the service's (APP_TIMEZONE is UTC here) right now: 14 hours ahead
 * from 10:00 UTC on, 11 hours behind before, so "today" is another date than UTC's at any hour the
 * test runs, as at 04:05 in Beijing (issue 54).
 */
const farZone = () => (new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago');

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`the Overview counts the days of the display zone (${language})`, () => {
    // The browser's own zone is UTC, the service's too: only the user's pick moves the day.
    test.use({ locale: language, timezoneId: 'UTC' });

    test(`"logins today" and the chart's last day agree in a zone far from UTC (${language})`, async ({ page, service }) => {
      const zone = farZone();
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: `Zone ${Date.now().toString(36)}` } });
      await openConnect(service, project!.id);
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project!.id } },
        body: { count: 2, duration_seconds: 86_400 },
      });
      expect((await connectLogin(service, project!.program_id, batch!.items[0].code, 'PC-1')).status).toBe(true);
      expect((await connectLogin(service, project!.program_id, batch!.items[1].code, 'PC-2')).status).toBe(true);
      expect((await connectLogin(service, project!.program_id, 'NO-SUCH-CARD', 'PC-3')).status).toBe(false);
      const today = dayIn(zone);
      expect(today).not.toBe(dayIn('UTC'));

      await page.addInitScript((picked) => localStorage.setItem('cardkey.console.time-zone', picked), zone);
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project!.id}/overview`);
      await expect(page.getByRole('heading', { level: 1, name: texts.operations.overview.title })).toBeVisible();
      await expect(page.getByRole('combobox', { name: texts.time.zone })).toBeAttached();
      await expect(page.getByTestId('logins-today')).toContainText('3');
      await expect(page.getByTestId('refused-today')).toContainText('1');

      // The chart's last bar is the display zone's today, holding the same three attempts.
      const chart = page.getByTestId('logins-chart');
      await expect(chart.locator('canvas')).toBeVisible();
      await expect(chart).toHaveAttribute('data-days', new RegExp(`,${today}$`));
      const totals = (await chart.getAttribute('data-totals'))!.split(',').map(Number);
      expect(totals.at(-1)).toBe(3);
      expect(totals.reduce((sum, n) => sum + n, 0)).toBe(3);
      await expect(page.getByText(zone).first()).toBeVisible();
      // The table under the chart: today's rows carry the zone's date, none UTC's.
      await expect(page.getByRole('row').filter({ hasText: today })).toHaveCount(2);
      await expect(page.getByRole('row').filter({ hasText: dayIn('UTC') })).toHaveCount(0);
    });
  });
}
