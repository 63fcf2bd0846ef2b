import { DataSource } from 'typeorm';
import { CardBatchesRepository } from '../../../src/cards/admin/card-batches.repository';
import { Card } from '../../../src/cards/card.entity';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, FILE_TOO_LARGE, PROJECT_NOT_FOUND } from '../../support/admin-errors';
import { cardRepos } from '../../support/cards';
import { cardHeartbeat, CODES, expectStandardFailure, sdkLogin, sessionRepo } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';
import { parseCsv } from '../../support/csv';
import type { CardBatchView, CardView } from '../../../src/cards/admin/card.view';

const { CARD_IMPORT_INVALID, MATCHING_CARDS_NOT_FOUND, UNSUPPORTED_MEDIA_TYPE } = CODES;
const DAY = 86_400_000;
const HOUR_S = 3600;

/** The admin API's card resource, as the service declares it. */
type CardBody = CardView;
type BatchBody = CardBatchView;
type Project = Awaited<ReturnType<AdminClient['createProject']>>;
type Problem = { line: number; field: string | null; reason: string; params: Record<string, string | number>; message: string };

describe('cards admin: per-card edits, bulk actions, filters, CSV import (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: AdminClient;
  let b: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = (await admin.createAuthor()).client;
    b = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  const cardsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/cards`;
  const generate = async (p: { id: string }, body: object): Promise<BatchBody> =>
    (await a.post(cardsOf(p), body).expect(201)).body;
  const getCard = async (p: { id: string }, id: number): Promise<CardBody> =>
    (await a.get(`${cardsOf(p)}/${id}`).expect(200)).body;
  const patch = (p: { id: string }, id: number, body: object) => a.patch(`${cardsOf(p)}/${id}`, body);
  const bulk = (p: { id: string }, body: object, client: AdminClient = a) => client.post(`${cardsOf(p)}/bulk`, body);
  async function listIds(p: { id: string }, query = ''): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const body = (await a.get(`${cardsOf(p)}?page_size=100&page=${page}${query}`).expect(200)).body;
      ids.push(...body.items.map((c: CardBody) => c.id));
      if (body.items.length < 100) return ids.sort((x, y) => x - y);
    }
  }
  const exportCsv = async (p: { id: string }, query = '') =>
    (await a.get(`${cardsOf(p)}/export.csv${query ? `?${query}` : ''}`).expect(200)).text;
  const importCsv = (p: { id: string }, csv: string, query = '', type = 'text/csv', client: AdminClient = a) =>
    t
      .http()
      .post(`${cardsOf(p)}/import${query}`)
      .set(client.auth())
      .set('Content-Type', type)
      .send(csv);
  /** Puts a card in a state only logins reach: activated (and maybe expired, or permanent). */
  async function activate(id: number, expiresAt: Date | null, fields: Partial<Card> = {}) {
    await cardRepos(t).cards.update({ id }, { status: 'active', activatedAt: new Date(Date.now() - DAY), expiresAt, ...fields });
  }

  describe('PATCH /cards/:cardId: expiry, extension, uses, seats', () => {
    let p: Project;
    beforeAll(async () => {
      p = await a.createProject({ device_limit: 2 });
    });

    it('sets the expiry of an activated card, makes it permanent with null, and a past expiry expires it', async () => {
      const [card] = (await generate(p, { count: 1, duration_seconds: HOUR_S })).items;
      await activate(card.id, new Date(Date.now() + DAY));
      const at = '2031-05-06T07:08:09.000Z';
      expect((await patch(p, card.id, { expires_at: '2031-05-06T09:08:09+02:00' }).expect(200)).body).toMatchObject({
        expires_at: at,
        status: 'active',
      });
      expect((await patch(p, card.id, { expires_at: null }).expect(200)).body.expires_at).toBeNull();
      const past = new Date(Date.now() - 60_000).toISOString();
      expect((await patch(p, card.id, { expires_at: past }).expect(200)).body.expires_at).toBe(past);
      expect(await listIds(p, '&expired=true')).toContain(card.id);
    });

    it('extends an activated card from its expiry, and a card never activated by its duration', async () => {
      const [used, fresh] = (await generate(p, { count: 2, duration_seconds: HOUR_S })).items;
      const expiresAt = new Date(Date.now() + DAY);
      await activate(used.id, expiresAt);
      expect((await patch(p, used.id, { extend_seconds: 7200 }).expect(200)).body.expires_at).toBe(
        new Date(expiresAt.getTime() + 7_200_000).toISOString(),
      );
      expect((await patch(p, fresh.id, { extend_seconds: 60 }).expect(200)).body).toMatchObject({
        duration_seconds: HOUR_S + 60,
        expires_at: null,
        status: 'unused',
      });
      // The duration never passes the integer range.
      expect((await patch(p, fresh.id, { extend_seconds: 2 ** 31 - 1 }).expect(200)).body.duration_seconds).toBe(2 ** 31 - 1);
    });

    it('sets uses_left of a count card and concurrent_limit of any card (null = unlimited)', async () => {
      const [count] = (await generate(p, { count: 1, duration_seconds: 0, kind: 'count', uses: 5 })).items;
      expect((await patch(p, count.id, { uses_left: 0 }).expect(200)).body.uses_left).toBe(0);
      expect((await patch(p, count.id, { uses_left: 1_000_000, concurrent_limit: 3 }).expect(200)).body).toMatchObject({
        uses_left: 1_000_000,
        concurrent_limit: 3,
      });
      expect((await patch(p, count.id, { concurrent_limit: null }).expect(200)).body.concurrent_limit).toBeNull();
    });

    it.each<[string, (ids: Record<string, number>) => [number, object], string]>([
      ['expires_at on a card never activated', (i) => [i.fresh, { expires_at: '2030-01-01T00:00:00Z' }], 'expires_at'],
      [
        'expires_at and extend_seconds together',
        (i) => [i.used, { expires_at: '2030-01-01T00:00:00Z', extend_seconds: 5 }],
        'extend_seconds',
      ],
      ['expires_at without an offset', (i) => [i.used, { expires_at: '2030-01-01T00:00:00' }], 'expires_at'],
      ['expires_at on a date that does not exist', (i) => [i.used, { expires_at: '2030-02-30T00:00:00Z' }], 'expires_at'],
      ['expires_at as a number', (i) => [i.used, { expires_at: 1893456000 }], 'expires_at'],
      ['extend_seconds 0', (i) => [i.used, { extend_seconds: 0 }], 'extend_seconds'],
      ['extend_seconds -60', (i) => [i.used, { extend_seconds: -60 }], 'extend_seconds'],
      ['extend_seconds on a permanent activated card', (i) => [i.permanent, { extend_seconds: 60 }], 'extend_seconds'],
      ['extend_seconds on a permanent card never activated', (i) => [i.permanentFresh, { extend_seconds: 60 }], 'extend_seconds'],
      ['uses_left on a time card', (i) => [i.used, { uses_left: 3 }], 'uses_left'],
      ['uses_left -1', (i) => [i.count, { uses_left: -1 }], 'uses_left'],
      ['uses_left 1000001', (i) => [i.count, { uses_left: 1_000_001 }], 'uses_left'],
      ['concurrent_limit 0', (i) => [i.used, { concurrent_limit: 0 }], 'concurrent_limit'],
      ['concurrent_limit 1001', (i) => [i.used, { concurrent_limit: 1001 }], 'concurrent_limit'],
      ['a ban of a consumed top-up card', (i) => [i.consumed, { status: 'banned' }], 'status'],
      ['an extension of a consumed top-up card', (i) => [i.consumed, { extend_seconds: 60 }], 'extend_seconds'],
    ])('answers 400 naming the field for %s, and changes nothing', async (_label, pick, field) => {
      const [used, fresh, permanent, permanentFresh, consumed] = (
        await generate(p, { count: 5, duration_seconds: HOUR_S, note: 'keep' })
      ).items;
      const [count] = (await generate(p, { count: 1, duration_seconds: 0, kind: 'count', uses: 2, note: 'keep' })).items;
      await activate(used.id, new Date(Date.now() + DAY));
      await activate(permanent.id, null);
      await cardRepos(t).cards.update({ id: permanentFresh.id }, { durationSeconds: 0 });
      await cardRepos(t).cards.update({ id: consumed.id }, { status: 'consumed' });
      const [id, body] = pick({
        used: used.id,
        fresh: fresh.id,
        permanent: permanent.id,
        permanentFresh: permanentFresh.id,
        consumed: consumed.id,
        count: count.id,
      });
      const before = await getCard(p, id);
      expectAdminError(await patch(p, id, { note: 'changed', device_limit: 9, ...body }), 400, BAD_REQUEST, field);
      expect(await getCard(p, id)).toEqual(before);
    });
  });

  describe('POST /cards/bulk on ids', () => {
    let p: Project;
    beforeAll(async () => {
      p = await a.createProject();
    });

    /** Cards in every state an action treats differently. */
    async function fixture() {
      const time = await generate(p, { count: 5, duration_seconds: HOUR_S, note: 'n' });
      const [count] = (await generate(p, { count: 1, duration_seconds: 0, kind: 'count', uses: 4 })).items;
      const [fresh, used, permanent, banned, consumed] = time.items;
      const expiresAt = new Date(Date.now() + DAY);
      await activate(used.id, expiresAt);
      await activate(permanent.id, null);
      await patch(p, banned.id, { status: 'banned' }).expect(200);
      await cardRepos(t).cards.update({ id: consumed.id }, { status: 'consumed' });
      return {
        fresh,
        used,
        permanent,
        banned,
        consumed,
        count,
        expiresAt,
        all: [fresh, used, permanent, banned, consumed, count].map((c) => c.id),
      };
    }

    it('ban: bans the cards not banned yet (matched counts all, changed the real changes), never a consumed card', async () => {
      const f = await fixture();
      const res = await bulk(p, { action: 'ban', ids: [...f.all, f.used.id] }).expect(200);
      expect(res.body).toEqual({ action: 'ban', matched: 6, changed: 4 });
      expect((await getCard(p, f.fresh.id)).status).toBe('banned');
      expect((await getCard(p, f.count.id)).status).toBe('banned');
      expect((await getCard(p, f.consumed.id)).status).toBe('consumed');
    });

    it('unban: lifts bans back to active or unused', async () => {
      const f = await fixture();
      await bulk(p, { action: 'ban', ids: [f.fresh.id, f.used.id] }).expect(200);
      expect((await bulk(p, { action: 'unban', ids: f.all }).expect(200)).body).toEqual({
        action: 'unban',
        matched: 6,
        changed: 3,
      });
      expect([
        (await getCard(p, f.fresh.id)).status,
        (await getCard(p, f.used.id)).status,
        (await getCard(p, f.banned.id)).status,
      ]).toEqual(['unused', 'active', 'unused']);
    });

    it('extend: adds to the expiry of activated cards and the duration of the others; permanent and consumed cards stay', async () => {
      const f = await fixture();
      expect((await bulk(p, { action: 'extend', ids: f.all, extend_seconds: 600 }).expect(200)).body).toEqual({
        action: 'extend',
        matched: 6,
        changed: 3,
      });
      expect((await getCard(p, f.used.id)).expires_at).toBe(new Date(f.expiresAt.getTime() + 600_000).toISOString());
      expect((await getCard(p, f.fresh.id)).duration_seconds).toBe(HOUR_S + 600);
      expect((await getCard(p, f.banned.id)).duration_seconds).toBe(HOUR_S + 600);
      expect(await getCard(p, f.permanent.id)).toMatchObject({ expires_at: null, duration_seconds: HOUR_S });
      expect(await getCard(p, f.count.id)).toMatchObject({ duration_seconds: 0 });
      expect((await getCard(p, f.consumed.id)).duration_seconds).toBe(HOUR_S);
    });

    it('set_expiry: sets the expiry of the activated cards only; null makes them permanent', async () => {
      const f = await fixture();
      const at = '2032-01-01T00:00:00.000Z';
      expect((await bulk(p, { action: 'set_expiry', ids: f.all, expires_at: at }).expect(200)).body).toEqual({
        action: 'set_expiry',
        matched: 6,
        changed: 2,
      });
      expect([
        (await getCard(p, f.used.id)).expires_at,
        (await getCard(p, f.permanent.id)).expires_at,
        (await getCard(p, f.fresh.id)).expires_at,
      ]).toEqual([at, at, null]);
      expect((await bulk(p, { action: 'set_expiry', ids: f.all, expires_at: at }).expect(200)).body.changed).toBe(0);
      expect((await bulk(p, { action: 'set_expiry', ids: [f.used.id], expires_at: null }).expect(200)).body.changed).toBe(1);
      expect((await getCard(p, f.used.id)).expires_at).toBeNull();
    });

    it('set_uses, set_note, set_device_limit, set_concurrent_limit: change what differs', async () => {
      const f = await fixture();
      expect((await bulk(p, { action: 'set_uses', ids: [f.count.id], uses_left: 9 }).expect(200)).body).toEqual({
        action: 'set_uses',
        matched: 1,
        changed: 1,
      });
      expect((await getCard(p, f.count.id)).uses_left).toBe(9);
      expect((await bulk(p, { action: 'set_uses', ids: [f.count.id], uses_left: 9 }).expect(200)).body.changed).toBe(0);

      expect((await bulk(p, { action: 'set_note', ids: f.all, note: 'n' }).expect(200)).body).toEqual({
        action: 'set_note',
        matched: 6,
        changed: 1,
      });
      expect((await bulk(p, { action: 'set_note', ids: f.all, note: null }).expect(200)).body.changed).toBe(6);
      expect((await getCard(p, f.used.id)).note).toBeNull();

      expect((await bulk(p, { action: 'set_device_limit', ids: f.all, device_limit: 4 }).expect(200)).body).toEqual({
        action: 'set_device_limit',
        matched: 6,
        changed: 6,
      });
      expect((await getCard(p, f.fresh.id)).device_limit).toBe(4);

      const res = await bulk(p, { action: 'set_concurrent_limit', ids: f.all, concurrent_limit: 2 }).expect(200);
      expect(res.body).toEqual({ action: 'set_concurrent_limit', matched: 6, changed: 6 });
      expect(
        (await bulk(p, { action: 'set_concurrent_limit', ids: [f.fresh.id], concurrent_limit: null }).expect(200)).body.changed,
      ).toBe(1);
      expect((await getCard(p, f.fresh.id)).concurrent_limit).toBeNull();
      expect((await getCard(p, f.used.id)).concurrent_limit).toBe(2);
    });

    it('delete: removes the cards with their devices and sessions; their login-log rows stay with the card key', async () => {
      const q = await a.createProject();
      const [card, kept] = (await generate(q, { count: 2, duration_seconds: HOUR_S })).items;
      const login = await sdkLogin(t, q.api_secret, { app: q.program_id, card_key: card.code, machine_id: 'del-dev' }).expect(
        200,
      );
      expect(login.body.code).toBe(0);
      expect((await bulk(q, { action: 'delete', ids: [card.id, card.id, 2_000_000_000] }).expect(200)).body).toEqual({
        action: 'delete',
        matched: 1,
        changed: 1,
      });
      expect(await listIds(q)).toEqual([kept.id]);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
      expect(await sessionRepo(t).countBy({ cardId: card.id })).toBe(0);
      const logs = await cardRepos(t).logs.findBy({ cardCode: card.code });
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.every((l) => l.cardId === null)).toBe(true);
    });

    it("ban ends the cards' SDK sessions at once: the next heartbeat is SESSION_INVALID (ended_by card_banned), and an unban does not bring them back", async () => {
      const q = await a.createProject();
      const [one, two] = (await generate(q, { count: 2, duration_seconds: HOUR_S })).items;
      const tokens: Array<[string, string]> = [];
      for (const [card, machine] of [
        [one, 'm-1'],
        [two, 'm-2'],
      ] as const) {
        const res = await sdkLogin(t, q.api_secret, { app: q.program_id, card_key: card.code, machine_id: machine }).expect(200);
        tokens.push([res.body.data.session_token, machine]);
        expect((await cardHeartbeat(t, res.body.data.session_token, machine)).body.code).toBe(0);
      }
      expect((await bulk(q, { action: 'ban', ids: [one.id, two.id] }).expect(200)).body.changed).toBe(2);
      for (const [token, machine] of tokens) {
        const beat = await cardHeartbeat(t, token, machine);
        expectStandardFailure(beat, 401, CODES.SESSION_INVALID);
        // decisions §18: the heartbeat says why, as after a ban of one card.
        expect(beat.body.data.ended_by).toBe('card_banned');
      }
      expect((await sessionRepo(t).findOneByOrFail({ cardId: one.id })).revokedAt).not.toBeNull();
      await bulk(q, { action: 'unban', ids: [one.id, two.id] }).expect(200);
      for (const [token, machine] of tokens)
        expectStandardFailure(await cardHeartbeat(t, token, machine), 401, CODES.SESSION_INVALID);
    });
  });

  describe('POST /cards/bulk on a filter', () => {
    it('runs every action on the cards a filter matches, with matched and changed counts', async () => {
      const p = await a.createProject();
      const one = await generate(p, { count: 3, duration_seconds: HOUR_S, prefix: 'ONE-' });
      const two = await generate(p, { count: 2, duration_seconds: 0, prefix: 'TWO-', kind: 'count', uses: 3 });
      const other = await generate(p, { count: 2, duration_seconds: HOUR_S, prefix: 'OTHER-' });
      const soon = new Date(Date.now() + DAY);
      await activate(one.items[0].id, soon);
      await activate(other.items[0].id, new Date(Date.now() + 30 * DAY));
      const idsOf = (batch: BatchBody) => batch.items.map((c) => c.id);
      const run = async (body: object) => (await bulk(p, body).expect(200)).body;

      expect(await run({ action: 'ban', filter: { batch_id: one.batch_id } })).toEqual({ action: 'ban', matched: 3, changed: 3 });
      expect(await listIds(p, '&status=banned')).toEqual(idsOf(one));
      expect(await run({ action: 'unban', filter: { status: 'banned' } })).toEqual({ action: 'unban', matched: 3, changed: 3 });
      expect(await run({ action: 'set_uses', filter: { kind: 'count' }, uses_left: 7 })).toEqual({
        action: 'set_uses',
        matched: 2,
        changed: 2,
      });
      expect((await getCard(p, two.items[1].id)).uses_left).toBe(7);
      expect(await run({ action: 'set_note', filter: { code_prefix: 'OTHER-' }, note: 'moved' })).toEqual({
        action: 'set_note',
        matched: 2,
        changed: 2,
      });
      expect(await listIds(p, '&code_prefix=OTHER-')).toEqual(idsOf(other));
      const window = {
        expires_from: new Date(Date.now() + DAY / 2).toISOString(),
        expires_to: new Date(Date.now() + 2 * DAY).toISOString(),
      };
      expect(await run({ action: 'extend', filter: window, extend_seconds: 60 })).toEqual({
        action: 'extend',
        matched: 1,
        changed: 1,
      });
      expect((await getCard(p, one.items[0].id)).expires_at).toBe(new Date(soon.getTime() + 60_000).toISOString());
      expect(await run({ action: 'extend', filter: { status: 'unused', code_prefix: 'ONE-' }, extend_seconds: 5 })).toEqual({
        action: 'extend',
        matched: 2,
        changed: 2,
      });
      expect(await run({ action: 'set_expiry', filter: { activated: true }, expires_at: '2033-03-03T03:03:03Z' })).toEqual({
        action: 'set_expiry',
        matched: 2,
        changed: 2,
      });
      expect(await run({ action: 'set_device_limit', filter: { all: true }, device_limit: 3 })).toEqual({
        action: 'set_device_limit',
        matched: 7,
        changed: 7,
      });
      const created = {
        created_from: new Date(Date.now() - 60 * 60_000).toISOString(),
        created_to: new Date(Date.now() + 60_000).toISOString(),
      };
      expect(await run({ action: 'set_concurrent_limit', filter: created, concurrent_limit: 5 })).toEqual({
        action: 'set_concurrent_limit',
        matched: 7,
        changed: 7,
      });
      expect(await run({ action: 'delete', filter: { batch_id: two.batch_id } })).toEqual({
        action: 'delete',
        matched: 2,
        changed: 2,
      });
      expect(await listIds(p)).toEqual([...idsOf(one), ...idsOf(other)]);
    });

    it('answers 404 MATCHING_CARDS_NOT_FOUND, changing nothing, when the filter (or the ids) match no card of the project', async () => {
      const p = await a.createProject();
      const theirs = await b.createProject();
      const [foreign] = (await b.post(cardsOf(theirs), { count: 1, duration_seconds: 60 }).expect(201)).body.items;
      await generate(p, { count: 2, duration_seconds: 60 });
      const before = await exportCsv(p);
      for (const body of [
        { action: 'ban', filter: { code_prefix: 'NO-SUCH-' } },
        { action: 'delete', filter: { batch_id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' } },
        { action: 'set_note', filter: { status: 'consumed' }, note: 'x' },
        { action: 'ban', ids: [foreign.id] },
        { action: 'delete', ids: [2_147_483_647] },
      ]) {
        const res = await bulk(p, body);
        expectAdminError(res, 404, MATCHING_CARDS_NOT_FOUND);
        expect(res.body.error.details).toEqual({ matched: 0 });
      }
      expect(await exportCsv(p)).toBe(before);
      expect((await b.get(`${cardsOf(theirs)}/${foreign.id}`).expect(200)).body.status).toBe('unused');
    });

    it('works through many cards in chunks of 1000', async () => {
      const p = await a.createProject();
      const batches = [await generate(p, { count: 2500, duration_seconds: 60 })];
      const logsBefore = t.logs.length;
      expect(
        (await bulk(p, { action: 'set_note', filter: { batch_id: batches[0].batch_id }, note: 'chunked' }).expect(200)).body,
      ).toEqual({
        action: 'set_note',
        matched: 2500,
        changed: 2500,
      });
      const line = t.logs
        .slice(logsBefore)
        .map((l) => JSON.parse(l))
        .find((l) => l.msg === 'bulk card action');
      expect(line).toMatchObject({ action: 'set_note', matched: 2500, changed: 2500, chunks: 3 });
      expect(await cardRepos(t).cards.countBy({ projectId: p.id, note: 'chunked' })).toBe(2500);
      expect((await bulk(p, { action: 'delete', filter: { all: true } }).expect(200)).body.changed).toBe(2500);
      expect(await listIds(p)).toEqual([]);
    }, 120_000);
  });

  describe('POST /cards/bulk: bad input changes nothing', () => {
    let p: Project;
    let time: BatchBody;
    let before: string;
    beforeAll(async () => {
      p = await a.createProject();
      time = await generate(p, { count: 2, duration_seconds: 60, note: 'keep' });
      await generate(p, { count: 1, duration_seconds: 60, kind: 'count', uses: 2 });
      before = await exportCsv(p);
    });
    afterEach(async () => expect(await exportCsv(p)).toBe(before));

    const ids = () => time.items.map((c) => c.id);
    it.each<[string, () => object, string]>([
      ['an unknown action', () => ({ action: 'explode', ids: ids() }), 'action'],
      ['no action', () => ({ ids: ids() }), 'action'],
      ['ids and filter both', () => ({ action: 'ban', ids: ids(), filter: { all: true } }), 'filter'],
      ['neither ids nor filter', () => ({ action: 'ban' }), 'ids'],
      ['an empty filter', () => ({ action: 'ban', filter: {} }), 'filter'],
      ['a null filter', () => ({ action: 'ban', filter: null }), 'filter'],
      ['null ids', () => ({ action: 'ban', ids: null, filter: { all: true } }), 'ids'],
      ['a filter that is not an object', () => ({ action: 'ban', filter: 'all' }), 'filter'],
      ['all: false', () => ({ action: 'ban', filter: { all: false } }), 'all'],
      ['an unknown filter field', () => ({ action: 'ban', filter: { colour: 'red' } }), 'colour'],
      ['a bad filter value', () => ({ action: 'ban', filter: { kind: 'gold' } }), 'kind'],
      ['a filter date without an offset', () => ({ action: 'ban', filter: { created_from: '2025-01-01' } }), 'created_from'],
      ['an empty id list', () => ({ action: 'ban', ids: [] }), 'ids'],
      ['an id that is not a positive integer', () => ({ action: 'ban', ids: [ids()[0], -1] }), 'ids'],
      ['more than 10,000 ids', () => ({ action: 'ban', ids: Array.from({ length: 10_001 }, (_, i) => i + 1) }), 'ids'],
      ['negative uses', () => ({ action: 'set_uses', filter: { kind: 'count' }, uses_left: -1 }), 'uses_left'],
      ['set_uses on time cards (ids)', () => ({ action: 'set_uses', ids: ids(), uses_left: 5 }), 'uses_left'],
      ['set_uses on time cards (filter)', () => ({ action: 'set_uses', filter: { all: true }, uses_left: 5 }), 'uses_left'],
      ['extend without extend_seconds', () => ({ action: 'extend', ids: ids() }), 'extend_seconds'],
      ['extend by 0 seconds', () => ({ action: 'extend', ids: ids(), extend_seconds: 0 }), 'extend_seconds'],
      ['a parameter of another action', () => ({ action: 'ban', ids: ids(), note: 'x' }), 'note'],
      ['set_expiry with a bad time', () => ({ action: 'set_expiry', ids: ids(), expires_at: 'tomorrow' }), 'expires_at'],
      ['set_note over 200 characters', () => ({ action: 'set_note', ids: ids(), note: 'n'.repeat(201) }), 'note'],
      ['set_device_limit 0', () => ({ action: 'set_device_limit', ids: ids(), device_limit: 0 }), 'device_limit'],
      [
        'set_concurrent_limit 1001',
        () => ({ action: 'set_concurrent_limit', ids: ids(), concurrent_limit: 1001 }),
        'concurrent_limit',
      ],
    ])('answers 400 naming the field for %s', async (_label, body, field) => {
      expectAdminError(await bulk(p, body()), 400, BAD_REQUEST, field);
    });

    it("answers 404 for another author's project", async () => {
      expectAdminError(await bulk(p, { action: 'ban', filter: { all: true } }, b), 404, PROJECT_NOT_FOUND);
    });
  });

  describe('list and export filters', () => {
    let p: Project;
    let one: BatchBody;
    let two: BatchBody;
    beforeAll(async () => {
      p = await a.createProject();
      one = await generate(p, { count: 2, duration_seconds: 60, prefix: 'ab-' });
      two = await generate(p, { count: 2, duration_seconds: 60, prefix: 'AB-', kind: 'count', uses: 1 });
      await activate(one.items[0].id, new Date('2030-06-01T00:00:00Z'));
      await activate(two.items[0].id, new Date('2030-07-01T00:00:00Z'));
      await cardRepos(t).cards.update({ id: one.items[1].id }, { createdAt: new Date('2020-01-01T00:00:00Z') });
    });

    it.each<[string, (one: BatchBody, two: BatchBody) => number[]]>([
      ['kind=count', (o, tw) => tw.items.map((c) => c.id)],
      ['kind=time', (o) => o.items.map((c) => c.id)],
      ['code_prefix=ab-', (o) => o.items.map((c) => c.id)],
      ['code_prefix=AB-&kind=time', () => []],
      ['code_prefix=%25', () => []],
      ['expires_from=2030-06-01T00:00:00Z&expires_to=2030-07-01T00:00:00Z', (o) => [o.items[0].id]],
      ['expires_from=2030-06-15T00:00:00%2B00:00', (o, tw) => [tw.items[0].id]],
      ['expires_to=2099-01-01T00:00:00Z', (o, tw) => [o.items[0].id, tw.items[0].id]],
      ['created_to=2021-01-01T00:00:00Z', (o) => [o.items[1].id]],
      ['created_from=2021-01-01T00:00:00Z', (o, tw) => [o.items[0].id, ...tw.items.map((c) => c.id)]],
    ])('filters the list and the export with %s', async (query, expected) => {
      const want = expected(one, two).sort((x, y) => x - y);
      expect(await listIds(p, `&${query}`)).toEqual(want);
      const rows = (await exportCsv(p, query)).trim().split('\r\n').slice(1);
      expect(rows.map((r) => Number(r.split(',')[0]))).toEqual(want);
    });

    it.each([
      ['kind=gold', 'kind'],
      ['code_prefix=', 'code_prefix'],
      ['created_from=2025-01-01', 'created_from'],
      ['created_to=yesterday', 'created_to'],
      ['expires_from=2025-13-01T00:00:00Z', 'expires_from'],
      ['expires_to=2025-01-01T00:00:00', 'expires_to'],
    ])('refuses %s (400 naming it) on the list and the export', async (query, field) => {
      expectAdminError(await a.get(`${cardsOf(p)}?${query}`), 400, BAD_REQUEST, field);
      expectAdminError(await a.get(`${cardsOf(p)}/export.csv?${query}`), 400, BAD_REQUEST, field);
    });
  });

  describe('POST /cards/import', () => {
    const HEADER = 'code,kind,uses_left,duration_seconds,device_limit,concurrent_limit,note,status,activated_at,expires_at';

    it('imports codes from another platform: defaults from the project, every column read', async () => {
      const p = await a.createProject({ device_limit: 2 });
      const csv = [
        HEADER,
        'OLD-0001,,,86400,,,,,,',
        'OLD-0002,count,10,0,3,2,"reseller, batch ""7""",,,',
        'OLD-0003,time,,0,1,,,active,2025-01-01T00:00:00Z,2031-01-01T00:00:00+01:00',
        'OLD-0004,,,3600,,,,banned,,',
        '',
      ].join('\r\n');
      const res = await importCsv(p, csv).expect(201);
      expect(res.body).toEqual({ dry_run: false, batch_id: expect.any(String), rows: 4, imported: 4 });
      const items = (await a.get(`${cardsOf(p)}?batch_id=${res.body.batch_id}`).expect(200)).body.items as CardBody[];
      const byCode = Object.fromEntries(items.map((c) => [c.code, c]));
      expect(byCode['OLD-0001']).toMatchObject({
        kind: 'time',
        uses_left: null,
        duration_seconds: 86400,
        device_limit: 2,
        status: 'unused',
        concurrent_limit: null,
        note: null,
      });
      expect(byCode['OLD-0002']).toMatchObject({
        kind: 'count',
        uses_left: 10,
        duration_seconds: 0,
        device_limit: 3,
        concurrent_limit: 2,
        note: 'reseller, batch "7"',
      });
      expect(byCode['OLD-0003']).toMatchObject({
        status: 'active',
        activated_at: '2025-01-01T00:00:00.000Z',
        expires_at: '2030-12-31T23:00:00.000Z',
      });
      expect(byCode['OLD-0004']).toMatchObject({ status: 'banned', activated_at: null });

      // An imported card logs in like any other.
      const login = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: 'OLD-0001', machine_id: 'imp-dev' }).expect(
        200,
      );
      expect(login.body.code).toBe(0);
    });

    it('dry run: reports every bad row (line, field, message) and imports nothing', async () => {
      const p = await a.createProject();
      const [existing] = (await generate(p, { count: 1, duration_seconds: 60 })).items;
      const csv = [
        HEADER, //                                             line 1
        'GOOD-1,,,60,,,,,,', //                                line 2
        ',,,60,,,,,,', //                                      line 3: no code
        'BAD-KIND,gold,,60,,,,,,', //                          line 4
        'BAD-USES,count,-1,60,,,,,,', //                       line 5
        'TIME-USES,time,5,60,,,,,,', //                        line 6
        'GOOD-1,,,60,,,,,,', //                                line 7: twice in the file
        `${existing.code},,,60,,,,,,`, //                      line 8: in the project
        'NO-DURATION,,,,,,,,,', //                             line 9
        'BAD-DATE,,,60,,,,active,2025-02-30T00:00:00Z,', //   line 10
        'EXPIRY-ONLY,,,60,,,,,,2030-01-01T00:00:00Z', //       line 11
        'SHORT,,,60', //                                       line 12
        'BAD-LIMIT,,,60,0,1001,,,,', //                        line 13
        'BAD-STATUS,,,60,,,,deleted,,', //                     line 14
        'GOOD-2,,,60,,,"=1+1",,,', //                          line 15
      ].join('\n');
      const res = await importCsv(p, csv, '?dry_run=true').expect(200);
      const problems = res.body.problems as Problem[];
      expect(res.body).toMatchObject({ dry_run: true, rows: 14, valid: 2, problem_count: problems.length });
      const where = problems.map((x) => `${x.line}:${x.field}`);
      expect(where).toEqual([
        '3:code',
        '4:kind',
        '5:uses_left',
        '6:uses_left',
        '7:code',
        '8:code',
        '9:duration_seconds',
        '10:activated_at',
        '11:expires_at',
        '12:null',
        '13:device_limit',
        '13:concurrent_limit',
        '14:status',
      ]);
      // Each with a reason a client can translate, the values it names, and the same in English.
      expect(problems.map((x) => x.reason)).toEqual([
        'required',
        'one_of',
        'whole_number',
        'uses_left_time_card',
        'code_twice',
        'code_exists',
        'duration_required',
        'iso_time',
        'expiry_needs_activation',
        'field_count',
        'whole_number',
        'whole_number',
        'one_of',
      ]);
      expect(problems.find((x) => x.line === 7)).toMatchObject({ params: { line: 2 }, message: expect.stringMatching(/line 2/) });
      expect(problems.find((x) => x.line === 8)!.message).toMatch(/already/);
      expect(problems.find((x) => x.field === 'device_limit')).toMatchObject({
        params: { min: 1, max: 1000 },
        message: 'must be a whole number from 1 to 1000',
      });
      expect(problems.every((x) => typeof x.message === 'string' && x.message.length > 0)).toBe(true);
      expect(await listIds(p)).toEqual([existing.id]);

      // The same file for real: the same report as a 400, and still nothing imported.
      const real = await importCsv(p, csv);
      expectAdminError(real, 400, CARD_IMPORT_INVALID);
      expect(real.body.error.details).toEqual({ rows: 14, valid: 2, problems, problem_count: problems.length });
      expect(await listIds(p)).toEqual([existing.id]);
      expect(
        await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM card_batches WHERE project_id = $1', [p.id]),
      ).toEqual([{ n: 1 }]);
    });

    it('refuses a file it cannot read as a whole: no header code column, unknown columns, broken quotes, empty', async () => {
      const p = await a.createProject();
      const cases: Array<[string, string[]]> = [
        ['kind,note\ntime,x\n', ['1:code']],
        ['code,duration_seconds,expires\nA,60,x\n', ['1:expires']],
        ['code,duration_seconds\n"A,60\n', ['2:null']],
        ['code,duration_seconds\n', ['1:null']],
        ['', ['1:null']],
      ];
      for (const [csv, where] of cases) {
        const res = await importCsv(p, csv, '?dry_run=true').expect(200);
        expect([csv, res.body.problems.map((x: Problem) => `${x.line}:${x.field}`)]).toEqual([csv, where]);
        expect(res.body.valid).toBe(0);
      }
      expect(await listIds(p)).toEqual([]);
    });

    it('answers 415 for another body type, 413 past 20 MiB or 100,000 rows, and 404 for a foreign project', async () => {
      const p = await a.createProject();
      expectAdminError(await importCsv(p, 'code,duration_seconds\nA,60\n', '', 'text/plain'), 415, UNSUPPORTED_MEDIA_TYPE);
      expectAdminError(await a.post(`${cardsOf(p)}/import`, { code: 'A' }), 415, UNSUPPORTED_MEDIA_TYPE);
      const big = await importCsv(p, 'code,duration_seconds,note\n' + 'x'.repeat(20 * 1024 * 1024));
      expectAdminError(big, 413, FILE_TOO_LARGE);
      expect(big.body.error.details).toEqual({ max_bytes: 20 * 1024 * 1024 });
      const many = ['code,duration_seconds', ...Array.from({ length: 100_001 }, (_, i) => `R${i},60`)].join('\n');
      const res = await importCsv(p, many, '?dry_run=true');
      expectAdminError(res, 413, FILE_TOO_LARGE);
      expect(res.body.error.details).toEqual({ max_rows: 100_000 });
      expectAdminError(await importCsv(p, 'code,duration_seconds\nA,60\n', '', 'text/csv', b), 404, PROJECT_NOT_FOUND);
      expect(await listIds(p)).toEqual([]);
    });

    it('is all or nothing: a code taken after the check, in a later chunk, undoes the chunks already written', async () => {
      const p = await a.createProject();
      const [taken] = (await generate(p, { count: 1, duration_seconds: 60 })).items;
      const rows = Array.from({ length: 2500 }, (_, i) => (i === 1800 ? `${taken.code},60` : `RACE-${i},60`));
      // As if a concurrent request created the code between the check and the insert.
      const spy = jest.spyOn(CardBatchesRepository.prototype, 'existingCodes').mockResolvedValue(new Set());
      try {
        const res = await importCsv(p, ['code,duration_seconds', ...rows].join('\n'));
        expectAdminError(res, 400, CARD_IMPORT_INVALID);
        expect(res.body.error.details.problems).toEqual([
          { line: 1802, field: 'code', reason: 'code_exists', params: {}, message: expect.stringMatching(/already/) },
        ]);
      } finally {
        spy.mockRestore();
      }
      expect(await listIds(p)).toEqual([taken.id]);
      expect(
        await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM card_batches WHERE project_id = $1', [p.id]),
      ).toEqual([{ n: 1 }]);
    });

    it('round trip: an export imports into another project with every field but its id, batch and creation time', async () => {
      const from = await a.createProject({ device_limit: 3 });
      const to = await a.createProject({ device_limit: 1 });
      const time = await generate(from, {
        count: 3,
        duration_seconds: HOUR_S,
        prefix: '-X',
        note: '=HYPERLINK("http://evil.example")',
      });
      const count = await generate(from, {
        count: 2,
        duration_seconds: 0,
        kind: 'count',
        uses: 5,
        concurrent_limit: null,
        note: 'two\nlines, "quoted"',
      });
      await activate(time.items[0].id, new Date('2031-01-01T00:00:00Z'), {
        useCount: 12,
        unbindCount: 2,
        lastLoginAt: new Date('2025-05-05T05:05:05Z'),
      });
      await activate(count.items[0].id, null, { usesLeft: 0 });
      await cardRepos(t).devices.insert([
        { cardId: time.items[0].id, machineCode: 'PC 01, "main"', boundAt: new Date('2025-01-01T00:00:00Z') },
        { cardId: time.items[0].id, machineCode: '+laptop', boundAt: new Date('2025-01-02T00:00:00Z') },
      ]);
      await patch(from, time.items[1].id, { status: 'banned' }).expect(200);
      await cardRepos(t).cards.update({ id: time.items[2].id }, { status: 'consumed' });

      const exported = await exportCsv(from);
      const res = await importCsv(to, exported).expect(201);
      expect(res.body).toMatchObject({ rows: 5, imported: 5 });
      const again = await exportCsv(to);
      const strip = (csv: string) => parseCsv(csv).map((row) => row.filter((_, i) => ![0, 10, 15].includes(i))); // id, batch_id, created_at
      expect(strip(again)).toEqual(strip(exported));
      expect(parseCsv(again)[0]).toEqual([
        'id',
        'code',
        'status',
        'duration_seconds',
        'device_limit',
        'activated_at',
        'expires_at',
        'use_count',
        'last_login_at',
        'note',
        'batch_id',
        'kind',
        'uses_left',
        'concurrent_limit',
        'unbind_count',
        'created_at',
        'devices',
        'holder_email',
      ]);

      // The bound devices came along: the card admits them, and its device limit holds.
      const card = time.items[0];
      await patch(to, (await listIds(to, `&code_prefix=${encodeURIComponent(card.code)}`))[0], { device_limit: 2 }).expect(200);
      const ok = await sdkLogin(t, to.api_secret, { app: to.program_id, card_key: card.code, machine_id: '+laptop' }).expect(200);
      expect(ok.body.code).toBe(0);
      const full = await sdkLogin(t, to.api_secret, {
        app: to.program_id,
        card_key: card.code,
        machine_id: 'new-machine',
      }).expect(200);
      expect(full.body.code).toBe(CODES.DEVICE_LIMIT_REACHED);
    });

    it('imports 20,000 rows in chunks, logging progress', async () => {
      const p = await a.createProject();
      const rows = Array.from(
        { length: 20_000 },
        (_, i) => `BIG-${String(i).padStart(6, '0')},${i % 2 ? 'count' : 'time'},${i % 2 ? 5 : ''},86400`,
      );
      const csv = ['code,kind,uses_left,duration_seconds', ...rows].join('\r\n');
      const logsBefore = t.logs.length;
      const started = Date.now();
      const res = await importCsv(p, csv).expect(201);
      const ms = Date.now() - started;
      expect(res.body).toMatchObject({ rows: 20_000, imported: 20_000 });
      const lines = t.logs.slice(logsBefore).map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.msg === 'card import progress').map((l) => l.imported)).toEqual([10_000, 20_000]);
      expect(lines.find((l) => l.msg === 'card import done')).toMatchObject({ imported: 20_000, batch_id: res.body.batch_id });
      expect(await cardRepos(t).cards.countBy({ projectId: p.id, kind: 'count' })).toBe(10_000);
      process.stdout.write(`cards-bulk: imported 20,000 rows in ${ms} ms\n`);
    }, 180_000);
  });
});
