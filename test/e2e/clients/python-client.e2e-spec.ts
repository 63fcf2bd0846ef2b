import { join } from 'node:path';
import { runProgram } from '../../support/child-process';
import { LiveWorld, startLiveWorld, unprefixed } from '../../support/client-live';
import { Relay } from '../../support/relay';
import { describeNeeding, installed } from '../../support/toolchains';

const CLIENT_DIR = join(__dirname, '..', '..', '..', 'clients', 'python');
const CHILD_TIMEOUT_MS = 90_000;
/** The live tests in clients/python/tests_live; each needs the service, none may be skipped. */
const LIVE_TESTS = 13;

const python = (args: string[], env: Record<string, string>) =>
  runProgram('python3', args, { cwd: CLIENT_DIR, env: { PYTHONDONTWRITEBYTECODE: '1', ...env }, timeoutMs: CHILD_TIMEOUT_MS });

/**
 * The official Python client (clients/python) against the real service over real HTTP: the Jest
 * side arranges the live world of test/support/client-live.ts (a program, its cards, versions, a
 * program user, one program per transport encryption and the card-swapping relay), then the Python
 * live tests call every client method and must all pass. Where python3 is missing, CI fails and
 * elsewhere the suite is skipped (test/support/toolchains.ts).
 */
describeNeeding(installed('python3', '--version'), '`python3` is not on the PATH')(
  'official Python client against the service (e2e)',
  () => {
    let world: LiveWorld | undefined;
    let env: Record<string, string>;
    let relay: Relay | undefined;
    let programId: string;

    beforeAll(async () => {
      world = await startLiveWorld('py');
      ({ relay, programId } = world);
      env = unprefixed(world.env); // the suite reads BASE_URL, PROGRAM_ID, CARD_SDK...
    });
    afterAll(() => world?.close());

    it(
      'passes every live test of clients/python/tests_live',
      async () => {
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
      },
      CHILD_TIMEOUT_MS + 30_000,
    );
  },
);
