import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '../sdk/src';
import { AdminClient } from './support/admin-client';
import { openConnectInEveryMode } from './support/connect';
import { Relay, startRelay } from './support/relay';
import { startTestApp, TestApp, unique } from './support/test-app';

const CLIENT_DIR = join(__dirname, '..', 'clients', 'python');
const CHILD_TIMEOUT_MS = 90_000;
/** The live tests in clients/python/tests_live; each needs the service, none may be skipped. */
const LIVE_TESTS = 13;
/** The card key the relay test types, which the relay swaps for the card it bought. */
const TYPED_KEY = 'PY-MADE-UP-KEY-01';
const RELAY_MACHINE = 'py-relay-pc';
const hasPython = !spawnSync('python3', ['--version']).error;

interface Outcome {
  code: number | null;
  signal: string | null;
  output: string;
}

/** Runs python3 to its end, never rejecting: the test asserts on the outcome and shows the output. */
function python(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      args,
      {
        cwd: CLIENT_DIR,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', PYTHONDONTWRITEBYTECODE: '1', ...env },
        timeout: CHILD_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, signal: error?.signal ?? null, output: `${stdout}${stderr}` });
      },
    );
  });
}

/**
 * The official Python client (clients/python) against the real service over real HTTP: the Jest
 * side arranges a program, its cards, versions and a program user through the admin API (and the
 * TypeScript client), then the Python live tests call every client method and must all pass.
 * Skipped only where python3 is not on the PATH.
 */
(hasPython ? describe : describe.skip)('official Python client against the service (e2e)', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let relay: Relay | undefined;
  let programId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const baseUrl = await t.baseUrl();
    const admin = await AdminClient.asPlatformAdmin(t);
    const author = (await admin.createAuthor()).client;
    const project = await author.createProject({ offline_grace_seconds: 3600, unbind_enabled: true });
    await openConnectInEveryMode(t, project.id);
    // Trials on (decisions §21): the live trial test asks for a device's one card.
    const trialType = await author.post(`/admin/v1/projects/${project.id}/card-types`, { name: 'Trial', kind: 'time', duration_seconds: 86_400, device_limit: 1, features: ['trial'], price_cents: 0 }).expect(201);
    await author.patch(`/admin/v1/projects/${project.id}`, { trial_card_type_id: trialType.body.id }).expect(200);

    const roles = ['SDK', 'LOOP', 'RESTORE', 'V3', 'CONNECT', 'LEGACY', 'PINNED', 'RELAY_GENUINE', 'RELAY_BOUGHT'];
    const batch = await author.post(`/admin/v1/projects/${project.id}/cards`, { count: roles.length, duration_seconds: 86_400 }).expect(201);
    const codes = (batch.body.items as Array<{ code: string }>).map((card) => card.code);
    expect(codes).toHaveLength(roles.length);

    await author.post(`/admin/v1/projects/${project.id}/versions`, { version: '1.0.0', changelog: 'first', force_update: false, enabled: true }).expect(201);
    await author.post(`/admin/v1/projects/${project.id}/versions`, { version: '1.2.0', changelog: 'fixes', force_update: true, enabled: true }).expect(201);

    const username = unique('pyuser');
    const sdk = new Client({ baseUrl, programId: project.program_id, apiSecret: project.api_secret });
    expect(await sdk.userRegister({ username, password: 'py-pass-word-1', machineId: 'py-user-pc' })).toMatchObject({ success: true });

    // One program per transport encryption mode, each with an unused card: the legacy helpers through /api/app.
    const sealed = [];
    for (const mode of ['rc4', 'aes', 'aes-gcm']) {
      const target = await author.createProject({ transport_encryption: mode, unbind_enabled: true });
      const card = await author.post(`/admin/v1/projects/${target.id}/cards`, { count: 1, duration_seconds: 86_400 }).expect(201);
      sealed.push({ mode, program_id: target.program_id, api_secret: target.api_secret, legacy_secret: target.legacy_secret, transport_key: target.transport_key, card: card.body.items[0].code });
    }

    const keys = (await author.get(`/admin/v1/projects/${project.id}/signing-keys`).expect(200)).body.items as Array<{ kid: string; public_key: string }>;
    // The relay's bought card, with a session on the device the relay test uses (issue 33).
    const bought = codes[roles.indexOf('RELAY_BOUGHT')];
    const boughtSession = await sdk.cardLogin({ cardKey: bought, machineId: RELAY_MACHINE });
    expect(boughtSession.success).toBe(true);
    relay = await startRelay(baseUrl, project, { typedKey: TYPED_KEY, validKey: bought, validSessionToken: boughtSession.data!.session_token });
    programId = project.program_id;
    env = {
      BASE_URL: baseUrl,
      PROGRAM_ID: project.program_id,
      API_SECRET: project.api_secret,
      LEGACY_SECRET: project.legacy_secret,
      PROJECT_ID: project.id,
      ADMIN_TOKEN: author.token,
      USER_NAME: username,
      USER_PASSWORD: 'py-pass-word-1',
      SEALED_PROGRAMS: JSON.stringify(sealed),
      RESPONSE_KEYS: JSON.stringify(Object.fromEntries(keys.map((k) => [k.kid, k.public_key]))),
      RELAY_URL: relay.url,
      RELAY_TYPED_KEY: TYPED_KEY,
      RELAY_MACHINE,
      ...Object.fromEntries(roles.map((role, i) => [`CARD_${role}`, codes[i]])),
    };
  });
  afterAll(async () => {
    await relay?.close();
    await t?.close();
  });

  it('passes every live test of clients/python/tests_live', async () => {
    const outcome = await python(['-m', 'unittest', 'discover', '-s', 'tests_live', '-v'], env);
    if (outcome.code !== 0) throw new Error(`python3 exited with ${outcome.code ?? outcome.signal}:\n${outcome.output}`);
    expect(outcome.output).toContain(`Ran ${LIVE_TESTS} tests`);
    expect(outcome.output).toMatch(/^OK$/m); // "OK (skipped=N)" would mean the environment did not arrive
    // The relay fooled the service every time: each swapped request got a signed success, which the client refused.
    expect(relay!.relayed.map((r) => [r.path, r.status, r.body.status ?? r.body.success ?? r.body.code])).toEqual([
      [`/connect/${programId}`, 200, true],
      ['/api/card_login', 200, 1],
      ['/api/legacy/v3/cards/login', 200, true],
      ['/api/v1/cards/login', 200, true],
      ['/api/v1/cards/heartbeat', 200, true],
    ]);
  }, CHILD_TIMEOUT_MS + 30_000);
});
