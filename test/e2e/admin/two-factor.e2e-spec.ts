import { Secret, TOTP } from 'otpauth';
import { AdminClient, login } from '../../support/admin-client';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../../support/test-app';

/** The code an authenticator app shows `offsetSteps` 30-second steps from now. */
function codeOf(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

/** Enrols `client` and turns 2FA on with the current code: the secret and the recovery codes. */
async function enable(client: AdminClient): Promise<{ secret: string; used: string; recovery: string[] }> {
  const enrol = await client.post('/admin/v1/auth/2fa/enrol').expect(201);
  expect(enrol.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
  const used = codeOf(enrol.body.secret);
  const confirm = await client.post('/admin/v1/auth/2fa/confirm', { code: used }).expect(200);
  expect(confirm.body.recovery_codes).toHaveLength(10);
  return { secret: enrol.body.secret, used, recovery: confirm.body.recovery_codes };
}

describe('admin two-factor sign-in (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  it('asks a TOTP-enabled author for a code after the password, and refuses a wrong or reused code', async () => {
    const author = await admin.createAuthor();
    const { secret, used } = await enable(author.client);
    const first = await t
      .http()
      .post('/admin/v1/auth/login')
      .send({ username: author.username, password: author.password })
      .expect(200);
    expect(first.body).toEqual({ two_factor_required: true, challenge: expect.any(String), expires_at: expect.any(String) });
    expect(first.body.token).toBeUndefined();

    const wrong = await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: first.body.challenge, code: codeOf(secret, 5) })
      .expect(403);
    expect(wrong.body.error.code).toBe(11008);
    // The code that confirmed the enrolment was accepted once already: it is refused now.
    const reused = await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: first.body.challenge, code: used })
      .expect(403);
    expect(reused.body.error.code).toBe(11008);

    const next = codeOf(secret, 1); // the next step's code, inside the one-step drift window
    const ok = await t.http().post('/admin/v1/auth/login/2fa').send({ challenge: first.body.challenge, code: next }).expect(200);
    expect(ok.body).toMatchObject({ role: 'author', token: expect.any(String) });
    const me = await t.http().get('/admin/v1/auth/me').set('Authorization', `Bearer ${ok.body.token}`).expect(200);
    expect(me.body).toMatchObject({ username: author.username, two_factor_enabled: true });
    // A challenge signs in once.
    await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: first.body.challenge, code: codeOf(secret, 2) })
      .expect(401);
    // The same code, on a fresh challenge: still refused (never accepted twice).
    const again = await t
      .http()
      .post('/admin/v1/auth/login')
      .send({ username: author.username, password: author.password })
      .expect(200);
    const replay = await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: again.body.challenge, code: next })
      .expect(403);
    expect(replay.body.error.code).toBe(11008);
    expect(t.logs.join('\n')).not.toContain(secret);
    // The trail names who failed and who signed in at the second step.
    const audit = (await admin.get(`/admin/v1/audit?actor=${author.username}&action=auth.login&page_size=100`).expect(200)).body
      .items;
    expect(audit).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'auth.login.2fa', outcome: 'refused', result_code: 11008 })]),
    );
    expect(audit).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'auth.login.2fa', outcome: 'success', actor_id: author.id })]),
    );
  });

  describe('one code, sent twice at once, is accepted exactly once (totp_last_step: one conditional UPDATE)', () => {
    /** A 2FA author, the next step's code (not yet used), and a password challenge maker. */
    async function raced() {
      const author = await admin.createAuthor();
      const { secret } = await enable(author.client);
      const project = await author.client.createProject();
      const challenge = async () =>
        (await t.http().post('/admin/v1/auth/login').send({ username: author.username, password: author.password }).expect(200))
          .body.challenge as string;
      const signIn = (challengeId: string, code: string) =>
        t.http().post('/admin/v1/auth/login/2fa').send({ challenge: challengeId, code });
      const rotate = (code: string) =>
        author.client.post(`/admin/v1/projects/${project.id}/signing-keys/rotate`, {}).set('X-Svc-2fa-Code', code);
      return { code: codeOf(secret, 1), challenge, signIn, rotate };
    }

    function expectOnceAccepted(answers: Array<{ status: number; body: { error?: { code: number } } }>): void {
      expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
      expect(answers.find((a) => a.status === 403)!.body.error!.code).toBe(11008);
    }

    it('two sign-ins', async () => {
      const { code, challenge, signIn } = await raced();
      const [first, second] = [await challenge(), await challenge()];
      expectOnceAccepted(await Promise.all([signIn(first, code), signIn(second, code)]));
    });

    it('two step-ups', async () => {
      const { code, rotate } = await raced();
      expectOnceAccepted(await Promise.all([rotate(code), rotate(code)]));
    });

    it('a sign-in and a step-up', async () => {
      const { code, challenge, signIn, rotate } = await raced();
      const pending = await challenge();
      expectOnceAccepted(await Promise.all([signIn(pending, code), rotate(code)]));
    });
  });

  it('keeps the one-step login for accounts without 2FA', async () => {
    const author = await admin.createAuthor();
    const res = await t
      .http()
      .post('/admin/v1/auth/login')
      .send({ username: author.username, password: author.password })
      .expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'role', 'token']);
  });

  it('accepts each recovery code once, to sign in', async () => {
    const author = await admin.createAuthor();
    const { recovery } = await enable(author.client);
    const challenge = async () =>
      (await t.http().post('/admin/v1/auth/login').send({ username: author.username, password: author.password }).expect(200))
        .body.challenge;
    await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: await challenge(), code: recovery[0] })
      .expect(200);
    const reused = await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: await challenge(), code: recovery[0] })
      .expect(403);
    expect(reused.body.error.code).toBe(11008);
    await t
      .http()
      .post('/admin/v1/auth/login/2fa')
      .send({ challenge: await challenge(), code: recovery[1].replace('-', '').toLowerCase() })
      .expect(200);
  });

  it('needs a fresh code to rotate a signing key or a secret, and to turn 2FA off', async () => {
    const author = await admin.createAuthor();
    const { secret, used } = await enable(author.client);
    const project = await author.client.createProject();
    const rotate = () => author.client.post(`/admin/v1/projects/${project.id}/signing-keys/rotate`, {});
    const missing = await rotate().expect(403);
    expect(missing.body.error.code).toBe(11007);
    const reused = await rotate().set('X-Svc-2fa-Code', used).expect(403);
    expect(reused.body.error.code).toBe(11008);
    const fresh = codeOf(secret, 1);
    await rotate().set('X-Svc-2fa-Code', fresh).expect(200);
    await rotate().set('X-Svc-2fa-Code', fresh).expect(403);
    const secretRotate = await author.client.post(`/admin/v1/projects/${project.id}/secrets/api_secret/rotate`).expect(403);
    expect(secretRotate.body.error.code).toBe(11007);

    const off = await author.client.post('/admin/v1/auth/2fa/disable', { code: '000000' }).expect(403);
    expect(off.body.error.code).toBe(11008);
  });

  it('asks a fresh code for a bulk delete and a project deletion, not for other bulk actions', async () => {
    const author = await admin.createAuthor();
    const { secret } = await enable(author.client);
    const project = await author.client.createProject();
    const batch = (
      await author.client.post(`/admin/v1/projects/${project.id}/cards`, { count: 2, duration_seconds: 86_400 }).expect(201)
    ).body;
    const ids = batch.items.map((card: { id: number }) => card.id);
    const bulk = (action: string) => author.client.post(`/admin/v1/projects/${project.id}/cards/bulk`, { action, ids });
    expect((await bulk('ban').expect(200)).body.changed).toBe(2);
    expect((await bulk('delete').expect(403)).body.error.code).toBe(11007);
    expect((await author.client.get(`/admin/v1/projects/${project.id}/cards`).expect(200)).body.total).toBe(2);
    expect((await bulk('delete').set('X-Svc-2fa-Code', codeOf(secret, 1)).expect(200)).body.changed).toBe(2);
    expect((await author.client.delete(`/admin/v1/projects/${project.id}`).expect(403)).body.error.code).toBe(11007);
    await author.client.get(`/admin/v1/projects/${project.id}`).expect(200);
  });

  it('lets an account without 2FA rotate without a code', async () => {
    const author = await admin.createAuthor();
    const project = await author.client.createProject();
    await author.client.post(`/admin/v1/projects/${project.id}/signing-keys/rotate`, {}).expect(200);
  });

  it('forces enrolment when the platform requires 2FA, before anything else', async () => {
    const author = await admin.createAuthor();
    await admin.put('/admin/v1/platform/settings', { admin_two_factor_required: true }).expect(200);
    try {
      const blocked = await author.client.get('/admin/v1/projects').expect(403);
      expect(blocked.body.error.code).toBe(11009);
      const relogin = await t
        .http()
        .post('/admin/v1/auth/login')
        .send({ username: author.username, password: author.password })
        .expect(200);
      expect(relogin.body.two_factor_enrolment_required).toBe(true);
      expect((await author.client.get('/admin/v1/auth/me').expect(200)).body).toMatchObject({
        two_factor_enabled: false,
        two_factor_required: true,
      });
      await enable(author.client);
      await author.client.get('/admin/v1/projects').expect(200);
    } finally {
      // The platform admin has no 2FA either: it enrols to switch the requirement back off.
      const blocked = await admin.put('/admin/v1/platform/settings', { admin_two_factor_required: false });
      if (blocked.status === 403) {
        const { secret } = await enable(admin);
        await admin.put('/admin/v1/platform/settings', { admin_two_factor_required: false }).expect(200);
        await admin.post('/admin/v1/auth/2fa/disable', { code: codeOf(secret, 1) }).expect(204);
      } else expect(blocked.status).toBe(200);
    }
    await login(t, 'admin', ADMIN_PASSWORD);
  });

  it('never answers the secret again, and refuses a second enrolment', async () => {
    const author = await admin.createAuthor();
    const { secret } = await enable(author.client);
    const again = await author.client.post('/admin/v1/auth/2fa/enrol').expect(409);
    expect(again.body.error.code).toBe(11220);
    const me = await author.client.get('/admin/v1/auth/me').expect(200);
    expect(JSON.stringify(me.body)).not.toContain(secret);
  });
});
