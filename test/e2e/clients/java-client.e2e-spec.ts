import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Outcome, quickstartScript, runProgram } from '../../support/child-process';
import { LiveWorld, startLiveWorld } from '../../support/client-live';
import { Relay } from '../../support/relay';
import { describeNeeding, installed } from '../../support/toolchains';

const ROOT = join(__dirname, '..', '..', '..');
const CLIENT_DIR = join(ROOT, 'clients', 'java');
const JAR = join(CLIENT_DIR, 'build', 'cardkey-client.jar');
const CLASSPATH = [join(CLIENT_DIR, 'build', 'classes'), join(CLIENT_DIR, 'build', 'test-classes')].join(':');
/** javac of the client and its tests takes tens of seconds on a busy two-core machine. */
const CHILD_TIMEOUT_MS = 240_000;
/** The live tests of clients/java/src/test/java/cardkey/client/LiveTest.java; each needs the service, none may be skipped. */
const LIVE_TESTS = 9;
const hasJava = installed('javac', '-version');

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  runProgram(command, args, { cwd, env, timeoutMs: CHILD_TIMEOUT_MS });

/**
 * The official Java client (clients/java) against the real service over real HTTP: the Jest side
 * arranges a program, its cards, versions, a program user, one program per transport encryption
 * and the card-swapping relay, builds the client with its build.sh (plain javac), then
 * `TestRunner live` must pass every live test; the quickstart's Java first login must compile
 * against the jar and run as written. Where no JDK is installed, CI fails and elsewhere the suite
 * is skipped (test/support/toolchains.ts).
 */
describeNeeding(hasJava, '`javac` is not on the PATH (apt-get install -y openjdk-17-jdk-headless)')(
  'official Java client against the service (e2e)',
  () => {
    let world: LiveWorld | undefined;
    let env: Record<string, string>;
    let relay: Relay | undefined;
    let programId: string;
    let quickstartEnv: Record<string, string>;
    let built: Outcome;

    beforeAll(async () => {
      built = await run(join(CLIENT_DIR, 'build.sh'), [], CLIENT_DIR);
      world = await startLiveWorld('java');
      ({ env, relay, programId, quickstartEnv } = world);
    }, CHILD_TIMEOUT_MS + 60_000);
    afterAll(() => world?.close());

    it(
      'passes every live test of clients/java (TestRunner live)',
      async () => {
        if (built.code !== 0)
          throw new Error(`clients/java/build.sh exited with ${built.code ?? built.signal}:\n${built.output}`);
        const outcome = await run('java', ['-cp', CLASSPATH, 'cardkey.client.TestRunner', 'live'], CLIENT_DIR, env);
        if (outcome.code !== 0)
          throw new Error(`the live tests exited with ${outcome.code ?? outcome.signal}:\n${outcome.output}`);
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
      },
      CHILD_TIMEOUT_MS + 30_000,
    );

    it(
      "the quickstart's Java first login compiles against the jar and runs as written: logs in and heartbeats",
      async () => {
        if (built.code !== 0)
          throw new Error(`clients/java/build.sh exited with ${built.code ?? built.signal}:\n${built.output}`);
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
      },
      CHILD_TIMEOUT_MS + 30_000,
    );
  },
);
