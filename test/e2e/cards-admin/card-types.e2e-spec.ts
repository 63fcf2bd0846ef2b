import { ResponseKeys, verifyLicence } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import {
  BAD_REQUEST,
  CARD_TYPE_DISABLED,
  CARD_TYPE_IN_USE,
  CARD_TYPE_NAME_TAKEN,
  CARD_TYPE_NOT_FOUND,
  expectAdminError,
  PROJECT_NOT_FOUND,
} from '../../support/admin-errors';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { md5Signed } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, sdkLogin, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

const MONTH = {
  name: 'Month',
  kind: 'time',
  duration_seconds: 30 * 86400,
  device_limit: 2,
  features: ['pro', 'export.pdf'],
  price_cents: 1999,
};

describe('card types and features (decisions §19, e2e)', () => {
  let t: TestApp;
  let a: AdminClient;
  let b: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    a = (await admin.createAuthor()).client;
    b = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  const types = (p: { id: string }) => `/admin/v1/projects/${p.id}/card-types`;
  const createType = async (p: { id: string }, body: object = {}, client = a) =>
    (await client.post(types(p), { ...MONTH, ...body }).expect(201)).body;
  const batch = async (p: { id: string }, body: object) =>
    (await a.post(`/admin/v1/projects/${p.id}/cards`, body).expect(201)).body;

  describe('CRUD', () => {
    it('creates a type with its defaults, reads, lists, changes and deletes it', async () => {
      const p = await a.createProject();
      const made = await createType(p);
      expect(made).toEqual({
        id: expect.any(Number),
        name: 'Month',
        kind: 'time',
        duration_seconds: 30 * 86400,
        uses: null,
        device_limit: 2,
        concurrent_limit: null,
        features: ['pro', 'export.pdf'],
        price_cents: 1999,
        agent_allowed: false,
        prefix: '',
        key_length: 20,
        key_alphabet: 'upper_digits_unambiguous',
        enabled: true,
        for_sale: false,
        stock_mode: 'mint',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await a.get(`${types(p)}/${made.id}`).expect(200)).body).toEqual(made);
      const count = await createType(p, {
        name: '100 uses',
        kind: 'count',
        uses: 100,
        duration_seconds: 0,
        features: [],
        price_cents: 0,
        prefix: 'U-',
      });
      expect(count).toMatchObject({ kind: 'count', uses: 100, prefix: 'U-', price_cents: 0 });
      expect((await a.get(types(p)).expect(200)).body).toMatchObject({
        total: 2,
        items: [{ name: '100 uses' }, { name: 'Month' }],
      });

      const changed = (
        await a
          .patch(`${types(p)}/${made.id}`, { features: ['pro'], price_cents: 2500, enabled: false, concurrent_limit: 1 })
          .expect(200)
      ).body;
      expect(changed).toMatchObject({ features: ['pro'], price_cents: 2500, enabled: false, concurrent_limit: 1, name: 'Month' });
      // Turning a count type into a time type drops its uses.
      expect((await a.patch(`${types(p)}/${count.id}`, { kind: 'time' }).expect(200)).body).toMatchObject({
        kind: 'time',
        uses: null,
      });

      await a.delete(`${types(p)}/${made.id}`).expect(204);
      expectAdminError(await a.get(`${types(p)}/${made.id}`), 404, CARD_TYPE_NOT_FOUND);
      expectAdminError(await a.delete(`${types(p)}/${made.id}`), 404, CARD_TYPE_NOT_FOUND);
    });

    it('refuses bad input with a 400 naming the field, and a taken name with 409', async () => {
      const p = await a.createProject();
      const bad: Array<[object, string]> = [
        [{ features: ['Pro'] }, 'features'],
        [{ features: ['a'.repeat(33)] }, 'features'],
        [{ features: [''] }, 'features'],
        [{ features: ['pro', 'pro'] }, 'features'],
        [{ features: Array.from({ length: 33 }, (_, i) => `f${i}`) }, 'features'],
        [{ features: 'pro' }, 'features'],
        [{ price_cents: -1 }, 'price_cents'],
        [{ price_cents: 1.5 }, 'price_cents'],
        [{ price_cents: '100' }, 'price_cents'],
        [{ kind: 'count' }, 'uses'],
        [{ kind: 'time', uses: 5 }, 'uses'],
        [{ kind: 'days' }, 'kind'],
        [{ name: '' }, 'name'],
        [{ device_limit: 0 }, 'device_limit'],
        [{ prefix: 'bad prefix' }, 'prefix'],
        [{ enabled: null }, 'enabled'],
        [{ unknown_field: 1 }, 'unknown_field'],
      ];
      for (const [body, field] of bad) {
        const res = await a.post(types(p), { ...MONTH, ...body });
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expectAdminError(res, 400, BAD_REQUEST, field);
      }
      const made = await createType(p);
      expectAdminError(await a.post(types(p), MONTH), 409, CARD_TYPE_NAME_TAKEN, 'name');
      expectAdminError(await a.patch(`${types(p)}/${made.id}`, { name: null }), 400, BAD_REQUEST, 'name');
      expectAdminError(await a.patch(`${types(p)}/${made.id}`, { kind: 'count' }), 400, BAD_REQUEST, 'uses');
      expectAdminError(await a.get(`${types(p)}/abc`), 404, CARD_TYPE_NOT_FOUND);
      expect((await a.get(`${types(p)}/${made.id}`).expect(200)).body).toEqual(made);
    });

    it("answers another author's project as not found, and another project's type as not found", async () => {
      const mine = await a.createProject();
      const theirs = await b.createProject();
      const type = await createType(mine);
      expectAdminError(await b.get(types(mine)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.post(types(mine), MONTH), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.get(`${types(mine)}/${type.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.patch(`${types(mine)}/${type.id}`, { price_cents: 0 }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.delete(`${types(mine)}/${type.id}`), 404, PROJECT_NOT_FOUND);
      // The type's id under a project of b's own: still nothing.
      expectAdminError(await b.get(`${types(theirs)}/${type.id}`), 404, CARD_TYPE_NOT_FOUND);
      expectAdminError(await b.delete(`${types(theirs)}/${type.id}`), 404, CARD_TYPE_NOT_FOUND);
      expectAdminError(
        await b.post(`/admin/v1/projects/${theirs.id}/cards`, { count: 1, card_type_id: type.id }),
        404,
        CARD_TYPE_NOT_FOUND,
        'card_type_id',
      );
      expect((await a.get(`${types(mine)}/${type.id}`).expect(200)).body.price_cents).toBe(1999);
    });
  });

  describe('cards from a type', () => {
    it("makes a batch with the type's rules and keeps the type; a type in use cannot be deleted", async () => {
      const p = await a.createProject();
      const type = await createType(p, {
        kind: 'count',
        uses: 7,
        duration_seconds: 3600,
        device_limit: 3,
        concurrent_limit: 2,
        prefix: 'VIP-',
      });
      const made = await batch(p, { count: 3, card_type_id: type.id, note: 'from type' });
      expect(made.items).toHaveLength(3);
      for (const card of made.items) {
        expect(card).toMatchObject({
          kind: 'count',
          uses_left: 7,
          duration_seconds: 3600,
          device_limit: 3,
          concurrent_limit: 2,
          card_type_id: type.id,
          note: 'from type',
          status: 'unused',
        });
        expect(card.code).toMatch(/^VIP-[A-Z0-9]{20}$/);
      }
      expectAdminError(await a.delete(`${types(p)}/${type.id}`), 409, CARD_TYPE_IN_USE);
      // A card made without a type says so.
      expect((await batch(p, { count: 1, duration_seconds: 60 })).items[0].card_type_id).toBeNull();
    });

    it('refuses rules beside card_type_id, an unknown type and a disabled one, making no cards', async () => {
      const p = await a.createProject();
      const type = await createType(p);
      expectAdminError(
        await a.post(`/admin/v1/projects/${p.id}/cards`, { count: 1, card_type_id: type.id, duration_seconds: 5 }),
        400,
        BAD_REQUEST,
        'duration_seconds',
      );
      expectAdminError(
        await a.post(`/admin/v1/projects/${p.id}/cards`, { count: 1, card_type_id: type.id, prefix: 'X' }),
        400,
        BAD_REQUEST,
        'prefix',
      );
      expectAdminError(
        await a.post(`/admin/v1/projects/${p.id}/cards`, { count: 1, card_type_id: 999999 }),
        404,
        CARD_TYPE_NOT_FOUND,
        'card_type_id',
      );
      expectAdminError(await a.post(`/admin/v1/projects/${p.id}/cards`, { count: 1 }), 400, BAD_REQUEST, 'duration_seconds');
      await a.patch(`${types(p)}/${type.id}`, { enabled: false }).expect(200);
      expectAdminError(
        await a.post(`/admin/v1/projects/${p.id}/cards`, { count: 1, card_type_id: type.id }),
        409,
        CARD_TYPE_DISABLED,
        'card_type_id',
      );
      expect((await a.get(`/admin/v1/projects/${p.id}/cards`).expect(200)).body.total).toBe(0);
      // Nothing was made from it, so it can go.
      await a.delete(`${types(p)}/${type.id}`).expect(204);
    });

    it('replays an idempotent batch from a type, and refuses the key with another type', async () => {
      const p = await a.createProject();
      const type = await createType(p);
      const other = await createType(p, { name: 'Other' });
      const send = (body: object) => a.post(`/admin/v1/projects/${p.id}/cards`, body).set('Idempotency-Key', 'typed-1');
      const first = (await send({ count: 2, card_type_id: type.id }).expect(201)).body;
      expect((await send({ count: 2, card_type_id: type.id }).expect(201)).body).toEqual(first);
      expectAdminError(await send({ count: 2, card_type_id: other.id }), 409, 11206);
    });

    it('imports a CSV naming a type: absent columns take its rules, its kind is the only one allowed, the cards keep it', async () => {
      const p = await a.createProject();
      const type = await createType(p, { kind: 'count', uses: 9, duration_seconds: 600, device_limit: 4 });
      const importCsv = (csv: string, query = `card_type_id=${type.id}`) =>
        t.http().post(`/admin/v1/projects/${p.id}/cards/import?${query}`).set(a.auth()).set('content-type', 'text/csv').send(csv);
      const done = await importCsv('code,note\nIMPORTED-0001,first\nIMPORTED-0002,\n').expect(201);
      expect(done.body).toMatchObject({ imported: 2 });
      const listed = (await a.get(`/admin/v1/projects/${p.id}/cards?q=IMPORTED`).expect(200)).body.items;
      expect(listed).toHaveLength(2);
      for (const card of listed)
        expect(card).toMatchObject({
          kind: 'count',
          uses_left: 9,
          duration_seconds: 600,
          device_limit: 4,
          card_type_id: type.id,
        });
      const wrongKind = await importCsv('code,kind,duration_seconds\nIMPORTED-0003,time,60\n');
      expect(wrongKind.status).toBe(400);
      expect(JSON.stringify(wrongKind.body)).toContain('one_of');
      expectAdminError(await importCsv('code\nIMPORTED-0004\n', 'card_type_id=999999'), 404, CARD_TYPE_NOT_FOUND, 'card_type_id');
      expectAdminError(await importCsv('code\nIMPORTED-0004\n', 'card_type_id=abc'), 400, BAD_REQUEST, 'card_type_id');
      expect((await a.get(`/admin/v1/projects/${p.id}/cards`).expect(200)).body.total).toBe(2);
    });
  });

  describe('features in every family', () => {
    let p: Project;
    let typeId: number;
    let plain: string;
    const FEATURES = ['pro', 'export.pdf'];

    beforeAll(async () => {
      p = await a.createProject({ offline_grace_seconds: 86400 });
      await openConnectInEveryMode(t, p.id);
      typeId = (await createType(p, { device_limit: 5 })).id;
      plain = (await insertCard(t, p.id, { deviceLimit: 20 })).code;
    });
    const typed = async () => (await batch(p, { count: 1, card_type_id: typeId })).items[0].code as string;

    /** Each family's card login; the answer's `data` on success. */
    const logins: Array<[string, (code: string, machine: string) => Promise<Record<string, unknown>>]> = [
      [
        'Connect',
        async (code, machine) => {
          const res = await connectLogin(t, p.program_id, { user_key: code, serial: machine }).expect(200);
          expect(res.body.status).toBe(true);
          return res.body.data;
        },
      ],
      [
        'V3',
        async (code, machine) => {
          const res = await v3Login(t, p.api_secret, { app: p.program_id, kami: code, imei: machine }).expect(200);
          expect(res.body.success).toBe(true);
          return res.body.data;
        },
      ],
      [
        'SDK',
        async (code, machine) => {
          const res = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: machine }).expect(200);
          expect(res.body.code).toBe(0);
          return res.body.data;
        },
      ],
      ...['/api/kmlogon', '/api/card_login'].map(
        (path): [string, (code: string, machine: string) => Promise<Record<string, unknown>>] => [
          path,
          async (code, machine) => {
            const fields = md5Signed({ app: p.program_id, kami: code, imei: machine }, p.legacy_secret);
            const res = await t.http().post(path).type('form').send(new URLSearchParams(fields).toString()).expect(200);
            expect(res.body.code).toBe(1);
            return res.body.data;
          },
        ],
      ),
      [
        '/api/app card_login',
        async (code, machine) => {
          const fields = md5Signed({ app: p.program_id, api: 'card_login', kami: code, imei: machine }, p.legacy_secret);
          const res = await t.http().post('/api/app').type('form').send(new URLSearchParams(fields).toString()).expect(200);
          expect(res.body.code).toBe(1);
          return res.body.data;
        },
      ],
    ];

    it.each(logins)(
      '%s: a typed card logs in with its features (first use, then again), an untyped one with []',
      async (_family, login) => {
        const code = await typed();
        expect((await login(code, 'm-1')).features).toEqual(FEATURES); // new-device path (first use)
        expect((await login(code, 'm-1')).features).toEqual(FEATURES); // repeat path
        expect((await login(code, 'm-2')).features).toEqual(FEATURES); // a second device
        expect((await login(plain, `plain-${_family}`)).features).toEqual([]);
      },
    );

    it('the locked login path (a card with seats) answers features too', async () => {
      const seated = await createType(p, { name: 'Seated', concurrent_limit: 1, features: ['seat'] });
      const code = (await batch(p, { count: 1, card_type_id: seated.id })).items[0].code;
      const res = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: 'seat-1' }).expect(200);
      expect(res.body.data.features).toEqual(['seat']);
    });

    it("heartbeat and card info answer the type's features, and follow a change of the type at once", async () => {
      const code = await typed();
      const login = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: 'hb' }).expect(200);
      const token = login.body.data.session_token;
      expect((await cardHeartbeat(t, token, 'hb').expect(200)).body.data.features).toEqual(FEATURES);
      const info = async (card_key: string) =>
        (await signedPost(t, '/api/v1/cards/info', { app: p.program_id, card_key }, 'json', p.api_secret).expect(200)).body;
      expect((await info(code)).data.features).toEqual(FEATURES);
      expect((await info(plain)).data.features).toEqual([]);
      const other = await createType(p, { name: 'Changes', features: ['a'] });
      const changing = (await batch(p, { count: 1, card_type_id: other.id })).items[0].code;
      const session = (await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: changing, machine_id: 'hb2' }).expect(200))
        .body.data.session_token;
      await a.patch(`${types(p)}/${other.id}`, { features: ['a', 'b.c'] }).expect(200);
      expect((await cardHeartbeat(t, session, 'hb2').expect(200)).body.data.features).toEqual(['a', 'b.c']);
      expect((await info(changing)).data.features).toEqual(['a', 'b.c']);
    });

    it('the offline licence carries the features, signed, and verifies with the official client', async () => {
      const keys: ResponseKeys = Object.fromEntries(
        (await a.get(`/admin/v1/projects/${p.id}/signing-keys`).expect(200)).body.items.map(
          (k: { kid: string; public_key: string }) => [k.kid, k.public_key],
        ),
      );
      const checkout = async (card_key: string, machine_id: string) => {
        const res = await signedPost(
          t,
          '/api/v1/cards/checkout',
          { app: p.program_id, card_key, machine_id },
          'json',
          p.api_secret,
        ).expect(200);
        expect(res.body.code).toBe(0);
        const check = verifyLicence(res.body.data.licence, {
          keys,
          machineId: machine_id,
          programId: p.program_id,
          cardKey: card_key,
        });
        if (!check.valid) throw new Error(check.reason);
        return check.payload;
      };
      const code = await typed();
      await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: 'offline' }).expect(200);
      expect(await checkout(code, 'offline')).toMatchObject({ v: 1, features: FEATURES });
      await cardRepos(t).devices.insert({
        cardId: (await cardRepos(t).cards.findOneByOrFail({ code: plain })).id,
        machineCode: 'offline-plain',
        boundAt: new Date(),
      });
      await cardRepos(t).cards.update({ code: plain }, { status: 'active', activatedAt: new Date() });
      expect((await checkout(plain, 'offline-plain')).features).toEqual([]);
    });
  });
});
