import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';

/**
 * Debian's Chromium headless shell (`apt-get install chromium-headless-shell`) where it is installed:
 * the same engine without the full browser's window machinery, about a sixth less CPU and a tenth
 * less time per test on two cores. Else the full Chromium; CHROMIUM_PATH names another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * Browser tests of the console (npm run test:console) in Debian's Chromium (Playwright's own browser
 * download cannot be reached here), against a real service started by the global setup's build on
 * the embedded database. Each worker starts a service of its own, so workers share no state. Two
 * workers (one on a one-core machine): one leaves two cores a third idle (between pages, while a
 * page's requests settle), and in the headless shell two ran the suite in 10.4 min against 11.9.
 * CONSOLE_E2E_WORKERS sets another number.
 */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: Number(process.env.CONSOLE_E2E_WORKERS ?? Math.min(2, availableParallelism())),
  // One retry: a test that passes on it is reported as flaky (the JSON report's `flaky`), never hidden.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: './test-results',
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: chromium },
    locale: 'en-US',
    // The console then turns antd's animations off (Providers.tsx). With them on, a slow machine let a
    // click land on a confirmation's OK button while the dialog was still zooming in (a 15 x 6 px box
    // that looked stable between two slow frames): the click missed, no request left the page, and
    // portal.spec.ts waited in vain for the unbind (CI) or top-up (reproduced) answer.
    reducedMotion: 'reduce',
    // A trace is recorded on the retry only: recording one for every test (DOM snapshots at each
    // action) cost a fifth of the suite's time on two cores. A first failure still shows its error;
    // one that fails again leaves its trace in test-results/.
    trace: 'on-first-retry',
  },
});
