import type { Page } from '@playwright/test';
import { en, type Texts } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { authenticator } from './authenticator';
import { adminApi, apiToken, expect, newAuthor, screenshot, signIn, test, type Account, type Service } from './support';

/** Opens the Account page from the menu under the signed-in user's name. */
async function openAccount(page: Page, texts: Texts, account: Account) {
  await page.getByRole('button', { name: new RegExp(account.username) }).click();
  await page.getByRole('menuitem', { name: texts.account.menu }).click();
  await expect(page).toHaveURL(/\/console\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: texts.account.title })).toBeVisible();
}

async function fillPasswords(page: Page, texts: Texts, current: string, next: string, repeat = next) {
  await page.getByLabel(texts.account.current, { exact: true }).fill(current);
  await page.getByLabel(texts.account.next, { exact: true }).fill(next);
  await page.getByLabel(texts.account.repeat, { exact: true }).fill(repeat);
  await page.getByRole('button', { name: texts.account.submit }).click();
}

/** The status of a sign-in over the API: 200 for the right password, 401 for a wrong one. */
async function signInStatus(service: Service, account: Account): Promise<number> {
  return (await adminApi(service).POST('/admin/v1/auth/login', { body: account })).response.status;
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`account (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`an author changes their own password: refusals in the form, this tab stays signed in, other sessions end (${language})`, async ({
      page,
      service,
    }) => {
      const author = await newAuthor(service);
      const elsewhere = await apiToken(service, author); // another browser signed in as the author
      const next = `new-password-${language}-1`;
      await signIn(page, author);
      await openAccount(page, texts, author);
      await screenshot(page, 'account', language);

      // Refused in the form before anything is sent: too short, the repeat differs, the same as now.
      const fieldError = (text: string) => page.locator('.ant-form-item-explain-error').filter({ hasText: text });
      await fillPasswords(page, texts, author.password, 'short');
      await expect(fieldError(texts.account.rules)).toBeVisible();
      await fillPasswords(page, texts, author.password, next, `${next}-typo`);
      await expect(fieldError(texts.account.mismatch)).toBeVisible();
      await fillPasswords(page, texts, author.password, author.password);
      await expect(fieldError(texts.account.same)).toBeVisible();

      // A wrong current password: the service's 11001 in this form's words, and the tab stays signed in.
      await fillPasswords(page, texts, 'not-the-password', next);
      const refusal = page.getByRole('alert').filter({ hasText: texts.account.failures[11001] });
      await expect(refusal).toBeVisible();
      await expect(refusal).toContainText('11001');
      await screenshot(page, 'account-refused', language);
      await expect(page).toHaveURL(/\/console\/account$/);
      expect(await signInStatus(service, author)).toBe(200);

      await fillPasswords(page, texts, author.password, next);
      await expect(page.getByText(texts.account.changed)).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: texts.account.failures[11001] })).toBeHidden();
      // The form forgot the passwords; this tab is still signed in and goes on working.
      await expect(page.getByLabel(texts.account.current, { exact: true })).toHaveValue('');
      await page.getByRole('menuitem', { name: texts.app.projects }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.projects.title })).toBeVisible();
      const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
      for (const password of [author.password, next]) expect(stored).not.toContain(password);

      // The other session ended; the new password signs in (the old one's refusal is test/e2e/admin/own-password.e2e-spec.ts's:
      // wrong passwords from this one address are limited per minute over the whole run).
      expect((await adminApi(service, elsewhere).GET('/admin/v1/auth/me')).response.status).toBe(401);
      await page.getByRole('button', { name: texts.app.signOut }).click();
      await signIn(page, { username: author.username, password: next });
    });

    test(`an account with two-factor sign-in confirms the change with a code in the step-up dialog (${language})`, async ({
      page,
      service,
    }) => {
      test.setTimeout(120_000);
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: enrolment } = await api.POST('/admin/v1/auth/2fa/enrol');
      const app = authenticator(enrolment!.secret);
      expect(
        (await api.POST('/admin/v1/auth/2fa/confirm', { body: { code: await app.code() } })).data?.recovery_codes,
      ).toHaveLength(10);

      await page.goto('/console/sign-in');
      await page.getByLabel(texts.signIn.username).fill(author.username);
      await page.getByLabel(texts.signIn.password).fill(author.password);
      await page.getByRole('button', { name: texts.signIn.submit }).click();
      await page.getByLabel(texts.twoFactor.code, { exact: true }).fill(await app.code());
      await page.getByRole('button', { name: texts.twoFactor.submit }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.projects.title })).toBeVisible();
      await openAccount(page, texts, author);

      const next = `new-password-${language}-2fa`;
      await fillPasswords(page, texts, author.password, next);
      const prompt = page.getByRole('dialog', { name: texts.twoFactor.stepUp.title });
      await prompt.getByLabel(texts.twoFactor.code, { exact: true }).fill(await app.code());
      await prompt.getByRole('button', { name: texts.twoFactor.stepUp.submit }).click();
      await expect(prompt).toBeHidden();
      await expect(page.getByText(texts.account.changed)).toBeVisible();
      await expect(page).toHaveURL(/\/console\/account$/);
      expect(await signInStatus(service, { username: author.username, password: next })).toBe(200);
    });
  });
}
