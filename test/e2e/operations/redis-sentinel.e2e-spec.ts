import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Response } from 'supertest';
import { loadConfig } from '../../../src/config/app-config';
import { REDIS_CLIENT } from '../../../src/core/store/store.providers';
import { checkSentinels } from '../../../src/doctor/checks';
import {
  SENTINEL_MASTER,
  sentinelBinariesInstalled,
  SentinelTopology,
  startSentinelTopology,
} from '../../support/redis-sentinel';
import { CODES, sdkLogin } from '../../support/standard';
import { buildWorld, World } from '../../support/world';

const FOLLOW_LIMIT_MS = 30_000;
const SYSTEM_ERROR = 50000;

type Kind = 'valid card' | 'invalid card' | 'replayed nonce';
interface Answer {
  kind: Kind;
  at: number;
  status: number;
  code: number;
  errorId?: string;
  nonce: string;
}

/**
 * Decisions §25: behind Redis Sentinel, a killed primary makes whatever needs Redis fail closed
 * (SYSTEM_ERROR with an error id, never a wrong success) and the service follows the promoted
 * replica within 30 s, without a restart. Runs in the PostgreSQL+Redis pass, where .ci/services.sh
 * installed Debian's redis-sentinel; the test runs its own primary, replica and three sentinels.
 */
(process.env.REDIS_URL && sentinelBinariesInstalled() ? describe : describe.skip)('Redis Sentinel failover (e2e)', () => {
  let topology: SentinelTopology;
  let world: World;
  const sentinelEnv = () => ({ REDIS_URL: '', REDIS_SENTINELS: topology.sentinels, REDIS_SENTINEL_MASTER: SENTINEL_MASTER });

  beforeAll(async () => {
    topology = await startSentinelTopology();
    world = await buildWorld({ env: sentinelEnv(), cards: 1 });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
    await topology?.stop();
  });

  const login = (kind: Kind, nonce = randomBytes(12).toString('hex')) => {
    const cardKey = kind === 'invalid card' ? `NOPE-${randomBytes(6).toString('hex')}` : world.cards[0].code;
    return sdkLogin(
      world.t,
      world.project.api_secret,
      { app: world.project.program_id, card_key: cardKey, machine_id: 'sentinel-pc' },
      { nonce },
    );
  };
  const nonceKey = (nonce: string) => `ck:hmac-nonce:${world.project.id}:${nonce}`;

  it('finds the primary through the sentinels, as the doctor reports', async () => {
    const [finding] = await checkSentinels(loadConfig(sentinelEnv()));
    expect(finding).toMatchObject({
      check: 'sentinel',
      severity: 'ok',
      message: expect.stringContaining(`127.0.0.1:${topology.primaryPort}`),
    });
    const [partial] = await checkSentinels(
      loadConfig({ ...sentinelEnv(), REDIS_SENTINELS: `${topology.sentinels},127.0.0.1:1` }),
    );
    expect(partial).toMatchObject({ severity: 'warn', message: expect.stringContaining('3 of 4 sentinels') });
    const client = world.t.app.get<Redis>(REDIS_CLIENT);
    expect(client.stream.remotePort).toBe(topology.primaryPort);
  });

  it('fails closed while the primary is gone and follows the promoted replica within 30 s', async () => {
    const replayedNonce = randomBytes(12).toString('hex');
    expect((await login('valid card', replayedNonce).expect(200)).body.code).toBe(0);
    expect((await login('valid card', replayedNonce)).body.code).toBe(CODES.NONCE_REPLAYED);
    await topology.replicaCaughtUp(); // the nonce is on the replica before its primary dies

    const answers: Answer[] = [];
    const send = async (kind: Kind, nonce?: string) => {
      const sent = nonce ?? randomBytes(12).toString('hex');
      const res: Response = await login(kind, sent);
      answers.push({ kind, at: Date.now(), status: res.status, code: res.body?.code, errorId: res.body?.error_id, nonce: sent });
    };

    const killedAt = Date.now();
    topology.killPrimary();
    let promotedAt: number | null = null;
    let newPrimary: string | null = null;
    const watchSentinels = (async () => {
      while (promotedAt === null && Date.now() - killedAt < 45_000) {
        const address = await topology.primaryAddress();
        if (address && address !== `127.0.0.1:${topology.primaryPort}`) {
          promotedAt = Date.now();
          newPrimary = address;
        } else await pause(100);
      }
    })();
    let recoveredAt: number | null = null;
    while (Date.now() - killedAt < 50_000) {
      await Promise.all([send('valid card'), send('invalid card'), send('replayed nonce', replayedNonce)]);
      const success = answers.find((a) => a.kind === 'valid card' && a.code === 0 && promotedAt !== null && a.at >= promotedAt);
      if (success && recoveredAt === null) recoveredAt = success.at;
      if (recoveredAt !== null && Date.now() - recoveredAt > 1000) break;
      await pause(50);
    }
    await watchSentinels;

    const failures = answers.filter((a) => a.code === SYSTEM_ERROR);
    process.stdout.write(
      `Redis Sentinel failover: promotion ${promotedAt === null ? 'never' : `${promotedAt - killedAt} ms`} after the kill; ` +
        `first login success ${recoveredAt === null || promotedAt === null ? 'never' : `${recoveredAt - promotedAt} ms`} after the promotion; ` +
        `${failures.length} of ${answers.length} answers SYSTEM_ERROR during the failover\n`,
    );

    expect(promotedAt).not.toBeNull();
    expect(newPrimary).toBe(`127.0.0.1:${topology.replicaPort}`);
    expect(recoveredAt).not.toBeNull();
    expect(recoveredAt! - promotedAt!).toBeLessThanOrEqual(FOLLOW_LIMIT_MS);
    // Fail closed: a success only for the valid card with a fresh nonce, else SYSTEM_ERROR with an error id.
    for (const answer of answers) {
      if (answer.code === SYSTEM_ERROR) {
        expect({ ...answer, status: answer.status }).toMatchObject({
          status: 500,
          errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
        continue;
      }
      const expected = { 'valid card': 0, 'invalid card': CODES.CARD_INVALID, 'replayed nonce': CODES.NONCE_REPLAYED }[
        answer.kind
      ];
      expect({ kind: answer.kind, code: answer.code }).toEqual({ kind: answer.kind, code: expected });
    }
    expect(failures.length).toBeGreaterThan(0); // the failover was seen, not slept through

    // The state is on the new primary: the nonce claimed before the kill (replicated) and every
    // nonce a success claimed since; the service's one client now talks to it.
    const promoted = topology.client(topology.replicaPort);
    await promoted.connect();
    expect(await promoted.exists(nonceKey(replayedNonce))).toBe(1);
    const successes = answers.filter((a) => a.kind === 'valid card' && a.code === 0);
    expect(successes.length).toBeGreaterThan(0);
    for (const success of successes) expect(await promoted.exists(nonceKey(success.nonce))).toBe(1);
    expect((await login('valid card', replayedNonce)).body.code).toBe(CODES.NONCE_REPLAYED);
    expect(world.t.app.get<Redis>(REDIS_CLIENT).stream.remotePort).toBe(topology.replicaPort);
  }, 70_000);
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
