import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../../support/test-app';

const ROOT = join(__dirname, '..', '..', '..');

/** The shell block under the README's "A first session", exactly as a reader pastes it. */
function firstSession(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const found = /^## A first session\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(readme);
  if (!found) throw new Error('README.md has no shell block under "A first session"');
  return found[1];
}

/** Runs the block in bash as pasted (no -e: a terminal goes on after a failed line), never rejecting. */
function paste(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/**
 * The README's "A first session" (once, `$ALICE` was never set, so the project call went out
 * unauthenticated): pasted against a running service, it creates the author and her first project.
 */
describe("README's first session (e2e)", () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    // The folder the reader pastes in (data/ written by the second test, as `npm start` writes it).
    dir = mkdtempSync(join(tmpdir(), 'first-session-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates alice and, signed in as her, her first project whose program ID and secrets are shown once', async () => {
    const outcome = await paste(firstSession(), dir, { BASE: await t.baseUrl(), ADMIN_PASSWORD });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    const [author, project] = outcome.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(author).toMatchObject({ username: 'alice', role: 'author' });
    expect(project).toMatchObject({
      name: 'My Program',
      owner_id: author.id,
      program_id: expect.stringMatching(/^[1-9]\d{7}$/),
      api_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });

  it('reads the generated admin password from data/admin-password.txt when ADMIN_PASSWORD is not set', async () => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'admin-password.txt'), `${ADMIN_PASSWORD}\n`);
    const outcome = await paste(firstSession(), dir, { BASE: await t.baseUrl() });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    // alice exists from the first run: refused as a conflict, and her second project is still made.
    const [, project] = outcome.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(project).toMatchObject({ name: 'My Program', program_id: expect.stringMatching(/^[1-9]\d{7}$/) });
  });
});
