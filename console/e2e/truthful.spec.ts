import { createRequire } from 'node:module';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  menu,
  newAuthor,
  openConnect,
  platformAdmin,
  screenshot,
  screenshotOf,
  signIn,
  signInThroughApi,
  test,
  type Account,
  type Service,
} from './support';

// The official client (sdk/, CommonJS TypeScript) opens SDK sessions as a real program does.
const { Client } = createRequire(import.meta.url)('../../sdk/src') as typeof import('../../sdk/src');

/**
 * The console tells the truth and guards the stock (issue 37): why Connect is open, sign-in refusals,
 * durations, interfaces, dates and their time zone, sessions that stopped beating, where a project
 * opens. Each in both languages; the bulk actions are in cards-bulk.spec.ts.
 */
async function newProject(service: Service, author: Account, name: string) {
  const api = adminApi(service, await apiToken(service, author));
  const { data: project } = await api.POST('/admin/v1/projects', { body: { name } });
  return { api, project: project! };
}

async function setOpeningMode(service: Service, mode: 'base_package' | 'entitlement' | 'self_service') {
  const { error } = await adminApi(service, await apiToken(service, platformAdmin(service))).PUT('/admin/v1/platform/settings', {
    body: { connect_opening_mode: mode },
  });
  expect(error).toBeUndefined();
}

/** `2026-03-05 14:07:09`, the console's one date format, of an instant in a zone (as the console computes it). */
function inZone(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((part) => part.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);

  test.describe(`a console that tells the truth (${language})`, () => {
    test.use({ locale: language, timezoneId: 'UTC' });

    test(`Connect says whether it is open and why, and offers the switch only where it decides (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const { api, project } = await newProject(service, author, 'Opening');
      await openConnect(service, project.id);
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project.id } },
        body: { count: 1, duration_seconds: 86_400 },
      });
      const card = batch!.items[0].code;
      await signIn(page, author);
      try {
        // The platform's basic-package mode: open because of the package, and no switch of the author's.
        await page.goto(`/console/projects/${project.id}/connect`);
        const opening = page.getByTestId('connect-opening');
        await expect(opening).toContainText(texts.connect.open);
        await expect(opening).toContainText(texts.connect.reasons.base_package_open);
        await expect(opening).toContainText(texts.connect.noSwitch);
        await expect(opening.getByRole('switch')).toHaveCount(0);
        expect((await connectLogin(service, project.program_id, card, 'OPEN-PC')).status).toBe(true);

        // Self-service: closed until the author switches it on, and then Connect logins get in.
        await setOpeningMode(service, 'self_service');
        await page.reload();
        await expect(opening).toContainText(texts.connect.closed);
        await expect(opening).toContainText(texts.connect.reasons.self_service_closed);
        expect((await connectLogin(service, project.program_id, card, 'OPEN-PC')).status).toBe(false);
        await opening.getByRole('switch', { name: texts.connect.enabled }).click();
        await expect(page.getByText(texts.connect.switchedOn)).toBeVisible();
        await expect(opening).toContainText(texts.connect.reasons.self_service_open);
        expect((await connectLogin(service, project.program_id, card, 'OPEN-PC')).status).toBe(true);
        await screenshotOf(opening, 'connect-opening', language);

        // The platform leaves self-service while the page is open: the click is answered in words, never JSON.
        await setOpeningMode(service, 'base_package');
        await opening.getByRole('switch', { name: texts.connect.enabled }).click();
        await expect(page.getByText(texts.connect.notSwitchable)).toBeVisible();
        await expect(opening).toContainText(texts.connect.reasons.base_package_open);
        await expect(opening.getByRole('switch')).toHaveCount(0);
        await expect(page.locator('body')).not.toContainText('connect_opening_mode');
      } finally {
        await setOpeningMode(service, 'base_package');
      }
    });

    test(`a wrong password is said in the chosen language (${language})`, async ({ page, service }) => {
      await page.goto('/console/sign-in');
      await page.getByLabel(texts.signIn.username).fill('admin');
      await page.getByLabel(texts.signIn.password).fill(`${service.adminPassword}-wrong`);
      await page.getByRole('button', { name: texts.signIn.submit }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(texts.signIn.failures[11001]);
      await expect(alert).toContainText(`${texts.errors.code}: 11001`);
      // Neither the catalog's "authentication is required" nor the service's English.
      await expect(alert).not.toContainText(texts.catalog[11001]);
      await expect(alert).not.toContainText('Wrong username or password');
      await screenshot(page, 'sign-in-error', language);
    });

    test(`durations are shown and set in minutes, hours and days with presets (${language})`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { api, project } = await newProject(service, author, 'Durations');
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/settings`);
      const lifetime = texts.settings.fields.session_ttl_seconds.label;
      const heartbeat = texts.settings.fields.heartbeat_interval_seconds.label;
      // The default session lifetime, 600 s, reads 10 minutes.
      await expect(page.getByLabel(lifetime, { exact: true })).toHaveValue('10');
      await expect(
        page
          .getByRole('combobox', { name: `${lifetime}: ${texts.time.unit}` })
          .locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
      ).toContainText(texts.time.units.minute);
      await page
        .getByRole('group', { name: `${lifetime}: ${texts.time.presets}` })
        .getByRole('button', { name: unit(1, 'hour') })
        .click();
      await expect(page.getByLabel(lifetime, { exact: true })).toHaveValue('1');
      await page
        .getByRole('group', { name: `${heartbeat}: ${texts.time.presets}` })
        .getByRole('button', { name: unit(30, 'second') })
        .click();
      // The answer, not only the request: the API is read next (trials.spec.ts saw the race).
      const patch = page.waitForResponse((response) => response.request().method() === 'PATCH');
      await page.getByRole('button', { name: texts.settings.saveChanges }).click();
      const answered = await patch;
      expect(answered.request().postDataJSON()).toEqual({ session_ttl_seconds: 3600, heartbeat_interval_seconds: 30 });
      expect(answered.status()).toBe(200);
      const { data: saved } = await api.GET('/admin/v1/projects/{id}', { params: { path: { id: project.id } } });
      expect(saved).toMatchObject({ session_ttl_seconds: 3600, heartbeat_interval_seconds: 30 });
      const group = page.locator('.ant-card').filter({ hasText: texts.settings.groups.sessions });
      await expect(group.getByLabel(heartbeat, { exact: true })).toHaveValue('30');
      await screenshotOf(group, 'settings-durations', language);
    });

    test(`each interface is shown with what it is for (${language})`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project } = await newProject(service, author, 'Interfaces');
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/settings`);
      await page.getByRole('tab', { name: texts.platform.interfaces.tab }).click();
      for (const name of ['card_login', 'paycheck', 'licence_verify'] as const) {
        await expect(page.getByRole('row').filter({ hasText: name })).toContainText(texts.interfaces[name]);
      }
    });

    test(`dates have one format in the time zone the user chose, kept in the browser (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const { project } = await newProject(service, author, `Zone ${Date.now().toString(36)}`);
      await signIn(page, author);
      const row = page.getByRole('row').filter({ hasText: project.name });
      // The browser's zone (UTC here) until the user picks another.
      await expect(row).toContainText(inZone(project.created_at, 'UTC'));
      await page.getByRole('combobox', { name: texts.time.zone }).click();
      await page.getByRole('combobox', { name: texts.time.zone }).fill('Asia/Shanghai');
      await page.getByRole('option', { name: 'Asia/Shanghai' }).click();
      await expect(row).toContainText(inZone(project.created_at, 'Asia/Shanghai'));
      await page.reload();
      await expect(row).toContainText(inZone(project.created_at, 'Asia/Shanghai'));
      expect(await page.evaluate(() => localStorage.getItem('cardkey.console.time-zone'))).toBe('Asia/Shanghai');
      await screenshot(page, 'time-zone', language);
    });

    test(`sessions show the address, the last heartbeat and the age, and one that stopped beating looks it (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const { api, project } = await newProject(service, author, 'Heartbeats');
      await openConnect(service, project.id); // the basic package the SDK routes need
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project.id } },
        body: { count: 1, duration_seconds: 86_400 },
      });
      const client = new Client({
        baseUrl: service.url,
        programId: project.program_id,
        apiSecret: project.api_secret,
        retries: 0,
      });
      expect(await client.cardLogin({ cardKey: batch!.items[0].code, machineId: 'SHOP-PC-7' })).toMatchObject({ success: true });
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project.id}/sessions`);
      const row = page.getByRole('row').filter({ hasText: 'SHOP-PC-7' });
      await expect(row).toContainText(/127\.0\.0\.1|::1/);
      await expect(row).toContainText(texts.time.noHeartbeat);
      await expect(row).toContainText(texts.sessions.beating);

      // Ten minutes on in the browser, still no heartbeat: the session is marked silent, with its age.
      await page.clock.setFixedTime(Date.now() + 10 * 60_000);
      await page.getByRole('button', { name: texts.sessions.refresh }).click();
      await expect(row).toContainText(texts.sessions.silent);
      await expect(row).toContainText(unit(10, 'minute'));
      await screenshot(page, 'sessions-heartbeat', language);
    });

    test(`a project opens on its overview (${language})`, async ({ page, service }) => {
      const author = await newAuthor(service);
      const { project } = await newProject(service, author, `Landing ${Date.now().toString(36)}`);
      await signIn(page, author);
      await page.getByRole('link', { name: project.name }).click();
      await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/overview$`));
      await expect(page.getByRole('heading', { level: 1, name: texts.operations.overview.title })).toBeVisible();
      // An old bookmark of the project's address lands there too; the settings have their own.
      await page.goto(`/console/projects/${project.id}`);
      await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/overview$`));
      await page.getByRole('menuitem', { name: menu(texts.app.settings) }).click();
      await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/settings$`));
      await expect(page.getByTestId('settings-form')).toBeVisible();
    });
  });
}
