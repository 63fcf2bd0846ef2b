import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { AdminClient, login } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, UNAUTHENTICATED } from '../../support/admin-errors';
import { createAgent } from '../../support/agents';
import { itInOneWindow } from '../../support/failure-window';
import { ADMIN_PASSWORD, startTestApp, TestApp, unique, uniqueAddress } from '../../support/test-app';
import { buildWorld, World } from '../../support/world';

const PASSWORD_ROUTE = '/admin/v1/auth/password';
const RATE_LIMITED = 10302;
const TWO_FACTOR_REQUIRED = 11007;
const TWO_FACTOR_CODE_INVALID = 11008;

/** The code an authenticator app shows `offsetSteps` 30-second steps from now. */
function codeOf(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

function change(client: AdminClient, current: string, next: string) {
  return client.post(PASSWORD_ROUTE, { current_password: current, new_password: next });
}

/** A sign-in's status: 200 with a token (or a 2FA challenge) for the right password, 401 for a wrong one. */
async function signInStatus(t: TestApp, username: string, password: string): Promise<number> {
  return (await t.http().post('/admin/v1/auth/login').send({ username, password })).status;
}

async function me(t: TestApp, token: string): Promise<Response> {
  return t.http().get('/admin/v1/auth/me').set('Authorization', `Bearer ${token}`);
}

/**
 * Every account changes its own password (`POST /admin/v1/auth/password`, docs/decisions.md "Own
 * password"): with the current one, within the password rules, with a fresh code where it has
 * two-factor sign-in; its other sessions end, the calling one and its API keys stay; audited
 * without the password; limited like the sign-in.
 */
describe('own password (e2e)', () => {
  let world: World;
  let t: TestApp;

  beforeAll(async () => {
    world = await buildWorld();
    t = world.t;
  });
  afterAll(() => world.close());

  describe('every role changes its own and signs in with the new one, never the old', () => {
    it('a platform admin', async () => {
      const next = 'admin-new-password-1';
      await change(world.admin, ADMIN_PASSWORD, next).expect(204);
      expect(await signInStatus(t, 'admin', ADMIN_PASSWORD)).toBe(401);
      expect(await signInStatus(t, 'admin', next)).toBe(200);
      // Back to the suite's password: any password but the current one is a new one.
      await change(world.admin, next, ADMIN_PASSWORD).expect(204);
      expect(await signInStatus(t, 'admin', ADMIN_PASSWORD)).toBe(200);
    });

    it('an author', async () => {
      const author = await world.admin.createAuthor();
      const res = await change(author.client, author.password, 'author-new-password-1').expect(204);
      expect(res.text).toBe('');
      expect(await signInStatus(t, author.username, author.password)).toBe(401);
      expect(await signInStatus(t, author.username, 'author-new-password-1')).toBe(200);
    });

    it('an agent', async () => {
      const agent = await createAgent(t, world.author, { project_ids: [world.project.id] });
      await change(agent.client, agent.password, 'agent-new-password-1').expect(204);
      expect(await signInStatus(t, agent.username, agent.password)).toBe(401);
      expect(await signInStatus(t, agent.username, 'agent-new-password-1')).toBe(200);
    });
  });

  it('refuses a wrong current password with the sign-in code, keeps the token working, and changes nothing', async () => {
    const author = await world.admin.createAuthor();
    const refused = await change(author.client, 'not-the-password', 'author-new-password-1');
    expectAdminError(refused, 401, UNAUTHENTICATED, 'current_password');
    // 401 for the password typed, not for the token: it still works.
    await author.client.get('/admin/v1/auth/me').expect(200);
    expect(await signInStatus(t, author.username, author.password)).toBe(200);
    expect(await signInStatus(t, author.username, 'author-new-password-1')).toBe(401);
  });

  it('refuses a new password outside the rules, or the current one again, with the validation code', async () => {
    const author = await world.admin.createAuthor();
    expectAdminError(await change(author.client, author.password, 'short'), 400, BAD_REQUEST, 'new_password');
    expectAdminError(await change(author.client, author.password, 'x'.repeat(129)), 400, BAD_REQUEST, 'new_password');
    expectAdminError(await change(author.client, author.password, author.password), 400, BAD_REQUEST, 'new_password');
    expectAdminError(await author.client.post(PASSWORD_ROUTE, { new_password: 'author-new-password-1' }), 400, BAD_REQUEST);
    // An unknown field is refused like everywhere in the admin API.
    expectAdminError(
      await author.client.post(PASSWORD_ROUTE, {
        current_password: author.password,
        new_password: 'author-new-password-1',
        username: 'someone-else',
      }),
      400,
      BAD_REQUEST,
    );
    expect(await signInStatus(t, author.username, author.password)).toBe(200);
  });

  it("ends the account's other sessions; the calling one and its API keys keep working; other accounts are untouched", async () => {
    const author = await world.admin.createAuthor();
    const project = await author.client.createProject();
    const other = await login(t, author.username, author.password);
    const third = await login(t, author.username, author.password);
    const key = await author.client.post('/admin/v1/api-keys', { name: 'shop', scopes: ['cards:read'] }).expect(201);
    const bystander = await world.admin.createAuthor();

    await change(author.client, author.password, 'author-new-password-1').expect(204);
    await author.client.get('/admin/v1/auth/me').expect(200);
    expectAdminError(await me(t, other), 401, UNAUTHENTICATED);
    expectAdminError(await me(t, third), 401, UNAUTHENTICATED);
    // Its own change: the keys its programs use stay (a reset by someone else revokes them).
    await t.http().get(`/admin/v1/projects/${project.id}/cards`).set('Authorization', `Bearer ${key.body.key}`).expect(200);
    await bystander.client.get('/admin/v1/auth/me').expect(200);
  });

  it('is no route for an API key', async () => {
    const author = await world.admin.createAuthor();
    const key = await author.client.post('/admin/v1/api-keys', { name: 'shop', scopes: ['cards:read'] }).expect(201);
    const refused = await t
      .http()
      .post(PASSWORD_ROUTE)
      .set('Authorization', `Bearer ${key.body.key}`)
      .send({ current_password: author.password, new_password: 'author-new-password-1' });
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 403, code: 11017 });
    expect(await signInStatus(t, author.username, author.password)).toBe(200);
  });

  it('asks an account with two-factor sign-in for a fresh code (step-up) before it changes anything', async () => {
    const author = await world.admin.createAuthor();
    const enrol = await author.client.post('/admin/v1/auth/2fa/enrol').expect(201);
    const secret = enrol.body.secret as string;
    await author.client.post('/admin/v1/auth/2fa/confirm', { code: codeOf(secret) }).expect(200);
    const next = 'author-new-password-1';

    expectAdminError(await change(author.client, author.password, next), 403, TWO_FACTOR_REQUIRED);
    expectAdminError(
      await change(author.client, author.password, next).set('X-Svc-2fa-Code', '000000'),
      403,
      TWO_FACTOR_CODE_INVALID,
    );
    expect(
      (await t.http().post('/admin/v1/auth/login').send({ username: author.username, password: author.password })).body,
    ).toMatchObject({
      two_factor_required: true,
    });
    await change(author.client, author.password, next).set('X-Svc-2fa-Code', codeOf(secret, 1)).expect(204);
    expect(await signInStatus(t, author.username, author.password)).toBe(401);
    const signIn = await t.http().post('/admin/v1/auth/login').send({ username: author.username, password: next }).expect(200);
    expect(signIn.body).toMatchObject({ two_factor_required: true, challenge: expect.any(String) });
  });

  it('is in the audit trail as auth.password on the account, with no password in it', async () => {
    const author = await world.admin.createAuthor();
    await login(t, author.username, author.password); // one other session, to be ended
    const next = 'author-new-password-audited';
    await change(author.client, 'a-wrong-guess-here', next).expect(401);
    await change(author.client, author.password, next).expect(204);
    const rows = (
      await world.admin.get(`/admin/v1/audit?actor=${author.username}&action=auth.password&page_size=100`).expect(200)
    ).body.items;
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'auth.password',
        outcome: 'success',
        actor_id: author.id,
        actor_role: 'author',
        resource_type: 'auth',
        resource_id: author.id,
        route: expect.stringMatching(/auth\/password$/),
        changes: { before: null, after: { password: '[redacted]', other_sessions_ended: 1 } },
      }),
    ]);
    // The author reads its own account's row too.
    const own = (await author.client.get(`/admin/v1/audit?action=auth.password`).expect(200)).body.items;
    expect(own.map((r: { actor_id: string }) => r.actor_id)).toEqual([author.id]);
    const everything = JSON.stringify(rows) + JSON.stringify(own) + t.logs.join('\n');
    for (const secret of [author.password, next, 'a-wrong-guess-here']) expect(everything).not.toContain(secret);
  });

  it('lets exactly one of two changes at once win: the other is refused as a wrong current password', async () => {
    const author = await world.admin.createAuthor();
    const second = new AdminClient(t, await login(t, author.username, author.password));
    const [first, other] = await Promise.all([
      change(author.client, author.password, 'first-new-password'),
      change(second, author.password, 'second-new-password'),
    ]);
    expect([first.status, other.status].sort()).toEqual([204, 401]);
    const [winner, loser] = first.status === 204 ? [author.client, second] : [second, author.client];
    const [won, lost] =
      first.status === 204 ? ['first-new-password', 'second-new-password'] : ['second-new-password', 'first-new-password'];
    expectAdminError(first.status === 204 ? other : first, 401, UNAUTHENTICATED, 'current_password');
    expect(await signInStatus(t, author.username, won)).toBe(200);
    expect(await signInStatus(t, author.username, lost)).toBe(401);
    expect(await signInStatus(t, author.username, author.password)).toBe(401);
    // The winner's session stays; the loser's was one of the account's other sessions.
    await winner.get('/admin/v1/auth/me').expect(200);
    expectAdminError(await loser.get('/admin/v1/auth/me'), 401, UNAUTHENTICATED);
  });
});

describe('own password: limited like the sign-in (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  // Its own bootstrap admin: with Redis, counters of 'admin' are shared with every other suite's.
  const adminName = unique('pwlimit');

  beforeAll(async () => {
    t = await startTestApp(
      { ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '3', RATE_LIMIT_SIGN_IN_PER_ACCOUNT: '6', ADMIN_USERNAME: adminName },
      { clientAddress: uniqueAddress() },
    );
    admin = await AdminClient.asPlatformAdmin(t, adminName);
  });
  afterAll(() => t.close());

  /** A password change from `address`. */
  const changeFrom = (client: AdminClient, address: string, current: string, next: string) =>
    t
      .http()
      .post(PASSWORD_ROUTE)
      .set(client.auth())
      .set('X-Forwarded-For', address)
      .send({ current_password: current, new_password: next });

  itInOneWindow('wrong current passwords count with the sign-in’s per account and per address (429, Retry-After)', async () => {
    const victim = await admin.createAuthor();
    const other = await admin.createAuthor();
    const address = uniqueAddress();
    for (let i = 0; i < 3; i++)
      expectAdminError(await changeFrom(victim.client, address, 'wrong-guess', 'new-password-1'), 401, UNAUTHENTICATED);
    // The account has had its guesses this minute: the right password waits too, here and at the login
    // (the 6th sign-in-class request of the account, within its request rate: this is the guessing limit).
    const limited = await changeFrom(victim.client, uniqueAddress(), victim.password, 'new-password-1');
    expectAdminError(limited, 429, RATE_LIMITED);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const signIn = await t
      .http()
      .post('/admin/v1/auth/login')
      .set('X-Forwarded-For', uniqueAddress())
      .send({ username: victim.username, password: victim.password });
    expect(signIn.status).toBe(429);
    // The address has had its guesses too: another account from it waits.
    expectAdminError(await changeFrom(other.client, address, other.password, 'new-password-1'), 429, RATE_LIMITED);
    // Nothing changed.
    await victim.client.get('/admin/v1/auth/me').expect(200);
  });

  it('shares the per-account sign-in request rate with the login, successes included', async () => {
    const author = await admin.createAuthor(); // its sign-in: 1 of 6
    const passwords = [author.password, ...[1, 2, 3, 4, 5].map((n) => `rotated-password-${n}`)];
    for (let i = 1; i <= 5; i++) {
      const res = await changeFrom(author.client, uniqueAddress(), passwords[i - 1], passwords[i]);
      expect(res.status).toBe(204);
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
    }
    expectAdminError(await changeFrom(author.client, uniqueAddress(), passwords[5], 'rotated-password-6'), 429, RATE_LIMITED);
    const signIn = await t
      .http()
      .post('/admin/v1/auth/login')
      .set('X-Forwarded-For', uniqueAddress())
      .send({ username: author.username, password: passwords[5] });
    expect(signIn.status).toBe(429);
  });
});
