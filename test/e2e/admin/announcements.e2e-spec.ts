import { AnnouncementsService } from '../../../src/announcements/announcements.service';
import { AdminClient } from '../../support/admin-client';
import {
  ANNOUNCEMENT_NOT_FOUND,
  BAD_REQUEST,
  expectAdminError,
  PROJECT_NOT_FOUND,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { startTestApp, TestApp } from '../../support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type AnnouncementBody = { id: number; title: string; content: string; enabled: boolean; created_at: string; updated_at: string };

describe('announcements admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: { client: AdminClient; id: string };
  let b: { client: AdminClient; id: string };
  let service: AnnouncementsService;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
    service = t.app.get(AnnouncementsService);
  });
  afterAll(() => t.close());

  const base = (p: { id: string }) => `/admin/v1/projects/${p.id}/announcements`;
  async function create(p: { id: string }, body: object = {}, client: AdminClient = a.client): Promise<AnnouncementBody> {
    return (await client.post(base(p), { title: 'Maintenance', content: 'Down at 02:00 UTC.', ...body }).expect(201)).body;
  }
  async function list(p: { id: string }, query = '') {
    const res = await a.client.get(`${base(p)}?page_size=100${query}`).expect(200);
    return res.body as { items: AnnouncementBody[]; total: number; page: number; page_size: number };
  }
  const get = async (p: { id: string }, id: number) =>
    (await a.client.get(`${base(p)}/${id}`).expect(200)).body as AnnouncementBody;

  it('creates an announcement, enabled by default, and reads it back', async () => {
    const p = await a.client.createProject();
    const res = await a.client.post(base(p), { title: 'Welcome', content: 'Version 2 is out.\nUpdate now.' }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Welcome',
      content: 'Version 2 is out.\nUpdate now.',
      enabled: true,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(await get(p, res.body.id)).toEqual(res.body);
    const disabled = await create(p, { enabled: false, title: 'T'.repeat(200), content: 'c'.repeat(20000) });
    expect(disabled).toMatchObject({ enabled: false, title: 'T'.repeat(200) });
    expect(disabled.content).toHaveLength(20000);
  });

  it('lists newest first, with paging', async () => {
    const p = await a.client.createProject();
    const made: AnnouncementBody[] = [];
    for (let i = 0; i < 3; i++) made.push(await create(p, { title: `n${i}`, enabled: i !== 1 }));
    const all = await list(p);
    expect(all).toMatchObject({ total: 3, page: 1, page_size: 100 });
    expect(all.items).toEqual([...made].reverse());
    const page2 = (await a.client.get(`${base(p)}?page_size=2&page=2`).expect(200)).body;
    expect(page2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page2.items.map((x: AnnouncementBody) => x.id)).toEqual([made[0].id]);
    expect((await a.client.get(base(p)).expect(200)).body).toMatchObject({ total: 3, page: 1, page_size: 20 });
    for (const [query, field] of [
      ['page_size=0', 'page_size'],
      ['page=x', 'page'],
      ['enabled=true', 'enabled'],
    ]) {
      expectAdminError(await a.client.get(`${base(p)}?${query}`), 400, BAD_REQUEST, field);
    }
  });

  it('PATCH changes any subset of the fields and leaves the rest alone', async () => {
    const p = await a.client.createProject();
    const made = await create(p, { title: 'Old', content: 'Old content' });
    const title = await a.client.patch(`${base(p)}/${made.id}`, { title: 'New' }).expect(200);
    expect(title.body).toEqual({ ...made, title: 'New', updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(title.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(made.updated_at));
    const content = await a.client.patch(`${base(p)}/${made.id}`, { content: 'New content' }).expect(200);
    expect(content.body).toMatchObject({ title: 'New', content: 'New content', enabled: true, created_at: made.created_at });
    const off = await a.client.patch(`${base(p)}/${made.id}`, { enabled: false }).expect(200);
    expect(off.body).toMatchObject({ title: 'New', content: 'New content', enabled: false });
    const everything = await a.client.patch(`${base(p)}/${made.id}`, { title: 'T', content: 'C', enabled: true }).expect(200);
    expect(everything.body).toMatchObject({ id: made.id, title: 'T', content: 'C', enabled: true });
    expect((await a.client.patch(`${base(p)}/${made.id}`, {}).expect(200)).body).toEqual(everything.body);
    expect(await get(p, made.id)).toEqual(everything.body);
  });

  it('deletes an announcement (204), after which it is gone', async () => {
    const p = await a.client.createProject();
    const made = await create(p);
    const kept = await create(p);
    const res = await a.client.delete(`${base(p)}/${made.id}`).expect(204);
    expect(res.text).toBe('');
    expectAdminError(await a.client.get(`${base(p)}/${made.id}`), 404, ANNOUNCEMENT_NOT_FOUND);
    expectAdminError(await a.client.patch(`${base(p)}/${made.id}`, { title: 'x' }), 404, ANNOUNCEMENT_NOT_FOUND);
    expectAdminError(await a.client.delete(`${base(p)}/${made.id}`), 404, ANNOUNCEMENT_NOT_FOUND);
    expect((await list(p)).items.map((x) => x.id)).toEqual([kept.id]);
  });

  describe('latestEnabledFor', () => {
    it("gives the newest enabled announcement of the project, never another project's", async () => {
      const p = await a.client.createProject();
      const other = await b.client.createProject();
      expect(await service.latestEnabledFor(p.id)).toBeNull();

      const first = await create(p, { title: 'first' });
      const second = await create(p, { title: 'second' });
      await create(p, { title: 'draft', enabled: false });
      await create(other, { title: 'elsewhere' }, b.client);
      expect(await service.latestEnabledFor(p.id)).toMatchObject({
        id: second.id,
        projectId: p.id,
        title: 'second',
        content: second.content,
        enabled: true,
      });

      await a.client.patch(`${base(p)}/${second.id}`, { enabled: false }).expect(200);
      expect((await service.latestEnabledFor(p.id))?.id).toBe(first.id);
      await a.client.delete(`${base(p)}/${first.id}`).expect(204);
      expect(await service.latestEnabledFor(p.id)).toBeNull();
      await a.client.patch(`${base(p)}/${second.id}`, { enabled: true }).expect(200);
      expect((await service.latestEnabledFor(p.id))?.title).toBe('second');
      expect((await service.latestEnabledFor(other.id))?.title).toBe('elsewhere');
      expect(await service.latestEnabledFor('0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6')).toBeNull();
    });
  });

  describe('validation', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['a missing title', { title: undefined }, 'title'],
      ['an empty title', { title: '' }, 'title'],
      ['a title over 200 characters', { title: 't'.repeat(201) }, 'title'],
      ['a title that is not a string', { title: 5 }, 'title'],
      ['a null title', { title: null }, 'title'],
      ['a missing content', { content: undefined }, 'content'],
      ['an empty content', { content: '' }, 'content'],
      ['a content over 20000 characters', { content: 'c'.repeat(20001) }, 'content'],
      ['a null content', { content: null }, 'content'],
      ['enabled as a string', { enabled: 'yes' }, 'enabled'],
      ['enabled null', { enabled: null }, 'enabled'],
      ['an id of its own choosing', { id: 5 }, 'id'],
      ['a project_id field', { project_id: 'x' }, 'project_id'],
    ])('POST answers 400 naming the field for %s, and creates nothing', async (_label, fields, field) => {
      const p = await a.client.createProject();
      expectAdminError(await a.client.post(base(p), { title: 'ok', content: 'ok', ...fields }), 400, BAD_REQUEST, field);
      expect((await list(p)).total).toBe(0);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an empty title', { title: '' }, 'title'],
      ['a title over 200 characters', { title: 't'.repeat(201) }, 'title'],
      ['a null title', { title: null }, 'title'],
      ['an empty content', { content: '' }, 'content'],
      ['a content over 20000 characters', { content: 'c'.repeat(20001) }, 'content'],
      ['a null content', { content: null }, 'content'],
      ['enabled as a string', { enabled: 'no' }, 'enabled'],
      ['enabled null', { enabled: null }, 'enabled'],
      ['a created_at of its own choosing', { created_at: '2020-01-01T00:00:00Z' }, 'created_at'],
    ])('PATCH answers 400 naming the field for %s, and changes nothing', async (_label, fields, field) => {
      const p = await a.client.createProject();
      const made = await create(p);
      expectAdminError(await a.client.patch(`${base(p)}/${made.id}`, { title: 'changed', ...fields }), 400, BAD_REQUEST, field);
      expect(await get(p, made.id)).toEqual(made);
    });
  });

  describe('tenancy and authentication', () => {
    it("another author gets 404 for everything on A's project, and nothing changes", async () => {
      const p = await a.client.createProject();
      const made = await create(p);
      expectAdminError(await b.client.post(base(p), { title: 'x', content: 'y' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(base(p)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base(p)}/${made.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.patch(`${base(p)}/${made.id}`, { title: 'taken' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base(p)}/${made.id}`), 404, PROJECT_NOT_FOUND);
      expect((await list(p)).items).toEqual([made]);
    });

    it("answers 404 for an announcement of another project, even the caller's own", async () => {
      const mine = await a.client.createProject();
      const sibling = await a.client.createProject();
      const theirs = await b.client.createProject();
      const ownElsewhere = await create(sibling);
      const foreign = await create(theirs, {}, b.client);
      for (const made of [ownElsewhere, foreign]) {
        expectAdminError(await a.client.get(`${base(mine)}/${made.id}`), 404, ANNOUNCEMENT_NOT_FOUND);
        expectAdminError(await a.client.patch(`${base(mine)}/${made.id}`, { title: 'moved' }), 404, ANNOUNCEMENT_NOT_FOUND);
        expectAdminError(await a.client.delete(`${base(mine)}/${made.id}`), 404, ANNOUNCEMENT_NOT_FOUND);
      }
      expect(await get(sibling, ownElsewhere.id)).toEqual(ownElsewhere);
      expect((await b.client.get(`${base(theirs)}/${foreign.id}`).expect(200)).body).toEqual(foreign);
    });

    it('answers 404 for an id that is not a positive integer, and for an unknown project', async () => {
      const p = await a.client.createProject();
      for (const id of ['abc', '1.5', '0', '-3', '2147483648']) {
        expectAdminError(await a.client.get(`${base(p)}/${id}`), 404, ANNOUNCEMENT_NOT_FOUND);
        expectAdminError(await a.client.patch(`${base(p)}/${id}`, { title: 'x' }), 404, ANNOUNCEMENT_NOT_FOUND);
        expectAdminError(await a.client.delete(`${base(p)}/${id}`), 404, ANNOUNCEMENT_NOT_FOUND);
      }
      for (const id of ['not-a-uuid', '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6']) {
        expectAdminError(await a.client.get(`/admin/v1/projects/${id}/announcements`), 404, PROJECT_NOT_FOUND);
        expectAdminError(
          await a.client.post(`/admin/v1/projects/${id}/announcements`, { title: 'x', content: 'y' }),
          404,
          PROJECT_NOT_FOUND,
        );
      }
    });

    it('lets a platform admin manage the announcements of any project', async () => {
      const p = await b.client.createProject();
      const made = await create(p, {}, admin);
      await admin.patch(`${base(p)}/${made.id}`, { enabled: false }).expect(200);
      expect((await b.client.get(`${base(p)}/${made.id}`).expect(200)).body.enabled).toBe(false);
      await admin.delete(`${base(p)}/${made.id}`).expect(204);
    });

    it('answers 401 on every announcement route without a valid token', async () => {
      const p = await a.client.createProject();
      const made = await create(p);
      for (const res of [
        await t.http().post(base(p)).send({ title: 'x', content: 'y' }),
        await t.http().get(base(p)),
        await t.http().get(`${base(p)}/${made.id}`),
        await t
          .http()
          .patch(`${base(p)}/${made.id}`)
          .send({ title: 'x' }),
        await t.http().delete(`${base(p)}/${made.id}`),
        await t.http().get(base(p)).set('Authorization', 'Bearer not-a-token'),
      ]) {
        expectAdminError(res, 401, UNAUTHENTICATED);
      }
      expect(await get(p, made.id)).toEqual(made);
    });
  });
});
