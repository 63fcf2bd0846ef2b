import { SharedStore } from '../../../src/core/store/shared-store';
import { connectLogin } from '../../support/connect';
import { insertCard } from '../../support/cards';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, SDK_LOGIN, V3_LOGIN } from '../../support/standard';
import { buildWorld, World } from '../../support/world';

/**
 * A client request reads the cache generations of its program and of the platform once, in one
 * store round trip (hot-cache.ts), however many cached parts it reads: the program, its Connect
 * customization, the interface switches, the settings, the announcement. Each request's context is
 * handed down explicitly, so a path that forgot it would read again; this counts the reads.
 */
describe('cache generations: one store read per client request (e2e)', () => {
  let world: World;

  beforeAll(async () => {
    world = await buildWorld({ connect: true });
  });
  afterAll(() => world.t.close());

  /** The store reads (`getMany`) that `send` causes, and the keys of each. */
  async function readsOf(send: () => PromiseLike<{ status: number }>): Promise<string[][]> {
    const spy = jest.spyOn(world.t.app.get(SharedStore), 'getMany');
    try {
      expect((await send()).status).toBe(200);
      return spy.mock.calls
        .map(([keys]) => [...keys].filter((key) => key.startsWith('cache:generation:')).sort())
        .filter((keys) => keys.length > 0);
    } finally {
      spy.mockRestore();
    }
  }

  const both = (programId: string) => [[`cache:generation:platform`, `cache:generation:program:${programId}`]];

  it('on Connect, V3, SDK, legacy logins and the card heartbeat', async () => {
    const { t, project } = world;
    const card = await insertCard(t, project.id);
    const app = project.program_id;
    expect(await readsOf(() => connectLogin(t, app, { user_key: card.code, serial: 'dev-r' }))).toEqual(both(app));
    expect(
      await readsOf(() => signedPost(t, V3_LOGIN, { app, kami: card.code, imei: 'dev-r' }, 'form', project.api_secret)),
    ).toEqual(both(app));
    let token = '';
    expect(
      await readsOf(async () => {
        const res = await signedPost(t, SDK_LOGIN, { app, card_key: card.code, machine_id: 'dev-r' }, 'json', project.api_secret);
        token = res.body.data.session_token;
        return res;
      }),
    ).toEqual(both(app));
    expect(await readsOf(() => cardHeartbeat(t, token, 'dev-r'))).toEqual(both(app));
    const legacy = () =>
      t
        .http()
        .post('/api/kmlogon')
        .type('form')
        .send(new URLSearchParams({ app, kami: card.code, imei: 'dev-r' }).toString());
    expect(await readsOf(legacy)).toEqual(both(app));
  });

  it('on the program-user login and the user heartbeat', async () => {
    const { t, project } = world;
    const app = project.program_id;
    const user = { app, username: `reads-${Date.now()}`, password: 'Passw0rd-reads', machine_id: 'dev-u' };
    expect((await signedPost(t, '/api/v1/users/register', user, 'json', project.api_secret)).body.success).toBe(true);
    let token = '';
    expect(
      await readsOf(async () => {
        const res = await signedPost(t, '/api/v1/users/login', user, 'json', project.api_secret);
        token = res.body.data.session_token;
        return res;
      }),
    ).toEqual(both(app));
    expect(
      await readsOf(() =>
        t.http().post('/api/v1/users/heartbeat').set('Authorization', `Bearer ${token}`).send({ machine_id: 'dev-u' }),
      ),
    ).toEqual(both(app));
  });
});
