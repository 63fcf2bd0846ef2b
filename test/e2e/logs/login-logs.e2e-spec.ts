import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LoginLog } from '../../../src/login-logs/login-log.entity';
import { LoginLogsService } from '../../../src/login-logs/login-logs.service';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, PROJECT_NOT_FOUND, UNAUTHENTICATED } from '../../support/admin-errors';
import { startTestApp, TestApp, unique } from '../../support/test-app';

/** UTC+8 without daylight saving: a local day runs from 16:00 UTC the day before. */
const TIME_ZONE = 'Asia/Shanghai';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type LogBody = {
  id: number;
  card_id: number | null;
  card_code: string | null;
  machine_code: string | null;
  ip: string | null;
  family: string;
  interface: string;
  result_code: number;
  request_id: string;
  created_at: string;
};
type StatsBody = {
  from: string;
  to: string;
  time_zone: string;
  items: Array<{ day: string; interface: string; result_code: number; count: number }>;
};

/** `YYYY-MM-DD` of an instant in the test's service time zone. */
function localDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    date,
  );
}

describe('login log and stats admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: { client: AdminClient; id: string };
  let b: { client: AdminClient; id: string };
  let logs: Repository<LoginLog>;

  beforeAll(async () => {
    t = await startTestApp({ APP_TIMEZONE: TIME_ZONE });
    admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
    logs = t.app.get(getRepositoryToken(LoginLog));
  });
  afterAll(() => t.close());

  const logsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/logs`;
  const statsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/stats`;

  /** Writes log rows the way the login routes will: through the repository. */
  async function write(projectId: string, rows: Array<Partial<LoginLog>>): Promise<LoginLog[]> {
    const saved: LoginLog[] = [];
    for (const row of rows) {
      saved.push(
        await logs.save(
          logs.create({
            projectId,
            family: 'connect',
            interface: 'card_login',
            resultCode: 0,
            requestId: unique('req-'),
            ip: '198.51.100.7',
            ...row,
          }),
        ),
      );
    }
    return saved;
  }
  async function cardsFor(p: { id: string }, count: number) {
    const res = await a.client.post(`/admin/v1/projects/${p.id}/cards`, { count, duration_seconds: 3600 }).expect(201);
    return res.body.items as Array<{ id: number; code: string }>;
  }

  describe('login log', () => {
    let p: { id: string };
    let cards: Array<{ id: number; code: string }>;
    let written: LoginLog[];
    const ids = (items: LogBody[]) => items.map((l) => l.id);
    const list = async (query = '') => {
      const res = await a.client.get(`${logsOf(p)}?page_size=100${query}`).expect(200);
      return res.body as { items: LogBody[]; total: number; page: number; page_size: number };
    };

    beforeAll(async () => {
      p = await a.client.createProject();
      cards = await cardsFor(p, 2);
      const other = await b.client.createProject();
      await write(other.id, [{ machineCode: 'pc-1' }]);
      written = await write(p.id, [
        {
          cardId: cards[0].id,
          cardCode: cards[0].code,
          machineCode: 'pc-1',
          family: 'connect',
          resultCode: 0,
          requestId: 'req-connect-1',
        },
        { cardId: cards[0].id, cardCode: cards[0].code, machineCode: 'pc-2', family: 'v3', resultCode: 20004 },
        {
          cardId: null,
          cardCode: 'NO-SUCH-CARD',
          machineCode: 'pc-1',
          family: 'legacy',
          interface: 'card_login',
          resultCode: 20001,
          ip: null,
        },
        { cardId: cards[1].id, cardCode: cards[1].code, machineCode: 'pc-3', family: 'sdk', resultCode: 0 },
        {
          cardId: cards[1].id,
          cardCode: cards[1].code,
          machineCode: 'pc-3',
          family: 'sdk',
          interface: 'card_heartbeat',
          resultCode: 30101,
        },
      ]);
    });

    it("lists the project's log, newest first, with every field", async () => {
      const body = await list();
      expect(body).toMatchObject({ total: 5, page: 1, page_size: 100 });
      expect(ids(body.items)).toEqual(written.map((l) => Number(l.id)).reverse());
      expect(body.items[4]).toEqual({
        id: Number(written[0].id),
        card_id: cards[0].id,
        card_code: cards[0].code,
        machine_code: 'pc-1',
        ip: '198.51.100.7',
        family: 'connect',
        interface: 'card_login',
        result_code: 0,
        request_id: 'req-connect-1',
        created_at: written[0].createdAt.toISOString(),
      });
      expect(body.items[2]).toMatchObject({
        card_id: null,
        card_code: 'NO-SUCH-CARD',
        ip: null,
        family: 'legacy',
        result_code: 20001,
      });
    });

    it.each<[string, number[]]>([
      ['card_id=CARD0', [1, 0]],
      ['card_id=CARD1', [4, 3]],
      ['machine_code=pc-1', [2, 0]],
      ['machine_code=PC-1', []],
      ['result_code=0', [3, 0]],
      ['result_code=20004', [1]],
      ['family=connect', [0]],
      ['family=v3', [1]],
      ['family=sdk', [4, 3]],
      ['family=legacy', [2]],
      ['interface=card_heartbeat', [4]],
      ['request_id=req-connect-1', [0]],
      ['family=sdk&result_code=0', [3]],
      ['card_id=CARD0&machine_code=pc-2&result_code=20004&family=v3', [1]],
    ])('filters with %s', async (query, expected) => {
      const q = query.replace('CARD0', String(cards[0].id)).replace('CARD1', String(cards[1].id));
      expect(ids((await list(`&${q}`)).items)).toEqual(expected.map((i) => Number(written[i].id)));
    });

    it('pages the log', async () => {
      const page2 = (await a.client.get(`${logsOf(p)}?page_size=2&page=2`).expect(200)).body;
      expect(page2).toMatchObject({ total: 5, page: 2, page_size: 2 });
      expect(ids(page2.items)).toEqual([Number(written[2].id), Number(written[1].id)]);
      expect((await a.client.get(logsOf(p)).expect(200)).body).toMatchObject({ total: 5, page: 1, page_size: 20 });
    });

    it('keeps the log of a deleted card, without its id', async () => {
      const [card] = await cardsFor(p, 1);
      const [row] = await write(p.id, [{ cardId: card.id, cardCode: card.code, machineCode: 'pc-9' }]);
      await a.client.delete(`/admin/v1/projects/${p.id}/cards/${card.id}`).expect(204);
      expect((await list('&machine_code=pc-9')).items).toEqual([
        expect.objectContaining({ id: Number(row.id), card_id: null, card_code: card.code }),
      ]);
      await logs.delete({ id: row.id });
    });

    it('forgets the id of every card a bulk delete removes, and only theirs', async () => {
      const [gone1, gone2, kept] = await cardsFor(p, 3);
      const rows = await write(
        p.id,
        [gone1, gone2, kept].map((card) => ({ cardId: card.id, cardCode: card.code })),
      );
      await a.client.post(`/admin/v1/projects/${p.id}/cards/bulk`, { action: 'delete', ids: [gone1.id, gone2.id] }).expect(200);
      const after = await logs.findBy(rows.map((row) => ({ id: row.id })));
      expect(after.map((row) => [row.cardCode, row.cardId]).sort()).toEqual(
        [
          [gone1.code, null],
          [gone2.code, null],
          [kept.code, kept.id],
        ].sort(),
      );
      await logs.delete(rows.map((row) => row.id));
    });

    it("takes a deleted project's log with it, and no other project's", async () => {
      const doomed = await a.client.createProject();
      const [card] = await cardsFor(doomed, 1);
      await write(doomed.id, [{ cardId: card.id, cardCode: card.code }, { machineCode: 'pc-doomed' }]);
      const othersBefore = await logs.count();
      await a.client.delete(`/admin/v1/projects/${doomed.id}`).expect(204);
      expect(await logs.countBy({ projectId: doomed.id })).toBe(0);
      expect(await logs.count()).toBe(othersBefore - 2);
    });

    it.each([
      ['card_id=abc', 'card_id'],
      ['card_id=0', 'card_id'],
      ['card_id=1.5', 'card_id'],
      ['card_id=', 'card_id'],
      ['result_code=-1', 'result_code'],
      ['result_code=', 'result_code'],
      ['result_code=ok', 'result_code'],
      ['family=web', 'family'],
      ['machine_code=', 'machine_code'],
      [`machine_code=${'m'.repeat(129)}`, 'machine_code'],
      [`request_id=${'r'.repeat(65)}`, 'request_id'],
      ['page_size=101', 'page_size'],
      ['ip=198.51.100.7', 'ip'],
    ])('refuses the filter %s (400 naming it)', async (query, field) => {
      expectAdminError(await a.client.get(`${logsOf(p)}?${query}`), 400, BAD_REQUEST, field);
    });
  });

  describe('stats', () => {
    it('counts per local day, interface and result code in the service time zone', async () => {
      const p = await a.client.createProject();
      const [card] = await cardsFor(p, 1);
      const at = (iso: string) => ({ createdAt: new Date(iso), cardId: card.id });
      await write(p.id, [
        at('2025-02-28T15:59:59Z'), // 2025-02-28 23:59:59 local: before the window
        at('2025-02-28T16:00:00Z'), // 2025-03-01 00:00 local
        at('2025-03-01T15:59:59Z'), // 2025-03-01 23:59:59 local
        { ...at('2025-03-01T10:00:00Z'), resultCode: 20002 },
        { ...at('2025-03-01T11:00:00Z'), resultCode: 20002, family: 'v3' },
        { ...at('2025-03-01T12:00:00Z'), interface: 'card_unbind' },
        at('2025-03-01T16:00:00Z'), // 2025-03-02 00:00 local
        { ...at('2025-03-02T15:59:59Z'), interface: 'card_heartbeat', resultCode: 30101 },
        at('2025-03-02T16:00:00Z'), // 2025-03-03 00:00 local: after the window
      ]);
      const other = await b.client.createProject();
      await write(other.id, [{ createdAt: new Date('2025-03-01T12:00:00Z') }]);
      const res = await a.client.get(`${statsOf(p)}?from=2025-03-01&to=2025-03-02`).expect(200);
      expect(res.body).toEqual({
        from: '2025-03-01',
        to: '2025-03-02',
        time_zone: TIME_ZONE,
        items: [
          { day: '2025-03-01', interface: 'card_login', result_code: 0, count: 2 },
          { day: '2025-03-01', interface: 'card_login', result_code: 20002, count: 2 },
          { day: '2025-03-01', interface: 'card_unbind', result_code: 0, count: 1 },
          { day: '2025-03-02', interface: 'card_heartbeat', result_code: 30101, count: 1 },
          { day: '2025-03-02', interface: 'card_login', result_code: 0, count: 1 },
        ],
        sales: [],
        sales_time_zone: TIME_ZONE,
      });
      const one = (await a.client.get(`${statsOf(p)}?from=2025-02-28&to=2025-02-28`).expect(200)).body as StatsBody;
      expect(one.items).toEqual([{ day: '2025-02-28', interface: 'card_login', result_code: 0, count: 1 }]);
      const last = (await a.client.get(`${statsOf(p)}?from=2025-03-03&to=2025-03-03`).expect(200)).body as StatsBody;
      expect(last.items).toEqual([{ day: '2025-03-03', interface: 'card_login', result_code: 0, count: 1 }]);
    });

    it('covers the last 7 local days by default', async () => {
      const p = await a.client.createProject();
      const now = Date.now();
      await write(p.id, [
        { createdAt: new Date(now - 8 * DAY) },
        { createdAt: new Date(now - 6 * DAY + HOUR) },
        { createdAt: new Date(now - 60_000), family: 'sdk' },
        { createdAt: new Date(now - 30_000), resultCode: 20003 },
      ]);
      const today = localDay(new Date());
      const sixDaysAgo = localDay(new Date(now - 6 * DAY + HOUR));
      const body = (await a.client.get(statsOf(p)).expect(200)).body as StatsBody;
      expect(body.to).toBe(today);
      expect(body.from).toBe(localDay(new Date(Date.parse(`${today}T12:00:00Z`) - 6 * DAY)));
      expect(body.time_zone).toBe(TIME_ZONE);
      const counts = Object.fromEntries(body.items.map((i) => [`${i.day} ${i.result_code}`, i.count]));
      expect(counts).toEqual({ [`${sixDaysAgo} 0`]: 1, [`${today} 0`]: 1, [`${today} 20003`]: 1 });
      const fromOnly = (await a.client.get(`${statsOf(p)}?from=${today}`).expect(200)).body as StatsBody;
      expect(fromOnly).toMatchObject({ from: today, to: today });
      expect(fromOnly.items.reduce((sum, i) => sum + i.count, 0)).toBe(2);
      const toOnly = (await a.client.get(`${statsOf(p)}?to=2025-01-07`).expect(200)).body as StatsBody;
      expect(toOnly).toMatchObject({ from: '2025-01-01', to: '2025-01-07', items: [] });
    });

    it.each([
      ['from=2025-3-1', 'from'],
      ['from=2025-02-30', 'from'],
      ['from=01/03/2025', 'from'],
      ['to=2025-13-01', 'to'],
      ['to=2025-03-01T00:00:00Z', 'to'],
      ['from=2025-03-02&to=2025-03-01', 'from'],
      ['from=2024-01-01&to=2025-01-01', 'to'],
      ['day=2025-03-01', 'day'],
    ])('refuses %s (400 naming the field)', async (query, field) => {
      const p = await a.client.createProject();
      expectAdminError(await a.client.get(`${statsOf(p)}?${query}`), 400, BAD_REQUEST, field);
    });

    it("counts the days of another zone (tz) from the log rows, the sales staying in APP_TIMEZONE's days", async () => {
      const p = await a.client.createProject();
      const at = (iso: string, more: Partial<LoginLog> = {}) => ({ createdAt: new Date(iso), ...more });
      await write(p.id, [
        at('2025-03-01T03:00:00Z'), // Shanghai 2025-03-01 11:00; New York 2025-02-28 22:00
        at('2025-03-01T06:00:00Z', { resultCode: 20002 }), // New York 2025-03-01 01:00
        at('2025-03-01T20:00:00Z'), // Shanghai 2025-03-02 04:00; New York 2025-03-01 15:00
        at('2025-03-02T04:59:59Z'), // New York 2025-03-01 23:59:59
        at('2025-03-02T05:00:00Z'), // New York 2025-03-02 00:00
        at('2025-03-01T21:00:00Z', { route: 'card_heartbeat' }), // another client request: never counted
      ]);
      const service = (await a.client.get(`${statsOf(p)}?from=2025-03-01&to=2025-03-02`).expect(200)).body as StatsBody;
      const york = (await a.client.get(`${statsOf(p)}?from=2025-03-01&to=2025-03-02&tz=America/New_York`).expect(200))
        .body as StatsBody;
      expect(service.items).toEqual([
        { day: '2025-03-01', interface: 'card_login', result_code: 0, count: 1 },
        { day: '2025-03-01', interface: 'card_login', result_code: 20002, count: 1 },
        { day: '2025-03-02', interface: 'card_login', result_code: 0, count: 3 },
      ]);
      expect(york).toMatchObject({
        from: '2025-03-01',
        to: '2025-03-02',
        time_zone: 'America/New_York',
        sales_time_zone: TIME_ZONE,
      });
      expect(york.items).toEqual([
        { day: '2025-03-01', interface: 'card_login', result_code: 0, count: 2 },
        { day: '2025-03-01', interface: 'card_login', result_code: 20002, count: 1 },
        { day: '2025-03-02', interface: 'card_login', result_code: 0, count: 1 },
      ]);
      // The service's own zone, however spelt, is read from the daily counts.
      const same = (await a.client.get(`${statsOf(p)}?from=2025-03-01&to=2025-03-02&tz=asia/shanghai`).expect(200))
        .body as StatsBody;
      expect(same).toMatchObject({ time_zone: TIME_ZONE, items: service.items });
    });

    it("defaults the window to the last 7 days of tz, and keeps APP_TIMEZONE's counted days past 31 days", async () => {
      const p = await a.client.createProject();
      const zone = 'Pacific/Kiritimati'; // UTC+14: most of the time a day ahead of UTC
      const today = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(new Date());
      await write(p.id, [{ createdAt: new Date(Date.now() - 60_000) }]);
      const body = (await a.client.get(`${statsOf(p)}?tz=${zone}`).expect(200)).body as StatsBody;
      expect(body).toMatchObject({ to: today, time_zone: zone });
      expect(body.items).toEqual([{ day: today, interface: 'card_login', result_code: 0, count: 1 }]);
      const long = (await a.client.get(`${statsOf(p)}?tz=${zone}&from=2025-01-01&to=2025-02-01`).expect(200)).body as StatsBody;
      expect(long).toMatchObject({ from: '2025-01-01', to: '2025-02-01', time_zone: TIME_ZONE });
    });

    it.each(['Mars/Olympus', 'UTC+8', '', 'x'.repeat(65)])('refuses tz=%j (400 naming tz)', async (tz) => {
      const p = await a.client.createProject();
      expectAdminError(await a.client.get(`${statsOf(p)}?tz=${encodeURIComponent(tz)}`), 400, BAD_REQUEST, 'tz');
    });

    it('accepts a window of 366 days', async () => {
      const p = await a.client.createProject();
      await a.client.get(`${statsOf(p)}?from=2024-01-01&to=2024-12-31`).expect(200);
    });
  });

  describe('tenancy and authentication', () => {
    it("another author gets 404 for the log and stats of A's project", async () => {
      const p = await a.client.createProject();
      await write(p.id, [{}]);
      expectAdminError(await b.client.get(logsOf(p)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(statsOf(p)), 404, PROJECT_NOT_FOUND);
      expect((await a.client.get(logsOf(p)).expect(200)).body.total).toBe(1);
      expect((await admin.get(logsOf(p)).expect(200)).body.total).toBe(1);
      await admin.get(statsOf(p)).expect(200);
      for (const id of ['not-a-uuid', '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6']) {
        expectAdminError(await a.client.get(`/admin/v1/projects/${id}/logs`), 404, PROJECT_NOT_FOUND);
        expectAdminError(await a.client.get(`/admin/v1/projects/${id}/stats`), 404, PROJECT_NOT_FOUND);
      }
    });

    it('answers 401 without a valid token', async () => {
      const p = await a.client.createProject();
      for (const res of [
        await t.http().get(logsOf(p)),
        await t.http().get(statsOf(p)),
        await t.http().get(logsOf(p)).set('Authorization', 'Bearer not-a-token'),
      ]) {
        expectAdminError(res, 401, UNAUTHENTICATED);
      }
    });

    it('exports the service for other modules', () => {
      expect(t.app.get(LoginLogsService)).toBeInstanceOf(LoginLogsService);
    });
  });
});
