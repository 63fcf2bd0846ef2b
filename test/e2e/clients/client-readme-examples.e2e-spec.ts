import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Outcome, runProgram } from '../../support/child-process';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { startTestApp, TestApp } from '../../support/test-app';
import { installed, itNeeding } from '../../support/toolchains';

const ROOT = join(__dirname, '..', '..', '..');
/** A compile on a busy two-core machine (javac of the client, go build, tsc) plus a few heartbeats. */
const CHILD_TIMEOUT_MS = 180_000;
/** The program's heartbeat interval here (the service's minimum): a fragment's loop beats once within RUN_FOR_MS. */
const HEARTBEAT_SECONDS = 5;
const RUN_FOR_MS = 8_000;
const C_LIBRARY_DIR = join(ROOT, 'clients', 'c', 'build');
const LOGGED_IN = /^logged in, session until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\b/m;
const REFUSED = /refused: .* \(code 20001, request_id [0-9a-f]{32}\)/;

const run = (file: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  runProgram(file, args, { cwd, env, timeoutMs: CHILD_TIMEOUT_MS });

/** Fails with the whole output unless the step exited 0. */
function succeeded(what: string, outcome: Outcome): void {
  if (outcome.code !== 0) throw new Error(`${what} exited with ${outcome.code ?? outcome.signal}:\n${outcome.output}`);
}

/** The fenced block right under a README's `<!-- first-login … -->` mark, exactly as the reader copies it. */
function firstLogin(readme: string, language: string): string {
  const text = readFileSync(join(ROOT, readme), 'utf8');
  const found = new RegExp(`^<!-- first-login\\b[^>]*-->\\n\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(text);
  if (!found) throw new Error(`${readme} marks no \`\`\`${language} block with <!-- first-login -->`);
  return found[1];
}

/** Indents a block to sit inside the wrapper's function. */
const indented = (block: string, by: string) => block.replace(/^(?=.)/gm, by);

/**
 * Each official client's README opens with a first login of about ten lines. Here each of those
 * blocks is taken from its README as written, wrapped only in what the README says the reader adds
 * (package, includes or imports, a main), compiled against the client of this tree and run
 * against the service with a real card: it must print the login (and, where the block starts the
 * heartbeat, a beat), and a made-up card must give the refusal with its code and request id.
 * A missing toolchain or C build fails the test in CI and skips it elsewhere (test/support/toolchains.ts).
 */
describe("each client README's first login, compiled and run as written (e2e)", () => {
  let t: TestApp;
  let author: AdminClient;
  let projectId: string;
  let service: Record<string, string>;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'ck-readme-first-login-'));
    t = await startTestApp();
    author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
    const project = await author.createProject({ heartbeat_interval_seconds: HEARTBEAT_SECONDS });
    projectId = project.id;
    service = { BASE_URL: await t.baseUrl(), PROGRAM_ID: project.program_id, API_SECRET: project.api_secret };
  });
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A folder of its own for a language, and the environment with a fresh card (CARD_KEY) the block reads. */
  async function arrange(language: string): Promise<{ dir: string; env: Record<string, string> }> {
    const dir = join(work, language);
    mkdirSync(dir);
    return { dir, env: { ...service, CARD_KEY: (await insertCard(t, projectId)).code } };
  }

  itNeeding(
    installed('cc', '--version') && existsSync(join(C_LIBRARY_DIR, 'libcardkey.so')),
    'cc or the C client build (clients/c/build) is missing',
  )(
    'C (clients/c/README.md): compiles against the library with -Wall -Wextra -Werror and logs in',
    async () => {
      const { dir, env } = await arrange('c');
      // The README: the three includes above, `int main(void) {` … `return 0; }` around.
      const program = `#include <stdio.h>\n#include <stdlib.h>\n#include <cardkey/cardkey.h>\n\nint main(void) {\n${indented(firstLogin('clients/c/README.md', 'c'), '  ')}  return 0;\n}\n`;
      writeFileSync(join(dir, 'first_login.c'), program);
      const compile = await run(
        'cc',
        [
          '-std=c99',
          '-Wall',
          '-Wextra',
          '-Werror',
          'first_login.c',
          `-I${join(ROOT, 'clients', 'c', 'include')}`,
          `-L${C_LIBRARY_DIR}`,
          '-lcardkey',
          `-Wl,-rpath,${C_LIBRARY_DIR}`,
          '-o',
          'first_login',
        ],
        dir,
      );
      expect(compile).toMatchObject({ code: 0, output: '' });
      const login = await run(join(dir, 'first_login'), [], dir, env);
      succeeded('first_login', login);
      expect(login.output).toMatch(LOGGED_IN);
      expect((await run(join(dir, 'first_login'), [], dir, { ...env, CARD_KEY: 'NO-SUCH-CARD' })).output).toMatch(REFUSED);
    },
    CHILD_TIMEOUT_MS,
  );

  itNeeding(installed('go', 'version'), '`go` is not on the PATH (apt-get install -y golang-go)')(
    'Go (clients/go/README.md): go run logs in and heartbeats until its context ends',
    async () => {
      const { dir, env } = await arrange('go');
      // The README: package main, the imports, a main with the program's ctx (here a deadline of one beat and a bit).
      writeFileSync(
        join(dir, 'go.mod'),
        `module first-login\n\ngo 1.19\n\nrequire cardkey.example/cardkey v0.0.0\n\nreplace cardkey.example/cardkey => ${join(ROOT, 'clients', 'go')}\n`,
      );
      const program = [
        'package main\n',
        'import (\n\t"context"\n\t"fmt"\n\t"log"\n\t"os"\n\t"time"\n\n\t"cardkey.example/cardkey"\n)\n',
        'func main() {',
        `\tctx, stop := context.WithTimeout(context.Background(), ${RUN_FOR_MS}*time.Millisecond)`,
        '\tdefer stop()',
        `${indented(firstLogin('clients/go/README.md', 'go'), '\t')}}\n`,
      ].join('\n');
      writeFileSync(join(dir, 'main.go'), program);
      const goEnv = { GOPROXY: 'off', GOFLAGS: '-mod=mod' }; // offline: the client is the standard library and a local replace
      const login = await run('go', ['run', '.'], dir, { ...env, ...goEnv });
      succeeded('go run', login);
      expect(login.output).toMatch(/^logged in, session until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} features \[\]$/m);
      expect(login.output).toMatch(/^heartbeat ok$/m);
      const refused = await run('go', ['run', '.'], dir, { ...env, ...goEnv, CARD_KEY: 'NO-SUCH-CARD' });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(REFUSED);
    },
    CHILD_TIMEOUT_MS,
  );

  itNeeding(installed('javac', '-version'), '`javac` is not on the PATH (apt-get install -y openjdk-17-jdk-headless)')(
    'Java (clients/java/README.md): compiles against the client and logs in and heartbeats',
    async () => {
      const { dir, env } = await arrange('java');
      // The client's classes as build.sh makes them, here in a folder of this test's own (the Java spec rebuilds clients/java/build meanwhile).
      const sources = (await run('find', [join(ROOT, 'clients', 'java', 'src', 'main', 'java'), '-name', '*.java'], dir)).output
        .trim()
        .split('\n');
      succeeded(
        'javac of the client',
        await run('javac', ['--release', '17', '-encoding', 'UTF-8', '-d', 'client', ...sources], dir),
      );
      // The README: the four imports, a class with a main around it; after it the program's work (here a wait of one beat and a bit), then close().
      const program = [
        'import cardkey.client.Client;',
        'import cardkey.client.HeartbeatListener;',
        'import cardkey.client.MachineCode;',
        'import cardkey.client.Result;\n',
        'public class FirstLogin {',
        '  public static void main(String[] args) throws Exception {',
        `${indented(firstLogin('clients/java/README.md', 'java'), '    ')}    Thread.sleep(${RUN_FOR_MS});`,
        '    client.close();',
        '  }',
        '}\n',
      ].join('\n');
      writeFileSync(join(dir, 'FirstLogin.java'), program);
      expect(await run('javac', ['-Xlint:all', '-Werror', '-cp', 'client', 'FirstLogin.java'], dir)).toMatchObject({
        code: 0,
        output: '',
      });
      const login = await run('java', ['-cp', 'client:.', 'FirstLogin'], dir, env);
      succeeded('java FirstLogin', login);
      expect(login.output).toMatch(LOGGED_IN);
      expect(login.output).toMatch(/^heartbeat ok$/m);
      expect((await run('java', ['-cp', 'client:.', 'FirstLogin'], dir, { ...env, CARD_KEY: 'NO-SUCH-CARD' })).output).toMatch(
        REFUSED,
      );
    },
    CHILD_TIMEOUT_MS,
  );

  itNeeding(installed('python3', '--version'), '`python3` is not on the PATH')(
    'Python (clients/python/README.md): runs as it stands and logs in',
    async () => {
      const { dir, env } = await arrange('python');
      writeFileSync(join(dir, 'first_login.py'), firstLogin('clients/python/README.md', 'python')); // a whole program: nothing added
      // `pip install ./clients/python` puts the package on the path; PYTHONPATH does the same here.
      const pyEnv = { ...env, PYTHONPATH: join(ROOT, 'clients', 'python'), PYTHONDONTWRITEBYTECODE: '1' };
      const login = await run('python3', ['first_login.py'], dir, pyEnv);
      succeeded('python3 first_login.py', login);
      expect(login.output).toMatch(LOGGED_IN);
      const refused = await run('python3', ['first_login.py'], dir, { ...pyEnv, CARD_KEY: 'NO-SUCH-CARD' });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(REFUSED);
    },
    CHILD_TIMEOUT_MS,
  );

  it(
    'TypeScript (sdk/README.md): type-checks strictly against the installed package and logs in and heartbeats',
    async () => {
      const { dir, env } = await arrange('ts');
      // The package as `npm install` of the built sdk/ leaves it: its package.json and dist/, built from this tree.
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const installedAt = join(dir, 'node_modules', '@cardkey', 'client');
      succeeded(
        'the client build',
        await run(
          process.execPath,
          [tsc, '-p', join(ROOT, 'sdk', 'tsconfig.build.json'), '--outDir', join(installedAt, 'dist')],
          ROOT,
        ),
      );
      copyFileSync(join(ROOT, 'sdk', 'package.json'), join(installedAt, 'package.json'));
      // An ES module as it stands; the test stops the heartbeat after one beat and a bit, as a program does when it exits.
      writeFileSync(
        join(dir, 'first-login.mts'),
        `${firstLogin('sdk/README.md', 'ts')}setTimeout(() => heartbeat.stop(), ${RUN_FOR_MS});\n`,
      );
      const flags = [
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
      expect(await run(process.execPath, [tsc, ...flags, 'first-login.mts'], dir)).toMatchObject({ code: 0, output: '' });
      const login = await run(process.execPath, ['first-login.mjs'], dir, env);
      succeeded('node first-login.mjs', login);
      expect(login.output).toMatch(LOGGED_IN);
      expect(login.output).toMatch(/^heartbeat ok$/m);
      const refused = await run(process.execPath, ['first-login.mjs'], dir, { ...env, CARD_KEY: 'NO-SUCH-CARD' });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/^The card key is invalid.* [0-9a-f]{32}$/m);
    },
    CHILD_TIMEOUT_MS,
  );
});
