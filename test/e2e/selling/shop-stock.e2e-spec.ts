import { DataSource } from 'typeorm';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { createType } from '../../support/agents';
import {
  checkout,
  CheckoutAnswer,
  enableEpay,
  expire,
  notify,
  ordersOfCheckout,
  paidNotice,
  PUBLIC_URL,
} from '../../support/shop';
import { sdkLogin } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

const { BAD_REQUEST, CARD_INVALID, OUT_OF_STOCK } = ErrorCode;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * Card types sold from stock (decisions §26): stock cards made or imported with `stock: true`,
 * reserved by a checkout for its 15 minutes, sold once, exact under races, and unable to log in
 * before they are sold. Both databases.
 */
describe('storefront stock (decisions §26, e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  const db = () => t.app.get(DataSource);

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL });
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
  });
  afterAll(() => t?.close());

  /** A project with epay on and a stock type of `stock` unsold cards (price 800). */
  async function stocked(stock: number) {
    const project = await author.createProject();
    await enableEpay(author, project.id);
    const type = await createType(author, project.id, { price_cents: 800, for_sale: true, stock_mode: 'stock' });
    const made = stock
      ? (
          await author
            .post(`/admin/v1/projects/${project.id}/cards`, { count: stock, card_type_id: type.id, stock: true })
            .expect(201)
        ).body
      : { items: [] };
    return { project, type, cards: made.items as Array<{ id: number; code: string; status: string }> };
  }
  const login = (project: Project, code: string, machine = 'pc-1') =>
    sdkLogin(t, project.api_secret, { app: project.program_id, card_key: code, machine_id: machine }).expect(200);
  const importCsv = (project: Project, query: string, csv: string) =>
    t
      .http()
      .post(`/admin/v1/projects/${project.id}/cards/import?${query}`)
      .set(author.auth())
      .set('Content-Type', 'text/csv')
      .send(csv);
  const reservations = async (projectId: string) =>
    (await db().query(
      `SELECT id, reserved_by FROM cards WHERE project_id = $1 AND status = 'stock' AND reserved_until > now() ORDER BY id`,
      [projectId],
    )) as Array<{ id: number; reserved_by: string }>;

  it('makes stock cards that cannot log in (nor be looked up) before they are sold, and shows them as stock', async () => {
    const { project, type, cards } = await stocked(2);
    expect(cards.map((c) => c.status)).toEqual(['stock', 'stock']);
    expect((await author.get(`/admin/v1/projects/${project.id}/card-types/${type.id}`).expect(200)).body).toMatchObject({
      for_sale: true,
      stock_mode: 'stock',
    });
    const refused = await login(project, cards[0].code);
    expect(refused.body).toMatchObject({ code: CARD_INVALID, success: false });
    // The same answer as a key that matches nothing: a stock card does not tell it exists.
    const none = await login(project, 'NO-SUCH-CARD-0000');
    expect(none.body.code).toBe(refused.body.code);
    expect(none.body.msg).toBe(refused.body.msg);
    // Untouched by the attempt.
    const [row] = await db().query(`SELECT status, activated_at, use_count FROM cards WHERE id = $1`, [cards[0].id]);
    expect(row).toEqual({ status: 'stock', activated_at: null, use_count: '0' });

    const listed = (await author.get(`/admin/v1/projects/${project.id}/cards?status=stock`).expect(200)).body;
    expect(listed.total).toBe(2);
    // A stock card is never banned (unbanning it would make a card nobody bought): sold or deleted.
    expectAdminError(
      await author.patch(`/admin/v1/projects/${project.id}/cards/${cards[0].id}`, { status: 'banned' }),
      400,
      BAD_REQUEST,
      'status',
    );
    const bulk = await author
      .post(`/admin/v1/projects/${project.id}/cards/bulk`, { action: 'ban', ids: [cards[0].id] })
      .expect(200);
    expect(bulk.body).toMatchObject({ matched: 1, changed: 0 });
    // Stock needs a type.
    expectAdminError(
      await author.post(`/admin/v1/projects/${project.id}/cards`, { count: 1, duration_seconds: 60, stock: true }),
      400,
      BAD_REQUEST,
      'stock',
    );
  });

  it('reserves exactly 3 of 3 stock cards for 10 checkouts racing: 3 created, 7 OUT_OF_STOCK, each card once', async () => {
    const { project, type } = await stocked(3);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => checkout(t, project.program_id, { card_type_id: type.id })),
    );
    const created = answers.filter((r) => r.status === 201);
    expect(created).toHaveLength(3);
    for (const refused of answers.filter((r) => r.status !== 201)) expectAdminError(refused, 409, OUT_OF_STOCK);
    const held = await reservations(project.id);
    expect(held).toHaveLength(3);
    expect(new Set(held.map((r) => r.reserved_by))).toEqual(new Set(created.map((r) => r.body.checkout_id)));
    // The refused ones left nothing behind.
    const [{ n }] = await db().query(`SELECT count(*)::int AS n FROM checkouts WHERE project_id = $1`, [project.id]);
    expect(n).toBe(3);
  });

  it('refuses a checkout of more cards than are left, reserving none of them', async () => {
    const { project, type } = await stocked(1);
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id, count: 2 }), 409, OUT_OF_STOCK, 'count');
    expect(await reservations(project.id)).toEqual([]);
    await checkout(t, project.program_id, { card_type_id: type.id, count: 1 }).expect(201);
  });

  it('sells the reserved card when paid: it becomes the order’s, logs in, and the next checkout finds none left', async () => {
    const { project, type, cards } = await stocked(2);
    const first = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    const second = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    const [mine] = (await reservations(project.id)).filter((r) => r.reserved_by === first.checkout_id);
    expect((await notify(t, project.id, paidNotice(first.checkout_id, 800)).expect(200)).text).toBe('success');
    const shown = (await t.http().get(`/shop/api/checkouts/${first.checkout_id}?token=${first.token}`).expect(200)).body;
    const sold = cards.find((c) => c.id === mine.id)!;
    expect(shown.cards).toEqual([{ code: sold.code }]);
    const order = (await author.get(`/admin/v1/projects/${project.id}/orders/${first.checkout_id}`).expect(200)).body;
    expect(order.items.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([[sold.id, 'unused']]);
    expect(order.batch_id).toBeNull();
    expect((await login(project, sold.code)).body).toMatchObject({ code: 0, success: true });
    // The other card is still the second checkout's; nothing is left for a third.
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id }), 409, OUT_OF_STOCK);
    expect((await notify(t, project.id, paidNotice(second.checkout_id, 800)).expect(200)).text).toBe('success');
    expect((await notify(t, project.id, paidNotice(second.checkout_id, 800)).expect(200)).text).toBe('success');
    const [{ left }] = await db().query(`SELECT count(*)::int AS left FROM cards WHERE project_id = $1 AND status = 'stock'`, [
      project.id,
    ]);
    expect(left).toBe(0);
    expect(await ordersOfCheckout(t, second.checkout_id)).toBe(1);
  });

  it('gives an expired checkout’s card to the next checkout (lazily), and a late payment of it is refund_needed', async () => {
    const { project, type } = await stocked(1);
    const late = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id }), 409, OUT_OF_STOCK);
    await expire(t, late.checkout_id);
    const next = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    expect((await reservations(project.id)).map((r) => r.reserved_by)).toEqual([next.checkout_id]);

    // The gateway is told the payment was taken (it must stop); the author sees a refund to make.
    expect((await notify(t, project.id, paidNotice(late.checkout_id, 800)).expect(200)).text).toBe('success');
    expect((await t.http().get(`/shop/api/checkouts/${late.checkout_id}?token=${late.token}`).expect(200)).body).toEqual(
      expect.objectContaining({ status: 'failed' }),
    );
    expect(await ordersOfCheckout(t, late.checkout_id)).toBe(0);
    const listed = (await author.get(`/admin/v1/projects/${project.id}/checkouts?status=refund_needed`).expect(200)).body.items;
    expect(listed).toEqual([
      expect.objectContaining({
        checkout_id: late.checkout_id,
        status: 'refund_needed',
        problem: expect.stringContaining('0 of 1'),
      }),
    ]);
    // Its repeat changes nothing; the next checkout still holds its card and gets it when paid.
    expect((await notify(t, project.id, paidNotice(late.checkout_id, 800)).expect(200)).text).toBe('success');
    expect((await notify(t, project.id, paidNotice(next.checkout_id, 800)).expect(200)).text).toBe('success');
    expect(
      (await t.http().get(`/shop/api/checkouts/${next.checkout_id}?token=${next.token}`).expect(200)).body.cards,
    ).toHaveLength(1);
  });

  it('honours a late payment from other stock when its own card went to another checkout', async () => {
    const { project, type, cards } = await stocked(1);
    const late = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    await expire(t, late.checkout_id);
    await checkout(t, project.program_id, { card_type_id: type.id }).expect(201); // takes the one card
    // More stock arrives, imported.
    const csv = 'code\nIMPORTED-STOCK-0001\n';
    const imported = await importCsv(project, `card_type_id=${type.id}&stock=true`, csv).expect(201);
    expect(imported.body).toMatchObject({ imported: 1 });
    expect((await notify(t, project.id, paidNotice(late.checkout_id, 800)).expect(200)).text).toBe('success');
    const shown = (await t.http().get(`/shop/api/checkouts/${late.checkout_id}?token=${late.token}`).expect(200)).body;
    expect(shown).toMatchObject({ status: 'paid', cards: [{ code: 'IMPORTED-STOCK-0001' }] });
    expect(cards).toHaveLength(1);
  });

  it('imports stock with ?stock=true only as unused cards of a type', async () => {
    const { project, type } = await stocked(0);
    const bad = await importCsv(
      project,
      `card_type_id=${type.id}&stock=true`,
      'code,status,activated_at\nSTOCK-A-1,active,2026-01-01T00:00:00Z\n',
    );
    expectAdminError(bad, 400, ErrorCode.CARD_IMPORT_INVALID);
    expect(bad.body.error.details.problems.map((p: { field: string; reason: string }) => [p.field, p.reason])).toEqual([
      ['status', 'stock_not_unused'],
      ['activated_at', 'stock_not_unused'],
    ]);
    const noType = await importCsv(project, `stock=true`, 'code\nSTOCK-A-2\n');
    expectAdminError(noType, 400, BAD_REQUEST, 'stock');
    await importCsv(project, `card_type_id=${type.id}&stock=true`, 'code\nSTOCK-A-3\n').expect(201);
    expect((await login(project, 'STOCK-A-3')).body.code).toBe(CARD_INVALID);
    // The data export of stock cards reads back as stock.
    const exported = await t
      .http()
      .get(`/admin/v1/projects/${project.id}/cards/export.csv?status=stock`)
      .set(author.auth())
      .expect(200);
    expect(exported.text).toContain('STOCK-A-3');
    const other = await stocked(0);
    await importCsv(other.project, `card_type_id=${other.type.id}&stock=true`, exported.text).expect(201);
    expect((await author.get(`/admin/v1/projects/${other.project.id}/cards?status=stock`).expect(200)).body.total).toBe(1);
    await checkout(t, project.program_id, { card_type_id: type.id }).expect(201);
  });
});
