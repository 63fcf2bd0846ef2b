import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quickstartScript, runProgram } from '../../support/child-process';
import { LiveWorld, startLiveWorld } from '../../support/client-live';
import { Relay } from '../../support/relay';
import { describeNeeding, installed } from '../../support/toolchains';

const ROOT = join(__dirname, '..', '..', '..');
const CLIENT_DIR = join(ROOT, 'clients', 'go');
/** The first `go test -race` builds the race runtime: minutes on a cold cache, seconds after. */
const CHILD_TIMEOUT_MS = 300_000;
/** The live tests in clients/go/live_test.go; each needs the service, none may be skipped. */
const LIVE_TESTS = 9;
const hasGo = installed('go', 'version');

const go = (args: string[], cwd: string, env: Record<string, string>) =>
  // Offline: the client needs nothing but the standard library, and a reader's module only the local replace.
  runProgram('go', args, { cwd, env: { GOPROXY: 'off', GOFLAGS: '-mod=mod', ...env }, timeoutMs: CHILD_TIMEOUT_MS });

/**
 * The official Go client (clients/go) against the real service over real HTTP: the Jest side
 * arranges a program, its cards, versions, a program user, one program per transport encryption
 * and the card-swapping relay, then `go test -race -run Live` must pass every live test; the
 * quickstart's Go first login must run as written. Where `go` is missing, CI fails and elsewhere
 * the suite is skipped (test/support/toolchains.ts).
 */
describeNeeding(hasGo, '`go` is not on the PATH (apt-get install -y golang-go)')(
  'official Go client against the service (e2e)',
  () => {
    let world: LiveWorld | undefined;
    let env: Record<string, string>;
    let relay: Relay | undefined;
    let programId: string;
    let quickstartEnv: Record<string, string>;

    beforeAll(async () => {
      world = await startLiveWorld('go');
      ({ env, relay, programId, quickstartEnv } = world);
    });
    afterAll(() => world?.close());

    it(
      'passes every live test of clients/go (go test -race -run Live)',
      async () => {
        const outcome = await go(['test', '-race', '-count=1', '-v', '-run', 'Live', './...'], CLIENT_DIR, env);
        if (outcome.code !== 0) throw new Error(`go test exited with ${outcome.code ?? outcome.signal}:\n${outcome.output}`);
        expect(outcome.output.match(/^--- PASS: TestLive/gm) ?? []).toHaveLength(LIVE_TESTS);
        expect(outcome.output).not.toMatch(/^--- (SKIP|FAIL)/m); // a skip would mean the environment did not arrive
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
      "the quickstart's Go first login runs as written: logs in and heartbeats until its context ends",
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'ck-quickstart-go-'));
        try {
          // What the quickstart's `go mod init` and `go mod edit` lines make, with the client's absolute path.
          writeFileSync(
            join(dir, 'go.mod'),
            `module first-login\n\ngo 1.19\n\nrequire cardkey.example/cardkey v0.0.0\n\nreplace cardkey.example/cardkey => ${CLIENT_DIR}\n`,
          );
          writeFileSync(join(dir, 'main.go'), quickstartScript('main.go'));
          const outcome = await go(['run', '.'], dir, quickstartEnv);
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
