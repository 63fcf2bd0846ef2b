import { DataSource, QueryRunner } from 'typeorm';
import { CardStatus } from '../../../src/cards/card.entity';
import { cardRefusal, cardSql, deviceRefusal, hasDeviceSlot, isCardExpired, loginRefusal } from '../../../src/cards/card-rule';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The SQL form of the rule against the TypeScript form, on a real PostgreSQL (embedded): every
 * status, with expiries a millisecond before, exactly at and after "now", bound and not bound.
 */
describe('card rule in SQL (e2e)', () => {
  let t: TestApp;
  let db: QueryRunner;
  const now = new Date('2026-06-01T00:00:00.000Z');
  const statuses: CardStatus[] = ['unused', 'active', 'banned', 'consumed', 'stock'];
  const expiries = [null, new Date(now.getTime() - 1), now, new Date(now.getTime() + 1)];
  const kinds = [
    { kind: 'time' as const, usesLeft: null },
    { kind: 'count' as const, usesLeft: 0 },
    { kind: 'count' as const, usesLeft: 1 },
  ];
  const cases = statuses.flatMap((status) =>
    expiries.flatMap((expiresAt) =>
      kinds.flatMap((uses) => [true, false].map((bound) => ({ status, expiresAt, ...uses, bound }))),
    ),
  );

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource).createQueryRunner();
    await db.connect();
    // Temporary tables of this connection's own, found before the service's tables of the same name.
    await db.query(
      'CREATE TEMP TABLE cards (id int PRIMARY KEY, status text NOT NULL, expires_at timestamptz, kind text NOT NULL, uses_left int, device_changes bigint NOT NULL DEFAULT 0)',
    );
    await db.query('CREATE TEMP TABLE card_devices (card_id int NOT NULL, machine_code text NOT NULL)');
    for (const [id, c] of cases.entries()) {
      await db.query('INSERT INTO cards VALUES ($1, $2, $3, $4, $5)', [id, c.status, c.expiresAt, c.kind, c.usesLeft]);
      if (c.bound) await db.query("INSERT INTO card_devices VALUES ($1, 'this-device')", [id]);
    }
  });
  afterAll(async () => {
    await db?.release();
    await t?.close();
  });

  /** `$1` is "now"; `$2` the machine code (referenced by every predicate, so both are always bound). */
  async function idsWhere(predicate: string): Promise<number[]> {
    const sql = `SELECT c.id FROM cards c WHERE $2::text IS NOT NULL AND ${predicate} ORDER BY c.id`;
    const rows: Array<{ id: number }> = await db.query(sql, [now, 'this-device']);
    return rows.map((row) => row.id);
  }
  const idsOf = (keep: (c: (typeof cases)[number]) => boolean) =>
    [...cases.entries()].filter(([, c]) => keep(c)).map(([id]) => id);

  it('finds the expired cards isCardExpired finds, the one expiring exactly now included', async () => {
    expect(await idsWhere(cardSql.expired('c', '$1::timestamptz'))).toEqual(idsOf((c) => isCardExpired(c, now.getTime())));
  });

  it('finds the usable cards cardRefusal lets through', async () => {
    expect(await idsWhere(cardSql.usable('c', '$1::timestamptz'))).toEqual(idsOf((c) => cardRefusal(c, now.getTime()) === null));
  });

  it('admits the logins loginRefusal admits (the new-device statement)', async () => {
    const admitted = await idsWhere(cardSql.admitsLogin('c', '$1::timestamptz'));
    expect(admitted).toEqual(idsOf((c) => loginRefusal(c, now.getTime()) === null));
    expect(admitted.length).toBeGreaterThan(0);
  });

  it('finds a free device slot where hasDeviceSlot does', async () => {
    const pairs = [
      [0, 1],
      [1, 1],
      [1, 2],
      [2, 2],
      [3, 2],
    ];
    const rows: Array<{ free: boolean }> = await db.query(
      `SELECT ${cardSql.hasDeviceSlot('c')} AS free FROM (VALUES ${pairs.map(([n, limit]) => `(${n}, ${limit})`).join(', ')}) c(bound_devices, device_limit)`,
    );
    expect(rows.map((row) => row.free)).toEqual(pairs.map(([n, limit]) => hasDeviceSlot({ deviceLimit: limit }, n)));
    expect(rows.map((row) => row.free)).toEqual([true, false, true, false, false]);
  });

  it('admits the devices deviceRefusal admits', async () => {
    const admitted = await idsWhere(cardSql.admitsDevice('c', '$2', '$1::timestamptz'));
    expect(admitted).toEqual(idsOf((c) => deviceRefusal(c, c.bound, now.getTime()) === null));
    expect(admitted.length).toBeGreaterThan(0);
  });

  it('lets a repeat login through exactly where the login rules and the device rule both would', async () => {
    const admitted = await idsWhere(cardSql.admitsRepeatLogin('c', '$2', '$1::timestamptz'));
    expect(admitted).toEqual(
      idsOf((c) => loginRefusal(c, now.getTime()) === null && deviceRefusal(c, c.bound, now.getTime()) === null),
    );
    expect(admitted.length).toBeGreaterThan(0);
  });

  it('takes one use of a count card and none of a time card', async () => {
    const rows: Array<{ kind: string; after: number | null }> = await db.query(
      `SELECT c.kind, ${cardSql.takeUse('c')} AS after FROM cards c WHERE c.uses_left IS DISTINCT FROM 0 AND $1::timestamptz IS NOT NULL AND $2::text IS NOT NULL`,
      [now, 'x'],
    );
    expect(new Set(rows.map((row) => `${row.kind}:${row.after}`))).toEqual(new Set(['time:null', 'count:0']));
  });
});
