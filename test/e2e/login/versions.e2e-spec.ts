import { randomBytes } from 'node:crypto';
import { VersionsService } from '../../../src/versions/versions.service';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, PROJECT_NOT_FOUND, VERSION_EXISTS, VERSION_NOT_FOUND } from '../../support/admin-errors';
import { signedPost } from '../../support/signing';
import { startTestApp, TestApp } from '../../support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SIGNED_DOWNLOAD = /^\/api\/download\/([0-9a-f-]{36})\?expires=(\d+)&sig=[0-9a-f]{64}$/;

type VersionBody = {
  id: number;
  version: string;
  changelog: string;
  force_update: boolean;
  enabled: boolean;
  file_id: string | null;
  download_url: string | null;
  created_at: string;
  updated_at: string;
};
type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('versions: admin API and the SDK version check (e2e)', () => {
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

  const base = (p: { id: string }) => `/admin/v1/projects/${p.id}/versions`;
  async function create(p: { id: string }, body: object, client: AdminClient = a.client): Promise<VersionBody> {
    return (await client.post(base(p), body).expect(201)).body;
  }
  async function uploadFile(p: { id: string }, bytes: Buffer, client: AdminClient = a.client): Promise<{ id: string }> {
    return (
      await t.http().post(`/admin/v1/projects/${p.id}/files`).set(client.auth()).attach('file', bytes, 'setup.bin').expect(201)
    ).body;
  }
  const check = (p: Project, version: string, options = {}) =>
    signedPost(t, '/api/v1/apps/version', { app: p.program_id, version }, 'json', p.api_secret, options);
  async function checked(p: Project, version: string) {
    const res = await check(p, version).expect(200);
    expect(res.body).toMatchObject({ code: 0, success: true, request_id: res.headers['x-request-id'] });
    return res.body.data as {
      latest_version: string | null;
      update_available: boolean;
      force_update: boolean;
      changelog: string | null;
      download_url: string | null;
    };
  }

  describe('admin CRUD', () => {
    it('creates a version with defaults and reads it back', async () => {
      const p = await a.client.createProject();
      const res = await a.client.post(base(p), { version: '1.0.0' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        version: '1.0.0',
        changelog: '',
        force_update: false,
        enabled: true,
        file_id: null,
        download_url: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      expect((await a.client.get(`${base(p)}/${res.body.id}`).expect(200)).body).toEqual(res.body);
      const full = await create(p, {
        version: '1.1',
        changelog: 'Fixes.\nMore fixes.',
        force_update: true,
        enabled: false,
        download_url: 'https://example.com/app-1.1.zip',
      });
      expect(full).toMatchObject({
        version: '1.1',
        changelog: 'Fixes.\nMore fixes.',
        force_update: true,
        enabled: false,
        download_url: 'https://example.com/app-1.1.zip',
      });
    });

    it('lists newest version first in numeric order, with paging', async () => {
      const p = await a.client.createProject();
      for (const version of ['1.2.0', '1.10.0', '1.9.3', '0.9', '2.0.0.1']) await create(p, { version });
      const all = (await a.client.get(`${base(p)}?page_size=100`).expect(200)).body;
      expect(all).toMatchObject({ total: 5, page: 1, page_size: 100 });
      expect(all.items.map((v: VersionBody) => v.version)).toEqual(['2.0.0.1', '1.10.0', '1.9.3', '1.2.0', '0.9']);
      const page2 = (await a.client.get(`${base(p)}?page_size=2&page=2`).expect(200)).body;
      expect(page2.items.map((v: VersionBody) => v.version)).toEqual(['1.9.3', '1.2.0']);
      expect(page2.total).toBe(5);
    });

    it('updates any subset, clears file_id or download_url with null, and deletes', async () => {
      const p = await a.client.createProject();
      const file = await uploadFile(p, randomBytes(100));
      const v = await create(p, { version: '3.0', download_url: 'http://downloads.internal/app.zip' });
      const patched = (await a.client.patch(`${base(p)}/${v.id}`, { changelog: 'New', force_update: true }).expect(200)).body;
      expect(patched).toMatchObject({
        version: '3.0',
        changelog: 'New',
        force_update: true,
        enabled: true,
        download_url: 'http://downloads.internal/app.zip',
      });
      expectAdminError(await a.client.patch(`${base(p)}/${v.id}`, { file_id: file.id }), 400, BAD_REQUEST, 'download_url');
      const swapped = (await a.client.patch(`${base(p)}/${v.id}`, { file_id: file.id, download_url: null }).expect(200)).body;
      expect(swapped).toMatchObject({ file_id: file.id, download_url: null });
      const renamed = (await a.client.patch(`${base(p)}/${v.id}`, { version: '3.0.1', enabled: false }).expect(200)).body;
      expect(renamed).toMatchObject({ version: '3.0.1', enabled: false, file_id: file.id, changelog: 'New' });
      await a.client.delete(`${base(p)}/${v.id}`).expect(204);
      expectAdminError(await a.client.get(`${base(p)}/${v.id}`), 404, VERSION_NOT_FOUND);
      expectAdminError(await a.client.delete(`${base(p)}/${v.id}`), 404, VERSION_NOT_FOUND);
      expectAdminError(await a.client.patch(`${base(p)}/${v.id}`, { enabled: true }), 404, VERSION_NOT_FOUND);
    });

    it('forgets the file of a version when the file is deleted', async () => {
      const p = await a.client.createProject();
      const file = await uploadFile(p, randomBytes(100));
      const v = await create(p, { version: '1.0', file_id: file.id });
      await a.client.delete(`/admin/v1/projects/${p.id}/files/${file.id}`).expect(204);
      expect((await a.client.get(`${base(p)}/${v.id}`).expect(200)).body.file_id).toBeNull();
    });

    it.each([
      ['version', {}],
      ['version', { version: '' }],
      ['version', { version: 'v1.0' }],
      ['version', { version: '1.2.3.4.5' }],
      ['version', { version: '1.2-beta' }],
      ['version', { version: '1..2' }],
      ['version', { version: 1.2 }],
      ['changelog', { version: '1.0', changelog: 'x'.repeat(20_001) }],
      ['force_update', { version: '1.0', force_update: 'yes' }],
      ['enabled', { version: '1.0', enabled: null }],
      ['file_id', { version: '1.0', file_id: 'nope' }],
      ['download_url', { version: '1.0', download_url: 'ftp://example.com/a.zip' }],
      ['download_url', { version: '1.0', download_url: 'example.com/a.zip' }],
      ['download_url', { version: '1.0', download_url: `https://example.com/${'a'.repeat(490)}` }],
      ['extra', { version: '1.0', extra: true }],
    ])('refuses a bad %s (case %#)', async (field, body) => {
      const p = await a.client.createProject();
      expectAdminError(await a.client.post(base(p), body), 400, BAD_REQUEST, field);
    });

    it('refuses a file of another project, and file_id with download_url together', async () => {
      const p = await a.client.createProject();
      const own = await uploadFile(p, randomBytes(10));
      const sibling = await uploadFile(await a.client.createProject(), randomBytes(10));
      const foreign = await uploadFile(await b.client.createProject(), randomBytes(10), b.client);
      expectAdminError(await a.client.post(base(p), { version: '1.0', file_id: sibling.id }), 400, BAD_REQUEST, 'file_id');
      expectAdminError(await a.client.post(base(p), { version: '1.0', file_id: foreign.id }), 400, BAD_REQUEST, 'file_id');
      expectAdminError(
        await a.client.post(base(p), { version: '1.0', file_id: '00000000-0000-4000-8000-000000000000' }),
        400,
        BAD_REQUEST,
        'file_id',
      );
      expectAdminError(
        await a.client.post(base(p), { version: '1.0', file_id: own.id, download_url: 'https://example.com/a' }),
        400,
        BAD_REQUEST,
        'file_id',
      );
      expect((await create(p, { version: '1.0', file_id: own.id.toUpperCase() })).file_id).toBe(own.id);
    });

    it('refuses a version that exists already, also written another way (1.2 = 1.2.0)', async () => {
      const p = await a.client.createProject();
      const v = await create(p, { version: '1.2.0' });
      expectAdminError(await a.client.post(base(p), { version: '1.2.0' }), 409, VERSION_EXISTS, 'version');
      expectAdminError(await a.client.post(base(p), { version: '1.2' }), 409, VERSION_EXISTS, 'version');
      expectAdminError(await a.client.post(base(p), { version: '01.2.0.0' }), 409, VERSION_EXISTS, 'version');
      const other = await create(p, { version: '1.3' });
      expectAdminError(await a.client.patch(`${base(p)}/${other.id}`, { version: '1.2' }), 409, VERSION_EXISTS, 'version');
      expect((await a.client.patch(`${base(p)}/${v.id}`, { version: '1.2' }).expect(200)).body.version).toBe('1.2');
      await create(await a.client.createProject(), { version: '1.2.0' }); // another project may have it
    });

    it("hides another author's project and versions (404)", async () => {
      const p = await a.client.createProject();
      const v = await create(p, { version: '1.0' });
      const q = await b.client.createProject();
      expectAdminError(await b.client.post(base(p), { version: '2.0' }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(base(p)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base(p)}/${v.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.patch(`${base(p)}/${v.id}`, { enabled: false }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base(p)}/${v.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base(q)}/${v.id}`), 404, VERSION_NOT_FOUND);
      expectAdminError(await a.client.get(`${base(p)}/abc`), 404, VERSION_NOT_FOUND);
      await t.http().get(base(p)).expect(401);
      expect((await a.client.get(`${base(p)}/${v.id}`).expect(200)).body.enabled).toBe(true);
    });
  });

  describe('SDK version check POST /api/v1/apps/version', () => {
    it('answers no version at all when none is enabled', async () => {
      const p = await a.client.createProject();
      expect(await checked(p, '1.0.0')).toEqual({
        latest_version: null,
        update_available: false,
        force_update: false,
        changelog: null,
        download_url: null,
      });
      await create(p, { version: '9.0', enabled: false, force_update: true });
      expect(await checked(p, '1.0.0')).toEqual({
        latest_version: null,
        update_available: false,
        force_update: false,
        changelog: null,
        download_url: null,
      });
    });

    it('finds the latest in numeric order (1.10.0 > 1.2.0) with its changelog and download_url', async () => {
      const p = await a.client.createProject();
      await create(p, { version: '1.2.0', changelog: 'two' });
      await create(p, { version: '1.10.0', changelog: 'ten', download_url: 'https://example.com/1.10.0.zip' });
      await create(p, { version: '1.9.9', changelog: 'nine' });
      await create(p, { version: '2.0.0', changelog: 'disabled', enabled: false });
      const res = await check(p, '1.2').expect(200);
      expect(res.body).toEqual({
        code: 0,
        success: true,
        msg: expect.any(String),
        data: {
          latest_version: '1.10.0',
          update_available: true,
          force_update: false,
          changelog: 'ten',
          download_url: 'https://example.com/1.10.0.zip',
        },
        request_id: res.headers['x-request-id'],
      });
      expect(await checked(p, '1.9.10')).toMatchObject({ latest_version: '1.10.0', update_available: true });
      expect(await checked(p, '1.10')).toMatchObject({ latest_version: '1.10.0', update_available: false, force_update: false });
      expect(await checked(p, '1.10.0.0')).toMatchObject({ update_available: false });
      expect(await checked(p, '3.0')).toMatchObject({ latest_version: '1.10.0', update_available: false, force_update: false });
    });

    it('forces the update when any enabled version newer than the client forces it, even an intermediate one', async () => {
      const p = await a.client.createProject();
      await create(p, { version: '1.0.0' });
      const forced = await create(p, { version: '1.5.0', force_update: true });
      await create(p, { version: '2.0.0' });
      expect(await checked(p, '1.0.0')).toMatchObject({ latest_version: '2.0.0', update_available: true, force_update: true });
      expect(await checked(p, '1.4.99')).toMatchObject({ force_update: true });
      expect(await checked(p, '1.5')).toMatchObject({ latest_version: '2.0.0', update_available: true, force_update: false });
      expect(await checked(p, '1.6.0')).toMatchObject({ update_available: true, force_update: false });
      await a.client.patch(`${base(p)}/${forced.id}`, { enabled: false }).expect(200);
      expect(await checked(p, '1.0.0')).toMatchObject({ update_available: true, force_update: false });
    });

    it('signs a fresh download address for a version with a file, and it downloads the file', async () => {
      const p = await a.client.createProject();
      const bytes = randomBytes(4096);
      const file = await uploadFile(p, bytes);
      await create(p, { version: '4.2.0', file_id: file.id, changelog: 'with a file' });
      const data = await checked(p, '4.1');
      expect(data).toMatchObject({ latest_version: '4.2.0', update_available: true, changelog: 'with a file' });
      const match = SIGNED_DOWNLOAD.exec(data.download_url ?? '');
      expect(match?.[1]).toBe(file.id);
      const expiresIn = Number(match![2]) - Math.floor(Date.now() / 1000);
      expect(expiresIn).toBeGreaterThan(590);
      expect(expiresIn).toBeLessThanOrEqual(600);
      const res = await t
        .http()
        .get(data.download_url!)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect((res.body as Buffer).equals(bytes)).toBe(true);
    });

    it('is what VersionsService.check answers for the legacy route', async () => {
      const p = await a.client.createProject();
      await create(p, { version: '1.1', changelog: 'c', download_url: 'https://example.com/x' });
      expect(await t.app.get(VersionsService).check(p.id, '1.0')).toEqual(await checked(p, '1.0'));
      await expect(t.app.get(VersionsService).check(p.id, 'latest')).rejects.toMatchObject({ code: BAD_REQUEST });
    });

    it('refuses a client version that is not one, a bad signature, and a program where version_check is not authorized', async () => {
      const p = await a.client.createProject();
      await create(p, { version: '1.0' });
      for (const version of ['', 'v1', '1.0-beta', '1.2.3.4.5']) {
        const res = await check(p, version).expect(400);
        expect(res.body).toMatchObject({ code: BAD_REQUEST, success: false });
      }
      const unsigned = await check(p, '1.0', { signature: 'f'.repeat(64) }).expect(401);
      expect(unsigned.body).toMatchObject({ code: 10101, success: false });
      await admin
        .put(`/admin/v1/projects/${p.id}/interfaces/version_check`, { authorized: false, daily_quota: null })
        .expect(200);
      const refused = await check(p, '1.0').expect(403);
      expect(refused.body).toEqual({
        code: 10206,
        success: false,
        msg: expect.any(String),
        request_id: refused.headers['x-request-id'],
      });
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/version_check`, { authorized: true, daily_quota: 1 }).expect(200);
      await check(p, '1.0').expect(200);
      expect((await check(p, '1.0').expect(429)).body.code).toBe(10301);
    });

    it('logged no platform fault', () => {
      expect(t.logs.filter((line) => line.includes('unhandled fault'))).toEqual([]);
    });
  });
});
