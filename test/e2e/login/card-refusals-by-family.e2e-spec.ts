import type { Response } from 'supertest';
import type { ClientFamilyName } from '../../../src/core/client-families';
import { Card } from '../../../src/cards/card.entity';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, expectConnectFailure, logRowsOf } from '../../support/connect';
import { expectLegacyFailure, md5Signed } from '../../support/legacy';
import { CODES, expectStandardFailure, sdkLogin, sessionRepo, v3Login } from '../../support/standard';
import { buildWorld, Project, World } from '../../support/world';

/**
 * How each client family renders the card rule's outcomes: one table, every family against every
 * card refusal. The rule itself (which card is refused, what a refusal leaves untouched, the races)
 * is checked once in test/service/card-login.service-spec.ts; here only what a client of each family reads.
 */
interface Family {
  name: string;
  /** The family name in the login log. */
  logged: ClientFamilyName;
  login(project: Project, cardKey: string, machine: string): PromiseLike<Response>;
  /** Asserts the family's success envelope. */
  expectSuccess(res: Response): void;
  /** Asserts the family's failure envelope for a catalog code (card refusals are all HTTP 200). */
  expectRefusal(res: Response, code: number): void;
}

const FAMILIES: Family[] = [
  {
    name: 'Connect',
    logged: 'connect',
    login: (p, key, machine) => connectLogin(world.t, p.program_id, { user_key: key, serial: machine }),
    expectSuccess: (res) =>
      expect({ http: res.status, status: res.body.status, code: res.body.code }).toEqual({ http: 200, status: true, code: 1 }),
    expectRefusal: (res, code) => expectConnectFailure(res, 200, -code),
  },
  {
    name: 'V3',
    logged: 'v3',
    login: (p, key, machine) => v3Login(world.t, p.api_secret, { app: p.program_id, kami: key, imei: machine }),
    expectSuccess: (res) =>
      expect({ http: res.status, success: res.body.success, code: res.body.code }).toEqual({ http: 200, success: true, code: 0 }),
    expectRefusal: (res, code) => expectStandardFailure(res, 200, code),
  },
  {
    name: 'SDK',
    logged: 'sdk',
    login: (p, key, machine) => sdkLogin(world.t, p.api_secret, { app: p.program_id, card_key: key, machine_id: machine }),
    expectSuccess: (res) =>
      expect({ http: res.status, success: res.body.success, code: res.body.code }).toEqual({ http: 200, success: true, code: 0 }),
    expectRefusal: (res, code) => expectStandardFailure(res, 200, code),
  },
  {
    name: 'legacy /api/kmlogon',
    logged: 'legacy',
    login: (p, key, machine) => legacyPost('/api/kmlogon', { app: p.program_id, kami: key, imei: machine }),
    expectSuccess: (res) => expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 1 }),
    expectRefusal: (res, code) => expectLegacyFailure(res, 200, code),
  },
  {
    name: 'legacy /api/card_login (MD5)',
    logged: 'legacy',
    login: (p, key, machine) =>
      legacyPost('/api/card_login', md5Signed({ app: p.program_id, kami: key, imei: machine }, p.legacy_secret)),
    expectSuccess: (res) => expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 1 }),
    expectRefusal: (res, code) => expectLegacyFailure(res, 200, code),
  },
];

/** A card refusal: how to make a card that the rule refuses, and the device that asks. */
interface Refusal {
  code: number;
  /** The refused attempt's card key and device; the card to find untouched, and whether the log row names it. */
  arrange(family: Family): Promise<{ key: string; machine: string; card: Card | null; logged?: false }>;
}

const REFUSALS: Record<string, Refusal> = {
  'an unknown card key': {
    code: CODES.CARD_INVALID,
    arrange: async () => ({ key: 'NO-SUCH-CARD-KEY', machine: 'pc', card: null }),
  },
  'a card of another program': {
    code: CODES.CARD_INVALID,
    arrange: async () => {
      const card = await insertCard(world.t, otherProject.id);
      return { key: card.code, machine: 'pc', card, logged: false };
    },
  },
  'an expired card, from its bound device': {
    code: CODES.CARD_EXPIRED,
    arrange: async () => {
      const activatedAt = new Date(Date.now() - 86_400_000);
      const card = await insertCard(world.t, world.project.id, {
        status: 'active',
        activatedAt,
        expiresAt: new Date(Date.now() - 1000),
        useCount: 1,
      });
      await cardRepos(world.t).devices.insert({ cardId: card.id, machineCode: 'bound-pc', boundAt: activatedAt });
      return { key: card.code, machine: 'bound-pc', card };
    },
  },
  'a banned card': {
    code: CODES.CARD_BANNED,
    arrange: async () => {
      const card = await insertCard(world.t, world.project.id, { status: 'banned' });
      return { key: card.code, machine: 'pc', card };
    },
  },
  'a new device beyond the device limit': {
    code: CODES.DEVICE_LIMIT_REACHED,
    arrange: async (family) => {
      const card = await insertCard(world.t, world.project.id, { deviceLimit: 1 });
      family.expectSuccess(await family.login(world.project, card.code, 'first-pc'));
      return { key: card.code, machine: 'second-pc', card };
    },
  },
};

let world: World;
let otherProject: Project;

/** What a refused login must leave as it was: the card row, its devices, its sessions. */
async function stateOf(card: Card) {
  const { cards, devices } = cardRepos(world.t);
  return {
    card: await cards.findOneByOrFail({ id: card.id }),
    devices: (await devices.findBy({ cardId: card.id })).map((device) => device.machineCode).sort(),
    sessions: await sessionRepo(world.t).countBy({ cardId: card.id }),
  };
}

function legacyPost(path: string, fields: Record<string, string>) {
  return world.t.http().post(path).type('form').send(new URLSearchParams(fields).toString());
}

describe('card refusals as each family renders them (e2e)', () => {
  beforeAll(async () => {
    world = await buildWorld({ connect: true });
    otherProject = await world.author.createProject();
  });
  afterAll(() => world?.close());

  describe.each(FAMILIES.map((family) => [family.name, family] as const))('%s', (_name, family) => {
    it('renders a success in its own envelope', async () => {
      const card = await insertCard(world.t, world.project.id);
      family.expectSuccess(await family.login(world.project, card.code, 'pc'));
    });

    it.each(Object.entries(REFUSALS))('renders %s as its code, logged once, the card untouched', async (_case, refusal) => {
      const { key, machine, card, logged } = await refusal.arrange(family);
      const before = card && (await stateOf(card));
      const res = await family.login(world.project, key, machine);
      family.expectRefusal(res, refusal.code);
      const rows = await logRowsOf(world.t, res.headers['x-request-id']);
      expect(
        rows.map((row) => ({
          family: row.family,
          result: row.resultCode,
          card: row.cardId,
          key: row.cardCode,
          machine: row.machineCode,
        })),
      ).toEqual([
        { family: family.logged, result: refusal.code, card: logged === false ? null : (card?.id ?? null), key, machine },
      ]);
      if (card) expect(await stateOf(card)).toEqual(before);
      // A device the card had before the refusal still logs in.
      if (refusal.code === CODES.DEVICE_LIMIT_REACHED) family.expectSuccess(await family.login(world.project, key, 'first-pc'));
    });
  });
});
