import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { CardExpiryScan } from '../../../src/webhooks/card-expiry-scan';
import { AdminClient } from '../../support/admin-client';
import {
  CONFLICT,
  expectAdminError,
  PROJECT_NOT_FOUND,
  WEBHOOK_NOT_FOUND,
  WEBHOOK_TARGET_REFUSED,
} from '../../support/admin-errors';
import { signedPost } from '../../support/signing';
import { startTestApp, TestApp } from '../../support/test-app';
import { eventually, Received, Receiver } from '../../support/webhook-receiver';
import { parseMetrics } from '../../support/metrics';

/** Fast retries for tests; the defaults (10 s, 30 s, 1 min, …) are checked in src/common/retry-schedule.spec.ts. */
const FAST = { WEBHOOK_RETRY_DELAYS: '0.3', WEBHOOK_POLL_MS: '200' };
const SHARED = Boolean(process.env.DATABASE_URL);

describe('webhooks (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: { client: AdminClient };
  let b: { client: AdminClient };
  let project: { id: string };
  const receiver = new Receiver();

  const hooks = (p: { id: string }) => `/admin/v1/projects/${p.id}/webhooks`;

  async function newCard(p: { id: string }): Promise<{ id: number; code: string }> {
    const batch = (await a.client.post(`/admin/v1/projects/${p.id}/cards`, { count: 1, duration_seconds: 86400 }).expect(201))
      .body;
    return { id: batch.items[0].id, code: batch.items[0].code };
  }

  /** The delivery's signature checks with a key the project publishes (the same keys client programs pin). */
  async function expectSigned(delivery: Received, p: { id: string }): Promise<void> {
    const keys = (await a.client.get(`/admin/v1/projects/${p.id}/signing-keys`).expect(200)).body.items as Array<{
      kid: string;
      public_key: string;
    }>;
    const kid = delivery.headers['x-svc-webhook-key'];
    const key = keys.find((k) => k.kid === kid);
    expect(key).toBeDefined();
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key!.public_key }, format: 'jwk' });
    const signed = `svc-webhook-v1\n${delivery.headers['x-svc-webhook-id']}\n${delivery.headers['x-svc-webhook-timestamp']}\n${delivery.body}`;
    const signature = Buffer.from(String(delivery.headers['x-svc-webhook-signature']), 'base64url');
    expect(verify(null, Buffer.from(signed), publicKey, signature)).toBe(true);
    expect(verify(null, Buffer.from(signed.replace('svc-webhook-v1', 'svc-webhook-v0')), publicKey, signature)).toBe(false);
    expect(delivery.headers['x-svc-webhook-id']).toBe(delivery.json.id);
    expect(Math.abs(Number(delivery.headers['x-svc-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  }

  /** The webhook series of /metrics (docs/grafana-dashboard.json charts them): attempts by outcome, endpoints switched off. */
  async function webhookMetrics(): Promise<Record<string, number>> {
    const samples = parseMetrics((await t.http().get('/metrics').expect(200)).text);
    const value = (name: string, outcome?: string) =>
      samples.find((sample) => sample.name === name && sample.labels.outcome === outcome)?.value ?? 0;
    return {
      delivered: value('webhook_attempts_total', 'delivered'),
      retry: value('webhook_attempts_total', 'retry'),
      failed: value('webhook_attempts_total', 'failed'),
      disabled: value('webhook_endpoints_disabled_total'),
    };
  }

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp(FAST);
    admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
    project = await a.client.createProject();
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('refuses loopback and private targets until the platform allows them, and non-HTTP URLs always', async () => {
    for (const url of [
      receiver.url,
      'http://10.1.2.3/hook',
      'http://[::1]:8080/x',
      'http://localhost/x',
      'ftp://example.com/x',
    ]) {
      expectAdminError(await a.client.post(hooks(project), { url, events: ['card.banned'] }), 400, WEBHOOK_TARGET_REFUSED);
    }
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    const created = await a.client.post(hooks(project), { url: receiver.url, events: ['card.banned'] }).expect(201);
    expect(created.body).toMatchObject({
      url: receiver.url,
      events: ['card.banned'],
      format: 'json',
      enabled: true,
      disabled_reason: null,
    });
    await a.client.delete(`${hooks(project)}/${created.body.id}`).expect(204);
    expectAdminError(
      await a.client.post(hooks(project), { url: 'ftp://127.0.0.1/x', events: ['card.banned'] }),
      400,
      WEBHOOK_TARGET_REFUSED,
    );
  });

  it('changes any subset of an endpoint by PATCH, and refuses a null or empty field, changing nothing', async () => {
    const hook = (
      await a.client
        .post(hooks(project), { url: receiver.url, events: ['card.banned'], format: 'json', enabled: false })
        .expect(201)
    ).body;
    const path = `${hooks(project)}/${hook.id}`;
    const changed = await a.client.patch(path, { events: ['card.banned', 'card.unbanned'] }).expect(200);
    expect(changed.body).toMatchObject({
      url: receiver.url,
      events: ['card.banned', 'card.unbanned'],
      format: 'json',
      enabled: false,
    });
    expect((await a.client.patch(path, { url: null })).status).toBe(400);
    expect((await a.client.patch(path, { events: [] })).status).toBe(400);
    expect((await a.client.patch(path, { format: 'slack', enabled: true })).status).toBe(400);
    const after = (await a.client.get(hooks(project)).expect(200)).body.items.find((item: { id: string }) => item.id === hook.id);
    expect(after).toMatchObject({ url: receiver.url, events: ['card.banned', 'card.unbanned'], format: 'json', enabled: false });
    await a.client.delete(path).expect(204);
  });

  it("keeps another author's endpoints out of reach", async () => {
    const hook = (await a.client.post(hooks(project), { url: receiver.url, events: ['card.banned'], enabled: false }).expect(201))
      .body;
    expectAdminError(await b.client.get(hooks(project)), 404, PROJECT_NOT_FOUND);
    expectAdminError(await b.client.post(`${hooks(project)}/${hook.id}/test`), 404, PROJECT_NOT_FOUND);
    const other = await b.client.createProject();
    expectAdminError(await b.client.get(`${hooks(other)}/${hook.id}/deliveries`), 404, WEBHOOK_NOT_FOUND);
    await a.client.delete(`${hooks(project)}/${hook.id}`).expect(204);
  });

  it('delivers a signed card.banned within seconds of a ban, and nothing for events not subscribed', async () => {
    const p = await a.client.createProject();
    await a.client.post(hooks(p), { url: receiver.url, events: ['card.banned'] }).expect(201);
    const card = await newCard(p);
    const started = Date.now();
    await a.client.patch(`/admin/v1/projects/${p.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
    const delivery = await eventually(
      () => receiver.of('card.banned').find((r) => r.json.data.card_id === card.id),
      5000,
      'card.banned',
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(delivery.json).toMatchObject({
      type: 'card.banned',
      project_id: p.id,
      data: { card_id: card.id, card_code: card.code },
    });
    await expectSigned(delivery, p);
    // An unban is another type, not subscribed here: nothing more arrives for this card.
    await a.client.patch(`/admin/v1/projects/${p.id}/cards/${card.id}`, { status: 'active' }).expect(200);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.received.filter((r) => r.json.data.card_id === card.id).map((r) => r.json.type)).toEqual(['card.banned']);
  });

  it('retries after a 500, logs each attempt with its excerpt, and redelivers on demand', async () => {
    const p = await a.client.createProject();
    const hook = (await a.client.post(hooks(p), { url: receiver.url, events: ['card.banned', 'card.unbanned'] }).expect(201))
      .body;
    const card = await newCard(p);
    const counted = await webhookMetrics();
    receiver.statuses.push(500, 503);
    await a.client.patch(`/admin/v1/projects/${p.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
    const log = await eventually(
      async () => {
        const page = (await a.client.get(`${hooks(p)}/${hook.id}/deliveries`).expect(200)).body;
        return page.items[0]?.status === 'delivered' ? page : undefined;
      },
      10_000,
      'the third attempt',
    );
    const [delivery] = log.items;
    expect(delivery.attempts).toBe(3);
    expect(delivery.attempt_log.map((x: { http_status: number }) => x.http_status)).toEqual([500, 503, 200]);
    expect(delivery.attempt_log[0].response_excerpt).toMatch(/^failure 500 x+$/);
    expect(delivery.attempt_log[0].response_excerpt.length).toBe(1024);
    expect(delivery.attempt_log[2].response_excerpt).toBe('thanks');
    const copies = receiver.of('card.banned').filter((r) => r.json.data.card_id === card.id);
    expect(copies).toHaveLength(3);
    expect(new Set(copies.map((c) => c.json.id)).size).toBe(1); // one event id on every attempt: receivers deduplicate by it
    // /metrics counts the attempts by outcome (other tests' deliveries may add to them meanwhile).
    await eventually(
      async () => {
        const now = await webhookMetrics();
        return now.retry - counted.retry >= 2 && now.delivered - counted.delivered >= 1;
      },
      5000,
      'two retries and a delivery in /metrics',
    );

    const again = await a.client.post(`${hooks(p)}/${hook.id}/deliveries/${delivery.id}/redeliver`).expect(200);
    expect(again.body.status).toBe('pending');
    await eventually(
      () => receiver.of('card.banned').filter((r) => r.json.data.card_id === card.id).length === 4,
      5000,
      'the redelivery',
    );
    const after = (await a.client.get(`${hooks(p)}/${hook.id}/deliveries`).expect(200)).body.items[0];
    await eventually(
      async () => (await a.client.get(`${hooks(p)}/${hook.id}/deliveries`).expect(200)).body.items[0].attempts === 4,
      5000,
      'the logged redelivery',
    );
    expect(after.id).toBe(delivery.id);
  });

  it('sends a webhook.test to one endpoint in the chat robots’ formats', async () => {
    const p = await a.client.createProject();
    const hook = (
      await a.client
        .post(hooks(p), { url: `${receiver.url}?chat_id=42`, events: ['card.banned'], format: 'telegram' })
        .expect(201)
    ).body;
    await a.client.post(`${hooks(p)}/${hook.id}/test`).expect(200);
    const got = await eventually(
      () => receiver.received.find((r) => (r.json as unknown as { chat_id?: string }).chat_id === '42'),
      5000,
      'the telegram test',
    );
    expect(JSON.parse(got.body)).toMatchObject({ chat_id: '42', text: expect.stringContaining('webhook.test') });
    const wecom = (await a.client.post(hooks(p), { url: receiver.url, events: ['card.banned'], format: 'wecom' }).expect(201))
      .body;
    await a.client.post(`${hooks(p)}/${wecom.id}/test`).expect(200);
    const robot = (r: Received) => r.json as unknown as { msgtype?: string; text?: { content?: string } };
    const wecomText = await eventually(() => receiver.received.find((r) => robot(r).msgtype === 'text'), 5000, 'the wecom test');
    expect(robot(wecomText).text?.content).toContain('webhook.test');
    expectAdminError(
      await a.client.post(hooks(p), { url: receiver.url, events: ['card.banned'], format: 'telegram' }),
      400,
      WEBHOOK_TARGET_REFUSED,
    );
  });

  it('announces device.bound and card.activated from a new device login, in the login statement', async () => {
    const p = await a.client.createProject();
    await a.client.post(hooks(p), { url: receiver.url, events: ['device.bound', 'card.activated'] }).expect(201);
    const card = await newCard(p);
    const pid = (p as unknown as { program_id: string }).program_id;
    const res = await t
      .http()
      .post(`/connect/${pid}`)
      .type('form')
      .send({ user_key: card.code, serial: 'PC-WEBHOOK-1' })
      .expect(200);
    expect(res.body.code).toBeDefined();
    const bound = await eventually(
      () => receiver.of('device.bound').find((r) => r.json.data.card_id === card.id),
      5000,
      'device.bound',
    );
    expect(bound.json.data).toMatchObject({ machine_code: 'PC-WEBHOOK-1', card_code: card.code });
    const activated = await eventually(
      () => receiver.of('card.activated').find((r) => r.json.data.card_id === card.id),
      5000,
      'card.activated',
    );
    expect(activated.json.data.activated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // A repeat login of the same device binds nothing and announces nothing.
    await t.http().post(`/connect/${pid}`).type('form').send({ user_key: card.code, serial: 'PC-WEBHOOK-1' }).expect(200);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.of('device.bound').filter((r) => r.json.data.card_id === card.id)).toHaveLength(1);
  });

  it('announces user.registered when a program user registers over the SDK', async () => {
    const p = (await a.client.createProject()) as unknown as { id: string; program_id: string; api_secret: string };
    await a.client.post(hooks(p), { url: receiver.url, events: ['user.registered'] }).expect(201);
    const username = `hooked${Date.now().toString(36)}`;
    const fields = { app: p.program_id, username, password: 'user-password-1', machine_id: 'pc-1' };
    const res = await signedPost(t, '/api/v1/users/register', fields, 'json', p.api_secret).expect(200);
    expect(res.body.code).toBe(0);
    const registered = await eventually(
      () => receiver.of('user.registered').find((r) => r.json.data.username === username),
      5000,
      'user.registered',
    );
    expect(registered.json.data).toMatchObject({ user_id: res.body.data.user_id, username });
  });

  it('tells card.expiring_soon once, three days ahead: a card expiring in 2 days once, one expiring in 10 days not', async () => {
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200); // the local receiver
    const p = await a.client.createProject();
    const hook = (await a.client.post(hooks(p), { url: receiver.url, events: ['card.expiring_soon'] }).expect(201)).body;
    const soon = await newCard(p);
    const later = await newCard(p);
    const db = t.app.get(DataSource);
    const expireIn = (card: { id: number }, days: number) =>
      db.query(
        `UPDATE cards SET status = 'active', activated_at = now(), expires_at = now() + $2::float8 * interval '1 day' WHERE id = $1`,
        [card.id, days],
      );
    await expireIn(soon, 2);
    await expireIn(later, 10);
    // One instance scans at a time: a scan that meets another one's lock answers null and is tried again.
    const scan = () =>
      eventually(
        async () => {
          const announced = await t.app.get(CardExpiryScan).run();
          return announced === null ? undefined : { announced };
        },
        5000,
        'a scan',
      );

    await scan();
    const told = await eventually(
      () => receiver.of('card.expiring_soon').find((r) => r.json.data.card_id === soon.id),
      5000,
      'card.expiring_soon',
    );
    const [{ expires_at }] = await db.query('SELECT expires_at FROM cards WHERE id = $1', [soon.id]);
    expect(told.json).toMatchObject({
      project_id: p.id,
      data: { card_id: soon.id, card_code: soon.code, expires_at: new Date(expires_at).toISOString() },
    });
    await expectSigned(told, p);

    expect((await scan()).announced).toBe(0);
    await new Promise((r) => setTimeout(r, 800));
    const mine = receiver.of('card.expiring_soon').filter((r) => r.json.project_id === p.id);
    expect(mine.map((r) => r.json.data.card_id)).toEqual([soon.id]);
    const log = (await a.client.get(`${hooks(p)}/${hook.id}/deliveries`).expect(200)).body;
    expect(log.items.map((d: { type: string; status: string }) => [d.type, d.status])).toEqual([
      ['card.expiring_soon', 'delivered'],
    ]);

    // Extended to a new expiry that is again within three days: told once more, about the new date.
    await expireIn(soon, 2.5);
    await scan();
    const again = await eventually(
      () => {
        const got = receiver.of('card.expiring_soon').filter((r) => r.json.data.card_id === soon.id);
        return got.length === 2 ? got[1] : undefined;
      },
      5000,
      'the notice of the new expiry',
    );
    expect(Date.parse(String(again.json.data.expires_at)) - Date.parse(String(told.json.data.expires_at))).toBeGreaterThan(
      0.4 * 86400_000,
    );
  });

  it('stops reaching a private IP literal, in any form, once the platform turns private targets off, and says no address', async () => {
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    const p = await a.client.createProject();
    const port = new URL(receiver.url).port;
    const literals = [receiver.url, `http://[::ffff:127.0.0.1]:${port}/hook`, `http://[::ffff:7f00:1]:${port}/hook`];
    const endpoints: string[] = [];
    for (const url of literals)
      endpoints.push((await a.client.post(hooks(p), { url, events: ['card.banned'] }).expect(201)).body.id);
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: false }).expect(200);
    try {
      const card = await newCard(p);
      await a.client.patch(`/admin/v1/projects/${p.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
      for (const id of endpoints) {
        const attempt = await eventually(
          async () => (await a.client.get(`${hooks(p)}/${id}/deliveries`).expect(200)).body.items[0]?.attempt_log[0],
          10_000,
          'the refused attempt',
        );
        expect(attempt).toMatchObject({
          http_status: null,
          response_excerpt: '',
          error: 'the host does not resolve to a public address',
        });
      }
      expect(receiver.of('card.banned').filter((r) => r.json.project_id === p.id)).toEqual([]);
    } finally {
      await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    }
  });

  it("delivers another project's webhook within seconds while one project's endpoint hangs on 30 deliveries", async () => {
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    const held: Socket[] = [];
    const hanging = createServer(() => undefined); // never answers: each attempt waits its full 10 s
    hanging.on('connection', (socket) => held.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const slow = await a.client.createProject();
    const slowHook = (
      await a.client
        .post(hooks(slow), { url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/x`, events: ['card.banned'] })
        .expect(201)
    ).body;
    try {
      for (let i = 0; i < 30; i++) await a.client.post(`${hooks(slow)}/${slowHook.id}/test`).expect(200);
      await eventually(() => held.length >= 2, 5000, 'the slow endpoint holding its attempts');
      const other = await b.client.createProject();
      const hook = (await b.client.post(hooks(other), { url: receiver.url, events: ['card.banned'] }).expect(201)).body;
      const started = Date.now();
      await b.client.post(`${hooks(other)}/${hook.id}/test`).expect(200);
      await eventually(() => receiver.received.find((r) => r.json.project_id === other.id), 5000, "the other project's delivery");
      expect(Date.now() - started).toBeLessThan(3000);
      expect(held.length).toBeLessThanOrEqual(2); // the slow endpoint's share of the pool
    } finally {
      await a.client.patch(`${hooks(slow)}/${slowHook.id}`, { enabled: false }).expect(200);
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  it('lets a project have at most 20 endpoints, also when 25 are created at once', async () => {
    const p = await a.client.createProject();
    const created = await Promise.all(
      Array.from({ length: 25 }, (_, i) => a.client.post(hooks(p), { url: `${receiver.url}?n=${i}`, events: ['card.banned'] })),
    );
    expect(created.filter((r) => r.status === 201)).toHaveLength(20);
    for (const refused of created.filter((r) => r.status !== 201)) expectAdminError(refused, 409, CONFLICT);
    expect((await a.client.get(hooks(p)).expect(200)).body.total).toBe(20);
  });

  it('switches an endpoint off after three days of failures, says why, and switching it on sends what waited', async () => {
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200); // the local receiver
    const p = await a.client.createProject();
    const hook = (await a.client.post(hooks(p), { url: receiver.url, events: ['card.banned'] }).expect(201)).body;
    const db = t.app.get(DataSource);
    const failingFor = (days: number) =>
      db.query(`UPDATE webhook_endpoints SET failing_since = now() - make_interval(days => $2) WHERE id = $1`, [hook.id, days]);
    const endpoint = async () => (await a.client.get(`${hooks(p)}/${hook.id}`).expect(200)).body;
    const ban = async () => {
      const card = await newCard(p);
      await a.client.patch(`/admin/v1/projects/${p.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
      return card;
    };

    // Failing for two days: one more failure leaves it on (the retry then succeeds and clears the clock).
    await failingFor(2);
    receiver.statuses.push(500);
    const first = await ban();
    await eventually(
      () => receiver.of('card.banned').filter((r) => r.json.data.card_id === first.id).length === 2,
      5000,
      'the failure and its retry',
    );
    await eventually(async () => (await endpoint()).failing_since === null, 5000, 'the success clearing the clock');
    expect(await endpoint()).toMatchObject({ enabled: true, disabled_reason: null });

    // Failing for four days: the next failure switches it off, and nothing more is sent to it.
    const disabledBefore = (await webhookMetrics()).disabled;
    await failingFor(4);
    receiver.statuses.push(500);
    const second = await ban();
    const off = await eventually(
      async () => {
        const view = await endpoint();
        return view.enabled ? undefined : view;
      },
      5000,
      'the endpoint switched off',
    );
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    await eventually(async () => (await webhookMetrics()).disabled === disabledBefore + 1, 5000, 'the switch-off in /metrics');
    expect(Date.now() - Date.parse(off.failing_since)).toBeGreaterThan(4 * 86400_000 - 60_000);
    expect((await a.client.get(hooks(p)).expect(200)).body.items[0]).toMatchObject({
      id: hook.id,
      enabled: false,
      disabled_reason: 'failing',
    });
    await new Promise((r) => setTimeout(r, 1000)); // several retry periods
    expect(receiver.of('card.banned').filter((r) => r.json.data.card_id === second.id)).toHaveLength(1);
    const waiting = (await a.client.get(`${hooks(p)}/${hook.id}/deliveries`).expect(200)).body.items[0];
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });

    // Switched on again by the author: the flag and the failure clock clear, and the waiting delivery goes out.
    const on = (await a.client.patch(`${hooks(p)}/${hook.id}`, { enabled: true }).expect(200)).body;
    expect(on).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await eventually(
      () => receiver.of('card.banned').filter((r) => r.json.data.card_id === second.id).length === 2,
      5000,
      'the delivery after re-enabling',
    );
    await eventually(
      async () => (await a.client.get(`${hooks(p)}/${hook.id}/deliveries`).expect(200)).body.items[0].status === 'delivered',
      5000,
      'delivered',
    );
  });

  (SHARED ? it : it.skip)(
    'survives a restart between attempts, and two instances sharing the queue deliver each event once',
    async () => {
      const p = await a.client.createProject();
      await a.client.post(hooks(p), { url: receiver.url, events: ['card.banned'] }).expect(201);
      const card = await newCard(p);
      receiver.statuses.push(500);
      // A slow retry: the first instance is gone before it is due.
      const slow = await startTestApp({ ...FAST, WEBHOOK_RETRY_DELAYS: '3' }, { shareWith: t });
      await new AdminClient(slow, a.client.token)
        .patch(`/admin/v1/projects/${p.id}/cards/${card.id}`, { status: 'banned' })
        .expect(200);
      await eventually(() => receiver.of('card.banned').some((r) => r.json.data.card_id === card.id), 5000, 'the first attempt');
      await slow.close();
      const copies = await eventually(
        () => {
          const got = receiver.of('card.banned').filter((r) => r.json.data.card_id === card.id);
          return got.length === 2 ? got : undefined;
        },
        10_000,
        'the retry after the restart',
      );
      expect(copies[1].json.id).toBe(copies[0].json.id);

      // Two instances on one queue: 20 bans, each delivered once.
      const second = await startTestApp(FAST, { shareWith: t });
      try {
        const cards = await Promise.all(Array.from({ length: 20 }, () => newCard(p)));
        const ids = await a.client
          .post(`/admin/v1/projects/${p.id}/cards/bulk`, { action: 'ban', ids: cards.map((c) => c.id) })
          .expect(200);
        expect(ids.body.changed).toBe(20);
        const wanted = new Set(cards.map((c) => c.id));
        await eventually(
          () =>
            new Set(
              receiver
                .of('card.banned')
                .map((r) => r.json.data.card_id)
                .filter((id) => wanted.has(id as number)),
            ).size === 20,
          10_000,
          '20 bans',
        );
        await new Promise((r) => setTimeout(r, 1000));
        expect(receiver.of('card.banned').filter((r) => wanted.has(r.json.data.card_id as number))).toHaveLength(20);
      } finally {
        await second.close();
      }
    },
  );
});
