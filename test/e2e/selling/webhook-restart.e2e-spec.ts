import { callService as call, ServiceProcess, signInService as signIn } from '../../support/service-process';
import { serviceProcessStores } from '../../support/service-stores';
import { ADMIN_PASSWORD } from '../../support/test-app';
import { eventually, Receiver } from '../../support/webhook-receiver';

interface Delivery {
  status: string;
  attempts: number;
  attempt_log: Array<{ http_status: number }>;
}

/**
 * A delivery whose receiver failed is retried after the service restarts, on either
 * database. The outbox lives in the database, so a real service process is killed (SIGKILL: no
 * chance to flush anything) between the failed attempt and its retry, and a new one started on the
 * same data. On the embedded database a second instance cannot share it; a restart is all it has.
 */
describe('a webhook delivery survives a restart between attempts (e2e, a real service process)', () => {
  const world = serviceProcessStores({
    // The retry is due 3 s after the failure: the first process is gone long before.
    WEBHOOK_RETRY_DELAYS: '3',
    WEBHOOK_POLL_MS: '200',
  });
  let service: ServiceProcess;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
  });

  it('retries a failed card.banned delivery from the new process, with the same event id, and logs both attempts', async () => {
    service = await world.start();
    const admin = await signIn(service, 'admin', ADMIN_PASSWORD);
    await call(service, 'PUT', '/admin/v1/platform/settings', { webhook_private_targets: true }, admin, 200); // the local receiver
    const author = { username: `hook${Date.now().toString(36)}`, password: 'author-password-hook' };
    await call(service, 'POST', '/admin/v1/authors', author, admin, 201);
    const token = await signIn(service, author.username, author.password);
    const project = await call<{ id: string }>(service, 'POST', '/admin/v1/projects', { name: 'Restart' }, token, 201);
    const hooks = `/admin/v1/projects/${project.id}/webhooks`;
    const hook = await call<{ id: string }>(service, 'POST', hooks, { url: receiver.url, events: ['card.banned'] }, token, 201);
    const batch = await call<{ items: Array<{ id: number }> }>(
      service,
      'POST',
      `/admin/v1/projects/${project.id}/cards`,
      { count: 1, duration_seconds: 86400 },
      token,
      201,
    );
    const cardId = batch.items[0].id;
    const banned = () => receiver.of('card.banned').filter((r) => r.json.data.card_id === cardId);

    receiver.statuses.push(500);
    await call(service, 'PATCH', `/admin/v1/projects/${project.id}/cards/${cardId}`, { status: 'banned' }, token, 200);
    await eventually(() => banned().length === 1, 5000, 'the first attempt');
    // Killed once the failed attempt is on record (a kill while its answer is on the way would
    // leave the attempt unrecorded, and its retry would be a first attempt, not the test's case).
    const deliveries = (client: ServiceProcess, bearer: string) =>
      call<{ items: Delivery[] }>(client, 'GET', `${hooks}/${hook.id}/deliveries`, undefined, bearer, 200);
    await eventually(
      async () => (await deliveries(service!, token)).items[0]?.attempts === 1,
      5000,
      'the failed attempt on record',
    );
    await service.kill('SIGKILL');

    service = await world.start();
    const copies = await eventually(() => (banned().length === 2 ? banned() : undefined), 15_000, 'the retry after the restart');
    expect(copies[1].json.id).toBe(copies[0].json.id);
    const again = await signIn(service, author.username, author.password);
    const delivery = await eventually(
      async () => {
        const page = await deliveries(service!, again);
        return page.items[0]?.status === 'delivered' ? page.items[0] : undefined;
      },
      5000,
      'the delivery log',
    );
    expect(delivery.attempt_log.map((attempt) => attempt.http_status)).toEqual([500, 200]);
  });
});
