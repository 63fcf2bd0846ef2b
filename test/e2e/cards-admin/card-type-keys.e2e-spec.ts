import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError } from '../../support/admin-errors';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { signedPost } from '../../support/signing';
import { sdkLogin } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

const TYPE = { name: 'Month', kind: 'time', duration_seconds: 30 * 86400, device_limit: 1, features: [], price_cents: 0 };

describe('card types: length and alphabet of their codes (e2e)', () => {
  let t: TestApp;
  let a: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    a = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
  });
  afterAll(() => t.close());

  const types = (p: { id: string }) => `/admin/v1/projects/${p.id}/card-types`;
  const codesOf = async (p: { id: string }, body: object) =>
    ((await a.post(`/admin/v1/projects/${p.id}/cards`, body).expect(201)).body.items as Array<{ code: string }>).map(
      (card) => card.code,
    );

  it('a type without a shape makes the codes a batch without a type makes: 20 of the unambiguous alphabet', async () => {
    const p = await a.createProject();
    const type = (await a.post(types(p), TYPE).expect(201)).body;
    expect(type).toMatchObject({ key_length: 20, key_alphabet: 'upper_digits_unambiguous' });
    const unambiguous = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{20}$/;
    for (const code of await codesOf(p, { count: 5, card_type_id: type.id })) expect(code).toMatch(unambiguous);
    for (const code of await codesOf(p, { count: 5, duration_seconds: 60 })) expect(code).toMatch(unambiguous);
  });

  it.each([
    ['digits', 16, /^P-\d{16}$/],
    ['hex_upper', 10, /^P-[0-9A-F]{10}$/],
    ['lower_digits', 12, /^P-[a-z0-9]{12}$/],
    ['upper_digits', 64 - 2, /^P-[A-Z0-9]{62}$/],
  ])('a %s type of %d characters makes codes of that shape', async (alphabet, length, shape) => {
    const p = await a.createProject();
    const type = (await a.post(types(p), { ...TYPE, prefix: 'P-', key_length: length, key_alphabet: alphabet }).expect(201)).body;
    expect(type).toMatchObject({ key_length: length, key_alphabet: alphabet, prefix: 'P-' });
    const codes = await codesOf(p, { count: 20, card_type_id: type.id });
    expect(new Set(codes).size).toBe(20);
    for (const code of codes) expect(code).toMatch(shape);
  });

  it('a digits-only code logs in, through the SDK and Connect', async () => {
    const p = await a.createProject();
    await openConnectInEveryMode(t, p.id);
    const type = (await a.post(types(p), { ...TYPE, device_limit: 2, key_length: 13, key_alphabet: 'digits' }).expect(201)).body;
    const [code] = await codesOf(p, { count: 1, card_type_id: type.id });
    expect(code).toMatch(/^\d{13}$/);
    const sdk = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: 'm-1' }).expect(200);
    expect(sdk.body).toMatchObject({ code: 0, data: { session_token: expect.any(String) } });
    const connect = await connectLogin(t, p.program_id, { user_key: code, serial: 'm-2' }).expect(200);
    expect(connect.body.status).toBe(true);
  });

  it('an order and a trial made from a type get codes of its shape too', async () => {
    const p = await a.createProject();
    const type = (await a.post(types(p), { ...TYPE, prefix: 'T', key_length: 14, key_alphabet: 'digits' }).expect(201)).body;
    const order = await a
      .post(`/admin/v1/projects/${p.id}/orders`, { order_id: 'digits-1', card_type_id: type.id, count: 3 })
      .expect(201);
    const ordered = order.body.items as Array<{ code: string }>;
    expect(ordered).toHaveLength(3);
    for (const card of ordered) expect(card.code).toMatch(/^T\d{14}$/);

    await a.patch(`/admin/v1/projects/${p.id}`, { trial_card_type_id: type.id }).expect(200);
    const trial = await signedPost(t, '/api/v1/cards/trial', { app: p.program_id, machine_id: 'trial-pc' }, 'json', p.api_secret);
    expect(trial.body).toMatchObject({ code: 0, data: { code: expect.stringMatching(/^T\d{14}$/) } });
  });

  it('refuses too little entropy, a code longer than the column and unknown values, in the admin envelope', async () => {
    const p = await a.createProject();
    // 12 digits are 39.9 bits, 8 of the unambiguous 31 are 39.6: under 40.
    expectAdminError(await a.post(types(p), { ...TYPE, key_length: 12, key_alphabet: 'digits' }), 400, BAD_REQUEST, 'key_length');
    expectAdminError(await a.post(types(p), { ...TYPE, key_length: 8 }), 400, BAD_REQUEST, 'key_length');
    const tooLittle = await a.post(types(p), { ...TYPE, key_length: 12, key_alphabet: 'digits' });
    expect(tooLittle.body.error.details).toEqual([expect.stringMatching(/39\.9 bits.*at least 13 characters/)]);
    expectAdminError(
      await a.post(types(p), { ...TYPE, key_length: 7, key_alphabet: 'hex_upper' }),
      400,
      BAD_REQUEST,
      'key_length',
    );
    expectAdminError(await a.post(types(p), { ...TYPE, key_length: 65 }), 400, BAD_REQUEST, 'key_length');
    expectAdminError(await a.post(types(p), { ...TYPE, key_length: 20.5 }), 400, BAD_REQUEST, 'key_length');
    expectAdminError(await a.post(types(p), { ...TYPE, key_alphabet: 'base64' }), 400, BAD_REQUEST, 'key_alphabet');
    expectAdminError(await a.post(types(p), { ...TYPE, key_alphabet: null }), 400, BAD_REQUEST, 'key_alphabet');
    expectAdminError(await a.post(types(p), { ...TYPE, prefix: 'ABCDEFGHIJKLMNOP', key_length: 49 }), 400, BAD_REQUEST, 'prefix');

    // A change is checked on its result: an alphabet too small for the length already saved is refused, and nothing changes.
    const type = (await a.post(types(p), { ...TYPE, key_length: 10, key_alphabet: 'hex_upper' }).expect(201)).body;
    expectAdminError(await a.patch(`${types(p)}/${type.id}`, { key_alphabet: 'digits' }), 400, BAD_REQUEST, 'key_length');
    expectAdminError(
      await a.patch(`${types(p)}/${type.id}`, { prefix: 'X'.repeat(16), key_length: 64 }),
      400,
      BAD_REQUEST,
      'prefix',
    );
    const changed = await a.patch(`${types(p)}/${type.id}`, { key_alphabet: 'digits', key_length: 13 }).expect(200);
    expect(changed.body).toMatchObject({ key_alphabet: 'digits', key_length: 13 });
    expect((await a.get(types(p)).expect(200)).body.items).toHaveLength(1);
  });
});
