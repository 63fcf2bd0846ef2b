import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { en, type Texts } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import { authenticator } from './authenticator';
import { adminApi, apiToken, expect, newAuthor, platformAdmin, screenshot, signInWithCode, test } from './support';

const SECOND = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

/** The base32 key the security page shows for typing by hand. */
async function shownSecret(page: Page): Promise<string> {
  const text = (await page.getByTestId('totp-secret').textContent()) ?? '';
  const secret = /[A-Z2-7]{16,}/.exec(text)?.[0];
  expect(secret).toBeTruthy();
  return secret!;
}

/** Sets up two-factor sign-in on the security page; answers the authenticator and the recovery codes shown. */
async function enrolOnPage(page: Page, texts: Texts, language: 'en' | 'zh-CN', shots: boolean) {
  const security = texts.twoFactor.security;
  await expect(page.getByTestId('two-factor-status')).toHaveText(security.off);
  await page.getByRole('button', { name: security.start }).click();
  await expect(page.locator('.ant-qrcode canvas')).toBeVisible();
  const secret = await shownSecret(page);
  const app = authenticator(secret);
  if (shots) await screenshot(page, 'security-enrol', language);
  await page
    .getByTestId('enrolment')
    .getByLabel(texts.twoFactor.code, { exact: true })
    .fill(await app.code());
  await page.getByRole('button', { name: security.confirm }).click();

  const shown = page.getByRole('dialog', { name: texts.twoFactor.recovery.title });
  await expect(shown).toContainText(texts.twoFactor.recovery.warning);
  const codes = (await shown.getByTestId('recovery-codes').locator('li').allTextContents()).map((code) => code.trim());
  expect(codes).toHaveLength(10);
  const download = page.waitForEvent('download');
  await shown.getByRole('button', { name: texts.twoFactor.recovery.download }).click();
  expect(
    readFileSync(await (await download).path(), 'utf8')
      .trim()
      .split('\n'),
  ).toEqual(codes);
  if (shots) await screenshot(page, 'recovery-codes', language);
  // Neither the key nor the codes are kept by the tab.
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
  for (const value of [secret, ...codes]) expect(stored).not.toContain(value);
  await shown.getByRole('button', { name: texts.twoFactor.recovery.saved }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByTestId('two-factor-status')).toHaveText(security.on);
  return { app, codes };
}

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`two-factor sign-in (${language})`, () => {
    test.use({ locale: language, timezoneId: 'Asia/Shanghai' });

    test(`an author turns it on, signs in with a code, rotates a key through the step-up prompt, and the audit page shows it (${language})`, async ({
      page,
      service,
    }) => {
      test.setTimeout(150_000);
      const author = await newAuthor(service);
      const api = adminApi(service, await apiToken(service, author));
      const { data: project } = await api.POST('/admin/v1/projects', { body: { name: 'Two-factor Program' } });
      const id = project!.id;
      const { data: batch } = await api.POST('/admin/v1/projects/{id}/cards', {
        params: { path: { id } },
        body: { count: 1, duration_seconds: 86_400 },
      });
      const card = batch!.items[0];
      await api.PATCH('/admin/v1/projects/{id}/cards/{cardId}', {
        params: { path: { id, cardId: card.id } },
        body: { status: 'banned' },
      });

      await page.goto('/console/sign-in');
      await page.getByLabel(texts.signIn.username).fill(author.username);
      await page.getByLabel(texts.signIn.password).fill(author.password);
      await page.getByRole('button', { name: texts.signIn.submit }).click();
      await page.getByRole('button', { name: new RegExp(author.username) }).click();
      await page.getByRole('menuitem', { name: texts.twoFactor.security.menu }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.twoFactor.security.title })).toBeVisible();
      const { app } = await enrolOnPage(page, texts, language, true);
      await screenshot(page, 'security-on', language);

      // Signing in now takes the password and a code.
      await page.getByRole('button', { name: texts.app.signOut }).click();
      const signInCode = await app.code();
      await signInWithCode(page, texts, author, signInCode);

      // A key rotation asks for a fresh code: the one used to sign in is refused, the next one passes.
      await page.goto(`/console/projects/${id}/access`);
      await page.getByRole('tab', { name: texts.access.tabs.keys }).click();
      await expect(page.getByRole('row')).toHaveCount(2);
      await page.getByRole('button', { name: texts.access.keys.rotate }).click();
      await page
        .getByRole('dialog', { name: texts.access.keys.rotateTitle })
        .getByRole('button', { name: texts.access.keys.rotate })
        .click();
      const prompt = page.getByRole('dialog', { name: texts.twoFactor.stepUp.title });
      await prompt.getByLabel(texts.twoFactor.code, { exact: true }).fill(signInCode);
      await prompt.getByRole('button', { name: texts.twoFactor.stepUp.submit }).click();
      await expect(prompt.getByRole('alert')).toHaveText(texts.twoFactor.stepUp.wrong);
      await expect(page.getByRole('row')).toHaveCount(2);
      await screenshot(page, 'step-up', language);
      await prompt.getByLabel(texts.twoFactor.code, { exact: true }).fill(await app.code());
      await prompt.getByRole('button', { name: texts.twoFactor.stepUp.submit }).click();
      await expect(prompt).toBeHidden();
      await expect(page.getByRole('row')).toHaveCount(3);

      // The audit page: the rotation (and the refused attempts before it), the ban with its before and after.
      await page.getByRole('menuitem', { name: texts.audit.menu }).click();
      await expect(page.getByRole('heading', { level: 1, name: texts.audit.title })).toBeVisible();
      const rotations = page.getByRole('row').filter({ hasText: 'signing-keys.rotate' });
      await expect(rotations.filter({ hasText: texts.audit.outcomes.success })).toHaveCount(1);
      await expect(rotations.filter({ hasText: `${texts.audit.outcomes.refused} · 11008` })).toHaveCount(1);
      await expect(rotations.first().getByRole('cell').nth(1)).toHaveText(SECOND);
      const ban = page.getByRole('row').filter({ hasText: 'cards.ban' });
      await expect(ban).toContainText(author.username);
      await expect(ban).toContainText('Two-factor Program');
      await ban.locator('.ant-table-row-expand-icon').click();
      const changes = page.getByTestId('audit-changes');
      await expect(changes.getByRole('row').filter({ hasText: 'status' })).toContainText('unused');
      await expect(changes.getByRole('row').filter({ hasText: 'status' })).toContainText('banned');
      await screenshot(page, 'audit', language);
    });

    test(`when the platform requires it, an author without it is kept on the security page until it is on (${language})`, async ({
      page,
      service,
    }) => {
      test.setTimeout(150_000);
      const author = await newAuthor(service);
      const adminToken = await apiToken(service, platformAdmin(service));
      const admin = adminApi(service, adminToken);
      // The platform admin sets up their own two-factor sign-in first (through the API: the author's is the browser's part).
      const { data: enrolment } = await admin.POST('/admin/v1/auth/2fa/enrol');
      const adminApp = authenticator(enrolment!.secret);
      expect(
        (await admin.POST('/admin/v1/auth/2fa/confirm', { body: { code: await adminApp.code() } })).data?.recovery_codes,
      ).toHaveLength(10);
      try {
        await signInWithCode(page, texts, platformAdmin(service), await adminApp.code());
        await page.goto('/console/platform/settings');
        const required = page.getByRole('switch', { name: texts.platform.settings.twoFactor });
        await expect(required).not.toBeChecked();
        await required.click();
        await page.getByRole('button', { name: texts.common.save }).click();
        await expect(page.getByText(texts.common.saved)).toBeVisible();
        await page.getByRole('button', { name: texts.app.signOut }).click();

        await page.goto('/console/sign-in');
        await page.getByLabel(texts.signIn.username).fill(author.username);
        await page.getByLabel(texts.signIn.password).fill(author.password);
        await page.getByRole('button', { name: texts.signIn.submit }).click();
        await expect(page).toHaveURL(/\/console\/security$/);
        await expect(page.getByText(texts.twoFactor.security.required)).toBeVisible();
        await expect(page.getByRole('menuitem')).toHaveCount(0);
        await page.goto(`/console/projects`);
        await expect(page).toHaveURL(/\/console\/security$/);
        await enrolOnPage(page, texts, language, false);
        await page.getByRole('menuitem', { name: texts.app.projects }).click();
        await expect(page.getByRole('heading', { level: 1, name: texts.projects.title })).toBeVisible();
      } finally {
        await admin.PUT('/admin/v1/platform/settings', { body: { admin_two_factor_required: false } });
        await admin.POST('/admin/v1/auth/2fa/disable', { body: { code: await adminApp.code() } });
      }
    });
  });
}
