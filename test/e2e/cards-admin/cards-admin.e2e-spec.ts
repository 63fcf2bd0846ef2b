import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CardBatch } from '../../../src/cards/card-batch.entity';
import { CARD_CODE_ALPHABET, CardCodeGenerator } from '../../../src/cards/card-codes';
import { CardDevice } from '../../../src/cards/card-device.entity';
import { Card } from '../../../src/cards/card.entity';
import { AdminClient } from '../../support/admin-client';
import {
  BAD_REQUEST,
  CARD_DEVICE_NOT_FOUND,
  CARD_NOT_FOUND,
  expectAdminError,
  IDEMPOTENCY_KEY_REUSED,
  PROJECT_NOT_FOUND,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { parseCsv } from '../../support/csv';
import type { CardBatchView, CardView } from '../../../src/cards/admin/card.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BODY = `[${CARD_CODE_ALPHABET}]{20}`;
const CODE = new RegExp(`^${BODY}$`);
const CSV_HEADER =
  'id,code,status,duration_seconds,device_limit,activated_at,expires_at,use_count,last_login_at,note,batch_id,' +
  'kind,uses_left,concurrent_limit,unbind_count,created_at,devices,holder_email';
const DAY = 86_400_000;

/** The admin API's card resource, as the service declares it. */
type CardBody = CardView;
type BatchBody = CardBatchView;
type Project = { id: string };
type PageBody<T> = { items: T[]; total: number; page: number; page_size: number };

describe('cards admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: { client: AdminClient; id: string };
  let b: { client: AdminClient; id: string };
  let project: Project;
  let cardRepo: Repository<Card>;
  let deviceRepo: Repository<CardDevice>;
  let batchRepo: Repository<CardBatch>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
    project = await a.client.createProject({ device_limit: 3 });
    cardRepo = t.app.get(getRepositoryToken(Card));
    deviceRepo = t.app.get(getRepositoryToken(CardDevice));
    batchRepo = t.app.get(getRepositoryToken(CardBatch));
  });
  afterAll(() => t.close());

  const cardsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/cards`;
  async function generate(p: { id: string }, body: object, client: AdminClient = a.client): Promise<BatchBody> {
    return (await client.post(cardsOf(p), body).expect(201)).body;
  }
  async function list(p: { id: string }, query = '', client: AdminClient = a.client) {
    return (await client.get(`${cardsOf(p)}?page_size=100${query}`).expect(200)).body as PageBody<CardBody>;
  }
  const getCard = async (p: { id: string }, id: number) =>
    (await a.client.get(`${cardsOf(p)}/${id}`).expect(200)).body as CardBody;
  /** Puts a card in a state only logins reach: activated (and maybe expired). */
  async function activate(id: number, expiresAt: Date | null, fields: Partial<Card> = {}) {
    const activatedAt = new Date(Date.now() - DAY);
    await cardRepo.update({ id }, { status: 'active', activatedAt, expiresAt, useCount: 4, lastLoginAt: new Date(), ...fields });
  }

  describe('batch generation', () => {
    it("generates unused cards with the project's device limit, fetchable one by one", async () => {
      const res = await a.client.post(cardsOf(project), { count: 3, duration_seconds: 86400 }).expect(201);
      const body = res.body as BatchBody;
      expect(body.batch_id).toMatch(UUID);
      expect(body.items).toHaveLength(3);
      for (const card of body.items) {
        expect(card).toEqual({
          id: expect.any(Number),
          code: expect.stringMatching(CODE),
          status: 'unused',
          kind: 'time',
          uses_left: null,
          concurrent_limit: null,
          duration_seconds: 86400,
          device_limit: 3,
          activated_at: null,
          expires_at: null,
          use_count: 0,
          last_login_at: null,
          note: null,
          holder_email: null,
          batch_id: body.batch_id,
          card_type_id: null,
          agent_id: null,
          created_at: expect.stringMatching(ISO),
          devices: [],
        });
        expect(await getCard(project, card.id)).toEqual(card);
      }
      expect(new Set(body.items.map((c) => c.code)).size).toBe(3);
      expect(body.items.map((c) => c.id)).toEqual([...body.items.map((c) => c.id)].sort((x, y) => x - y));
    });

    it('takes a prefix, a note, its own device limit and 0 for a permanent card', async () => {
      const body = await generate(project, {
        count: 2,
        duration_seconds: 0,
        device_limit: 5,
        prefix: 'VIP-2025',
        note: 'for the reseller',
      });
      for (const card of body.items) {
        expect(card).toMatchObject({
          duration_seconds: 0,
          device_limit: 5,
          note: 'for the reseller',
          status: 'unused',
          batch_id: body.batch_id,
        });
        expect(card.code).toMatch(new RegExp(`^VIP-2025${BODY}$`));
      }
      const empty = await generate(project, { count: 1, duration_seconds: 60, prefix: '', note: null });
      expect(empty.items[0]).toMatchObject({ note: null, duration_seconds: 60 });
      expect(empty.items[0].code).toMatch(CODE);
    });

    it('generates a batch of 10000 cards with distinct codes in one request', async () => {
      const big = await a.client.createProject();
      const started = Date.now();
      const body = await generate(big, { count: 10000, duration_seconds: 3600, prefix: 'BULK-' });
      expect(body.items).toHaveLength(10000);
      expect(new Set(body.items.map((c) => c.code)).size).toBe(10000);
      expect(body.items.every((c) => c.batch_id === body.batch_id && c.status === 'unused' && c.device_limit === 1)).toBe(true);
      expect((await list(big, `&batch_id=${body.batch_id}`)).total).toBe(10000);
      expect(await batchRepo.countBy({ projectId: big.id })).toBe(1);
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 120_000);

    it('draws again when a code is already taken in the project, or drawn twice in the batch', async () => {
      const p = await a.client.createProject();
      const [taken] = (await generate(p, { count: 1, duration_seconds: 60 })).items;
      const twice = 'TWICE' + 'A'.repeat(15);
      const generator = t.app.get(CardCodeGenerator);
      const spy = jest
        .spyOn(generator, 'next')
        .mockReturnValueOnce(taken.code)
        .mockReturnValueOnce(twice)
        .mockReturnValueOnce(twice);
      try {
        const body = await generate(p, { count: 3, duration_seconds: 60 });
        expect(body.items).toHaveLength(3);
        const codes = body.items.map((c) => c.code);
        expect(new Set(codes).size).toBe(3);
        expect(codes).not.toContain(taken.code);
        expect(codes).toContain(twice);
        expect(spy.mock.calls.length).toBeGreaterThanOrEqual(4);
      } finally {
        spy.mockRestore();
      }
      expect(await getCard(p, taken.id)).toEqual(taken);
      expect((await list(p)).total).toBe(4);
    });

    it('answers a retry with the same Idempotency-Key with the same batch and cards', async () => {
      const p = await a.client.createProject();
      const key = unique('retry-');
      const first = await a.client.post(cardsOf(p), { count: 4, duration_seconds: 600 }).set('Idempotency-Key', key).expect(201);
      const again = await a.client.post(cardsOf(p), { count: 4, duration_seconds: 600 }).set('Idempotency-Key', key).expect(201);
      expect(again.body).toEqual(first.body);
      expect((await list(p)).total).toBe(4);

      // The key belongs to this project; without a key, or with another, a new batch is made.
      const other = await a.client.createProject();
      const elsewhere = await a.client
        .post(cardsOf(other), { count: 4, duration_seconds: 600 })
        .set('Idempotency-Key', key)
        .expect(201);
      expect(elsewhere.body.batch_id).not.toBe(first.body.batch_id);
      const fresh = await a.client
        .post(cardsOf(p), { count: 4, duration_seconds: 600 })
        .set('Idempotency-Key', `${key}-2`)
        .expect(201);
      expect(fresh.body.batch_id).not.toBe(first.body.batch_id);
      await generate(p, { count: 4, duration_seconds: 600 });
      expect((await list(p)).total).toBe(12);

      // A retry answers the cards as they are now.
      await a.client.patch(`${cardsOf(p)}/${first.body.items[0].id}`, { status: 'banned' }).expect(200);
      const later = await a.client.post(cardsOf(p), { count: 4, duration_seconds: 600 }).set('Idempotency-Key', key).expect(201);
      expect(later.body.batch_id).toBe(first.body.batch_id);
      expect(later.body.items.map((c: CardBody) => c.code)).toEqual(first.body.items.map((c: CardBody) => c.code));
      expect(later.body.items[0].status).toBe('banned');
    });

    it('refuses (409) a key reused for a different request, creating nothing', async () => {
      const p = await a.client.createProject();
      const key = unique('reuse-');
      await a.client.post(cardsOf(p), { count: 2, duration_seconds: 600, prefix: 'A-' }).set('Idempotency-Key', key).expect(201);
      for (const body of [
        { count: 3, duration_seconds: 600, prefix: 'A-' },
        { count: 2, duration_seconds: 601, prefix: 'A-' },
        { count: 2, duration_seconds: 600, prefix: 'B-' },
        { count: 2, duration_seconds: 600 },
      ]) {
        expectAdminError(
          await a.client.post(cardsOf(p), body).set('Idempotency-Key', key),
          409,
          IDEMPOTENCY_KEY_REUSED,
          'Idempotency-Key',
        );
      }
      expect((await list(p)).total).toBe(2);
    });

    it('makes one batch when identical requests with one key race', async () => {
      const p = await a.client.createProject();
      const key = unique('race-');
      const responses = await Promise.all(
        [1, 2, 3, 4].map(() => a.client.post(cardsOf(p), { count: 300, duration_seconds: 60 }).set('Idempotency-Key', key)),
      );
      for (const res of responses) expect(res.status).toBe(201);
      const [first, ...rest] = responses.map((r) => r.body as BatchBody);
      expect(first.items).toHaveLength(300);
      for (const body of rest) {
        expect(body.batch_id).toBe(first.batch_id);
        expect(body.items.map((c) => c.code)).toEqual(first.items.map((c) => c.code));
      }
      expect(await batchRepo.countBy({ projectId: p.id })).toBe(1);
      expect((await list(p)).total).toBe(300);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a missing count', { count: undefined }, 'count'],
      ['count 0', { count: 0 }, 'count'],
      ['count 10001', { count: 10001 }, 'count'],
      ['count 1.5', { count: 1.5 }, 'count'],
      ['count as a string', { count: '5' }, 'count'],
      ['a missing duration_seconds', { duration_seconds: undefined }, 'duration_seconds'],
      ['duration_seconds -1', { duration_seconds: -1 }, 'duration_seconds'],
      ['duration_seconds 2^31', { duration_seconds: 2 ** 31 }, 'duration_seconds'],
      ['duration_seconds null', { duration_seconds: null }, 'duration_seconds'],
      ['device_limit 0', { device_limit: 0 }, 'device_limit'],
      ['device_limit 1001', { device_limit: 1001 }, 'device_limit'],
      ['device_limit null', { device_limit: null }, 'device_limit'],
      ['a prefix of 17 characters', { prefix: 'P'.repeat(17) }, 'prefix'],
      ['a prefix with a space', { prefix: 'A B' }, 'prefix'],
      ['a prefix with an underscore', { prefix: 'A_B' }, 'prefix'],
      ['a prefix that is not a string', { prefix: 7 }, 'prefix'],
      ['a prefix null', { prefix: null }, 'prefix'],
      ['a note over 200 characters', { note: 'n'.repeat(201) }, 'note'],
      ['a note that is not a string', { note: 5 }, 'note'],
      ['a code of its own choosing', { code: 'MINE' }, 'code'],
      ['a status of its own choosing', { status: 'active' }, 'status'],
    ])('answers 400 naming the field for %s, and creates nothing', async (_label, fields, field) => {
      const before = (await list(project)).total;
      expectAdminError(
        await a.client.post(cardsOf(project), { count: 2, duration_seconds: 60, ...fields }),
        400,
        BAD_REQUEST,
        field,
      );
      expect((await list(project)).total).toBe(before);
    });

    it.each([
      ['101 characters', 'k'.repeat(101)],
      ['an empty value', ''],
      ['a tab', 'a\tb'],
      ['a non-ASCII character', 'clé'],
    ])('answers 400 for an Idempotency-Key of %s, and creates nothing', async (_label, key) => {
      const before = (await list(project)).total;
      const res = await a.client.post(cardsOf(project), { count: 1, duration_seconds: 60 }).set('Idempotency-Key', key);
      expectAdminError(res, 400, BAD_REQUEST, 'Idempotency-Key');
      expect((await list(project)).total).toBe(before);
    });

    it('accepts an Idempotency-Key of 100 printable characters', async () => {
      const key = `!~ ${unique('k')}`.padEnd(100, '#');
      const first = await a.client
        .post(cardsOf(project), { count: 1, duration_seconds: 60 })
        .set('Idempotency-Key', key)
        .expect(201);
      const again = await a.client
        .post(cardsOf(project), { count: 1, duration_seconds: 60 })
        .set('Idempotency-Key', key)
        .expect(201);
      expect(again.body.batch_id).toBe(first.body.batch_id);
    });
  });

  describe('list, filters and export', () => {
    let p: Project;
    let one: BatchBody;
    let two: BatchBody;
    /** ids by state: fresh, activated, expired, banned, permanent (activated, no expiry). */
    let ids: Record<'fresh' | 'activated' | 'expired' | 'banned' | 'permanent', number>;

    beforeAll(async () => {
      p = await a.client.createProject();
      one = await generate(p, { count: 3, duration_seconds: 3600, prefix: 'ONE-', note: 'first, "quoted"\nbatch' });
      two = await generate(p, { count: 3, duration_seconds: 0, prefix: 'two-', device_limit: 2 });
      ids = {
        fresh: one.items[0].id,
        activated: one.items[1].id,
        expired: one.items[2].id,
        banned: two.items[0].id,
        permanent: two.items[1].id,
      };
      await activate(ids.activated, new Date(Date.now() + DAY));
      await activate(ids.expired, new Date(Date.now() - 60_000));
      await activate(ids.permanent, null);
      await a.client.patch(`${cardsOf(p)}/${ids.banned}`, { status: 'banned' }).expect(200);
    });

    const idsOf = async (query: string) => (await list(p, query)).items.map((c) => c.id);
    const all = () => [...one.items, ...two.items].map((c) => c.id);

    it('lists every card of the project, newest first, with {items, total, page, page_size}', async () => {
      const body = await list(p);
      expect(body).toMatchObject({ total: 6, page: 1, page_size: 100 });
      expect(body.items.map((c) => c.id)).toEqual(all().reverse());
      const activated = body.items.find((c) => c.id === ids.activated);
      expect(activated).toMatchObject({ status: 'active', use_count: 4, activated_at: expect.stringMatching(ISO) });
    });

    it.each<[string, (ids: Record<string, number>, one: BatchBody, two: BatchBody) => number[]]>([
      ['&status=unused', (i, o, tw) => [tw.items[2].id, i.fresh]],
      ['&status=active', (i) => [i.permanent, i.expired, i.activated]],
      ['&status=banned', (i) => [i.banned]],
      ['&activated=true', (i) => [i.permanent, i.expired, i.activated]],
      ['&activated=false', (i, o, tw) => [tw.items[2].id, i.banned, i.fresh]],
      ['&expired=true', (i) => [i.expired]],
      ['&expired=false', (i, o, tw) => [tw.items[2].id, i.permanent, i.banned, i.activated, i.fresh]],
      ['&status=active&expired=false', (i) => [i.permanent, i.activated]],
      ['&q=two-', (i, o, tw) => tw.items.map((c) => c.id).reverse()],
      ['&q=ONE-&activated=false', (i) => [i.fresh]],
      ['&q=%25', () => []],
      ['&q=_', () => []],
    ])('filters with %s', async (query, expected) => {
      expect(await idsOf(query)).toEqual(expected(ids, one, two));
    });

    it('filters by batch and by a part of the code', async () => {
      expect(await idsOf(`&batch_id=${one.batch_id}`)).toEqual(one.items.map((c) => c.id).reverse());
      expect(await idsOf(`&batch_id=${two.batch_id}&status=unused`)).toEqual([two.items[2].id]);
      expect(await idsOf('&batch_id=0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6')).toEqual([]);
      const code = two.items[2].code;
      expect(await idsOf(`&q=${code.slice(7, 15)}`)).toEqual([two.items[2].id]);
      expect(await idsOf(`&q=${code.slice(4, 15).toLowerCase()}`)).toEqual([two.items[2].id]);
    });

    it('pages the list', async () => {
      const page1 = (await a.client.get(`${cardsOf(p)}?page_size=4`).expect(200)).body;
      expect(page1).toMatchObject({ total: 6, page: 1, page_size: 4 });
      expect(page1.items.map((c: CardBody) => c.id)).toEqual(all().reverse().slice(0, 4));
      const page2 = (await a.client.get(`${cardsOf(p)}?page_size=4&page=2&status=unused`).expect(200)).body;
      expect(page2).toMatchObject({ total: 2, page: 2, page_size: 4, items: [] });
      const defaults = (await a.client.get(cardsOf(p)).expect(200)).body;
      expect(defaults).toMatchObject({ total: 6, page: 1, page_size: 20 });
    });

    it.each([
      ['status=gone', 'status'],
      ['batch_id=batch-1', 'batch_id'],
      ['activated=yes', 'activated'],
      ['expired=1', 'expired'],
      ['q=', 'q'],
      [`q=${'x'.repeat(65)}`, 'q'],
      ['page_size=101', 'page_size'],
      ['page=0', 'page'],
      ['code=ABC', 'code'],
    ])('refuses the filter %s (400 naming it)', async (query, field) => {
      expectAdminError(await a.client.get(`${cardsOf(p)}?${query}`), 400, BAD_REQUEST, field);
    });

    it('exports the matching cards as CSV, oldest first, with fields quoted where needed', async () => {
      const res = await a.client.get(`${cardsOf(p)}/export.csv`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/attachment/);
      const rows = parseCsv(res.text);
      expect(rows[0]).toEqual(CSV_HEADER.split(','));
      expect(res.text.startsWith(CSV_HEADER + '\r\n')).toBe(true);
      expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(all());

      const cards = (await list(p)).items;
      for (const row of rows.slice(1)) {
        const card = cards.find((c) => c.id === Number(row[0]))!;
        expect(row).toEqual([
          String(card.id),
          card.code,
          card.status,
          String(card.duration_seconds),
          String(card.device_limit),
          card.activated_at ?? '',
          card.expires_at ?? '',
          String(card.use_count),
          card.last_login_at ?? '',
          card.note ?? '',
          card.batch_id ?? '',
          'time',
          '',
          '',
          '0',
          expect.stringMatching(ISO),
          '',
          '',
        ]);
      }
      expect(rows[1][9]).toBe('first, "quoted"\nbatch');
      expect(res.text).toContain('"first, ""quoted""\nbatch"');
    });

    it('neutralises cells a spreadsheet would run as formulas: a quote inside the quoted cell (OWASP)', async () => {
      const q = await a.client.createProject();
      const formula = '=HYPERLINK("http://evil.example","click")';
      const [linked] = (await generate(q, { count: 1, duration_seconds: 60, note: formula })).items;
      const [signed] = (await generate(q, { count: 1, duration_seconds: 60, prefix: '-X', note: '+1' })).items;
      const res = await a.client.get(`${cardsOf(q)}/export.csv`).expect(200);
      const rows = parseCsv(res.text);
      expect(rows.slice(1).map((r) => [r[0], r[1], r[9]])).toEqual([
        [String(linked.id), linked.code, `'${formula}`],
        [String(signed.id), `'${signed.code}`, "'+1"],
      ]);
      expect(res.text).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",`);
      expect(res.text).toContain(`,"'${signed.code}",`);
      expect(res.text).toContain(`,"'+1",`);
    });

    it('applies the filters to the export and refuses paging and bad filters', async () => {
      const banned = parseCsv((await a.client.get(`${cardsOf(p)}/export.csv?status=banned`).expect(200)).text);
      expect(banned.map((r) => r[0])).toEqual(['id', String(ids.banned)]);
      const batch = parseCsv(
        (await a.client.get(`${cardsOf(p)}/export.csv?batch_id=${two.batch_id}&activated=true`).expect(200)).text,
      );
      expect(batch.map((r) => r[0])).toEqual(['id', String(ids.permanent)]);
      const none = await a.client.get(`${cardsOf(p)}/export.csv?q=nothing-like-this`).expect(200);
      expect(none.text).toBe(CSV_HEADER + '\r\n');
      for (const [query, field] of [
        ['status=gone', 'status'],
        ['page=2', 'page'],
        ['expired=maybe', 'expired'],
      ]) {
        const res = await a.client.get(`${cardsOf(p)}/export.csv?${query}`);
        expectAdminError(res, 400, BAD_REQUEST, field);
        expect(res.headers['content-type']).toMatch(/json/);
      }
    });
  });

  describe('sort', () => {
    let p: Project;
    /** c[0..2] of the first batch, c[3..5] of the second (created later), ids ascending. */
    let c: number[];

    beforeAll(async () => {
      p = await a.client.createProject();
      const first = await generate(p, { count: 3, duration_seconds: 3600 });
      const second = await generate(p, { count: 3, duration_seconds: 3600 });
      c = [...first.items, ...second.items].map((card) => card.id);
      const at = (days: number) => new Date(Date.now() + days * DAY);
      const tomorrow = at(1);
      const twoDaysAgo = at(-2);
      // Expiry: c0 +2d, c1 and c3 +1d (a tie), c2 -1d; c4 and c5 none. Last login: c2 and c5 tie, c4 never.
      await activate(c[0], at(2), { lastLoginAt: at(-1) });
      await activate(c[1], tomorrow, { lastLoginAt: at(-3) });
      await activate(c[2], at(-1), { lastLoginAt: twoDaysAgo });
      await activate(c[3], tomorrow, { lastLoginAt: at(-4) });
      await activate(c[5], null, { lastLoginAt: twoDaysAgo });
    });

    const idsOf = async (query: string) => (await list(p, query)).items.map((card) => card.id);
    const pick = (...indexes: number[]) => indexes.map((i) => c[i]);

    it.each<[string, number[]]>([
      ['', [5, 4, 3, 2, 1, 0]],
      ['&sort=-created_at', [5, 4, 3, 2, 1, 0]],
      ['&sort=created_at', [0, 1, 2, 3, 4, 5]],
      ['&sort=expires_at', [2, 1, 3, 0, 4, 5]],
      ['&sort=-expires_at', [0, 3, 1, 2, 5, 4]],
      ['&sort=last_login_at', [3, 1, 2, 5, 0, 4]],
      ['&sort=-last_login_at', [0, 5, 2, 1, 3, 4]],
    ])('orders by %s (ties by id, cards without the value last either way)', async (query, order) => {
      expect(await idsOf(query)).toEqual(pick(...order));
    });

    it('orders by code either way', async () => {
      const cards = (await list(p, '&sort=code')).items;
      const codes = cards.map((card) => card.code);
      expect(codes).toEqual([...codes].sort());
      expect((await list(p, '&sort=-code')).items.map((card) => card.code)).toEqual([...codes].reverse());
    });

    it.each(['created_at', '-created_at', 'expires_at', '-expires_at', 'last_login_at', '-last_login_at'])(
      'pages by %s without repeating or skipping a card, with the filters applied',
      async (sort) => {
        const whole = await idsOf(`&sort=${sort}`);
        const paged: number[] = [];
        for (let page = 1; page <= 6; page++) {
          const body = (await a.client.get(`${cardsOf(p)}?sort=${sort}&page_size=1&page=${page}`).expect(200))
            .body as PageBody<CardBody>;
          expect(body.total).toBe(6);
          paged.push(...body.items.map((card) => card.id));
        }
        expect(paged).toEqual(whole);
        expect(await idsOf(`&sort=${sort}&activated=true`)).toEqual(whole.filter((id) => id !== c[4]));
      },
    );

    it.each(['id', 'created', '+code', 'CODE', '-', ''])('refuses sort=%s (400 naming sort)', async (sort) => {
      expectAdminError(await a.client.get(`${cardsOf(p)}?sort=${sort}`), 400, BAD_REQUEST, 'sort');
    });

    it('is not a criterion of the export or of a bulk filter (both refuse it)', async () => {
      expectAdminError(await a.client.get(`${cardsOf(p)}/export.csv?sort=code`), 400, BAD_REQUEST, 'sort');
      expectAdminError(
        await a.client.post(`${cardsOf(p)}/bulk`, { action: 'ban', filter: { sort: 'code' } }),
        400,
        BAD_REQUEST,
        'sort',
      );
      expect((await list(p, '&status=banned')).total).toBe(0);
    });
  });

  describe('ban, unban and edit', () => {
    it('bans an unused card, and lifting the ban makes it unused again', async () => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60 })).items;
      const banned = await a.client.patch(`${cardsOf(project)}/${card.id}`, { status: 'banned' }).expect(200);
      expect(banned.body).toEqual({ ...card, status: 'banned' });
      expect(await getCard(project, card.id)).toEqual({ ...card, status: 'banned' });
      const lifted = await a.client.patch(`${cardsOf(project)}/${card.id}`, { status: 'active' }).expect(200);
      expect(lifted.body).toEqual(card);
    });

    it('bans an activated card, and lifting the ban makes it active again with its expiry kept', async () => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60 })).items;
      const expiresAt = new Date(Date.now() + DAY);
      await activate(card.id, expiresAt);
      const before = await getCard(project, card.id);
      expect(before).toMatchObject({ status: 'active', expires_at: expiresAt.toISOString() });
      expect((await a.client.patch(`${cardsOf(project)}/${card.id}`, { status: 'banned' }).expect(200)).body).toEqual({
        ...before,
        status: 'banned',
      });
      expect((await a.client.patch(`${cardsOf(project)}/${card.id}`, { status: 'banned' }).expect(200)).body.status).toBe(
        'banned',
      );
      expect((await a.client.patch(`${cardsOf(project)}/${card.id}`, { status: 'active' }).expect(200)).body).toEqual(before);
    });

    it("'active' on a card that is not banned changes nothing", async () => {
      const [unused, used] = (await generate(project, { count: 2, duration_seconds: 60 })).items;
      await activate(used.id, new Date(Date.now() + DAY));
      expect((await a.client.patch(`${cardsOf(project)}/${unused.id}`, { status: 'active' }).expect(200)).body).toEqual(unused);
      expect((await a.client.patch(`${cardsOf(project)}/${used.id}`, { status: 'active' }).expect(200)).body.status).toBe(
        'active',
      );
    });

    it('changes the note and the device limit; null clears the note; an empty body changes nothing', async () => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60, note: 'old' })).items;
      const res = await a.client.patch(`${cardsOf(project)}/${card.id}`, { note: 'new note', device_limit: 7 }).expect(200);
      expect(res.body).toEqual({ ...card, note: 'new note', device_limit: 7 });
      const cleared = await a.client.patch(`${cardsOf(project)}/${card.id}`, { note: null }).expect(200);
      expect(cleared.body).toEqual({ ...card, note: null, device_limit: 7 });
      expect((await a.client.patch(`${cardsOf(project)}/${card.id}`, {}).expect(200)).body).toEqual(cleared.body);
      expect(await getCard(project, card.id)).toEqual(cleared.body);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ["status 'unused'", { status: 'unused' }, 'status'],
      ["status 'deleted'", { status: 'deleted' }, 'status'],
      ['status null', { status: null }, 'status'],
      ['a note over 200 characters', { note: 'n'.repeat(201) }, 'note'],
      ['a note that is not a string', { note: ['x'] }, 'note'],
      ['device_limit 0', { device_limit: 0 }, 'device_limit'],
      ['device_limit 1001', { device_limit: 1001 }, 'device_limit'],
      ['device_limit null', { device_limit: null }, 'device_limit'],
      ['device_limit as a string', { device_limit: '2' }, 'device_limit'],
      ['a code of its own choosing', { code: 'MINE' }, 'code'],
      ['an expiry of its own choosing', { expires_at: '2099-01-01T00:00:00Z' }, 'expires_at'],
    ])('answers 400 naming the field for %s, and changes nothing', async (_label, fields, field) => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60, note: 'keep' })).items;
      expectAdminError(
        await a.client.patch(`${cardsOf(project)}/${card.id}`, { note: 'changed', ...fields }),
        400,
        BAD_REQUEST,
        field,
      );
      expect(await getCard(project, card.id)).toEqual(card);
    });
  });

  describe('delete and device unbind', () => {
    it('deletes a card (204), after which it is gone', async () => {
      const [card, kept] = (await generate(project, { count: 2, duration_seconds: 60 })).items;
      const res = await a.client.delete(`${cardsOf(project)}/${card.id}`).expect(204);
      expect(res.text).toBe('');
      expectAdminError(await a.client.get(`${cardsOf(project)}/${card.id}`), 404, CARD_NOT_FOUND);
      expectAdminError(await a.client.patch(`${cardsOf(project)}/${card.id}`, { status: 'banned' }), 404, CARD_NOT_FOUND);
      expectAdminError(await a.client.delete(`${cardsOf(project)}/${card.id}`), 404, CARD_NOT_FOUND);
      expect((await list(project, `&batch_id=${card.batch_id}`)).items.map((c) => c.id)).toEqual([kept.id]);
    });

    it('shows bound devices and unbinds one (204); an unbound device is 404', async () => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60 })).items;
      await deviceRepo.insert({ cardId: card.id, machineCode: 'PC 01:ab', boundAt: new Date('2025-01-01T00:00:00Z') });
      await deviceRepo.insert({ cardId: card.id, machineCode: 'laptop-2', boundAt: new Date('2025-01-02T00:00:00Z') });
      const bound = await getCard(project, card.id);
      expect(bound.devices).toEqual([
        { machine_code: 'PC 01:ab', bound_at: '2025-01-01T00:00:00.000Z' },
        { machine_code: 'laptop-2', bound_at: '2025-01-02T00:00:00.000Z' },
      ]);
      expect((await list(project, `&batch_id=${card.batch_id}`)).items[0].devices).toEqual(bound.devices);

      const res = await a.client.delete(`${cardsOf(project)}/${card.id}/devices/${encodeURIComponent('PC 01:ab')}`).expect(204);
      expect(res.text).toBe('');
      expect((await getCard(project, card.id)).devices).toEqual([
        { machine_code: 'laptop-2', bound_at: '2025-01-02T00:00:00.000Z' },
      ]);
      expectAdminError(
        await a.client.delete(`${cardsOf(project)}/${card.id}/devices/${encodeURIComponent('PC 01:ab')}`),
        404,
        CARD_DEVICE_NOT_FOUND,
      );
      expectAdminError(await a.client.delete(`${cardsOf(project)}/${card.id}/devices/LAPTOP-2`), 404, CARD_DEVICE_NOT_FOUND);
      await a.client.delete(`${cardsOf(project)}/${card.id}/devices/laptop-2`).expect(204);
      expect((await getCard(project, card.id)).devices).toEqual([]);

      // Any device code, escaped as one path segment.
      const odd = 'disk/0 50% é?#';
      await deviceRepo.insert({ cardId: card.id, machineCode: odd });
      await a.client.delete(`${cardsOf(project)}/${card.id}/devices/${encodeURIComponent(odd)}`).expect(204);
      expect((await getCard(project, card.id)).devices).toEqual([]);
      expect(await cardRepo.countBy({ id: card.id })).toBe(1);
    });

    it('filters by a bound device, exactly, in the list and the export', async () => {
      const { items, batch_id: batch } = await generate(project, { count: 3, duration_seconds: 60 });
      await deviceRepo.insert({ cardId: items[0].id, machineCode: 'desk-PC 7' });
      await deviceRepo.insert({ cardId: items[2].id, machineCode: 'desk-PC 7' });
      await deviceRepo.insert({ cardId: items[2].id, machineCode: 'laptop' });
      const ids = async (query: string) => (await list(project, `&batch_id=${batch}${query}`)).items.map((c) => c.id);
      expect(await ids(`&machine=${encodeURIComponent('desk-PC 7')}`)).toEqual([items[2].id, items[0].id]);
      expect(await ids('&machine=laptop')).toEqual([items[2].id]);
      expect(await ids('&machine=desk-pc%207')).toEqual([]);
      expect(await ids('&machine=desk')).toEqual([]);
      const csv = await a.client.get(`${cardsOf(project)}/export.csv?batch_id=${batch}&machine=laptop`).expect(200);
      expect(
        parseCsv(csv.text)
          .slice(1)
          .map((row) => Number(row[0])),
      ).toEqual([items[2].id]);
      expectAdminError(await a.client.get(`${cardsOf(project)}?machine=${'m'.repeat(129)}`), 400, BAD_REQUEST);
    });

    it('removes the devices with the card', async () => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60 })).items;
      await deviceRepo.insert({ cardId: card.id, machineCode: 'm-1' });
      await a.client.delete(`${cardsOf(project)}/${card.id}`).expect(204);
      expect(await deviceRepo.countBy({ cardId: card.id })).toBe(0);
    });
  });

  describe('tenancy and authentication', () => {
    it("another author gets 404 for everything on A's project, and nothing changes", async () => {
      const p = await a.client.createProject();
      const [card] = (await generate(p, { count: 1, duration_seconds: 60 })).items;
      await deviceRepo.insert({ cardId: card.id, machineCode: 'dev-1' });
      const before = await getCard(p, card.id);
      const base = cardsOf(p);
      expectAdminError(await b.client.post(base, { count: 1, duration_seconds: 60 }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(base), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base}/export.csv`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base}/${card.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.patch(`${base}/${card.id}`, { status: 'banned' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base}/${card.id}/devices/dev-1`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base}/${card.id}`), 404, PROJECT_NOT_FOUND);
      expect(await getCard(p, card.id)).toEqual(before);
      expect((await list(p)).total).toBe(1);
    });

    it("answers 404 for a card id of another project, even the caller's own", async () => {
      const mine = await a.client.createProject();
      const theirs = await b.client.createProject();
      const [other] = (await generate(theirs, { count: 1, duration_seconds: 60 }, b.client)).items;
      const [sibling] = (await generate(project, { count: 1, duration_seconds: 60 })).items;
      await deviceRepo.insert({ cardId: sibling.id, machineCode: 'dev-x' });
      for (const id of [other.id, sibling.id]) {
        expectAdminError(await a.client.get(`${cardsOf(mine)}/${id}`), 404, CARD_NOT_FOUND);
        expectAdminError(await a.client.patch(`${cardsOf(mine)}/${id}`, { status: 'banned' }), 404, CARD_NOT_FOUND);
        expectAdminError(await a.client.delete(`${cardsOf(mine)}/${id}/devices/dev-x`), 404, CARD_NOT_FOUND);
        expectAdminError(await a.client.delete(`${cardsOf(mine)}/${id}`), 404, CARD_NOT_FOUND);
      }
      expectAdminError(await b.client.get(`${cardsOf(theirs)}/${sibling.id}`), 404, CARD_NOT_FOUND);
      expect(await getCard(project, sibling.id)).toMatchObject({
        status: 'unused',
        devices: [{ machine_code: 'dev-x', bound_at: expect.any(String) }],
      });
      expect((await b.client.get(`${cardsOf(theirs)}/${other.id}`).expect(200)).body.status).toBe('unused');
    });

    it('lets a platform admin manage the cards of any project', async () => {
      const p = await b.client.createProject();
      const body = await generate(p, { count: 2, duration_seconds: 60 }, admin);
      expect((await list(p, '', b.client)).total).toBe(2);
      await admin.patch(`${cardsOf(p)}/${body.items[0].id}`, { status: 'banned' }).expect(200);
      expect((await list(p, '&status=banned', admin)).items.map((c) => c.id)).toEqual([body.items[0].id]);
      await admin.get(`${cardsOf(p)}/export.csv`).expect(200);
      await admin.delete(`${cardsOf(p)}/${body.items[1].id}`).expect(204);
    });

    it('answers 404 for a card id that is not a positive 32-bit integer, and for an unknown project', async () => {
      for (const id of ['abc', '1.5', '-1', '0', '2147483648', '99999999999', 'export']) {
        expectAdminError(await a.client.get(`${cardsOf(project)}/${id}`), 404, CARD_NOT_FOUND);
        expectAdminError(await a.client.patch(`${cardsOf(project)}/${id}`, { note: 'x' }), 404, CARD_NOT_FOUND);
        expectAdminError(await a.client.delete(`${cardsOf(project)}/${id}`), 404, CARD_NOT_FOUND);
      }
      expectAdminError(await a.client.get(`${cardsOf(project)}/2147483647`), 404, CARD_NOT_FOUND);
      for (const id of ['not-a-uuid', '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6']) {
        expectAdminError(await a.client.get(`/admin/v1/projects/${id}/cards`), 404, PROJECT_NOT_FOUND);
        expectAdminError(
          await a.client.post(`/admin/v1/projects/${id}/cards`, { count: 1, duration_seconds: 1 }),
          404,
          PROJECT_NOT_FOUND,
        );
      }
    });

    it('answers 401 on every card route without a valid token', async () => {
      const [card] = (await generate(project, { count: 1, duration_seconds: 60 })).items;
      const base = cardsOf(project);
      for (const res of [
        await t.http().post(base).send({ count: 1, duration_seconds: 60 }),
        await t.http().get(base),
        await t.http().get(`${base}/export.csv`),
        await t.http().get(`${base}/${card.id}`),
        await t.http().patch(`${base}/${card.id}`).send({ status: 'banned' }),
        await t.http().delete(`${base}/${card.id}`),
        await t.http().delete(`${base}/${card.id}/devices/m`),
        await t.http().get(base).set('Authorization', 'Bearer not-a-token'),
      ]) {
        expectAdminError(res, 401, UNAUTHENTICATED);
      }
      expect(await getCard(project, card.id)).toEqual(card);
    });
  });
});
