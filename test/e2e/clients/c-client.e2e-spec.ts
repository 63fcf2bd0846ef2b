import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quickstartScript, runProgram } from '../../support/child-process';
import { LiveWorld, startLiveWorld, unprefixed } from '../../support/client-live';
import { Relay } from '../../support/relay';
import { describeNeeding } from '../../support/toolchains';

const ROOT = join(__dirname, '..', '..', '..');
const CLIENT_DIR = join(ROOT, 'clients', 'c');
/** The sanitizer build (.ci/client-c.sh makes it): the live tests run under ASan and UBSan. */
const SANITIZED_LIVE_TEST = join(CLIENT_DIR, 'build-asan', 'cardkey_live_test');
/** The normal build: the quickstart's first_login.c is compiled against its shared library. */
const LIBRARY_DIR = join(CLIENT_DIR, 'build');
const CHILD_TIMEOUT_MS = 120_000;
/** The live tests in clients/c/tests/live_test.c; each needs the service. */
const LIVE_TESTS = 11;
const BUILD_HINT = 'run .ci/client-c.sh first (it builds clients/c/build and clients/c/build-asan)';
const hasValgrind = !spawnSync('valgrind', ['--version']).error;
const built = existsSync(SANITIZED_LIVE_TEST) && existsSync(join(LIBRARY_DIR, 'libcardkey.so'));

const run = (file: string, args: string[], env: Record<string, string>, cwd = ROOT) =>
  runProgram(file, args, { cwd, env, timeoutMs: CHILD_TIMEOUT_MS });

/**
 * The official C client (clients/c) against the real service over real HTTP: the Jest side
 * arranges the live world of test/support/client-live.ts (a program, its cards, versions, a
 * program user, one program per transport encryption and a relay that swaps card keys),
 * then the live test program, built with AddressSanitizer and UndefinedBehaviorSanitizer, calls
 * every client function and must pass every test with no sanitizer report. The quickstart's
 * first_login.c is compiled against the library and run as written. Where the C client is not
 * built (.ci/client-c.sh builds it), CI fails and elsewhere the suite is skipped, saying so.
 */
describeNeeding(built, `the C client is not built; ${BUILD_HINT}`)('official C client against the service (e2e)', () => {
  let world: LiveWorld | undefined;
  let env: Record<string, string>;
  let relay: Relay | undefined;
  let programId: string;
  let firstLogin: Record<string, string>;

  beforeAll(async () => {
    world = await startLiveWorld('c');
    ({ relay, programId } = world);
    env = {
      ...unprefixed(world.env), // the suite reads BASE_URL, PROGRAM_ID, CARD_SDK...
      // Sanitizers: any report fails the run (UBSan included), leaks too.
      ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0:exitcode=86',
      UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1:exitcode=87',
    };
    firstLogin = world.quickstartEnv;
  });
  afterAll(() => world?.close());

  it(
    'passes every live test of clients/c/tests/live_test.c under ASan and UBSan',
    async () => {
      const outcome = await run(SANITIZED_LIVE_TEST, [], env);
      if (outcome.code !== 0)
        throw new Error(`cardkey_live_test exited with ${outcome.code ?? outcome.signal}:\n${outcome.output}`);
      expect(outcome.output).toContain(`live: ${LIVE_TESTS} passed, 0 failed`);
      expect(outcome.output).not.toMatch(/AddressSanitizer|LeakSanitizer|runtime error:/);
      // No secret ever reaches the output, whatever failed or passed.
      for (const secret of [env.API_SECRET, env.LEGACY_SECRET, env.ADMIN_TOKEN, env.USER_PASSWORD])
        expect(outcome.output).not.toContain(secret);
      // The relay fooled the service every time: each swapped request got a signed success, which the client refused.
      expect(relay!.relayed.map((r) => [r.path, r.status, r.body.status ?? r.body.success ?? r.body.code])).toEqual([
        [`/connect/${programId}`, 200, true],
        ['/api/card_login', 200, 1],
        ['/api/legacy/v3/cards/login', 200, true],
        ['/api/v1/cards/login', 200, true],
        ['/api/v1/cards/heartbeat', 200, true],
      ]);
    },
    CHILD_TIMEOUT_MS + 30_000,
  );

  it(
    "the quickstart's C first login compiles against the library and runs as written: logs in and heartbeats",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ck-quickstart-c-'));
      try {
        writeFileSync(join(dir, 'first_login.c'), quickstartScript('first_login.c'));
        // The quickstart's compile line, with the repository's paths made absolute.
        const compile = await run(
          'cc',
          [
            '-std=c99',
            '-Wall',
            '-Wextra',
            '-Werror',
            'first_login.c',
            `-I${join(CLIENT_DIR, 'include')}`,
            `-L${LIBRARY_DIR}`,
            '-lcardkey',
            `-Wl,-rpath,${LIBRARY_DIR}`,
            '-o',
            'first_login',
          ],
          {},
          dir,
        );
        expect(compile).toMatchObject({ code: 0, output: '' });
        const outcome = await run(join(dir, 'first_login'), [], firstLogin, dir);
        expect(outcome).toMatchObject({ code: 0, signal: null });
        expect(outcome.output).toMatch(/^logged in, session until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/m);
        expect(outcome.output).toMatch(/^heartbeat ok/m);
        // The network path (libcurl, TLS library, the heartbeat thread) leaks nothing either, where valgrind is installed.
        if (hasValgrind) {
          const checked = await run(
            'valgrind',
            ['--error-exitcode=1', '--leak-check=full', '--errors-for-leak-kinds=definite,indirect', join(dir, 'first_login')],
            firstLogin,
            dir,
          );
          if (checked.code !== 0) throw new Error(`first_login is not valgrind-clean:\n${checked.output}`);
          expect(checked.output).toMatch(/^logged in, session until /m);
        }
        const refused = await run(join(dir, 'first_login'), [], { ...firstLogin, CARD_KEY: 'NO-SUCH-CARD' }, dir);
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(/refused: .* \(code 20001, request_id [0-9a-f]{32}\)/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    CHILD_TIMEOUT_MS,
  );
});
