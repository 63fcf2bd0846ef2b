import { callService as call, ServiceProcess, signInService as signIn } from '../../support/service-process';
import { serviceProcessStores } from '../../support/service-stores';
import { ADMIN_PASSWORD } from '../../support/test-app';

const CARDS = 48;
const CONCURRENCY = 32;

function connectLogin(service: ServiceProcess, programId: string, cardKey: string, machine: string) {
  return fetch(`${service.url}/connect/${programId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_key: cardKey, serial: machine }),
  }).then(async (res) => ({ http: res.status, body: (await res.json()) as { status: boolean; request_id: string } }));
}

/**
 * A login answered as a success is in the database, whatever happens to the service
 * after the answer. Repeat logins (the group-committed path) run at full speed while the service
 * process is killed with SIGKILL; after a restart on the same database, every answered login has
 * its log row and every card counts at least its answered logins.
 */
describe('a SIGKILL during logins loses no answered login (e2e, a real service process)', () => {
  const world = serviceProcessStores();
  let service: ServiceProcess;

  it('keeps every login answered before the kill', async () => {
    service = await world.start();
    const admin = await signIn(service, 'admin', ADMIN_PASSWORD);
    const author = { username: `crash${Date.now().toString(36)}`, password: 'author-password-crash' };
    await call(service, 'POST', '/admin/v1/authors', author, admin, 201);
    const authorToken = await signIn(service, author.username, author.password);
    const project = await call<{ id: string; program_id: string }>(
      service,
      'POST',
      '/admin/v1/projects',
      { name: 'Crash' },
      authorToken,
      201,
    );
    // The basic package opens Connect in the default opening mode.
    await call(
      service,
      'PUT',
      `/admin/v1/projects/${project.id}/entitlements`,
      { basic_package: true, plan_level: 1, licence_verify: false },
      admin,
      200,
    );
    const { items } = await call<{ items: Array<{ code: string }> }>(
      service,
      'POST',
      `/admin/v1/projects/${project.id}/cards`,
      { count: CARDS, duration_seconds: 86_400, device_limit: 1 },
      authorToken,
      201,
    );
    const codes = items.map((card) => card.code);
    for (const [i, code] of codes.entries())
      expect((await connectLogin(service, project.program_id, code, `pc-${i}`)).body.status).toBe(true);

    // Repeat logins from CONCURRENCY loops until the kill; the successes answered are recorded.
    const answered = new Map<string, number>();
    let running = true;
    const loops = Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let n = loop; running; n += CONCURRENCY) {
        const i = n % CARDS;
        const outcome = await connectLogin(service!, project.program_id, codes[i], `pc-${i}`).catch(() => null);
        if (outcome?.http === 200 && outcome.body.status === true) answered.set(outcome.body.request_id, i);
      }
    });
    while (answered.size < 300) await new Promise((resolve) => setTimeout(resolve, 20));
    await service.kill('SIGKILL');
    running = false;
    await Promise.all(loops);

    service = await world.start();
    const token = await signIn(service, author.username, author.password);
    // The project's whole log, a page at a time: every answered login is one row with result 0.
    const logged = new Map<string, number[]>();
    for (let page = 1; ; page++) {
      const { items } = await call<{ items: Array<{ request_id: string; result_code: number }> }>(
        service,
        'GET',
        `/admin/v1/projects/${project.id}/logs?page_size=100&page=${page}`,
        undefined,
        token,
        200,
      );
      for (const row of items) logged.set(row.request_id, [...(logged.get(row.request_id) ?? []), row.result_code]);
      if (items.length < 100) break;
    }
    const missing = [...answered.keys()].filter((requestId) => logged.get(requestId)?.join() !== '0');
    expect(missing).toEqual([]);
    const cards = await call<{ items: Array<{ code: string; use_count: number }> }>(
      service,
      'GET',
      `/admin/v1/projects/${project.id}/cards?page_size=100`,
      undefined,
      token,
      200,
    );
    const answeredPerCard = codes.map((_, i) => [...answered.values()].filter((card) => card === i).length);
    for (const [i, code] of codes.entries()) {
      // The first login, plus at least every repeat login answered (one in flight may have committed unanswered).
      expect(cards.items.find((card) => card.code === code)!.use_count).toBeGreaterThanOrEqual(1 + answeredPerCard[i]);
    }
  }, 120_000);
});
