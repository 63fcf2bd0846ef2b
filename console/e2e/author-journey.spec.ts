import { connectLogin, expect, newAuthor, openConnect, signIn, test } from './support';

const CARD_BANNED = 20003;

/**
 * An author's core journey (issue 14) in the browser: sign in, create a project, generate cards,
 * see the device a Connect login bound and the attempt in the log and the overview, ban the card —
 * and the next login is refused, which the log shows too.
 */
test('an author creates a project, generates cards, sees the device of a login and bans the card', async ({ page, service }) => {
  const author = await newAuthor(service);
  await page.goto('/');
  await expect(page).toHaveURL(/\/console\/sign-in\?next=/);
  await signIn(page, author);

  // A project: its program ID and secrets are shown once, each with a copy button, behind a warning.
  await page.getByRole('button', { name: 'New project' }).click();
  const create = page.getByRole('dialog', { name: 'New project' });
  await create.getByLabel('Name').fill('Journey Program');
  await create.getByRole('button', { name: 'Create' }).click();
  const once = page.getByRole('dialog', { name: 'Project "Journey Program" created' });
  await expect(once.getByText('They are shown this once')).toBeVisible();
  const values = once.locator('.secret-value');
  await expect(values).toHaveCount(4);
  await expect(once.getByRole('button', { name: /copy/i })).toHaveCount(4);
  const programId = (await values.nth(0).innerText()).trim();
  expect(programId).toMatch(/^\d{8}$/);
  expect((await values.nth(1).innerText()).trim()).not.toContain('****');
  await once.getByRole('button', { name: 'I have stored them' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Journey Program/ })).toBeVisible();
  await expect(page.getByTestId('program-id')).toHaveText(programId);
  const projectId = new URL(page.url()).pathname.split('/')[3]; // a new project lands on /console/projects/{id}/settings
  await openConnect(service, projectId);

  // A batch of three cards.
  await page.getByRole('button', { name: 'Cards' }).click();
  await page.getByRole('button', { name: 'Generate cards' }).click();
  const generate = page.getByRole('dialog', { name: 'Generate cards' });
  await generate.getByLabel('How many').fill('3');
  await generate.getByLabel('Note').fill('journey batch');
  await generate.getByRole('button', { name: 'Generate cards' }).click();
  await expect(generate.getByText('3 cards generated')).toBeVisible();
  const codes = (await generate.getByTestId('generated-codes').inputValue()).split('\n');
  expect(codes).toHaveLength(3);
  await generate.getByRole('button', { name: 'Show this batch' }).click();
  await expect(page.getByRole('row')).toHaveCount(4);

  // The program logs in over Connect with the first card: the card's page shows the device.
  const login = await connectLogin(service, programId, codes[0], 'journey-pc-01');
  expect(login.status).toBe(true);
  await page.getByRole('textbox', { name: 'Device code' }).fill('journey-pc-01');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('link', { name: codes[0] }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Card ${codes[0]}` })).toBeVisible();
  const cardUrl = page.url();

  // The log shows the attempt, and the overview counts it.
  await page.getByRole('menuitem', { name: 'Request log' }).click();
  const attempt = page.getByRole('row').filter({ hasText: 'journey-pc-01' });
  await expect(attempt).toHaveCount(1);
  await expect(attempt).toContainText('success');
  await expect(attempt).toContainText(codes[0]);
  await page.getByRole('menuitem', { name: 'Overview' }).click();
  await expect(page.getByTestId('logins-today')).toContainText('1');
  await expect(page.getByTestId('cards-active')).toContainText('1');
  await expect(page.getByTestId('cards-unused')).toContainText('2');
  await expect(page.getByTestId('logins-chart').locator('canvas')).toBeVisible();
  await page.goto(cardUrl);
  await expect(page.getByRole('row').filter({ hasText: 'journey-pc-01' })).toHaveCount(1);
  await expect(page.getByText('active', { exact: true })).toBeVisible();

  // Ban, after a confirmation; the next login is refused.
  await page.getByRole('button', { name: 'Ban' }).click();
  const confirm = page.getByRole('dialog', { name: 'Ban this card?' });
  await confirm.getByRole('button', { name: 'Ban' }).click();
  await expect(page.getByText('banned', { exact: true })).toBeVisible();
  const refused = await connectLogin(service, programId, codes[0], 'journey-pc-01');
  expect(refused).toMatchObject({ status: false, code: -CARD_BANNED });
  await page.getByRole('menuitem', { name: 'Request log' }).click();
  await expect(page.getByRole('row').filter({ hasText: String(CARD_BANNED) })).toHaveCount(1);
  await page.goto(cardUrl);

  // Unban, and unbind the device after a confirmation.
  await page.getByRole('button', { name: 'Unban' }).click();
  await expect(page.getByText('active', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Unbind journey-pc-01' }).click();
  await page.getByRole('dialog', { name: 'Unbind journey-pc-01?' }).getByRole('button', { name: 'Unbind' }).click();
  await expect(page.getByText('No device has logged in with this card yet.')).toBeVisible();

  // Sign out: the token is gone from the tab, and the console asks to sign in again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  const stored = await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: Object.keys(localStorage) }));
  expect(stored).toEqual({ session: [], local: ['cardkey.console.language'] });
});
