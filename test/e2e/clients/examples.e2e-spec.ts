import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const CHILD_TIMEOUT_MS = 30_000;

/** The id a Linux system keeps (/etc/machine-id, else /var/lib/dbus/machine-id), trimmed and lowercased; undefined elsewhere. */
function deviceId(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(path, 'utf8').trim().toLowerCase();
      if (id) return id;
    } catch {
      // absent: the next one
    }
  }
  return undefined;
}
const DEVICE_ID = deviceId();
/** Runs where the examples can compute this device's machine code; a bare container has no id to hash. */
const itWithDeviceId = DEVICE_ID ? it : it.skip;

interface Outcome {
  /** The exit code; null when the child was killed (e.g. by the timeout), with `signal` set. */
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end, never rejecting: the test asserts on the whole outcome, so a failure shows the output. */
function run(file: string, args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
        timeout: CHILD_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, signal: error?.signal ?? null, stdout, stderr });
      },
    );
  });
}

/** The script a quickstart step writes with `cat > <file> <<'<TAG>' … <TAG>`, exactly as the reader copies it. */
function quickstartScript(file: string): string {
  const quickstart = readFileSync(join(ROOT, 'docs', 'quickstart.md'), 'utf8');
  const found = new RegExp(`^cat > ${file.replace('.', '\\.')} <<'(\\w+)'\n([\\s\\S]*?)^\\1$`, 'm').exec(quickstart);
  if (!found) throw new Error(`docs/quickstart.md writes no ${file}`);
  return found[2];
}

/** The `export NAME=value` lines setup-demo.sh prints (values it quoted with %q would not parse: they must not occur). */
function exportsOf(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export ([A-Z_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
}

/**
 * The examples in examples/ and docs/quickstart.md, run as a reader runs them against the real
 * service: setup-demo.sh prepares a program and a card, then the curl and the SDK card logins must
 * succeed.
 */
describe('examples (e2e)', () => {
  let t: TestApp;
  let demo: Record<string, string>;
  /** The device code the examples send: this device's machine code (docs/protocol.md, "The machine code") where it has one. */
  let machine: string;
  /** MACHINE_ID for the examples where there is no machine code to compute (they then send that). */
  let deviceEnv: Record<string, string>;

  beforeAll(async () => {
    // The Node example loads the built client from sdk/dist.
    const build = await run(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'sdk/tsconfig.build.json'],
      {},
    );
    expect(build).toMatchObject({ code: 0 });
    t = await startTestApp();
    const setup = await run(join(EXAMPLES, 'setup-demo.sh'), [], {
      BASE_URL: await t.baseUrl(),
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
    });
    expect(setup).toMatchObject({ code: 0, signal: null, stderr: '' });
    demo = exportsOf(setup.stdout);
    expect(Object.keys(demo).sort()).toEqual(['API_SECRET', 'BASE_URL', 'CARD_KEY', 'LEGACY_SECRET', 'PROGRAM_ID']);
    for (const value of Object.values(demo)) expect(value).toMatch(/^[A-Za-z0-9_.:/-]+$/);
    expect(demo.PROGRAM_ID).toMatch(/^[1-9]\d{7}$/);
    // What every client's machine-code helper computes, worked out here independently.
    machine = DEVICE_ID
      ? createHash('sha256').update(`${demo.PROGRAM_ID}:${DEVICE_ID}`, 'utf8').digest('hex').slice(0, 32)
      : 'demo-machine-1';
    deviceEnv = DEVICE_ID ? {} : { MACHINE_ID: machine };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('setup-demo.sh stops with the answer on stderr when the admin login fails', async () => {
    const outcome = await run(join(EXAMPLES, 'setup-demo.sh'), [], {
      BASE_URL: demo.BASE_URL,
      ADMIN_PASSWORD: 'not-the-password',
    });
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
    expect(outcome.stderr).toMatch(/HTTP 401: .*"code":11001/);
  });

  it('curl-card-login.sh: HTTP V3 login, SDK login and a heartbeat all succeed', async () => {
    const outcome = await run(join(EXAMPLES, 'curl-card-login.sh'), [], { ...demo, ...deviceEnv });
    expect(outcome).toMatchObject({ code: 0, signal: null, stderr: '' });
    const steps = outcome.stdout.match(/^== .*$/gm);
    expect(steps).toEqual(['== HTTP V3 card login', '== SDK card login', '== card heartbeat']);
    const [v3, sdk, beat] = outcome.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(v3).toMatchObject({
      code: 0,
      success: true,
      token: expect.any(String),
      data: { code: demo.CARD_KEY, machine_code: machine },
    });
    expect(sdk).toMatchObject({
      code: 0,
      success: true,
      data: { code: demo.CARD_KEY, session_token: expect.stringMatching(/^[\w-]{43}$/) },
    });
    expect(beat).toMatchObject({ code: 0, success: true, data: { card_id: sdk.data.id } });
  });

  it('node-card-login.mjs: the official client logs in and beats until it stops', async () => {
    const outcome = await run(process.execPath, [join(EXAMPLES, 'node-card-login.mjs')], {
      ...demo,
      ...deviceEnv,
      HEARTBEAT_MS: '100',
      BEATS: '2',
    });
    expect(outcome).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(outcome.stdout).toContain(`card login ok: card ${demo.CARD_KEY} on ${machine}, valid until `);
    expect(outcome.stdout).toMatch(/^heartbeat 1: ok/m);
    expect(outcome.stdout).toMatch(/^heartbeat 2: ok/m);
    expect(outcome.stdout).not.toMatch(/^heartbeat 3/m);
  });

  // The quickstart's programs call the client's machine-code helper: the same code as the card is bound to above.
  itWithDeviceId("the quickstart's Node first login runs as written and logs in", async () => {
    // At the repository root, where the quickstart writes it (it imports ./sdk/dist).
    const script = join(ROOT, `.quickstart-first-login-${process.pid}.mjs`);
    writeFileSync(script, quickstartScript('first-login.mjs'));
    const outcome = await run(process.execPath, [script], demo).finally(() => rmSync(script, { force: true }));
    expect(outcome).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(outcome.stdout).toMatch(/^logged in, session until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/m);
  });

  itWithDeviceId("the quickstart's Python first login runs as written: logs in and heartbeats until stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-quickstart-'));
    try {
      writeFileSync(join(dir, 'first_login.py'), quickstartScript('first_login.py'));
      // `pip install ./clients/python` puts the package on the path; PYTHONPATH does the same here.
      const outcome = await run('python3', [join(dir, 'first_login.py')], {
        ...demo,
        PYTHONPATH: join(ROOT, 'clients', 'python'),
        PYTHONDONTWRITEBYTECODE: '1',
      });
      expect(outcome).toMatchObject({ code: 0, signal: null, stderr: '' });
      expect(outcome.stdout).toMatch(/^logged in, session until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/m);
      expect(outcome.stdout).toMatch(/^heartbeat ok/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('curl-card-login.sh fails on a wrong API_SECRET and shows the signature failure', async () => {
    const outcome = await run(join(EXAMPLES, 'curl-card-login.sh'), [], { ...demo, API_SECRET: 'not-the-secret' });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain('"code":10101');
    expect(outcome.stderr).toContain('HTTP V3 card login failed: code 10101');
    expect(outcome.stdout).not.toContain('== SDK card login');
  });

  it('node-card-login.mjs reports a refused login with its code and request id', async () => {
    const outcome = await run(process.execPath, [join(EXAMPLES, 'node-card-login.mjs')], {
      ...demo,
      ...deviceEnv,
      CARD_KEY: 'NO-SUCH-CARD',
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/card login failed: .* \(code 20001, request_id [0-9a-f]{32}\)/);
  });
});
