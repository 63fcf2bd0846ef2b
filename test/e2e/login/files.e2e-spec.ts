import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { AppConfig } from '../../../src/config/app-config';
import { DownloadSigner } from '../../../src/files/download-signer';
import { FilesService } from '../../../src/files/files.service';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, FILE_NOT_FOUND, FILE_TOO_LARGE, PROJECT_NOT_FOUND } from '../../support/admin-errors';
import { startTestApp, TestApp } from '../../support/test-app';
import { ErrorCode } from '../../../sdk/src';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** Past the 1 MiB JSON/form body limit, so an upload is shown not to go through those parsers. */
const MAX_BYTES = 1_500_000;
const { DOWNLOAD_ADDRESS_INVALID, UNSUPPORTED_MEDIA_TYPE } = ErrorCode;

type FileBody = { id: string; name: string; size: number; sha256: string; download_count: number; created_at: string };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Collects a binary body (superagent leaves application/octet-stream unparsed). */
function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/**
 * The file suite, on one HTTP adapter. The adapter under test comes from HTTP_ADAPTER (the whole
 * suite) and the other adapter gets the round trip too, so every run covers both.
 */
function fileSuite(adapter: 'express' | 'fastify', full: boolean) {
  describe(`files on ${adapter} (e2e)`, () => {
    let t: TestApp;
    let admin: AdminClient;
    let a: { client: AdminClient; id: string };
    let b: { client: AdminClient; id: string };
    let filesDir: string;

    beforeAll(async () => {
      t = await startTestApp({ HTTP_ADAPTER: adapter, FILE_MAX_BYTES: String(MAX_BYTES) });
      admin = await AdminClient.asPlatformAdmin(t);
      a = await admin.createAuthor();
      b = await admin.createAuthor();
      filesDir = t.app.get(AppConfig).filesDir;
    });
    afterAll(() => t.close());

    const base = (p: { id: string }) => `/admin/v1/projects/${p.id}/files`;
    const upload = (p: { id: string }, bytes: Buffer, name = 'app.bin', client: AdminClient = a.client) =>
      t.http().post(base(p)).set(client.auth()).attach('file', bytes, name);
    const download = (url: string) => t.http().get(url).buffer(true).parse(binary);
    const stored = (p: { id: string }) => (existsSync(join(filesDir, p.id)) ? readdirSync(join(filesDir, p.id)) : []);
    const incoming = () => (existsSync(join(filesDir, '.incoming')) ? readdirSync(join(filesDir, '.incoming')) : []);

    it('uploads a file, streaming it to FILES_DIR, and reads it back', async () => {
      const p = await a.client.createProject();
      const bytes = randomBytes(1_200_000);
      const res = await upload(p, bytes, 'setup-1.2.0.exe').expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'setup-1.2.0.exe',
        size: bytes.length,
        sha256: sha256(bytes),
        download_count: 0,
        created_at: expect.stringMatching(ISO),
      });
      expect(readFileSync(join(filesDir, p.id, res.body.id)).equals(bytes)).toBe(true);
      expect((await a.client.get(`${base(p)}/${res.body.id}`).expect(200)).body).toEqual(res.body);
      expect((await a.client.get(base(p)).expect(200)).body).toEqual({ items: [res.body], total: 1, page: 1, page_size: 20 });
    });

    it('takes exactly FILE_MAX_BYTES and refuses more with 413, keeping nothing', async () => {
      const p = await a.client.createProject();
      const atLimit = await upload(p, randomBytes(MAX_BYTES)).expect(201);
      expect(atLimit.body.size).toBe(MAX_BYTES);
      for (const size of [MAX_BYTES + 1, MAX_BYTES * 3]) {
        const res = await upload(p, randomBytes(size));
        expectAdminError(res, 413, FILE_TOO_LARGE);
      }
      expect((await a.client.get(base(p)).expect(200)).body.total).toBe(1);
      expect(stored(p)).toEqual([atLimit.body.id]);
      expect(incoming()).toEqual([]);
    });

    it('downloads through a signed address: exact bytes, attachment name, counted on GET only', async () => {
      const p = await a.client.createProject();
      const bytes = randomBytes(70_000);
      const file: FileBody = (await upload(p, bytes, 'tool.bin').expect(201)).body;
      const issued = await t.app.get(FilesService).issueDownload(p.id, file.id);
      expect(issued).toEqual({
        url: expect.stringMatching(new RegExp(`^/api/download/${file.id}\\?expires=\\d+&sig=[0-9a-f]{64}$`)),
        expires_at: expect.stringMatching(LOCAL_TIME),
        expires_at_iso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
        name: 'tool.bin',
        size: bytes.length,
        sha256: sha256(bytes),
      });
      const res = await download(issued.url).expect(200);
      expect(Buffer.isBuffer(res.body) && res.body.equals(bytes)).toBe(true);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe('attachment; filename="tool.bin"');
      expect(res.headers['content-length']).toBe(String(bytes.length));
      const head = await t.http().head(issued.url).expect(200);
      expect(head.headers['content-length']).toBe(String(bytes.length));
      expect(head.headers['content-disposition']).toBe('attachment; filename="tool.bin"');
      await download(issued.url).expect(200);
      expect((await a.client.get(`${base(p)}/${file.id}`).expect(200)).body.download_count).toBe(2);
    });

    it("removes a deleted project's stored bytes with it", async () => {
      const p = await a.client.createProject();
      await upload(p, randomBytes(1000)).expect(201);
      await upload(p, randomBytes(10)).expect(201);
      expect(stored(p)).toHaveLength(2);
      await a.client.delete(`/admin/v1/projects/${p.id}`).expect(204);
      expect(existsSync(join(filesDir, p.id))).toBe(false);
    });

    it('deletes a file and its stored bytes; its address then answers 404', async () => {
      const p = await a.client.createProject();
      const file: FileBody = (await upload(p, randomBytes(1000)).expect(201)).body;
      const { url } = await t.app.get(FilesService).issueDownload(p.id, file.id);
      await a.client.delete(`${base(p)}/${file.id}`).expect(204);
      expect(stored(p)).toEqual([]);
      expectAdminError(await a.client.get(`${base(p)}/${file.id}`), 404, FILE_NOT_FOUND);
      expectAdminError(await a.client.delete(`${base(p)}/${file.id}`), 404, FILE_NOT_FOUND);
      const res = await t.http().get(url).expect(404);
      expect(res.body).toEqual({ code: FILE_NOT_FOUND, msg: expect.any(String), request_id: res.headers['x-request-id'] });
    });

    it('keeps a non-ASCII file name exactly (sent as UTF-8): in the answer, the list and the download', async () => {
      const p = await a.client.createProject();
      const name = '报告-ü.zip';
      const file: FileBody = (await upload(p, Buffer.from('x'), name).expect(201)).body;
      expect(file.name).toBe(name);
      expect((await a.client.get(base(p)).expect(200)).body.items.map((f: FileBody) => f.name)).toEqual([name]);
      const { url } = await t.app.get(FilesService).issueDownload(p.id, file.id);
      const res = await download(url).expect(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="__-_.zip"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
    });

    if (!full) return;

    it('lists newest first, with paging', async () => {
      const p = await a.client.createProject();
      const made: FileBody[] = [];
      for (let i = 0; i < 3; i++) made.push((await upload(p, randomBytes(10 + i), `f${i}.bin`).expect(201)).body);
      const all = (await a.client.get(`${base(p)}?page_size=100`).expect(200)).body;
      expect(all).toMatchObject({ total: 3, page: 1, page_size: 100 });
      expect(all.items.map((f: FileBody) => f.name)).toEqual(['f2.bin', 'f1.bin', 'f0.bin']);
      const page2 = (await a.client.get(`${base(p)}?page_size=2&page=2`).expect(200)).body;
      expect(page2).toMatchObject({ total: 3, page: 2, page_size: 2, items: [all.items[2]] });
      expectAdminError(await a.client.get(`${base(p)}?page_size=101`), 400, BAD_REQUEST, 'page_size');
    });

    it('keeps only the last segment of the sent name and refuses a body without a file', async () => {
      const p = await a.client.createProject();
      const named = await upload(p, Buffer.from('x'), '../../etc/passwd').expect(201);
      expect(named.body.name).toBe('passwd');
      const noFile = await t.http().post(base(p)).set(a.client.auth()).field('file', 'just text').field('other', 'x');
      expectAdminError(noFile, 400, BAD_REQUEST, 'file');
      const otherField = await t.http().post(base(p)).set(a.client.auth()).attach('upload', Buffer.from('x'), 'a.bin');
      expectAdminError(otherField, 400, BAD_REQUEST, 'file');
      expectAdminError(await a.client.post(base(p), { file: 'x' }), 415, UNSUPPORTED_MEDIA_TYPE);
      expect((await a.client.get(base(p)).expect(200)).body.total).toBe(1);
      expect(incoming()).toEqual([]);
    });

    it("hides another author's project and files (404), and needs a token", async () => {
      const p = await a.client.createProject();
      const file: FileBody = (await upload(p, Buffer.from('secret')).expect(201)).body;
      const q = await b.client.createProject();
      expectAdminError(await upload(p, Buffer.from('x'), 'x.bin', b.client), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(base(p)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base(p)}/${file.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base(p)}/${file.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base(q)}/${file.id}`), 404, FILE_NOT_FOUND);
      expectAdminError(await b.client.delete(`${base(q)}/${file.id}`), 404, FILE_NOT_FOUND);
      expectAdminError(await a.client.get(`${base(p)}/not-a-uuid`), 404, FILE_NOT_FOUND);
      await t.http().post(base(p)).attach('file', Buffer.from('x'), 'x.bin').expect(401);
      expect((await admin.get(`${base(p)}/${file.id}`).expect(200)).body.id).toBe(file.id);
      expect(stored(p)).toEqual([file.id]);
      await expect(t.app.get(FilesService).issueDownload(q.id, file.id)).rejects.toMatchObject({ code: FILE_NOT_FOUND });
      await expect(t.app.get(FilesService).issueDownload(p.id, 'nope')).rejects.toMatchObject({ code: FILE_NOT_FOUND });
    });

    it('refuses a missing, tampered or expired signature with 403 and an unknown file with 404', async () => {
      const p = await a.client.createProject();
      const file: FileBody = (await upload(p, randomBytes(500)).expect(201)).body;
      const signer = t.app.get(DownloadSigner);
      const { url } = signer.issue(file.id);
      const [path, query] = url.split('?');
      const params = new URLSearchParams(query);
      const sig = params.get('sig')!;
      const expires = Number(params.get('expires'));
      const refused = async (target: string, reason: 'invalid' | 'expired' = 'invalid') => {
        const res: Response = await t.http().get(target).expect(403);
        expect(res.body).toEqual({
          code: DOWNLOAD_ADDRESS_INVALID,
          msg: expect.any(String),
          request_id: res.headers['x-request-id'],
          details: { reason },
        });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      };
      await refused(path);
      await refused(`${path}?expires=${expires}`);
      await refused(`${path}?sig=${sig}`);
      await refused(`${path}?expires=${expires + 3600}&sig=${sig}`);
      await refused(`${path}?expires=${expires}&sig=${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
      await refused(`/api/download/${randomUUID()}?expires=${expires}&sig=${sig}`);
      await refused(signer.issue(file.id, Math.floor(Date.now() / 1000) - 601).url, 'expired'); // expired a second ago
      await t.http().head(path).expect(403);
      const unknown = await t.http().get(signer.issue(randomUUID()).url).expect(404);
      expect(unknown.body.code).toBe(FILE_NOT_FOUND);
      expect((await a.client.get(`${base(p)}/${file.id}`).expect(200)).body.download_count).toBe(0);
      await download(url).expect(200);
    });

    it('logged no platform fault', () => {
      expect(t.logs.filter((line) => line.includes('unhandled fault'))).toEqual([]);
    });
  });
}

const primary = process.env.HTTP_ADAPTER === 'express' ? 'express' : 'fastify';
fileSuite(primary, true);
fileSuite(primary === 'express' ? 'fastify' : 'express', false);
