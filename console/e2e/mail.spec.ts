import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { ADMIN_PASSWORD, startService } from './service-process';
import {
  adminApi,
  apiToken,
  connectLogin,
  expect,
  menu,
  newAuthor,
  openConnect,
  screenshot,
  signInThroughApi,
  test as base,
  type Service,
} from './support';

/** Recipients of the mails the test's SMTP server took. */
const received: string[] = [];

async function startSmtp(): Promise<{ port: number; server: SMTPServer }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, server };
}

/** This file's service mails through an SMTP server of its own and scans for expiring cards every second. */
const test = base.extend<object, { service: Service }>({
  service: [
    async ({}, use) => {
      const smtp = await startSmtp();
      const running = await startService({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Card Shop <shop@example.com>',
        EXPIRY_SCAN_MS: '1000',
        MAIL_POLL_MS: '500',
      });
      try {
        await use({ url: running.url, adminPassword: ADMIN_PASSWORD });
      } finally {
        await running.stop();
        smtp.server.close();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`mail (${language})`, () => {
    test.use({ locale: language });

    test(`an author sets a card's holder e-mail and reads the reminder in the mail log, in ${language}`, async ({
      page,
      service,
    }) => {
      const m = texts.mail;
      const edit = texts.cardsManage.edit;
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', {
        body: { name: language === 'en' ? 'Mail Program' : '邮件程序' },
      });
      await openConnect(service, project!.id);
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id: project!.id } },
        body: { count: 1, duration_seconds: 30 * 86400 },
      });
      const card = batch!.items[0];
      expect((await connectLogin(service, project!.program_id, card.code, `mail-pc-${language}`)).status).toBe(true);
      await api.PATCH('/admin/v1/projects/{id}/cards/{cardId}', {
        params: { path: { id: project!.id, cardId: card.id } },
        body: { expires_at: new Date(Date.now() + 2 * 86400_000).toISOString() },
      });
      const holder = `holder-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;

      // The card's edit form: a malformed address is refused in the form, a good one saved and shown.
      await signInThroughApi(page, service, author);
      await page.goto(`/console/projects/${project!.id}/cards/${card.id}`);
      await page.getByRole('button', { name: edit.open }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(edit.holderEmail.label).fill('not-an-email');
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog.getByText(edit.emailInvalid)).toBeVisible();
      await dialog.getByLabel(edit.holderEmail.label).fill(holder);
      await dialog.getByRole('button', { name: texts.common.save }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(holder)).toBeVisible();

      // The scan reminds the holder once; the mail log shows it sent, with its attempt.
      await expect.poll(() => received.filter((to) => to === holder).length, { timeout: 20_000 }).toBe(1);
      await page.getByRole('menuitem', { name: menu(m.menu) }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.title })).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: holder });
      await expect(row).toContainText(m.templates.card_expiring);
      await expect(row).toContainText(m.statuses.sent);
      await row.getByRole('button', { name: /expand|展开/i }).click();
      await expect(page.locator('.mail-log .ant-table-expanded-row')).toContainText('250');
      await expect(page.getByText(edit.saved)).toBeHidden(); // the card's "saved" toast, out of the picture
      await screenshot(page, 'mail-log', language);
      expect(received.filter((to) => to === holder)).toHaveLength(1);
    });
  });
}
