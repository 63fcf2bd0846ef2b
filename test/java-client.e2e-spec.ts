import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../sdk/src';
import { AdminClient } from './support/admin-client';
import { openConnectInEveryMode } from './support/connect';
import { Relay, startRelay } from './support/relay';
import { startTestApp, TestApp, unique } from './support/test-app';

const ROOT = join(__dirname, '..');
const CLIENT_DIR = join(ROOT, 'clients', 'java');
const JAR = join(CLIENT_DIR, 'build', 'cardkey-client.jar');
const CLASSPATH = [join(CLIENT_DIR, 'build', 'classes'), join(CLIENT_DIR, 'build', 'test-classes')].join(':');
/** javac of the client and its tests takes tens of seconds on a busy two-core machine. */
const CHILD_TIMEOUT_MS = 240_000;
/** The live tests of clients/java/src/test/java/cardkey/client/LiveTest.java; each needs the service, none may be skipped. */
const LIVE_TESTS = 8;
const TYPED_KEY = 'JAVA-MADE-UP-KEY-01';
const RELAY_MACHINE = 'java-relay-pc';
const hasJava = !spawnSync('javac', ['-version']).error;

interface Outcome {
  code: number | null;
  signal: string | null;
  output: string;
}

/** Runs a JDK tool to its end, never rejecting: the test asserts on the outcome and shows the output. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
        timeout: CHILD_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, signal: error?.signal ?? null, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** The file docs/quickstart.md writes with `cat > <file> <<'<TAG>' … <TAG>`, exactly as the reader copies it. */
function quickstartScript(file: string): string {
  const quickstart = readFileSync(join(ROOT, 'docs', 'quickstart.md'), 'utf8');
  const found = new RegExp(`^cat > ${file.replace('.', '\\.')} <<'(\\w+)'\n([\\s\\S]*?)^\\1$`, 'm').exec(quickstart);
  if (!found) throw new Error(`docs/quickstart.md writes no ${file}`);
  return found[2];
}

if (!hasJava) {
  // eslint-disable-next-line no-console
  console.warn('java-client.e2e-spec: `javac` is not on the PATH, so the Java client is not tested (apt-get install -y openjdk-17-jdk-headless)');
}

/**
 * The official Java client (clients/java) against the real service over real HTTP: the Jest side
 * arranges a program, its cards, versions, a program user, one program per transport encryption
 * and the relay of issue 33, builds the client with its build.sh (plain javac), then
 * `TestRunner live` must pass every live test; the quickstart's Java first login must compile
 * against the jar and run as written. Skipped only where no JDK is installed.
 */
(hasJava ? describe : describe.skip)('official Java client against the service (e2e)', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let relay: Relay | undefined;
  let programId: string;
  let quickstartEnv: Record<string, string>;
  let built: Outcome;

  beforeAll(async () => {
    built = await run(join(CLIENT_DIR, 'build.sh'), [], CLIENT_DIR);
    t = await startTestApp();
    const baseUrl = await t.baseUrl();
    const admin = await AdminClient.asPlatformAdmin(t);
    const author = (await admin.createAuthor()).client;
    const project = await author.createProject({ offline_grace_seconds: 3600, unbind_enabled: true });
    await openConnectInEveryMode(t, project.id);

    const roles = ['SDK', 'LOOP', 'V3', 'CONNECT', 'LEGACY', 'PINNED', 'SELF', 'TOPUP', 'RELAY_GENUINE', 'RELAY_BOUGHT', 'QUICKSTART'];
    const batch = await author.post(`/admin/v1/projects/${project.id}/cards`, { count: roles.length, duration_seconds: 86_400 }).expect(201);
    const codes = (batch.body.items as Array<{ code: string }>).map((card) => card.code);
    expect(codes).toHaveLength(roles.length);

    await author.post(`/admin/v1/projects/${project.id}/versions`, { version: '1.0.0', changelog: 'first', force_update: false, enabled: true }).expect(201);
    await author.post(`/admin/v1/projects/${project.id}/versions`, { version: '1.2.0', changelog: 'fixes', force_update: true, enabled: true }).expect(201);

    const username = unique('javauser');
    const sdk = new Client({ baseUrl, programId: project.program_id, apiSecret: project.api_secret });
    expect(await sdk.userRegister({ username, password: 'java-pass-word-1', machineId: 'java-user-pc' })).toMatchObject({ success: true });

    const sealed = [];
    for (const mode of ['rc4', 'aes', 'aes-gcm']) {
      const target = await author.createProject({ transport_encryption: mode, unbind_enabled: true });
      const card = await author.post(`/admin/v1/projects/${target.id}/cards`, { count: 1, duration_seconds: 86_400 }).expect(201);
      sealed.push({ mode, program_id: target.program_id, api_secret: target.api_secret, legacy_secret: target.legacy_secret, transport_key: target.transport_key, card: card.body.items[0].code });
    }

    const keys = (await author.get(`/admin/v1/projects/${project.id}/signing-keys`).expect(200)).body.items as Array<{ kid: string; public_key: string }>;
    const bought = codes[roles.indexOf('RELAY_BOUGHT')];
    const boughtSession = await sdk.cardLogin({ cardKey: bought, machineId: RELAY_MACHINE });
    expect(boughtSession.success).toBe(true);
    relay = await startRelay(baseUrl, project, { typedKey: TYPED_KEY, validKey: bought, validSessionToken: boughtSession.data!.session_token });
    programId = project.program_id;
    env = {
      CARDKEY_LIVE_URL: baseUrl,
      CARDKEY_PROGRAM_ID: project.program_id,
      CARDKEY_API_SECRET: project.api_secret,
      CARDKEY_LEGACY_SECRET: project.legacy_secret,
      CARDKEY_PROJECT_ID: project.id,
      CARDKEY_ADMIN_TOKEN: author.token,
      CARDKEY_USER_NAME: username,
      CARDKEY_USER_PASSWORD: 'java-pass-word-1',
      CARDKEY_SEALED_PROGRAMS: JSON.stringify(sealed),
      CARDKEY_RESPONSE_KEYS: JSON.stringify(Object.fromEntries(keys.map((k) => [k.kid, k.public_key]))),
      CARDKEY_RELAY_URL: relay.url,
      CARDKEY_RELAY_TYPED_KEY: TYPED_KEY,
      CARDKEY_RELAY_MACHINE: RELAY_MACHINE,
      ...Object.fromEntries(roles.map((role, i) => [`CARDKEY_CARD_${role}`, codes[i]])),
    };
    quickstartEnv = { BASE_URL: baseUrl, PROGRAM_ID: project.program_id, API_SECRET: project.api_secret, CARD_KEY: codes[roles.indexOf('QUICKSTART')], MACHINE_ID: 'java-quickstart-pc' };
  }, CHILD_TIMEOUT_MS + 60_000);
  afterAll(async () => {
    await relay?.close();
    await t?.close();
  });

  it('passes every live test of clients/java (TestRunner live)', async () => {
    if (built.code !== 0) throw new Error(`clients/java/build.sh exited with ${built.code ?? built.signal}:\n${built.output}`);
    const outcome = await run('java', ['-cp', CLASSPATH, 'cardkey.client.TestRunner', 'live'], CLIENT_DIR, env);
    if (outcome.code !== 0) throw new Error(`the live tests exited with ${outcome.code ?? outcome.signal}:\n${outcome.output}`);
    expect(outcome.output.match(/^PASS LiveTest\./gm) ?? []).toHaveLength(LIVE_TESTS);
    expect(outcome.output).toMatch(new RegExp(`^live: ${LIVE_TESTS} passed, 0 failed, 0 skipped$`, 'm')); // a skip would mean the environment did not arrive
    // The relay fooled the service every time: each swapped request got a signed success, which the client refused.
    expect(relay!.relayed.map((r) => [r.path, r.status, r.body.status ?? r.body.success ?? r.body.code])).toEqual([
      [`/connect/${programId}`, 200, true],
      ['/api/card_login', 200, 1],
      ['/api/legacy/v3/cards/login', 200, true],
      ['/api/v1/cards/login', 200, true],
      ['/api/v1/cards/heartbeat', 200, true],
    ]);
  }, CHILD_TIMEOUT_MS + 30_000);

  it("the quickstart's Java first login compiles against the jar and runs as written: logs in and heartbeats", async () => {
    if (built.code !== 0) throw new Error(`clients/java/build.sh exited with ${built.code ?? built.signal}:\n${built.output}`);
    const dir = mkdtempSync(join(tmpdir(), 'ck-quickstart-java-'));
    try {
      writeFileSync(join(dir, 'FirstLogin.java'), quickstartScript('FirstLogin.java'));
      const compiled = await run('javac', ['-cp', JAR, 'FirstLogin.java'], dir);
      expect(compiled).toMatchObject({ code: 0, signal: null });
      const outcome = await run('java', ['-cp', `${JAR}:.`, 'FirstLogin'], dir, quickstartEnv);
      expect(outcome).toMatchObject({ code: 0, signal: null });
      expect(outcome.output).toMatch(/^logged in, session until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/m);
      expect(outcome.output).toMatch(/^heartbeat ok/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, CHILD_TIMEOUT_MS + 30_000);
});
