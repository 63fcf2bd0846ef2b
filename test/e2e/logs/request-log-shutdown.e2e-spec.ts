import { callService as call, ServiceProcess, signInService as signIn } from '../../support/service-process';
import { V3_LOGIN } from '../../support/standard';
import { serviceProcessStores } from '../../support/service-stores';
import { ADMIN_PASSWORD } from '../../support/test-app';

const REQUESTS = 12;

/** A V3 login signed with a wrong secret: refused before any card rule, so its row is the request log writer's. */
function forgedLogin(service: ServiceProcess, programId: string, n: number) {
  const body = new URLSearchParams({ app: programId, kami: `ANY-${n}`, imei: 'pc', t: String(Date.now()), sign: 'f'.repeat(64) });
  return fetch(`${service.url}${V3_LOGIN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  }).then((res) => res.headers.get('x-request-id')!);
}

/**
 * The request log's rows gather for a moment before their INSERT (request-log-writer.ts); a service
 * stopped (SIGTERM) right after answering still writes them, so a refusal answered just before a
 * deploy is in the request log after it.
 */
describe('request log rows across a graceful stop (e2e, a real service process)', () => {
  const world = serviceProcessStores();
  let service: ServiceProcess;

  it('writes the rows of requests answered just before SIGTERM', async () => {
    service = await world.start();
    const admin = await signIn(service, 'admin', ADMIN_PASSWORD);
    const author = { username: `stop${Date.now().toString(36)}`, password: 'author-password-stop' };
    await call(service, 'POST', '/admin/v1/authors', author, admin, 201);
    const project = await call<{ id: string; program_id: string }>(
      service,
      'POST',
      '/admin/v1/projects',
      { name: 'Stop' },
      await signIn(service, author.username, author.password),
      201,
    );
    const requestIds = await Promise.all(
      Array.from({ length: REQUESTS }, (_, n) => forgedLogin(service!, project.program_id, n)),
    );
    await service.kill('SIGTERM');

    service = await world.start();
    const token = await signIn(service, author.username, author.password);
    const { items } = await call<{ items: Array<{ request_id: string; route: string }> }>(
      service,
      'GET',
      `/admin/v1/projects/${project.id}/requests?page_size=100`,
      undefined,
      token,
      200,
    );
    expect(items.map((item) => item.request_id).sort()).toEqual([...requestIds].sort());
    expect(new Set(items.map((item) => item.route))).toEqual(new Set([V3_LOGIN]));
  }, 120_000);
});
