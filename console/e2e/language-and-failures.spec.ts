import { randomUUID } from 'node:crypto';
import { expect, newAuthor, signIn, signInThroughApi, test } from './support';

test.describe('language', () => {
  test.use({ locale: 'zh-CN' });

  test('follows a Chinese browser, switches to English, and remembers the choice', async ({ page }) => {
    await page.goto('/console/');
    await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await page.getByRole('combobox', { name: '语言' }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test("shows a refusal in Chinese: the console's text for the catalog code, the code and the request id", async ({
    page,
    service,
  }) => {
    await signIn(page, await newAuthor(service));
    const answer = page.waitForResponse((res) => /\/admin\/v1\/projects\/[0-9a-f-]{36}$/.test(res.url()));
    await page.goto(`/console/projects/${randomUUID()}/settings`);
    const res = await answer;
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Project not found');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('项目不存在');
    await expect(alert).toContainText('错误码: 11101');
    await expect(alert).not.toContainText('Project not found');
    await expect(alert.getByTestId('request-id')).toHaveText(res.headers()['x-request-id']);
  });

  test("a refusal whose message says more than its code keeps the service's words beside the Chinese text", async ({
    page,
    service,
  }) => {
    await signIn(page, await newAuthor(service));
    await page.getByRole('button', { name: '新建项目' }).click();
    const create = page.getByRole('dialog', { name: '新建项目' });
    await create.getByLabel('名称').fill('Words');
    await create.getByRole('button', { name: '创建' }).click();
    await page.getByRole('button', { name: '我已保存' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    const projectId = new URL(page.url()).pathname.split('/').at(-2)!;
    // A filter typed into the address that the API refuses, naming which one.
    await page.goto(`/console/projects/${projectId}/cards?batch_id=nope`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('请求格式不正确');
    await expect(alert).toContainText('详情: batch_id must be a UUID');
    await expect(alert).toContainText('错误码: 10001');
  });
});

test.describe('failures', () => {
  test('a refused sign-in shows the catalog message, its code and the request id of the answer', async ({ page, service }) => {
    await page.goto('/console/sign-in');
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(`${service.adminPassword}-wrong`);
    const answer = page.waitForResponse((res) => res.url().endsWith('/admin/v1/auth/login'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const res = await answer;
    const body = (await res.json()) as { error: { code: number; message: string }; request_id: string };
    const alert = page.getByRole('alert');
    // The sign-in's own words for the code, not the catalog's "Authentication is required".
    await expect(alert).toContainText('Wrong user name or password');
    await expect(alert).toContainText(`Code: ${body.error.code}`);
    await expect(alert.getByTestId('request-id')).toHaveText(res.headers()['x-request-id']);
    expect(body.request_id).toBe(res.headers()['x-request-id']);
  });

  test('a page of a project that is not there shows the refusal with its request id', async ({ page, service }) => {
    await signInThroughApi(page, service, await newAuthor(service));
    await page.goto(`/console/projects/${randomUUID()}/settings`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Code: 11101');
    await expect(alert.getByTestId('request-id')).toHaveText(/^[A-Za-z0-9_.:-]{8,64}$/);
  });

  test('a setting outside the API limits is refused in the form, before any call', async ({ page, service }) => {
    await signIn(page, await newAuthor(service));
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByRole('dialog', { name: 'New project' }).getByLabel('Name').fill('Limits');
    await page.getByRole('dialog', { name: 'New project' }).getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'I have stored them' }).click();
    const heartbeat = page.getByLabel('Heartbeat interval', { exact: true });
    await page.getByRole('combobox', { name: 'Heartbeat interval: Unit' }).click();
    await page.locator('.ant-select-dropdown').getByTitle('seconds', { exact: true }).click();
    await heartbeat.fill('2');
    let patched = false;
    page.on('request', (request) => (patched ||= request.method() === 'PATCH'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('From 5 seconds to 1 day')).toBeVisible();
    await expect(heartbeat).toHaveAttribute('aria-invalid', 'true');
    expect(patched).toBe(false);
  });
});

test('on a phone screen the menu opens from a button and leads to the cards', async ({ page, service }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, await newAuthor(service));
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('dialog', { name: 'New project' }).getByLabel('Name').fill('Pocket');
  await page.getByRole('dialog', { name: 'New project' }).getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: 'I have stored them' }).click();
  await page.getByRole('button', { name: 'Navigation' }).click();
  await page.getByRole('dialog').getByRole('menuitem', { name: 'Cards' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cards' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
