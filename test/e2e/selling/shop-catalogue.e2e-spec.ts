import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { createType } from '../../support/agents';
import { checkout, CheckoutAnswer, enableEpay, MERCHANT_KEY, notify, paidNotice, PUBLIC_URL } from '../../support/shop';
import { startTestApp, TestApp, uniqueAddress } from '../../support/test-app';

const { AUTHOR_DISABLED, OUT_OF_STOCK, PROGRAM_DISABLED, PROGRAM_NOT_FOUND, RATE_LIMITED } = ErrorCode;

/** Catalogue reads a test makes from one address before the limit refuses the next. */
const STATUS_LIMIT = 4;

/**
 * The storefront page's catalogue, `GET /shop/api/:program_id` (docs/decisions.md, "Storefront
 * page"): a program's name, its types for sale with prices, the providers it takes, a stock type
 * with nothing free shown sold out; nothing of the author's set-up; refused as a checkout is for an
 * unknown or disabled program or author; limited per address with the status reads. Both databases.
 */
describe('storefront catalogue (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL, TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SHOP_STATUS_PER_ADDRESS: String(STATUS_LIMIT) });
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t?.close());

  /** Each read from an address of its own, so only the limit's test meets the limit. */
  const catalogue = (programId: string, address = uniqueAddress()) =>
    t.http().get(`/shop/api/${programId}`).set('X-Forwarded-For', address);

  it('lists the types for sale, cheapest first, with the providers switched on, and nothing else', async () => {
    const { client: author, username } = await admin.createAuthor();
    const project = await author.createProject({ name: 'Paint Studio' });
    const month = await createType(author, project.id, { name: 'Month', price_cents: 1250, for_sale: true });
    const logins = await createType(author, project.id, {
      name: 'Ten logins',
      kind: 'count',
      uses: 10,
      duration_seconds: 0,
      device_limit: 2,
      price_cents: 300,
      for_sale: true,
    });
    // Not for sale, or disabled: never shown (a type for sale cannot be free).
    await createType(author, project.id, { name: 'Hidden', price_cents: 900 });
    const off = await createType(author, project.id, { name: 'Off', price_cents: 900, for_sale: true });
    await author.patch(`/admin/v1/projects/${project.id}/card-types/${off.id}`, { enabled: false }).expect(200);

    const before = (await catalogue(project.program_id).expect(200)).body;
    expect(before.providers).toEqual([]);
    await enableEpay(author, project.id);
    const shown = await catalogue(project.program_id).expect(200);
    expect(shown.body).toEqual({
      program_id: project.program_id,
      name: 'Paint Studio',
      currency: 'CNY',
      card_types: [
        {
          id: logins.id,
          name: 'Ten logins',
          kind: 'count',
          duration_seconds: 0,
          uses: 10,
          device_limit: 2,
          price_cents: 300,
          stock_mode: 'mint',
          in_stock: true,
        },
        {
          id: month.id,
          name: 'Month',
          kind: 'time',
          duration_seconds: 30 * 86400,
          uses: null,
          device_limit: 1,
          price_cents: 1250,
          stock_mode: 'mint',
          in_stock: true,
        },
      ],
      providers: ['epay'],
    });
    const text = JSON.stringify(shown.body);
    for (const secret of [MERCHANT_KEY, project.api_secret as string, project.id, username]) expect(text).not.toContain(secret);

    await author.put(`/admin/v1/projects/${project.id}/payments/epay`, { enabled: false }).expect(200);
    expect((await catalogue(project.program_id).expect(200)).body.providers).toEqual([]);
  });

  it('shows a stock type sold out while no unsold card is free, and in stock once there is one', async () => {
    const { client: author } = await admin.createAuthor();
    const project = await author.createProject();
    await enableEpay(author, project.id);
    const type = await createType(author, project.id, { price_cents: 800, for_sale: true, stock_mode: 'stock' });
    const inStock = async () =>
      (await catalogue(project.program_id).expect(200)).body.card_types.map((c: { in_stock: boolean }) => c.in_stock);

    expect(await inStock()).toEqual([false]);
    expectAdminError(await checkout(t, project.program_id, { card_type_id: type.id }), 409, OUT_OF_STOCK);
    await author.post(`/admin/v1/projects/${project.id}/cards`, { count: 1, card_type_id: type.id, stock: true }).expect(201);
    expect(await inStock()).toEqual([true]);
    // A checkout holds the last card for its 15 minutes: sold out meanwhile.
    await checkout(t, project.program_id, { card_type_id: type.id }).expect(201);
    expect(await inStock()).toEqual([false]);
  });

  it('tells the return page, with the cards, that they were not mailed when the service sends no mail', async () => {
    const { client: author } = await admin.createAuthor();
    const project = await author.createProject();
    await enableEpay(author, project.id);
    const type = await createType(author, project.id, { price_cents: 500, for_sale: true });
    const c = (await checkout(t, project.program_id, { card_type_id: type.id }).expect(201)).body as CheckoutAnswer;
    await notify(t, project.id, paidNotice(c.checkout_id, c.amount_cents)).expect(200, 'success');
    const status = (token?: string) =>
      t.http().get(`/shop/api/checkouts/${c.checkout_id}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    expect((await status(c.token).expect(200)).body).toMatchObject({
      status: 'paid',
      cards: [{ code: expect.any(String) }],
      mail: 'none',
    });
    expect((await status().expect(200)).body.mail).toBeUndefined();
  });

  it('is refused as a checkout is: an unknown program, a disabled program, a disabled author', async () => {
    expectAdminError(await catalogue('99999999'), 404, PROGRAM_NOT_FOUND);
    expectAdminError(await catalogue('not-a-program'), 404, PROGRAM_NOT_FOUND);
    const owner = await admin.createAuthor();
    const project = await owner.client.createProject();
    await catalogue(project.program_id).expect(200);
    await owner.client.patch(`/admin/v1/projects/${project.id}`, { status: 'disabled' }).expect(200);
    expectAdminError(await catalogue(project.program_id), 403, PROGRAM_DISABLED);
    await owner.client.patch(`/admin/v1/projects/${project.id}`, { status: 'active' }).expect(200);
    await admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'disabled' }).expect(200);
    expectAdminError(await catalogue(project.program_id), 403, AUTHOR_DISABLED);
  });

  it('is limited per address together with the checkout status reads', async () => {
    const { client: author } = await admin.createAuthor();
    const project = await author.createProject();
    const address = uniqueAddress();
    for (let i = 0; i < STATUS_LIMIT - 1; i++) await catalogue(project.program_id, address).expect(200);
    await t.http().get('/shop/api/checkouts/00000000-0000-4000-8000-000000000000').set('X-Forwarded-For', address).expect(404);
    const refused = await catalogue(project.program_id, address);
    expectAdminError(refused, 429, RATE_LIMITED);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await catalogue(project.program_id).expect(200);
  });
});
