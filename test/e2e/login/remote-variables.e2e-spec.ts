import { AdminClient } from '../../support/admin-client';
import {
  BAD_REQUEST,
  expectAdminError,
  PROJECT_NOT_FOUND,
  UNAUTHENTICATED,
  VARIABLE_NAME_TAKEN,
  VARIABLE_NOT_FOUND,
} from '../../support/admin-errors';
import { startTestApp, TestApp } from '../../support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type VariableBody = { id: number; name: string; value: string; public: boolean; created_at: string; updated_at: string };

describe('remote variables admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: { client: AdminClient; id: string };
  let b: { client: AdminClient; id: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
  });
  afterAll(() => t.close());

  const base = (p: { id: string }) => `/admin/v1/projects/${p.id}/variables`;
  async function create(p: { id: string }, body: object = {}, client: AdminClient = a.client): Promise<VariableBody> {
    return (await client.post(base(p), { name: 'api_base', value: 'https://api.example.com', ...body }).expect(201)).body;
  }
  async function list(p: { id: string }, query = '') {
    return (await a.client.get(`${base(p)}?page_size=100${query}`).expect(200)).body as {
      items: VariableBody[];
      total: number;
      page: number;
      page_size: number;
    };
  }
  const get = async (p: { id: string }, id: number) => (await a.client.get(`${base(p)}/${id}`).expect(200)).body as VariableBody;

  it('creates a variable, login-only by default, and reads it back', async () => {
    const p = await a.client.createProject();
    const res = await a.client.post(base(p), { name: 'feature.flags-v2', value: '{"beta":true}' }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'feature.flags-v2',
      value: '{"beta":true}',
      public: false,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(await get(p, res.body.id)).toEqual(res.body);
    const pub = await create(p, { name: '_x', value: '', public: true });
    expect(pub).toMatchObject({ name: '_x', value: '', public: true });
    const long = await create(p, { name: 'N'.repeat(64), value: 'v'.repeat(10_000) });
    expect(long.value).toHaveLength(10_000);
  });

  it('lists in name order, with paging', async () => {
    const p = await a.client.createProject();
    for (const name of ['zeta', 'alpha', 'mid', 'beta']) await create(p, { name });
    const all = await list(p);
    expect(all).toMatchObject({ total: 4, page: 1, page_size: 100 });
    expect(all.items.map((v) => v.name)).toEqual(['alpha', 'beta', 'mid', 'zeta']);
    const page2 = (await a.client.get(`${base(p)}?page_size=3&page=2`).expect(200)).body;
    expect(page2).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(page2.items.map((v: VariableBody) => v.name)).toEqual(['zeta']);
    expectAdminError(await a.client.get(`${base(p)}?page_size=0`), 400, BAD_REQUEST, 'page_size');
  });

  it('PATCH changes any subset of the fields; DELETE answers 204 and the variable is gone', async () => {
    const p = await a.client.createProject();
    const made = await create(p, { name: 'motd', value: 'old' });
    const value = (await a.client.patch(`${base(p)}/${made.id}`, { value: 'new' }).expect(200)).body;
    expect(value).toEqual({ ...made, value: 'new', updated_at: expect.stringMatching(ISO) });
    const pub = (await a.client.patch(`${base(p)}/${made.id}`, { public: true }).expect(200)).body;
    expect(pub).toMatchObject({ name: 'motd', value: 'new', public: true });
    const renamed = (await a.client.patch(`${base(p)}/${made.id}`, { name: 'message_of_the_day' }).expect(200)).body;
    expect(renamed).toMatchObject({
      id: made.id,
      name: 'message_of_the_day',
      value: 'new',
      public: true,
      created_at: made.created_at,
    });
    expect((await a.client.patch(`${base(p)}/${made.id}`, {}).expect(200)).body).toEqual(renamed);
    const res = await a.client.delete(`${base(p)}/${made.id}`).expect(204);
    expect(res.text).toBe('');
    expectAdminError(await a.client.get(`${base(p)}/${made.id}`), 404, VARIABLE_NOT_FOUND);
    expectAdminError(await a.client.patch(`${base(p)}/${made.id}`, { value: 'x' }), 404, VARIABLE_NOT_FOUND);
    expectAdminError(await a.client.delete(`${base(p)}/${made.id}`), 404, VARIABLE_NOT_FOUND);
  });

  describe('duplicate names', () => {
    it('answers 409 VARIABLE_NAME_TAKEN for a name the project already has, on create and on rename', async () => {
      const p = await a.client.createProject();
      const first = await create(p, { name: 'dup' });
      const second = await create(p, { name: 'other' });
      expectAdminError(await a.client.post(base(p), { name: 'dup', value: 'x' }), 409, VARIABLE_NAME_TAKEN, 'name');
      expectAdminError(await a.client.patch(`${base(p)}/${second.id}`, { name: 'dup' }), 409, VARIABLE_NAME_TAKEN, 'name');
      expect(await get(p, second.id)).toEqual(second);
      expect((await list(p)).items).toEqual([first, second]);
    });

    it('lets names differ only in case, and lets two projects use the same name', async () => {
      const p = await a.client.createProject();
      const q = await a.client.createProject();
      await create(p, { name: 'Key' });
      await create(p, { name: 'key' });
      await create(q, { name: 'Key' });
      expect((await list(p)).total).toBe(2);
    });

    it('lets concurrent creates of one name produce exactly one variable', async () => {
      const p = await a.client.createProject();
      const results = await Promise.all(Array.from({ length: 6 }, () => a.client.post(base(p), { name: 'race', value: 'x' })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      expect((await list(p)).total).toBe(1);
    });
  });

  describe('validation', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['a missing name', { name: undefined }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['a name starting with a digit', { name: '1abc' }, 'name'],
      ['a name starting with a dot', { name: '.abc' }, 'name'],
      ['a name with a space', { name: 'a b' }, 'name'],
      ['a name with a slash', { name: 'a/b' }, 'name'],
      ['a name over 64 characters', { name: 'n'.repeat(65) }, 'name'],
      ['a name that is not a string', { name: 5 }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a missing value', { value: undefined }, 'value'],
      ['a value over 10000 characters', { value: 'v'.repeat(10_001) }, 'value'],
      ['a value that is not a string', { value: 12 }, 'value'],
      ['a null value', { value: null }, 'value'],
      ['public as a string', { public: 'yes' }, 'public'],
      ['public null', { public: null }, 'public'],
      ['an unknown field', { secret: true }, 'secret'],
    ])('POST answers 400 naming the field for %s, and creates nothing', async (_label, fields, field) => {
      const p = await a.client.createProject();
      expectAdminError(await a.client.post(base(p), { name: 'ok', value: 'ok', ...fields }), 400, BAD_REQUEST, field);
      expect((await list(p)).total).toBe(0);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an invalid name', { name: 'no spaces' }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a value over 10000 characters', { value: 'v'.repeat(10_001) }, 'value'],
      ['a null value', { value: null }, 'value'],
      ['public as a number', { public: 1 }, 'public'],
      ['an id of its own choosing', { id: 9 }, 'id'],
    ])('PATCH answers 400 naming the field for %s, and changes nothing', async (_label, fields, field) => {
      const p = await a.client.createProject();
      const made = await create(p);
      expectAdminError(await a.client.patch(`${base(p)}/${made.id}`, { value: 'changed', ...fields }), 400, BAD_REQUEST, field);
      expect(await get(p, made.id)).toEqual(made);
    });
  });

  describe('tenancy and authentication', () => {
    it("another author gets 404 for everything on A's project, and nothing changes", async () => {
      const p = await a.client.createProject();
      const made = await create(p);
      expectAdminError(await b.client.post(base(p), { name: 'x', value: 'y' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(base(p)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base(p)}/${made.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.patch(`${base(p)}/${made.id}`, { value: 'taken' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base(p)}/${made.id}`), 404, PROJECT_NOT_FOUND);
      expect((await list(p)).items).toEqual([made]);
    });

    it("answers 404 for a variable of another project, even the caller's own", async () => {
      const mine = await a.client.createProject();
      const sibling = await a.client.createProject();
      const theirs = await b.client.createProject();
      const ownElsewhere = await create(sibling);
      const foreign = await create(theirs, {}, b.client);
      for (const made of [ownElsewhere, foreign]) {
        expectAdminError(await a.client.get(`${base(mine)}/${made.id}`), 404, VARIABLE_NOT_FOUND);
        expectAdminError(await a.client.patch(`${base(mine)}/${made.id}`, { value: 'moved' }), 404, VARIABLE_NOT_FOUND);
        expectAdminError(await a.client.delete(`${base(mine)}/${made.id}`), 404, VARIABLE_NOT_FOUND);
      }
      expect(await get(sibling, ownElsewhere.id)).toEqual(ownElsewhere);
      expect((await b.client.get(`${base(theirs)}/${foreign.id}`).expect(200)).body).toEqual(foreign);
    });

    it('answers 404 for an id that is not a positive integer, and for an unknown project', async () => {
      const p = await a.client.createProject();
      for (const id of ['abc', '1.5', '0', '-3', '2147483648']) {
        expectAdminError(await a.client.get(`${base(p)}/${id}`), 404, VARIABLE_NOT_FOUND);
        expectAdminError(await a.client.delete(`${base(p)}/${id}`), 404, VARIABLE_NOT_FOUND);
      }
      for (const id of ['not-a-uuid', '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6']) {
        expectAdminError(await a.client.get(`/admin/v1/projects/${id}/variables`), 404, PROJECT_NOT_FOUND);
        expectAdminError(
          await a.client.post(`/admin/v1/projects/${id}/variables`, { name: 'x', value: 'y' }),
          404,
          PROJECT_NOT_FOUND,
        );
      }
    });

    it('lets a platform admin manage the variables of any project', async () => {
      const p = await b.client.createProject();
      const made = await create(p, {}, admin);
      await admin.patch(`${base(p)}/${made.id}`, { public: true }).expect(200);
      expect((await b.client.get(`${base(p)}/${made.id}`).expect(200)).body.public).toBe(true);
      await admin.delete(`${base(p)}/${made.id}`).expect(204);
    });

    it('answers 401 on every variable route without a valid token', async () => {
      const p = await a.client.createProject();
      const made = await create(p);
      for (const res of [
        await t.http().post(base(p)).send({ name: 'x', value: 'y' }),
        await t.http().get(base(p)),
        await t.http().get(`${base(p)}/${made.id}`),
        await t
          .http()
          .patch(`${base(p)}/${made.id}`)
          .send({ value: 'x' }),
        await t.http().delete(`${base(p)}/${made.id}`),
      ]) {
        expectAdminError(res, 401, UNAUTHENTICATED);
      }
      expect(await get(p, made.id)).toEqual(made);
    });

    it('deletes the variables with their project', async () => {
      const p = await a.client.createProject();
      await create(p);
      await a.client.delete(`/admin/v1/projects/${p.id}`).expect(204);
      expectAdminError(await a.client.get(base(p)), 404, PROJECT_NOT_FOUND);
    });
  });
});
