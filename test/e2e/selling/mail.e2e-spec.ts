import { DataSource } from 'typeorm';
import { MailOutbox } from '../../../src/mail/mail-outbox';
import { CardExpiryScan } from '../../../src/webhooks/card-expiry-scan';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, PROJECT_NOT_FOUND } from '../../support/admin-errors';
import { SmtpReceiver } from '../../support/smtp-receiver';
import { startTestApp, TestApp } from '../../support/test-app';
import { eventually } from '../../support/webhook-receiver';
import { loadConfig } from '../../../src/config/app-config';
import { ErrorCode } from '../../../src/core/errors/error-code';
import { checkMail } from '../../../src/doctor/checks';

const PASSWORD = 'smtp-pass-5ecret';

/**
 * E-mail (decisions §26) against a real SMTP server started here: the outbox, its retries and log,
 * the expiry reminder, and the card's holder e-mail.
 */
describe('mail (e2e)', () => {
  const smtp = new SmtpReceiver();
  let t: TestApp;
  let a: { client: AdminClient };
  let b: { client: AdminClient };

  const mailsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/mails`;
  const cardsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/cards`;

  /** A mail owed inside a transaction, as another module's rule (the storefront's paid checkout) enqueues it. */
  async function enqueueCards(projectId: string, to: string, codes: string[], dedupeKey: string): Promise<string | null> {
    return t.app.get(DataSource).transaction((em) =>
      t.app.get(MailOutbox).enqueue(em, {
        projectId,
        to,
        template: 'cards_delivered',
        data: { program_name: 'Ace <Editor> & Co', card_type_name: 'Month', days: 30, codes },
        dedupeKey,
      }),
    );
  }

  async function mailLog(p: { id: string }) {
    return (await a.client.get(mailsOf(p)).expect(200)).body as {
      items: Array<Record<string, unknown> & { attempt_log: Array<Record<string, unknown>> }>;
      total: number;
      page: number;
      page_size: number;
    };
  }

  async function newCard(p: { id: string }): Promise<{ id: number; code: string }> {
    const batch = (await a.client.post(cardsOf(p), { count: 1, duration_seconds: 86400 }).expect(201)).body;
    return { id: batch.items[0].id, code: batch.items[0].code };
  }

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({
      SMTP_URL: smtp.url('shop', PASSWORD),
      MAIL_FROM: 'Card Shop <shop@example.com>',
      MAIL_RETRY_DELAYS: '0.3',
      MAIL_POLL_MS: '200',
    });
    const admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
  });
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  it("mails a checkout's cards once, however often it is enqueued, with the codes in both languages and names escaped", async () => {
    const p = await a.client.createProject();
    const codes = ['SHOP-AAAA-1111', 'SHOP-BBBB-2222'];
    const id = await enqueueCards(p.id, 'buyer@example.com', codes, 'checkout:one');
    expect(id).toEqual(expect.any(String));
    expect(await enqueueCards(p.id, 'buyer@example.com', codes, 'checkout:one')).toBeNull();

    const mail = await eventually(() => smtp.to('buyer@example.com')[0], 5000, 'the mail at the SMTP server');
    expect(mail.from).toBe('shop@example.com');
    expect(mail.user).toBe('shop');
    for (const code of codes) {
      expect(mail.text).toContain(code);
      expect(mail.html).toContain(code);
    }
    expect(mail.text).toContain('卡类：Month（30 天）');
    expect(mail.text).toContain('Card type: Month (30 days), 2 cards');
    expect(mail.html).toContain('Ace &#60;Editor&#62; &#38; Co');
    expect(mail.html).not.toContain('<Editor>');

    const log = await eventually(async () => {
      const page = await mailLog(p);
      return page.items[0]?.status === 'sent' ? page : undefined;
    }, 5000);
    expect(log).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(log.items[0]).toMatchObject({
      id,
      to: 'buyer@example.com',
      template: 'cards_delivered',
      status: 'sent',
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
    });
    expect(log.items[0].attempt_log).toEqual([expect.objectContaining({ attempt: 1, smtp_code: 250, error: null })]);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.to('buyer@example.com')).toHaveLength(1);
  });

  it('retries a mail the server refuses (451) with back-off, logs each attempt, and marks it sent exactly once', async () => {
    const p = await a.client.createProject();
    smtp.refusals.push({ code: 451, message: 'Try again later' }, { code: 451, message: 'Try again later' });
    await enqueueCards(p.id, 'retry@example.com', ['SHOP-RETRY-0001'], 'checkout:retry');

    const pending = await eventually(async () => {
      const page = await mailLog(p);
      return page.items[0]?.attempt_log.length === 1 ? page.items[0] : undefined;
    }, 5000);
    expect(pending).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: expect.stringMatching(/^451\b.*Try again later/),
    });
    expect(pending.next_attempt_at).toEqual(expect.any(String));

    const sent = await eventually(async () => {
      const page = await mailLog(p);
      return page.items[0]?.status === 'sent' ? page.items[0] : undefined;
    }, 8000);
    expect(sent).toMatchObject({ attempts: 3, last_error: null });
    expect(sent.attempt_log.map((x) => [x.attempt, x.smtp_code])).toEqual([
      [1, 451],
      [2, 451],
      [3, 250],
    ]);
    // The back-off: each retry waited its 0.3 s after the attempt before.
    const times = sent.attempt_log.map((x) => Date.parse(String(x.attempted_at)));
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(250);
    await new Promise((r) => setTimeout(r, 700));
    expect(smtp.to('retry@example.com')).toHaveLength(1);
    expect(smtp.to('retry@example.com')[0].text).toContain('SHOP-RETRY-0001');
  });

  it('gives up at once on a permanent refusal (550), sends again on demand, and never shows the SMTP password', async () => {
    const p = await a.client.createProject();
    smtp.refusals.push({ code: 550, message: 'No such user here' });
    const id = await enqueueCards(p.id, 'gone@example.com', ['SHOP-GONE-0001'], 'checkout:gone');
    const failed = await eventually(async () => {
      const page = await mailLog(p);
      return page.items[0]?.status === 'failed' ? page.items[0] : undefined;
    }, 5000);
    expect(failed).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/^550\b/), next_attempt_at: null });
    expect(smtp.to('gone@example.com')).toHaveLength(0);

    const again = await a.client.post(`${mailsOf(p)}/${id}/resend`).expect(200);
    expect(again.body).toMatchObject({ id, status: 'pending' });
    await eventually(() => smtp.to('gone@example.com')[0], 5000, 'the resent mail');
    const sent = await eventually(async () => {
      const page = await mailLog(p);
      return page.items[0]?.status === 'sent' ? page.items[0] : undefined;
    }, 5000);
    expect(sent.attempt_log.map((x) => x.smtp_code)).toEqual([550, 250]);

    expect(t.logs.some((line) => line.includes('mail given up'))).toBe(true);
    expect(t.logs.join('\n')).not.toContain(PASSWORD);
    expect(JSON.stringify((await mailLog(p)).items)).not.toContain(PASSWORD);
  });

  it("keeps a project's mail log to its author", async () => {
    const p = await a.client.createProject();
    expectAdminError(await b.client.get(mailsOf(p)), 404, PROJECT_NOT_FOUND);
    const id = await enqueueCards(p.id, 'private@example.com', ['SHOP-PRIV-0001'], 'checkout:private');
    expectAdminError(await b.client.post(`${mailsOf(p)}/${id}/resend`), 404, PROJECT_NOT_FOUND);
    const other = await b.client.createProject();
    expectAdminError(await b.client.post(`${mailsOf(other)}/${id}/resend`), 404, ErrorCode.MAIL_NOT_FOUND);
    expectAdminError(await a.client.post(`${mailsOf(p)}/not-a-uuid/resend`), 404, ErrorCode.MAIL_NOT_FOUND);
  });

  it('sets, finds and clears a holder e-mail through the card route, and refuses a malformed one changing nothing', async () => {
    const p = await a.client.createProject();
    const card = await newCard(p);
    const set = await a.client.patch(`${cardsOf(p)}/${card.id}`, { holder_email: 'Holder@Example.com', note: 'n1' }).expect(200);
    expect(set.body).toMatchObject({ holder_email: 'Holder@Example.com', note: 'n1' });
    const found = (await a.client.get(`${cardsOf(p)}?q=${encodeURIComponent('holder@example')}`).expect(200)).body;
    expect(found.items.map((c: { id: number }) => c.id)).toEqual([card.id]);
    expect((await a.client.get(`${cardsOf(p)}?q=${encodeURIComponent('other@example')}`).expect(200)).body.total).toBe(0);
    const csv = (await a.client.get(`${cardsOf(p)}/export.csv`).expect(200)).text;
    expect(csv.split('\r\n')[0].endsWith(',holder_email')).toBe(true);
    expect(csv).toContain('Holder@Example.com');

    for (const bad of ['not-an-email', 'a@b', `${'x'.repeat(250)}@example.com`, 42]) {
      const res = await a.client.patch(`${cardsOf(p)}/${card.id}`, { holder_email: bad, note: 'n2' });
      expectAdminError(res, 400, BAD_REQUEST, 'holder_email');
    }
    expect((await a.client.get(`${cardsOf(p)}/${card.id}`).expect(200)).body).toMatchObject({
      holder_email: 'Holder@Example.com',
      note: 'n1',
    });
    const cleared = await a.client.patch(`${cardsOf(p)}/${card.id}`, { holder_email: null }).expect(200);
    expect(cleared.body.holder_email).toBeNull();
  });

  it('reminds the holder once, three days ahead, of a card expiring in 2 days; not a card without a holder e-mail', async () => {
    const p = await a.client.createProject({ name: 'Reminder <Pro>' });
    const held = await newCard(p);
    const unheld = await newCard(p);
    await a.client.patch(`${cardsOf(p)}/${held.id}`, { holder_email: 'holder@example.com' }).expect(200);
    const db = t.app.get(DataSource);
    for (const card of [held, unheld]) {
      await db.query(
        `UPDATE cards SET status = 'active', activated_at = now(), expires_at = now() + interval '2 days' WHERE id = $1`,
        [card.id],
      );
    }
    const scan = () =>
      eventually(
        async () => {
          const marked = await t.app.get(CardExpiryScan).run();
          return marked === null ? undefined : { marked };
        },
        5000,
        'a scan',
      );
    await scan();
    const mail = await eventually(() => smtp.to('holder@example.com')[0], 5000, 'the reminder');
    expect(mail.text).toContain(held.code);
    expect(mail.text).toContain('将于');
    expect(mail.text).toContain('expires on');
    expect(mail.text).not.toContain(unheld.code);
    expect(mail.html).toContain('Reminder &#60;Pro&#62;');

    expect((await scan()).marked).toBe(0);
    await new Promise((r) => setTimeout(r, 700));
    expect(smtp.to('holder@example.com')).toHaveLength(1);
    const log = await mailLog(p);
    expect(log.items.map((m) => [m.template, m.to])).toEqual([['card_expiring', 'holder@example.com']]);
  });

  it('writes no mail and marks no card without SMTP_URL', async () => {
    const off = await startTestApp();
    try {
      const admin = await AdminClient.asPlatformAdmin(off);
      const author = (await admin.createAuthor()).client;
      const p = await author.createProject();
      const card = (await author.post(cardsOf(p), { count: 1, duration_seconds: 86400 }).expect(201)).body.items[0];
      await author.patch(`${cardsOf(p)}/${card.id}`, { holder_email: 'quiet@example.com' }).expect(200);
      const db = off.app.get(DataSource);
      await db.query(
        `UPDATE cards SET status = 'active', activated_at = now(), expires_at = now() + interval '1 day' WHERE id = $1`,
        [card.id],
      );
      expect(off.app.get(MailOutbox).enabled).toBe(false);
      const id = await db.transaction((em) =>
        off.app.get(MailOutbox).enqueue(em, {
          projectId: p.id,
          to: 'quiet@example.com',
          template: 'cards_delivered',
          data: { program_name: 'x', card_type_name: 'y', days: null, codes: ['A'] },
          dedupeKey: 'checkout:off',
        }),
      );
      expect(id).toBeNull();
      await eventually(async () => ((await off.app.get(CardExpiryScan).run()) === null ? undefined : true), 5000);
      const [{ mails }] = await db.query('SELECT count(*)::int AS mails FROM mail_messages');
      const [{ reminded }] = await db.query('SELECT mail_reminder_for AS reminded FROM cards WHERE id = $1', [card.id]);
      expect({ mails, reminded }).toEqual({ mails: 0, reminded: null });
      expect((await author.get(mailsOf(p)).expect(200)).body).toMatchObject({ items: [], total: 0 });
    } finally {
      await off.close();
    }
  });

  it('doctor: mail off without SMTP_URL; with it, whether the server answers, never showing the password', async () => {
    const base = { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'x'.repeat(12) };
    expect(await checkMail(loadConfig(base))).toEqual([expect.objectContaining({ check: 'mail', severity: 'ok' })]);
    const up = await checkMail(loadConfig({ ...base, SMTP_URL: smtp.url('shop', PASSWORD), MAIL_FROM: 'shop@example.com' }));
    expect(up).toEqual([
      expect.objectContaining({ severity: 'ok', message: expect.stringContaining(`smtp://127.0.0.1:${smtp.port} answers`) }),
    ]);
    const closed = new SmtpReceiver();
    await closed.start();
    const port = closed.port;
    await closed.stop();
    const down = await checkMail(
      loadConfig({ ...base, SMTP_URL: `smtp://shop:${PASSWORD}@127.0.0.1:${port}`, MAIL_FROM: 'shop@example.com' }),
    );
    expect(down).toEqual([expect.objectContaining({ severity: 'warn', message: expect.stringContaining(`127.0.0.1:${port}`) })]);
    expect(JSON.stringify([up, down])).not.toContain(PASSWORD);
    expect(() => loadConfig({ ...base, SMTP_URL: smtp.url() })).toThrow(/MAIL_FROM: required when SMTP_URL is set/);
    expect(() => loadConfig({ ...base, SMTP_URL: 'http://x', MAIL_FROM: 'a@b.c' })).toThrow(/SMTP_URL must be an smtp/);
  });
});
