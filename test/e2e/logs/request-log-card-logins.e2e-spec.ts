import { ErrorCode } from '../../../src/core/errors/error-code';
import { SessionsService } from '../../../src/sessions/sessions.service';
import { insertCard } from '../../support/cards';
import { inOneWindow } from '../../support/failure-window';
import { parseMetrics } from '../../support/metrics';
import { sdkLogin } from '../../support/standard';
import { buildWorld, Project, World } from '../../support/world';

/**
 * A card login's request has exactly one row in the request log: the login-log row the login wrote
 * itself, or, when the login wrote none, the request log's own. The login says which in its answer
 * or refusal (the rule never touches the request context), and card_logins_total counts
 * the logins that wrote their row, one per login-log row (docs/operations.md).
 */
let world: World;

const login = (project: Project, key: string, machine: string) =>
  sdkLogin(world.t, project.api_secret, { app: project.program_id, card_key: key, machine_id: machine });

/** card_logins_total{family="sdk", result} now; 0 while the series does not exist. */
async function sdkLoginsCounted(result: number): Promise<number> {
  const samples = parseMetrics((await world.t.http().get('/metrics').expect(200)).text);
  const sample = samples.find(
    (s) => s.name === 'card_logins_total' && s.labels.family === 'sdk' && s.labels.result === `${result}`,
  );
  return sample?.value ?? 0;
}

/** The request ids of the project's request log, once `count` rows are there, or after 3 s. */
async function requestLogOf(project: Project, count: number): Promise<Array<{ request_id: string; result_code: number }>> {
  let items: Array<{ request_id: string; result_code: number }> = [];
  for (let attempt = 0; attempt < 30; attempt++) {
    items = (await world.author.get(`/admin/v1/projects/${project.id}/requests?page_size=100`)).body.items;
    if (items.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return items.map(({ request_id, result_code }) => ({ request_id, result_code }));
}

describe('request log and card_logins_total: one row per card login request (e2e)', () => {
  beforeAll(async () => {
    world = await buildWorld();
  });
  afterAll(() => world?.close());

  it('keeps a login refused over the guessing limit in the request log, and does not count it: its login wrote no row', () =>
    inOneWindow(async () => {
      const project = await world.author.createProject({ card_guess_limit_per_minute: 1 });
      const limitedBefore = await sdkLoginsCounted(ErrorCode.RATE_LIMITED);
      const wrongBefore = await sdkLoginsCounted(ErrorCode.CARD_INVALID);

      const wrong = await login(project, 'NO-SUCH-KEY-GUESS-1', 'pc-guess');
      const limited = await login(project, 'NO-SUCH-KEY-GUESS-2', 'pc-guess');
      expect([wrong.body.code, limited.status, limited.body.code]).toEqual([ErrorCode.CARD_INVALID, 429, ErrorCode.RATE_LIMITED]);

      expect(await requestLogOf(project, 2)).toEqual([
        { request_id: limited.headers['x-request-id'], result_code: ErrorCode.RATE_LIMITED },
        { request_id: wrong.headers['x-request-id'], result_code: ErrorCode.CARD_INVALID },
      ]);
      const logins = await world.author.get(`/admin/v1/projects/${project.id}/logs`);
      expect(logins.body.items.map((item: { request_id: string }) => item.request_id)).toEqual([wrong.headers['x-request-id']]);
      expect(await sdkLoginsCounted(ErrorCode.CARD_INVALID)).toBe(wrongBefore + 1);
      expect(await sdkLoginsCounted(ErrorCode.RATE_LIMITED)).toBe(limitedBefore);
    }));

  it('counts a login whose session then fails to open once, with the fault answered, and gives its request no second row', async () => {
    const project = await world.author.createProject();
    const card = await insertCard(world.t, project.id);
    const faultsBefore = await sdkLoginsCounted(ErrorCode.SYSTEM_ERROR);
    const open = jest.spyOn(world.t.app.get(SessionsService), 'open').mockRejectedValueOnce(new Error('session store down'));
    let failed: Awaited<ReturnType<typeof login>>;
    try {
      failed = await login(project, card.code, 'pc-fault');
    } finally {
      open.mockRestore();
    }
    expect([failed.status, failed.body.code]).toEqual([500, ErrorCode.SYSTEM_ERROR]);
    expect(await sdkLoginsCounted(ErrorCode.SYSTEM_ERROR)).toBe(faultsBefore + 1);

    // A later login: once its row is there, a second row of the failed one would be too.
    const again = await login(project, card.code, 'pc-fault');
    expect(again.body.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300)); // longer than a batch of request-log rows waits
    expect(await requestLogOf(project, 2)).toEqual([
      { request_id: again.headers['x-request-id'], result_code: 0 },
      // The login's own row: the card was logged in before the session failed.
      { request_id: failed.headers['x-request-id'], result_code: 0 },
    ]);
  });
});
