import { insertCard } from '../../support/cards';
import { md5Signed } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, CODES, sdkLogin } from '../../support/standard';
import { buildWorld, World } from '../../support/world';

/**
 * A card's timeline in the request log (decisions §22): every client request that acted on a card
 * shows on it, answered or refused, whichever family asked. The domain services name the card in
 * their answer or refusal and the HTTP layer records it, so this pins each of them.
 */
let world: World;

const sdk = (operation: string, fields: Record<string, string>) =>
  signedPost(
    world.t,
    `/api/v1/cards/${operation}`,
    { app: world.project.program_id, ...fields },
    'json',
    world.project.api_secret,
  );

const legacy = (path: string, fields: Record<string, string>) =>
  world.t
    .http()
    .post(path)
    .type('form')
    .send(new URLSearchParams(md5Signed({ app: world.project.program_id, ...fields }, world.project.legacy_secret)).toString());

/** The request ids on the card's timeline, once `count` rows are there (rows are written after the answer). */
async function timelineOf(cardId: number, count: number): Promise<string[]> {
  let ids: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await world.author.get(`/admin/v1/projects/${world.project.id}/requests?card=${cardId}&page_size=100`);
    ids = res.body.items.map((item: { request_id: string }) => item.request_id);
    if (ids.length >= count) return ids;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return ids;
}

/** The request's entry, once it is written. */
async function entryOf(requestId: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await world.author.get(`/admin/v1/projects/${world.project.id}/requests/${requestId}`);
    if (res.status === 200) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`request ${requestId} never reached the log`);
}

const requestIds = (answers: Array<{ headers: Record<string, string> }>) => answers.map((res) => res.headers['x-request-id']);

describe("request log: a card's timeline (e2e)", () => {
  beforeAll(async () => {
    world = await buildWorld({ project: { offline_grace_seconds: 3600 } });
  });
  afterAll(() => world?.close());

  it('shows what each family did with the card: lookups, checks, a licence, a heartbeat, a top-up and an unbind', async () => {
    const card = await insertCard(world.t, world.project.id);
    const topupCard = await insertCard(world.t, world.project.id);
    const login = await sdkLogin(world.t, world.project.api_secret, {
      app: world.project.program_id,
      card_key: card.code,
      machine_id: 'pc-a',
    }).expect(200);
    const answered = [
      await sdk('info', { card_key: card.code }),
      await sdk('checkout', { card_key: card.code, machine_id: 'pc-a' }),
      await cardHeartbeat(world.t, login.body.data.session_token, 'pc-a'),
      await sdk('topup', { card_key: card.code, topup_key: topupCard.code }),
      await legacy('/api/check', { kami: card.code, imei: 'pc-a' }),
      await legacy('/api/paycheck', { kami: card.code }),
      await sdk('unbind', { card_key: card.code, machine_id: 'pc-a' }),
    ];
    expect(answered.map((res) => res.body.code)).toEqual([0, 0, 0, 0, 1, 1, 1]);

    const timeline = await timelineOf(card.id, answered.length + 1);
    expect(timeline.sort()).toEqual([login.headers['x-request-id'], ...requestIds(answered)].sort());
    // The top-up card the request consumed has no timeline entry: the request acted on the target.
    expect(await timelineOf(topupCard.id, 0)).toEqual([]);
  });

  it('shows the refusals given once the card was known, and none of a key that names no card', async () => {
    const banned = await insertCard(world.t, world.project.id, { status: 'banned' });
    const topupCard = await insertCard(world.t, world.project.id);
    const refused = [
      await sdk('checkout', { card_key: banned.code, machine_id: 'pc-b' }),
      await sdk('topup', { card_key: banned.code, topup_key: topupCard.code }),
      await sdk('unbind', { card_key: banned.code, machine_id: 'pc-b' }),
      await legacy('/api/check', { kami: banned.code, imei: 'pc-b' }),
    ];
    expect(refused.map((res) => res.body.code)).toEqual([
      CODES.CARD_BANNED,
      CODES.TOPUP_REFUSED,
      CODES.CARD_BANNED,
      CODES.CARD_BANNED,
    ]);
    expect((await timelineOf(banned.id, refused.length)).sort()).toEqual(requestIds(refused).sort());

    // A heartbeat from another machine is refused, and still the session's card's.
    const card = await insertCard(world.t, world.project.id);
    const login = await sdkLogin(world.t, world.project.api_secret, {
      app: world.project.program_id,
      card_key: card.code,
      machine_id: 'pc-c',
    }).expect(200);
    const stray = await cardHeartbeat(world.t, login.body.data.session_token, 'pc-elsewhere');
    expect(stray.body.code).toBe(CODES.MACHINE_MISMATCH);
    expect((await timelineOf(card.id, 2)).sort()).toEqual([login.headers['x-request-id'], stray.headers['x-request-id']].sort());

    const unknown = await sdk('info', { card_key: 'NO-SUCH-CARD-KEY' });
    expect(unknown.body.code).toBe(CODES.CARD_INVALID);
    expect(await entryOf(unknown.headers['x-request-id'])).toMatchObject({ result_code: CODES.CARD_INVALID, card_id: null });
  });
});
