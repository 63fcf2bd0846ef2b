import { AdminClient } from '../../support/admin-client';
import {
  BAD_REQUEST,
  BLACKLIST_ENTRY_EXISTS,
  BLACKLIST_ENTRY_NOT_FOUND,
  expectAdminError,
  PROJECT_NOT_FOUND,
  SITE_EXISTS,
  SITE_NOT_FOUND,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { startTestApp, TestApp } from '../../support/test-app';

const PROJECTS = '/admin/v1/projects';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('authorized sites and blacklists admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: AdminClient;
  let b: AdminClient;
  let project: Project;

  const sites = (p: Project = project) => `${PROJECTS}/${p.id}/sites`;
  const blacklist = (p: Project = project) => `${PROJECTS}/${p.id}/blacklist`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = (await admin.createAuthor()).client;
    b = (await admin.createAuthor()).client;
    project = await a.createProject();
  });
  afterAll(() => t.close());

  describe('sites', () => {
    it('creates a site with 201 and answers it with every field; domain is stored in lower case', async () => {
      const res = await a
        .post(sites(), {
          domain: 'WWW.Create.Example.COM',
          licence: 'LIC-1',
          expires_at: '2031-05-06T07:08:09+02:00',
          note: 'shop',
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        domain: 'www.create.example.com',
        licence: 'LIC-1',
        expires_at: '2031-05-06T05:08:09.000Z',
        note: 'shop',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
    });

    it('creates a wildcard site with only a domain: licence, expiry and note are null', async () => {
      const res = await a.post(sites(), { domain: '*.wild.example.com' }).expect(201);
      expect(res.body).toMatchObject({ domain: '*.wild.example.com', licence: null, expires_at: null, note: null });
    });

    it('lists the sites of the project, oldest first, with paging', async () => {
      const p = await a.createProject();
      for (const domain of ['one.example.com', 'two.example.com', 'three.example.com'])
        await a.post(sites(p), { domain }).expect(201);
      const first = (await a.get(`${sites(p)}?page_size=2`).expect(200)).body;
      expect(first).toMatchObject({ total: 3, page: 1, page_size: 2 });
      expect(first.items.map((s: { domain: string }) => s.domain)).toEqual(['one.example.com', 'two.example.com']);
      const second = (await a.get(`${sites(p)}?page_size=2&page=2`).expect(200)).body;
      expect(second.items.map((s: { domain: string }) => s.domain)).toEqual(['three.example.com']);
      expectAdminError(await a.get(`${sites(p)}?page_size=101`), 400, BAD_REQUEST, 'page_size');
    });

    it('gets one site, and 404 for an unknown or malformed site id', async () => {
      const created = (await a.post(sites(), { domain: 'get.example.com' }).expect(201)).body;
      expect((await a.get(`${sites()}/${created.id}`).expect(200)).body).toEqual(created);
      expectAdminError(await a.get(`${sites()}/999999999`), 404, SITE_NOT_FOUND);
      expectAdminError(await a.get(`${sites()}/abc`), 404, SITE_NOT_FOUND);
    });

    it('updates any subset with PATCH; null clears licence, expiry and note', async () => {
      const created = (
        await a
          .post(sites(), { domain: 'patch.example.com', licence: 'L', expires_at: '2030-01-01T00:00:00Z', note: 'n' })
          .expect(201)
      ).body;
      const renamed = (await a.patch(`${sites()}/${created.id}`, { domain: '*.Patched.example.com' }).expect(200)).body;
      expect(renamed).toMatchObject({
        domain: '*.patched.example.com',
        licence: 'L',
        expires_at: '2030-01-01T00:00:00.000Z',
        note: 'n',
      });
      const cleared = (await a.patch(`${sites()}/${created.id}`, { licence: null, expires_at: null, note: null }).expect(200))
        .body;
      expect(cleared).toMatchObject({ domain: '*.patched.example.com', licence: null, expires_at: null, note: null });
      expect((await a.get(`${sites()}/${created.id}`).expect(200)).body).toMatchObject({
        licence: null,
        expires_at: null,
        note: null,
      });
    });

    it('deletes a site with 204; it is gone, and a second delete is 404', async () => {
      const created = (await a.post(sites(), { domain: 'delete.example.com' }).expect(201)).body;
      await a.delete(`${sites()}/${created.id}`).expect(204);
      expectAdminError(await a.get(`${sites()}/${created.id}`), 404, SITE_NOT_FOUND);
      expectAdminError(await a.delete(`${sites()}/${created.id}`), 404, SITE_NOT_FOUND);
    });

    it('refuses a second site with the same domain (ignoring case) with 409', async () => {
      await a.post(sites(), { domain: 'dup.example.com' }).expect(201);
      expectAdminError(await a.post(sites(), { domain: 'DUP.example.com' }), 409, SITE_EXISTS, 'domain');
      const other = (await a.post(sites(), { domain: 'dup2.example.com' }).expect(201)).body;
      expectAdminError(await a.patch(`${sites()}/${other.id}`, { domain: 'dup.example.com' }), 409, SITE_EXISTS, 'domain');
      // The same domain on another project is fine.
      await a.post(sites(await a.createProject()), { domain: 'dup.example.com' }).expect(201);
    });

    it.each([
      ['a missing domain', {}, 'domain'],
      ['a non-string domain', { domain: 12 }, 'domain'],
      ['a URL as domain', { domain: 'https://x.example.com' }, 'domain'],
      ['a domain with a port', { domain: 'x.example.com:80' }, 'domain'],
      ['an empty label', { domain: 'a..example.com' }, 'domain'],
      ['a wildcard over a top-level domain', { domain: '*.com' }, 'domain'],
      ['a wildcard in the middle', { domain: 'a.*.example.com' }, 'domain'],
      ['a domain over 255 characters', { domain: `${'a'.repeat(63)}.`.repeat(4) + 'com' }, 'domain'],
      ['a licence over 128 characters', { domain: 'v.example.com', licence: 'x'.repeat(129) }, 'licence'],
      ['an empty licence', { domain: 'v.example.com', licence: '' }, 'licence'],
      ['a numeric licence', { domain: 'v.example.com', licence: 5 }, 'licence'],
      ['an expiry that is not a date', { domain: 'v.example.com', expires_at: 'tomorrow' }, 'expires_at'],
      ['an expiry that is a date only', { domain: 'v.example.com', expires_at: '2030-01-01' }, 'expires_at'],
      ['an expiry without a zone', { domain: 'v.example.com', expires_at: '2030-01-01T00:00:00' }, 'expires_at'],
      ['an impossible expiry', { domain: 'v.example.com', expires_at: '2030-02-30T00:00:00Z' }, 'expires_at'],
      ['a note over 200 characters', { domain: 'v.example.com', note: 'n'.repeat(201) }, 'note'],
      ['an unknown field', { domain: 'v.example.com', ip: '1.2.3.4' }, 'ip'],
    ])('refuses to create a site with %s: 400 naming the field', async (_, body, field) => {
      expectAdminError(await a.post(sites(), body), 400, BAD_REQUEST, field);
    });

    it('accepts a licence of exactly 128 characters and a note of exactly 200', async () => {
      await a.post(sites(), { domain: 'limits.example.com', licence: 'x'.repeat(128), note: 'n'.repeat(200) }).expect(201);
    });

    it.each([
      ['a null domain', { domain: null }, 'domain'],
      ['a bad domain', { domain: 'no spaces.example.com' }, 'domain'],
      ['a bad expiry', { expires_at: 'soon' }, 'expires_at'],
      ['a too long note', { note: 'n'.repeat(201) }, 'note'],
    ])('refuses a PATCH with %s: 400 naming the field, nothing changed', async (_, body, field) => {
      const created = (await a.post(sites(), { domain: `p${field.length}${Date.now()}.example.com` }).expect(201)).body;
      expectAdminError(await a.patch(`${sites()}/${created.id}`, body), 400, BAD_REQUEST, field);
      expect((await a.get(`${sites()}/${created.id}`).expect(200)).body).toEqual(created);
    });

    it('answers 404 to another author on every site route of a project it does not own, and changes nothing', async () => {
      const created = (await a.post(sites(), { domain: 'tenant.example.com' }).expect(201)).body;
      expectAdminError(await b.post(sites(), { domain: 'intruder.example.com' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.get(sites()), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.get(`${sites()}/${created.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.patch(`${sites()}/${created.id}`, { note: 'x' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.delete(`${sites()}/${created.id}`), 404, PROJECT_NOT_FOUND);
      // Through its own project, the other project's site id names nothing either.
      const own = await b.createProject();
      expectAdminError(await b.get(`${sites(own)}/${created.id}`), 404, SITE_NOT_FOUND);
      expectAdminError(await b.delete(`${sites(own)}/${created.id}`), 404, SITE_NOT_FOUND);
      expect((await a.get(`${sites()}/${created.id}`).expect(200)).body).toEqual(created);
      expect(
        (await a.get(`${sites()}?page_size=100`).expect(200)).body.items.map((s: { domain: string }) => s.domain),
      ).not.toContain('intruder.example.com');
    });

    it('lets the platform admin manage the sites of any project', async () => {
      const created = (await admin.post(sites(), { domain: 'by-admin.example.com' }).expect(201)).body;
      await admin.patch(`${sites()}/${created.id}`, { note: 'set by admin' }).expect(200);
      expect((await a.get(`${sites()}/${created.id}`).expect(200)).body.note).toBe('set by admin');
      await admin.delete(`${sites()}/${created.id}`).expect(204);
    });

    it('answers 404 for an unknown or malformed project id, and 401 without a token', async () => {
      expectAdminError(await a.get(`${PROJECTS}/00000000-0000-4000-8000-000000000000/sites`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await a.get(`${PROJECTS}/not-a-uuid/sites`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await t.http().get(sites()), 401, UNAUTHENTICATED);
    });
  });

  describe('blacklist', () => {
    it('adds a domain entry with 201, stored in lower case', async () => {
      const res = await a.post(blacklist(), { kind: 'domain', value: 'Evil.Example.COM' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        kind: 'domain',
        value: 'evil.example.com',
        created_at: expect.stringMatching(ISO),
      });
    });

    it('adds IP entries in one spelling: IPv6 compressed, IPv4-mapped IPv6 as IPv4', async () => {
      expect((await a.post(blacklist(), { kind: 'ip', value: '198.51.100.7' }).expect(201)).body.value).toBe('198.51.100.7');
      expect((await a.post(blacklist(), { kind: 'ip', value: '2001:DB8:0:0:0:0:0:7' }).expect(201)).body.value).toBe(
        '2001:db8::7',
      );
      expect((await a.post(blacklist(), { kind: 'ip', value: '::ffff:198.51.100.8' }).expect(201)).body.value).toBe(
        '198.51.100.8',
      );
      expectAdminError(
        await a.post(blacklist(), { kind: 'ip', value: '::ffff:198.51.100.7' }),
        409,
        BLACKLIST_ENTRY_EXISTS,
        'value',
      );
    });

    it('lists entries oldest first, with paging and a kind filter', async () => {
      const p = await a.createProject();
      await a.post(blacklist(p), { kind: 'domain', value: 'a.example.com' }).expect(201);
      await a.post(blacklist(p), { kind: 'ip', value: '192.0.2.1' }).expect(201);
      await a.post(blacklist(p), { kind: 'domain', value: 'b.example.com' }).expect(201);
      const all = (await a.get(blacklist(p)).expect(200)).body;
      expect(all).toMatchObject({ total: 3, page: 1, page_size: 20 });
      expect(all.items.map((e: { value: string }) => e.value)).toEqual(['a.example.com', '192.0.2.1', 'b.example.com']);
      const domains = (await a.get(`${blacklist(p)}?kind=domain&page_size=1&page=2`).expect(200)).body;
      expect(domains).toMatchObject({ total: 2, items: [{ kind: 'domain', value: 'b.example.com' }] });
      expectAdminError(await a.get(`${blacklist(p)}?kind=email`), 400, BAD_REQUEST, 'kind');
    });

    it('deletes an entry with 204; a second delete is 404', async () => {
      const entry = (await a.post(blacklist(), { kind: 'domain', value: 'gone.example.com' }).expect(201)).body;
      await a.delete(`${blacklist()}/${entry.id}`).expect(204);
      expectAdminError(await a.delete(`${blacklist()}/${entry.id}`), 404, BLACKLIST_ENTRY_NOT_FOUND);
      expect((await a.get(`${blacklist()}?page_size=100`).expect(200)).body.items.map((e: { id: number }) => e.id)).not.toContain(
        entry.id,
      );
    });

    it('refuses a duplicate entry with 409', async () => {
      await a.post(blacklist(), { kind: 'domain', value: 'twice.example.com' }).expect(201);
      expectAdminError(
        await a.post(blacklist(), { kind: 'domain', value: 'TWICE.example.com' }),
        409,
        BLACKLIST_ENTRY_EXISTS,
        'value',
      );
    });

    it.each([
      ['a missing kind', { value: 'x.example.com' }, 'kind'],
      ['an unknown kind', { kind: 'email', value: 'x.example.com' }, 'kind'],
      ['a missing value', { kind: 'domain' }, 'value'],
      ['a non-string value', { kind: 'ip', value: 1234 }, 'value'],
      ['an IP entry that is not an IP', { kind: 'ip', value: 'x.example.com' }, 'value'],
      ['an IP entry with a port', { kind: 'ip', value: '192.0.2.1:80' }, 'value'],
      ['a domain entry that is not a hostname', { kind: 'domain', value: 'not a host' }, 'value'],
      ['a domain entry with a wildcard', { kind: 'domain', value: '*.example.com' }, 'value'],
      ['an unknown field', { kind: 'domain', value: 'x.example.com', note: 'x' }, 'note'],
    ])('refuses an entry with %s: 400 naming the field', async (_, body, field) => {
      expectAdminError(await a.post(blacklist(), body), 400, BAD_REQUEST, field);
    });

    it('answers 404 to another author on every blacklist route of a project it does not own', async () => {
      const entry = (await a.post(blacklist(), { kind: 'ip', value: '192.0.2.200' }).expect(201)).body;
      expectAdminError(await b.post(blacklist(), { kind: 'ip', value: '192.0.2.201' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.get(blacklist()), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.delete(`${blacklist()}/${entry.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.delete(`${blacklist(await b.createProject())}/${entry.id}`), 404, BLACKLIST_ENTRY_NOT_FOUND);
      expect((await a.get(`${blacklist()}?page_size=100`).expect(200)).body.items.map((e: { id: number }) => e.id)).toContain(
        entry.id,
      );
    });

    it('lets the platform admin manage the blacklist of any project', async () => {
      const entry = (await admin.post(blacklist(), { kind: 'domain', value: 'admin-block.example.com' }).expect(201)).body;
      expect((await a.get(`${blacklist()}?page_size=100`).expect(200)).body.items.map((e: { id: number }) => e.id)).toContain(
        entry.id,
      );
      await admin.delete(`${blacklist()}/${entry.id}`).expect(204);
    });
  });

  it("removes a project's sites and blacklist with the project", async () => {
    const p = await a.createProject();
    await a.post(sites(p), { domain: 'cascade.example.com' }).expect(201);
    await a.post(blacklist(p), { kind: 'ip', value: '192.0.2.9' }).expect(201);
    await a.delete(`${PROJECTS}/${p.id}`).expect(204);
    expectAdminError(await a.get(sites(p)), 404, PROJECT_NOT_FOUND);
    expectAdminError(await a.get(blacklist(p)), 404, PROJECT_NOT_FOUND);
  });
});
