import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import type { paths } from '../src/api/schema';
import { SESSION_KEY, sessionFromAnswer } from '../src/api/session';
import type { Texts } from '../src/i18n/en';
import { ADMIN_PASSWORD, startService } from './service-process';

/** Where the screenshots shown in docs/console.md are written. */
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'console');

export interface Service {
  url: string;
  adminPassword: string;
}

export interface Account {
  username: string;
  password: string;
}

/** The admin API through the same typed client the console uses (types from openapi.json). */
export function adminApi(service: Service, token?: string) {
  return createClient<paths>({ baseUrl: service.url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

/** The sign-in answer of an account without two-factor sign-in (`POST /admin/v1/auth/login`). */
async function signInAnswer(service: Service, account: Account) {
  const { data, error } = await adminApi(service).POST('/admin/v1/auth/login', { body: account });
  if (!data) throw new Error(`sign-in of ${account.username} refused: ${JSON.stringify(error)}`);
  if (!('token' in data)) throw new Error(`${account.username} signs in with two-factor codes; this helper does not`);
  return data;
}

export async function apiToken(service: Service, account: Account): Promise<string> {
  return (await signInAnswer(service, account)).token;
}

export const platformAdmin = (service: Service): Account => ({ username: 'admin', password: service.adminPassword });

/** A new author account, made by the platform admin as the service's operator would. */
export async function newAuthor(service: Service): Promise<Account> {
  const account = {
    username: `author${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`,
    password: 'author-password-e2e',
  };
  const { error } = await adminApi(service, await apiToken(service, platformAdmin(service))).POST('/admin/v1/authors', {
    body: account,
  });
  if (error) throw new Error(`author not created: ${JSON.stringify(error)}`);
  return account;
}

/**
 * The platform admin grants the basic package: in the default opening mode (base_package) that
 * opens Connect for the project (test/support/connect.ts does the same in the database).
 */
export async function openConnect(service: Service, projectId: string): Promise<void> {
  const { error } = await adminApi(service, await apiToken(service, platformAdmin(service))).PUT(
    '/admin/v1/projects/{id}/entitlements',
    {
      params: { path: { id: projectId } },
      body: { basic_package: true, plan_level: 1, licence_verify: false },
    },
  );
  if (error) throw new Error(`entitlements refused: ${JSON.stringify(error)}`);
}

/** A Connect card login as an old client sends it (docs/protocol.md): a form POST to /connect/{program_id}. */
export async function connectLogin(
  service: Service,
  programId: string,
  cardKey: string,
  machine: string,
): Promise<{ status: boolean; code: number }> {
  const res = await fetch(`${service.url}/connect/${programId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_key: cardKey, serial: machine }),
  });
  return (await res.json()) as { status: boolean; code: number };
}

/** Signs in an account with two-factor sign-in on: the password, then `code`, in the page's language. */
export async function signInWithCode(page: Page, texts: Texts, account: Account, code: string): Promise<void> {
  await page.goto('/console/sign-in');
  await page.getByLabel(texts.signIn.username).fill(account.username);
  await page.getByLabel(texts.signIn.password).fill(account.password);
  await page.getByRole('button', { name: texts.signIn.submit }).click();
  await page.getByLabel(texts.twoFactor.code, { exact: true }).fill(code);
  await page.getByRole('button', { name: texts.twoFactor.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: texts.projects.title })).toBeVisible();
}

export async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto('/console/sign-in');
  await page.getByLabel(/^(User name|用户名)$/).fill(account.username);
  await page.getByLabel(/^(Password|密码)$/).fill(account.password);
  await page.getByRole('button', { name: /^(Sign in|登录)$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^(Projects|项目)$/ })).toBeVisible();
}

/**
 * Signs `account` in as the sign-in page does (the same API answer, kept in the tab's sessionStorage)
 * without loading that page: the test's next `page.goto` opens the console signed in, about a second
 * sooner on two cores. Once per tab: a sign-out in the test stays signed out. The sign-in page itself
 * is still driven by the tests that land on the Projects page (signIn: author-journey, projects,
 * platform, a second account's turn in one tab), by signInWithCode and by screenshots.spec.ts.
 */
export async function signInThroughApi(page: Page, service: Service, account: Account): Promise<void> {
  const answer = await signInAnswer(service, account);
  await page.addInitScript(
    ({ origin, key, session }) => {
      const seeded = 'console-e2e.session-seeded';
      if (location.origin !== origin || sessionStorage.getItem(seeded)) return;
      sessionStorage.setItem(seeded, '1');
      sessionStorage.setItem(key, session);
    },
    { origin: service.url, key: SESSION_KEY, session: JSON.stringify(sessionFromAnswer(answer, account.username)) },
  );
}

/** A menu entry by its text (its accessible name starts with the icon's). */
export const menu = (text: string) => new RegExp(` ${text}$`);

/** An amount with the service's currency sign (CURRENCY, default CNY), as components/format.ts writes it. */
export const money = (amount: number, language: string) =>
  new Intl.NumberFormat(language, { style: 'currency', currency: 'CNY', minimumFractionDigits: 2 }).format(amount);

/** A translated text with its `{{name}}` placeholders filled, as i18next fills them. */
export const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

/** A full-page picture for docs/console.md, named after the page and the language. */
export async function screenshot(page: Page, name: string, language: 'en' | 'zh-CN'): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.${language}.png`), fullPage: true, animations: 'disabled' });
}

/** A picture of one part of a page (a card, a dialog) for a point docs/console.md makes about it. */
export async function screenshotOf(part: Locator, name: string, language: 'en' | 'zh-CN'): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await part.page().waitForLoadState('networkidle');
  await part.screenshot({ path: join(SCREENSHOTS, `${name}.${language}.png`), animations: 'disabled' });
}

/**
 * Every test runs against its worker's own service (started from the global setup's build), and fails
 * if the page reported a Content-Security-Policy violation or an uncaught error: the console must live
 * within its CSP.
 */
export const test = base.extend<object, { service: Service }>({
  service: [
    async ({}, use) => {
      const running = await startService();
      try {
        await use({ url: running.url, adminPassword: ADMIN_PASSWORD });
      } finally {
        await running.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ service }, use) => use(service.url),
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy|Refused to (load|execute|apply)/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    await use(page);
    expect(problems).toEqual([]);
  },
});

export { expect };
