import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  expect,
  newAuthor,
  platformAdmin,
  screenshot,
  screenshotOf,
  signIn,
  signInThroughApi,
  test,
  type Service,
} from './support';

interface Received {
  id: string;
  type: string;
  signature: string | undefined;
}

/** A receiver on loopback that answers 200 "thanks" and records what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string };
      received.push({ id: body.id, type: body.type, signature: req.headers['x-svc-webhook-signature'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

/** The platform admin lets webhooks reach loopback (off by default: a local receiver is otherwise refused). */
async function allowPrivateTargets(service: Service): Promise<void> {
  const { error } = await adminApi(service, await apiToken(service, platformAdmin(service))).PUT('/admin/v1/platform/settings', {
    body: { webhook_private_targets: true },
  });
  expect(error).toBeUndefined();
}

/** How the console writes a time, `2026-03-05 14:07:09`, in `zone`. */
function inZone(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(new Date(iso));
}

const ZONE = 'Asia/Kolkata'; // a half-hour offset: a time shown in UTC or the runner's zone cannot pass for it

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`webhooks (${language})`, () => {
    test.use({ locale: language, timezoneId: ZONE });

    test(`an author adds an endpoint, sends a test event, reads the delivery log and redelivers, in ${language}`, async ({
      page,
      service,
    }) => {
      const w = texts.webhooks;
      const receiver = await startReceiver();
      try {
        await allowPrivateTargets(service);
        const author = await newAuthor(service);
        const api = adminApi(service, await apiToken(service, author));
        const { data: project } = await api.POST('/admin/v1/projects', {
          body: { name: language === 'en' ? 'Shop Program' : '商店程序' },
        });
        await signInThroughApi(page, service, author);
        await page.goto(`/console/projects/${project!.id}/overview`);
        await page.getByRole('menuitem', { name: w.menu }).click();
        await expect(page.getByRole('heading', { level: 1, name: w.title })).toBeVisible();
        await expect(page.getByText(w.empty)).toBeVisible();

        // New endpoint: Telegram's hint, and its URL refused in the form without ?chat_id=.
        await page.getByRole('button', { name: w.new }).click();
        const dialog = page.getByRole('dialog', { name: w.createTitle });
        await dialog.getByLabel(w.format).click();
        await page.locator('.ant-select-item-option').filter({ hasText: w.formats.telegram }).click();
        await expect(dialog.getByText(w.formatHelp.telegram)).toBeVisible();
        await dialog.getByLabel(w.url).fill('https://api.telegram.org/bot123:abc/sendMessage');
        await dialog.getByRole('checkbox', { name: /^card\.banned\b/ }).check();
        await dialog.getByRole('button', { name: texts.common.create }).click();
        await expect(dialog.getByText(w.telegramChat)).toBeVisible();
        // Plain JSON to the local receiver, for two events; every type has its line.
        await dialog.getByLabel(w.format).click();
        await page.locator('.ant-select-item-option').filter({ hasText: w.formats.json }).click();
        await dialog.getByLabel(w.url).fill(receiver.url);
        await dialog.getByRole('checkbox', { name: /^card\.expiring_soon\b/ }).check();
        await expect(dialog.getByText(w.eventHelp['card.expiring_soon'])).toBeVisible();
        await screenshot(page, 'webhook-edit', language);
        await dialog.getByRole('button', { name: texts.common.create }).click();
        await expect(dialog).toBeHidden();
        const row = page.getByRole('row').filter({ hasText: receiver.url });
        await expect(row).toContainText('card.banned');
        await expect(row).toContainText('card.expiring_soon');
        await expect(row).toContainText(w.formats.json);
        await expect(row.getByRole('switch', { name: `${w.enabled} ${receiver.url}` })).toBeChecked();
        const { data: endpoints } = await api.GET('/admin/v1/projects/{id}/webhooks', { params: { path: { id: project!.id } } });
        expect(endpoints!.items).toMatchObject([
          { url: receiver.url, events: ['card.banned', 'card.expiring_soon'], format: 'json', enabled: true },
        ]);
        const endpointId = endpoints!.items[0].id;

        // Send test event: the receiver gets a signed webhook.test, and the log shows it delivered.
        await row.getByRole('button', { name: `${w.test} ${receiver.url}` }).click();
        await expect.poll(() => receiver.received.length).toBe(1);
        expect(receiver.received[0]).toMatchObject({ type: 'webhook.test', signature: expect.stringMatching(/^[\w-]{80,}$/) });
        const log = page.locator('.webhook-log');
        await expect(log).toContainText(w.log.title.replace('{{url}}', receiver.url));
        const delivery = log.getByRole('row').filter({ hasText: 'webhook.test' });
        await expect(delivery).toContainText(w.log.statuses.delivered);

        // Its attempt: the time to the second in the browser's zone, 200, the duration and the answer.
        const { data: deliveries } = await api.GET('/admin/v1/projects/{id}/webhooks/{wid}/deliveries', {
          params: { path: { id: project!.id, wid: endpointId } },
        });
        const attempt = deliveries!.items[0].attempt_log[0];
        await delivery.getByRole('button', { name: /expand|展开/i }).click();
        const attempts = log.getByRole('table', { name: `${w.log.eventId} ${receiver.received[0].id}` });
        const first = attempts.getByRole('row').nth(1);
        await expect(first).toContainText(inZone(attempt.attempted_at, ZONE));
        await expect(first).toContainText('200');
        await expect(first).toContainText('thanks');
        await screenshot(page, 'webhooks', language);

        // Redeliver: the same event again, and a second attempt in the log.
        await delivery.getByRole('button', { name: `${w.log.redeliver} ${receiver.received[0].id}` }).click();
        await expect.poll(() => receiver.received.length).toBe(2);
        expect(receiver.received[1].id).toBe(receiver.received[0].id);
        await log.getByRole('button', { name: w.log.refresh }).click();
        await expect(attempts.getByRole('row')).toHaveCount(3);
        await expect(delivery).toContainText(w.log.statuses.delivered);
      } finally {
        receiver.server.close();
      }
    });

    test(`an endpoint the service switched off for failing is flagged and enabled again, in ${language}`, async ({
      page,
      service,
    }) => {
      const w = texts.webhooks;
      await allowPrivateTargets(service);
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Failing Hook' } });
      const url = 'http://127.0.0.1:9/unreachable';
      const { data: endpoint } = await api.POST('/admin/v1/projects/{id}/webhooks', {
        params: { path: { id: project!.id } },
        body: { url, events: ['card.banned'], format: 'json', enabled: false },
      });
      // Three days of failures cannot pass in a browser test (test/e2e/selling/webhooks.e2e-spec.ts makes the service
      // switch one off): here the list's answer says so, and enabling it again goes to the real service.
      const failingSince = new Date(Date.now() - 4 * 86400_000).toISOString();
      await page.route(`**/admin/v1/projects/${project!.id}/webhooks`, async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const answer = await route.fetch();
        const body = (await answer.json()) as { items: Array<Record<string, unknown>> };
        for (const item of body.items)
          if (item.id === endpoint!.id && item.enabled === false)
            Object.assign(item, { disabled_reason: 'failing', failing_since: failingSince });
        await route.fulfill({ response: answer, json: body });
      });
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project!.id}/webhooks`);
      const flag = page.getByRole('alert').filter({ hasText: url });
      await expect(flag).toContainText(w.disabledFailing.replace('{{since}}', inZone(failingSince, ZONE)));
      await expect(page.getByRole('row').filter({ hasText: url })).toContainText(w.disabledFailingShort);
      await screenshot(page, 'webhooks-failing', language);

      await flag.getByRole('button', { name: w.enableAgain }).click();
      await expect(page.getByText(w.enabledAgain)).toBeVisible();
      await expect(flag).toBeHidden();
      await expect(page.getByRole('switch', { name: `${w.enabled} ${url}` })).toBeChecked();
      const { data: after } = await api.GET('/admin/v1/projects/{id}/webhooks/{wid}', {
        params: { path: { id: project!.id, wid: endpoint!.id } },
      });
      expect(after).toMatchObject({ enabled: true, disabled_reason: null });
    });

    test(`a local receiver is refused with a translated reason naming the platform switch, which the platform admin turns on, in ${language}`, async ({
      page,
      service,
    }) => {
      const w = texts.webhooks;
      const settingsTexts = texts.platform.settings;
      const platform = adminApi(service, await apiToken(service, platformAdmin(service)));
      await platform.PUT('/admin/v1/platform/settings', { body: { webhook_private_targets: false } });
      try {
        const author = await newAuthor(service);
        const api = adminApi(service, await apiToken(service, author));
        const { data: project } = await api.POST('/admin/v1/projects', { body: { name: `Local ${language}` } });
        const url = 'http://127.0.0.1:9/hook';
        await signInThroughApi(page, service, author);
        await page.goto(`/console/projects/${project!.id}/webhooks`);
        await page.getByRole('button', { name: w.new }).click();
        const dialog = page.getByRole('dialog', { name: w.createTitle });
        await dialog.getByLabel(w.url).fill(url);
        await dialog.getByRole('checkbox', { name: /^card\.banned\b/ }).check();
        await dialog.getByRole('button', { name: texts.common.create }).click();
        const refusal = dialog.getByRole('alert');
        await expect(refusal).toContainText(w.refused.notPublic);
        await expect(refusal).toContainText(settingsTexts.webhookPrivate);
        await expect(refusal).not.toContainText('does not resolve to a public address');
        await screenshotOf(dialog, 'webhook-refused', language);
        await dialog.getByRole('button', { name: texts.common.cancel }).click();
        await expect(dialog).toBeHidden();
        await page.getByRole('button', { name: texts.app.signOut }).click();

        // The platform admin turns the switch on in Platform settings; the same URL is then accepted.
        await signIn(page, platformAdmin(service));
        await page.getByRole('menuitem', { name: texts.platform.menu.settings }).click();
        const toggle = page.getByRole('switch', { name: settingsTexts.webhookPrivate });
        await expect(toggle).not.toBeChecked();
        await expect(page.getByText(settingsTexts.webhookPrivateHelp)).toBeVisible();
        await toggle.click();
        await page.locator('form[id="platform-settings"]').getByRole('button', { name: texts.common.save }).click();
        await expect(page.getByText(texts.common.saved)).toBeVisible();
        const { data: settings } = await platform.GET('/admin/v1/platform/settings');
        expect(settings!.webhook_private_targets).toBe(true);
        const { error } = await api.POST('/admin/v1/projects/{id}/webhooks', {
          params: { path: { id: project!.id } },
          body: { url, events: ['card.banned'], format: 'json', enabled: true },
        });
        expect(error).toBeUndefined();
      } finally {
        await platform.PUT('/admin/v1/platform/settings', { body: { webhook_private_targets: false } });
      }
    });
  });
}
