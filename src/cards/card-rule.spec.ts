import { PGlite } from '@electric-sql/pglite';
import { ErrorCode } from '../core/errors/error-code';
import { CardStatus } from './card.entity';
import { cardRefusal, cardSql, clientExpiry, deviceRefusal, isCardExpired, loginRefusal } from './card-rule';

describe('card rule', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const at = (iso: string | null) => (iso ? new Date(iso) : null);

  it('treats a card without expiry (unused or permanent) as never expired', () => {
    expect(isCardExpired({ expiresAt: null }, now)).toBe(false);
  });

  it('is expired from the instant of expires_at on', () => {
    expect(isCardExpired({ expiresAt: at('2026-06-01T00:00:00Z') }, now)).toBe(true);
    expect(isCardExpired({ expiresAt: at('2026-06-01T00:00:01Z') }, now)).toBe(false);
  });

  it('refuses a banned card before looking at its expiry', () => {
    expect(cardRefusal({ status: 'banned', expiresAt: at('2020-01-01T00:00:00Z') }, now)).toBe(ErrorCode.CARD_BANNED);
    expect(cardRefusal({ status: 'active', expiresAt: at('2020-01-01T00:00:00Z') }, now)).toBe(ErrorCode.CARD_EXPIRED);
    expect(cardRefusal({ status: 'unused', expiresAt: null }, now)).toBeNull();
  });

  it('treats a consumed top-up card as no card at all', () => {
    expect(cardRefusal({ status: 'consumed', expiresAt: null }, now)).toBe(ErrorCode.CARD_INVALID);
    expect(deviceRefusal({ status: 'consumed', expiresAt: null }, true, now)).toBe(ErrorCode.CARD_INVALID);
  });

  it('refuses a login of a count card without uses, after its state, and never a time card for uses', () => {
    const count = { status: 'active' as const, expiresAt: null, kind: 'count' as const };
    expect(loginRefusal({ ...count, usesLeft: 0 }, now)).toBe(ErrorCode.CARD_NO_USES_LEFT);
    expect(loginRefusal({ ...count, usesLeft: 1 }, now)).toBeNull();
    expect(loginRefusal({ ...count, status: 'banned', usesLeft: 0 }, now)).toBe(ErrorCode.CARD_BANNED);
    expect(loginRefusal({ status: 'active', expiresAt: null, kind: 'time', usesLeft: null }, now)).toBeNull();
    // A session or token of a card that used its last use stays valid: uses are a login rule.
    const usedUp = { ...count, usesLeft: 0 };
    expect(deviceRefusal(usedUp, true, now)).toBeNull();
  });

  it('lets a device in only on an active, valid card it is bound to', () => {
    const active = { status: 'active' as const, expiresAt: at('2026-07-01T00:00:00Z') };
    expect(deviceRefusal(active, true, now)).toBeNull();
    expect(deviceRefusal(active, false, now)).toBe(ErrorCode.DEVICE_NOT_BOUND);
    expect(deviceRefusal({ status: 'unused', expiresAt: null }, false, now)).toBe(ErrorCode.DEVICE_NOT_BOUND);
    expect(deviceRefusal({ status: 'banned', expiresAt: null }, true, now)).toBe(ErrorCode.CARD_BANNED);
    expect(deviceRefusal({ status: 'active', expiresAt: at('2026-05-01T00:00:00Z') }, true, now)).toBe(ErrorCode.CARD_EXPIRED);
  });

  it('shows a permanent card as 9999-12-31 23:59:59 and others in local time', () => {
    expect(clientExpiry({ expiresAt: null }, 'UTC')).toBe('9999-12-31 23:59:59');
    expect(clientExpiry({ expiresAt: at('2026-06-01T10:00:00Z') }, 'Asia/Shanghai')).toBe('2026-06-01 18:00:00');
  });
});

/**
 * The SQL form of the rule against the TypeScript form, on a real PostgreSQL (embedded): every
 * status, with expiries a millisecond before, exactly at and after "now", bound and not bound.
 */
describe('card rule in SQL', () => {
  let db: PGlite;
  const now = new Date('2026-06-01T00:00:00.000Z');
  const statuses: CardStatus[] = ['unused', 'active', 'banned', 'consumed'];
  const expiries = [null, new Date(now.getTime() - 1), now, new Date(now.getTime() + 1)];
  const kinds = [
    { kind: 'time' as const, usesLeft: null },
    { kind: 'count' as const, usesLeft: 0 },
    { kind: 'count' as const, usesLeft: 1 },
  ];
  const cases = statuses.flatMap((status) =>
    expiries.flatMap((expiresAt) => kinds.flatMap((uses) => [true, false].map((bound) => ({ status, expiresAt, ...uses, bound })))),
  );

  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`CREATE TABLE cards (id int PRIMARY KEY, status text NOT NULL, expires_at timestamptz, kind text NOT NULL, uses_left int);
      CREATE TABLE card_devices (card_id int NOT NULL, machine_code text NOT NULL);`);
    for (const [id, c] of cases.entries()) {
      await db.query('INSERT INTO cards VALUES ($1, $2, $3, $4, $5)', [id, c.status, c.expiresAt, c.kind, c.usesLeft]);
      if (c.bound) await db.query("INSERT INTO card_devices VALUES ($1, 'this-device')", [id]);
    }
  }, 30_000);
  afterAll(() => db?.close());

  /** `$1` is "now"; `$2` the machine code (referenced by every predicate, so both are always bound). */
  async function idsWhere(predicate: string): Promise<number[]> {
    const sql = `SELECT c.id FROM cards c WHERE $2::text IS NOT NULL AND ${predicate} ORDER BY c.id`;
    const result = await db.query<{ id: number }>(sql, [now, 'this-device']);
    return result.rows.map((row) => row.id);
  }
  const idsOf = (keep: (c: (typeof cases)[number]) => boolean) => [...cases.entries()].filter(([, c]) => keep(c)).map(([id]) => id);

  it('finds the expired cards isCardExpired finds, the one expiring exactly now included', async () => {
    expect(await idsWhere(cardSql.expired('c', '$1::timestamptz'))).toEqual(idsOf((c) => isCardExpired(c, now.getTime())));
  });

  it('finds the usable cards cardRefusal lets through', async () => {
    expect(await idsWhere(cardSql.usable('c', '$1::timestamptz'))).toEqual(idsOf((c) => cardRefusal(c, now.getTime()) === null));
  });

  it('admits the devices deviceRefusal admits', async () => {
    const admitted = await idsWhere(cardSql.admitsDevice('c', '$2', '$1::timestamptz'));
    expect(admitted).toEqual(idsOf((c) => deviceRefusal(c, c.bound, now.getTime()) === null));
    expect(admitted.length).toBeGreaterThan(0);
  });

  it('lets a repeat login through exactly where the login rules and the device rule both would', async () => {
    const admitted = await idsWhere(cardSql.admitsRepeatLogin('c', '$2', '$1::timestamptz'));
    expect(admitted).toEqual(idsOf((c) => loginRefusal(c, now.getTime()) === null && deviceRefusal(c, c.bound, now.getTime()) === null));
    expect(admitted.length).toBeGreaterThan(0);
  });

  it('takes one use of a count card and none of a time card', async () => {
    const { rows } = await db.query<{ kind: string; after: number | null }>(
      `SELECT c.kind, ${cardSql.takeUse('c')} AS after FROM cards c WHERE c.uses_left IS DISTINCT FROM 0 AND $1::timestamptz IS NOT NULL AND $2::text IS NOT NULL`,
      [now, 'x'],
    );
    expect(new Set(rows.map((row) => `${row.kind}:${row.after}`))).toEqual(new Set(['time:null', 'count:0']));
  });
});
