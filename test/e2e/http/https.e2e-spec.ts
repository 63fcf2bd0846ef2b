import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { reloadTls } from '../../../src/bootstrap/tls';
import { AppConfig } from '../../../src/config/app-config';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { logRowsOf } from '../../support/connect';
import { signedPost } from '../../support/signing';
import { CODES, sdkLogin, V3_LOGIN, v3Login } from '../../support/standard';
import { startTestApp, TestApp, unique } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/** A self-signed certificate for 127.0.0.1, made for this run: `{cert, key}` file paths. */
function selfSigned(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** The SHA-256 fingerprint of the certificate a fresh TLS connection to `port` is served. */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

function fingerprintOf(certFile: string): string {
  const text = execFileSync('openssl', ['x509', '-in', certFile, '-noout', '-fingerprint', '-sha256'], { encoding: 'utf8' });
  return text.trim().split('=')[1];
}

async function projectWithCard(t: TestApp): Promise<{ project: Project; card: { code: string } }> {
  const admin = await AdminClient.asPlatformAdmin(t);
  const project = await (await admin.createAuthor()).client.createProject();
  await admin.put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 1000 }).expect(200);
  return { project, card: await insertCard(t, project.id) };
}

/** decisions §22: the service's own TLS, reloaded on SIGHUP, and V3/SDK refused over plain HTTP in production. */
describe('HTTPS (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tls-'));
  const first = selfSigned(dir, 'first');
  const second = selfSigned(dir, 'second');
  const served = { cert: join(dir, 'served.crt'), key: join(dir, 'served.key') };
  const previousRejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(() => {
    copyFileSync(first.cert, served.cert);
    copyFileSync(first.key, served.key);
    // supertest's client must accept the self-signed certificate of this file's apps.
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  });
  afterAll(() => {
    if (previousRejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousRejectUnauthorized;
    rmSync(dir, { recursive: true, force: true });
  });

  describe('serving TLS itself, in production', () => {
    let t: TestApp;
    let port: number;
    let project: Project;
    let card: { code: string };

    beforeAll(async () => {
      t = await startTestApp({ NODE_ENV: 'production', TLS_CERT_FILE: served.cert, TLS_KEY_FILE: served.key });
      port = Number(new URL(await t.baseUrl()).port);
      ({ project, card } = await projectWithCard(t));
    });
    afterAll(() => t.close());

    it('logs in over HTTPS on V3 and SDK, with HSTS on the answer', async () => {
      const device = unique('dev');
      const v3 = await v3Login(t, project.api_secret, { app: project.program_id, kami: card.code, imei: device });
      expect(v3.body).toMatchObject({ code: 0, success: true });
      expect(v3.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const sdk = await sdkLogin(t, project.api_secret, { app: project.program_id, card_key: card.code, machine_id: device });
      expect(sdk.body).toMatchObject({ code: 0, success: true });
    });

    it('serves a renewed certificate to new connections after a reload, and keeps the old one when the new pair is broken', async () => {
      expect(await servedFingerprint(port)).toBe(fingerprintOf(first.cert));
      copyFileSync(second.cert, served.cert);
      copyFileSync(second.key, served.key);
      reloadTls(t.app.getHttpServer(), t.app.get(AppConfig));
      expect(await servedFingerprint(port)).toBe(fingerprintOf(second.cert));

      copyFileSync(first.key, served.key); // a key that is not the certificate's
      expect(() => reloadTls(t.app.getHttpServer(), t.app.get(AppConfig))).toThrow();
      expect(await servedFingerprint(port)).toBe(fingerprintOf(second.cert));
      copyFileSync(second.key, served.key);
    });
  });

  describe('plain HTTP in production', () => {
    let t: TestApp;
    let project: Project;
    let card: { code: string };

    beforeAll(async () => {
      // The test client's connections come from 127.0.0.1, the one trusted proxy here.
      t = await startTestApp({ NODE_ENV: 'production', TRUST_PROXY: '127.0.0.1' });
      ({ project, card } = await projectWithCard(t));
    });
    afterAll(() => t.close());

    it('refuses V3 and SDK with HTTPS_REQUIRED before anything is looked up or logged', async () => {
      const attempts = [
        await v3Login(t, project.api_secret, { app: project.program_id, kami: card.code, imei: unique('dev') }),
        await sdkLogin(t, project.api_secret, { app: project.program_id, card_key: card.code, machine_id: unique('dev') }),
        // Before the app rules, too: nothing about the program is told over plain HTTP.
        await v3Login(t, project.api_secret, { kami: card.code, imei: 'x' }),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: CODES.HTTPS_REQUIRED, success: false, request_id: res.headers['x-request-id'] });
        expect(await logRowsOf(t, res.headers['x-request-id'])).toEqual([]);
      }
    });

    it('accepts them from a trusted proxy that says the client used HTTPS, and from nobody else', async () => {
      const body = { app: project.program_id, kami: card.code, imei: unique('dev') };
      const proxied = await signedPost(t, V3_LOGIN, body, 'form', project.api_secret).set('X-Forwarded-Proto', 'https');
      expect(proxied.body).toMatchObject({ code: 0, success: true });
      // The nearest hop decides: a client that wrote "https" before a proxy that says "http" used HTTP.
      const spoofed = await signedPost(t, V3_LOGIN, body, 'form', project.api_secret).set('X-Forwarded-Proto', 'https, http');
      expect(spoofed.body.code).toBe(CODES.HTTPS_REQUIRED);
    });

    it('leaves Connect and the legacy routes, which the spec lets use HTTP, as they were', async () => {
      const legacy = await t.http().post('/api/paycheck').type('form').send({ app: project.program_id, kami: card.code });
      expect(legacy.body.code).toBe(1);
    });
  });

  it('ignores X-Forwarded-Proto from a peer that is not a trusted proxy', async () => {
    const t = await startTestApp({ NODE_ENV: 'production', TRUST_PROXY: '10.9.8.7' });
    try {
      const { project, card } = await projectWithCard(t);
      const res = await signedPost(
        t,
        V3_LOGIN,
        { app: project.program_id, kami: card.code, imei: 'dev' },
        'form',
        project.api_secret,
      ).set('X-Forwarded-Proto', 'https');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(CODES.HTTPS_REQUIRED);
    } finally {
      await t.close();
    }
  });
});
