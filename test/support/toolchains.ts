import { spawnSync } from 'node:child_process';

/** Whether `command` runs on this machine (asked for its version). */
export function installed(command: string, ...versionArgs: string[]): boolean {
  return !spawnSync(command, versionArgs).error;
}

type TestBody = () => Promise<void>;

/**
 * `it` for a test that needs what a machine may lack (a compiler, a built client). Where it is
 * missing: in CI, which installs and builds every client first (.ci/client-*.sh), the test fails
 * with `missing`, so a lost toolchain never passes as a skip; elsewhere it is skipped, saying so.
 */
export function itNeeding(ready: boolean, missing: string): (name: string, body: TestBody, timeoutMs?: number) => void {
  if (ready) return (name, body, timeoutMs) => it(name, body, timeoutMs);
  if (process.env.CI) {
    return (name) =>
      it(name, () => {
        throw new Error(`${missing}: CI installs and builds it before the tests (.ci/client-*.sh)`);
      });
  }
  return (name) => {
    // eslint-disable-next-line no-console -- a skipped test shows no reason of its own
    console.warn(`SKIPPED "${name}": ${missing}`);
    it.skip(name, () => undefined);
  };
}

/**
 * `describe` for a suite that needs what a machine may lack, with `itNeeding`'s rule: where it is
 * missing, CI fails (one test saying what is missing) and elsewhere the suite is skipped, saying so.
 */
export function describeNeeding(ready: boolean, missing: string): (name: string, body: () => void) => void {
  if (ready) return (name, body) => describe(name, body);
  if (process.env.CI) {
    return (name) =>
      describe(name, () => {
        it('has what it needs', () => {
          throw new Error(`${missing}: CI installs and builds it before the tests (.ci/client-*.sh)`);
        });
      });
  }
  return (name, body) => {
    // eslint-disable-next-line no-console -- a skipped suite shows no reason of its own
    console.warn(`SKIPPED "${name}": ${missing}`);
    describe.skip(name, body);
  };
}
