import { adminApi, apiToken, expect, newAuthor, signIn, test } from './support';

/** A project's page: every setting saved as edited, a secret rotated and shown once, deletion after a confirmation. */
test('an author edits settings, rotates a secret and deletes the project', async ({ page, service }) => {
  const author = await newAuthor(service);
  await signIn(page, author);
  await page.getByRole('button', { name: 'New project' }).click();
  const create = page.getByRole('dialog', { name: 'New project' });
  await create.getByLabel('Name').fill('Settings Program');
  await create.getByRole('button', { name: 'Create' }).click();
  const once = page.getByRole('dialog', { name: /created/ });
  const apiSecret = (await once.locator('.secret-value').nth(1).innerText()).trim();
  await once.getByRole('button', { name: 'I have stored them' }).click();
  // A new project opens on its settings (an existing one opens on its overview: truthful.spec.ts).
  await expect(page).toHaveURL(/\/console\/projects\/[0-9a-f-]{36}\/settings$/);
  const projectId = new URL(page.url()).pathname.split('/').at(-2)!;

  // Settings: each with its explanation; only what changed is sent.
  await expect(page.getByText('How many devices a new card may bind')).toBeVisible();
  await page.getByLabel('Devices per card').fill('5');
  await page.getByLabel('Sessions at once per card').fill('2');
  await page.getByRole('switch', { name: 'End users may unbind' }).click();
  await page.getByLabel('Bound client IPs').fill('203.0.113.7');
  await page.getByLabel('Bound client IPs').press('Enter');
  const patch = page.waitForRequest((request) => request.method() === 'PATCH');
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await patch).postDataJSON()).toEqual({
    device_limit: 5,
    concurrent_limit: 2,
    unbind_enabled: false,
    ip_bindings: ['203.0.113.7'],
  });
  await expect(page.getByText('Saved')).toBeVisible();
  const token = await apiToken(service, author);
  const { data: saved } = await adminApi(service, token).GET('/admin/v1/projects/{id}', { params: { path: { id: projectId } } });
  expect(saved).toMatchObject({ device_limit: 5, concurrent_limit: 2, unbind_enabled: false, ip_bindings: ['203.0.113.7'] });

  // Entitlements are the platform admin's: an author sees them, cannot change them.
  await expect(page.getByRole('switch', { name: 'Basic package' })).toBeDisabled();

  // Rotation asks first, then shows the new secret once.
  await page.getByRole('tab', { name: 'Secrets' }).click();
  await expect(page.getByText(`****${apiSecret.slice(-4)}`)).toBeVisible();
  await page.getByRole('button', { name: /^Rotate: API secret/ }).click();
  await page
    .getByRole('dialog', { name: /Rotate the API secret/ })
    .getByRole('button', { name: 'Rotate' })
    .click();
  const rotated = page.getByRole('dialog', { name: /New API secret/ });
  const newSecret = (await rotated.locator('.secret-value').innerText()).trim();
  expect(newSecret).not.toBe(apiSecret);
  await rotated.getByRole('button', { name: 'I have stored them' }).click();
  await expect(page.getByText(`****${newSecret.slice(-4)}`)).toBeVisible();

  // Deletion asks first; cancelling keeps the project.
  await page.getByRole('button', { name: 'Delete project' }).click();
  await page.getByRole('dialog', { name: 'Delete "Settings Program"?' }).getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Delete project' }).click();
  await page.getByRole('dialog', { name: 'Delete "Settings Program"?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('No project yet')).toBeVisible();
  const { response } = await adminApi(service, token).GET('/admin/v1/projects/{id}', { params: { path: { id: projectId } } });
  expect(response.status).toBe(404);
});
