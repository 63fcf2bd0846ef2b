import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { startTestApp, TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');
const CHILD_TIMEOUT_MS = 60_000;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, never rejecting: the assertions show the whole output on a failure. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Outcome> {
  const path = process.env.PATH ?? '/usr/bin:/bin';
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        env: { PATH: path, HOME: process.env.HOME ?? '/tmp', npm_config_update_notifier: 'false', ...env },
        timeout: CHILD_TIMEOUT_MS,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * The official client as another project depends on it (sdk/README.md "Installing"): `npm pack` of
 * sdk/ (its prepack builds it), then `npm install <tarball>` in an empty project, offline (the
 * package has no runtime dependency). The installed package is required, imported as ESM,
 * type-checked, and makes a real card login against the service.
 */
describe('the official client installed from its packed tarball (e2e)', () => {
  let t: TestApp;
  let work: string;
  let app: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'ck-client-install-'));
    // A copy of sdk/ as a checkout has it (no dist/), so the pack builds from source; its build tools
    // (TypeScript, Node's types) are the repository's, linked in place of `cd sdk && npm install`.
    const sdk = join(work, 'sdk');
    cpSync(join(ROOT, 'sdk'), sdk, {
      recursive: true,
      filter: (source) => !/\/(node_modules|dist|build)(\/|$)/.test(source.slice(ROOT.length)),
    });
    symlinkSync(join(ROOT, 'node_modules'), join(sdk, 'node_modules'));
    const pack = await run('npm', ['pack', '--silent'], sdk);
    expect(pack).toMatchObject({ code: 0 });
    const tarball = readdirSync(sdk).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBe('cardkey-client-0.1.0.tgz');

    app = join(work, 'app');
    mkdirSync(app);
    expect(await run('npm', ['init', '-y'], app)).toMatchObject({ code: 0 });
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(sdk, tarball!)], app);
    expect(install).toMatchObject({ code: 0 });
    t = await startTestApp();
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function cardToLogInWith() {
    const author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
    const project = await author.createProject();
    const card = await insertCard(t, project.id);
    return { BASE_URL: await t.baseUrl(), PROGRAM_ID: project.program_id, API_SECRET: project.api_secret, CARD_KEY: card.code };
  }

  const LOGIN = `
    const client = new Client({ baseUrl: process.env.BASE_URL, programId: process.env.PROGRAM_ID, apiSecret: process.env.API_SECRET });
    const login = await client.cardLogin({ cardKey: process.env.CARD_KEY, machineId: 'installed-pc' });
    console.log(JSON.stringify({ success: login.success, code: login.code, machine: login.data && login.data.machine_code, invalid: ErrorCode.CARD_INVALID }));`;

  it('is required by its name (CommonJS) and logs in', async () => {
    writeFileSync(
      join(app, 'login.cjs'),
      `const { Client, ErrorCode } = require('@cardkey/client');\n(async () => {${LOGIN}\n})();\n`,
    );
    const outcome = await run(process.execPath, ['login.cjs'], app, await cardToLogInWith());
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(outcome.stdout)).toEqual({ success: true, code: 0, machine: 'installed-pc', invalid: 20001 });
  });

  it('is imported by its name from an ES module and logs in', async () => {
    writeFileSync(join(app, 'login.mjs'), `import { Client, ErrorCode } from '@cardkey/client';\n${LOGIN}\n`);
    const outcome = await run(process.execPath, ['login.mjs'], app, await cardToLogInWith());
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(outcome.stdout)).toMatchObject({ success: true, machine: 'installed-pc' });
  });

  it('brings its types: a TypeScript program type-checks against them, and a wrong use does not', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      '--typeRoots',
      join(ROOT, 'node_modules', '@types'),
    ];
    writeFileSync(
      join(app, 'typed.mts'),
      `import { Client, ErrorCode, type Result, type SdkCardLoginData } from '@cardkey/client';
const client = new Client({ baseUrl: 'http://localhost:3000', programId: '12345678', apiSecret: 's' });
const login: Result<SdkCardLoginData> = await client.cardLogin({ cardKey: 'CK', machineId: 'pc' });
const expired: boolean = login.code === ErrorCode.CARD_EXPIRED;
const token: string | undefined = login.data?.session_token;
console.log(expired, token);
`,
    );
    writeFileSync(
      join(app, 'wrong.mts'),
      `import { Client } from '@cardkey/client';\nnew Client({ baseUrl: 'http://x', programId: 1 });\n`,
    );
    // One compiler run for both programs (each run loads the whole standard library's types first):
    // the wrong use is an error, and the right one has none.
    const checked = await run(process.execPath, [tsc, ...flags, 'typed.mts', 'wrong.mts'], app);
    expect(checked.code).not.toBe(0);
    expect(checked.stdout).toMatch(/wrong\.mts.*error TS/);
    expect(checked.stdout.split('\n').filter((line) => /error TS/.test(line) && !line.startsWith('wrong.mts'))).toEqual([]);
  });
});
