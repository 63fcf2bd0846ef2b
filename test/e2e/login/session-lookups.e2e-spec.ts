import { ErrorCode } from '../../../src/core/errors/error-code';
import { PreparedStatements } from '../../../src/database/prepared-statements';
import { SessionsService } from '../../../src/sessions/sessions.service';
import { cardRepos, insertCard } from '../../support/cards';
import { buildWorld, World } from '../../support/world';

/**
 * Heartbeats pending at the same time share the session lookup (statement-batcher.ts):
 * each still gets its own session and its own refusal, on a real database.
 */
describe('session lookups of concurrent heartbeats', () => {
  let world: World;
  let sessions: SessionsService;
  let statements: PreparedStatements;

  beforeAll(async () => {
    world = await buildWorld();
    sessions = world.t.app.get(SessionsService);
    statements = world.t.app.get(PreparedStatements);
  });
  afterAll(() => world?.close());

  it('resolves 20 concurrent heartbeats from fewer statements, each to its own session; a revoked one is refused alone', async () => {
    const card = await insertCard(world.t, world.project.id, { status: 'active', deviceLimit: 20 });
    const opened = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sessions.open({
          type: 'card',
          projectId: world.project.id,
          cardId: card.id,
          machine: `pc-${i}`,
          expiresAt: new Date(Date.now() + 3_600_000),
        }),
      ),
    );
    await sessions.revoke(opened[7].session.id, 'forced_offline');
    const sent = jest.spyOn(statements, 'rows');

    const outcomes = await Promise.allSettled(
      opened.map(({ token }, i) => sessions.resolve(token, 'card', `pc-${i}`, async (projectId) => projectId)),
    );

    expect(sent.mock.calls.length).toBeLessThan(20);
    outcomes.forEach((outcome, i) => {
      if (i === 7) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.SESSION_INVALID } });
      else
        expect(outcome).toMatchObject({
          status: 'fulfilled',
          value: { session: { id: opened[i].session.id, machineCode: `pc-${i}` }, program: world.project.id },
        });
    });
    sent.mockRestore();
  });

  it("answers a token sent twice in one statement to both, with each card session's device binding and card state", async () => {
    const card = await insertCard(world.t, world.project.id, { status: 'active', deviceLimit: 5 });
    await cardRepos(world.t).devices.save({ cardId: card.id, machineCode: 'pc-bound' });
    const expiresAt = new Date(Date.now() + 3_600_000);
    const bound = await sessions.open({
      type: 'card',
      projectId: world.project.id,
      cardId: card.id,
      machine: 'pc-bound',
      expiresAt,
    });
    const loose = await sessions.open({
      type: 'card',
      projectId: world.project.id,
      cardId: card.id,
      machine: 'pc-loose',
      expiresAt,
    });
    const sent = jest.spyOn(statements, 'rows');

    const [first, again, unbound] = await Promise.all(
      [
        [bound.token, 'pc-bound'],
        [bound.token, 'pc-bound'],
        [loose.token, 'pc-loose'],
      ].map(([token, machine]) => sessions.resolve(token, 'card', machine, async (projectId) => projectId)),
    );

    expect(sent).toHaveBeenCalledTimes(1);
    for (const live of [first, again]) {
      expect(live.session.id).toBe(bound.session.id);
      expect(live.card).toEqual({
        status: 'active',
        expiresAt: null,
        deviceBound: true,
        deviceLastSeenAt: expect.any(Date),
        features: [],
        trial: false,
      });
    }
    expect(unbound.session.id).toBe(loose.session.id);
    expect(unbound.card).toEqual({
      status: 'active',
      expiresAt: null,
      deviceBound: false,
      deviceLastSeenAt: null,
      features: [],
      trial: false,
    });
    sent.mockRestore();
  });
});
