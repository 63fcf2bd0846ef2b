import type { Browser, Page } from '@playwright/test';
import { en } from '../src/i18n/en';
import { zhCN } from '../src/i18n/zh-CN';
import {
  adminApi,
  apiToken,
  expect,
  newAuthor,
  platformAdmin,
  screenshot,
  signIn,
  signInThroughApi,
  test,
  type Account,
  type Service,
} from './support';

async function operatorApi(service: Service) {
  return adminApi(service, await apiToken(service, platformAdmin(service)));
}

/** The titles an author is answered by the API (the enabled announcements only). */
async function titlesSeenBy(service: Service, author: Account): Promise<string[]> {
  const { data } = await adminApi(service, await apiToken(service, author)).GET('/admin/v1/platform/announcements', {
    params: { query: { page_size: 100 } },
  });
  return data!.items.map((item) => item.title);
}

/** Platform announcements reach every author of the service: remove what a test wrote, so other files' pages stay as they were. */
async function removeAnnouncements(service: Service, titles: string[]) {
  const api = await operatorApi(service);
  const { data } = await api.GET('/admin/v1/platform/announcements', { params: { query: { page_size: 100 } } });
  for (const item of data!.items.filter((a) => titles.includes(a.title))) {
    await api.DELETE('/admin/v1/platform/announcements/{id}', { params: { path: { id: item.id } } });
  }
}

/** An author in a browser tab of their own, beside the platform admin's. */
async function authorPage(browser: Browser, service: Service, author: Account, locale = 'en-US'): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: service.url, locale })).newPage();
  await signIn(page, author);
  return page;
}

test('a platform admin writes an announcement, authors see it until it is hidden, and it is deleted after a confirmation', async ({
  page,
  browser,
  service,
}) => {
  const title = `Maintenance ${Date.now().toString(36)}`;
  const author = await newAuthor(service);
  try {
    await signIn(page, platformAdmin(service));
    await page.getByRole('menuitem', { name: 'Announcements' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Platform announcements' })).toBeVisible();
    await page.getByRole('button', { name: 'New announcement' }).click();
    const form = page.getByRole('dialog', { name: 'New announcement' });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Text').fill('The service is down for ten minutes at 02:00 UTC.');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(1);
    expect(await titlesSeenBy(service, author)).toContain(title);

    // The author sees it on the Projects page, where they land.
    const authorTab = await authorPage(browser, service, author);
    const notices = authorTab.getByRole('region', { name: 'Announcements from the platform' });
    await expect(notices).toContainText(title);
    await expect(notices).toContainText('The service is down for ten minutes at 02:00 UTC.');

    // Hidden: the author is no longer told, in the API and on the page.
    await page.getByRole('switch', { name: `Shown to authors ${title}` }).click();
    await expect(page.getByRole('switch', { name: `Shown to authors ${title}` })).not.toBeChecked();
    await expect.poll(() => titlesSeenBy(service, author)).not.toContain(title);
    await authorTab.reload();
    await expect(authorTab.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(authorTab.getByText(title)).toHaveCount(0);

    // Corrected and shown again, then deleted after a confirmation: gone for everyone.
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit · ${title}` });
    await edit.getByLabel('Text').fill('Moved to 03:00 UTC.');
    await edit.getByLabel('Shown to authors').click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Moved to 03:00 UTC.');
    await authorTab.reload();
    await expect(authorTab.getByRole('region', { name: 'Announcements from the platform' })).toContainText('Moved to 03:00 UTC.');

    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await page
      .getByRole('dialog', { name: `Delete the platform announcement "${title}"?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
    expect(await titlesSeenBy(service, author)).not.toContain(title);
    await authorTab.context().close();
  } finally {
    await removeAnnouncements(service, [title]);
  }
});

test('an author dismisses an announcement and it stays dismissed in that browser', async ({ page, service }) => {
  const title = `Dismissable ${Date.now().toString(36)}`;
  await (
    await operatorApi(service)
  ).POST('/admin/v1/platform/announcements', { body: { title, content: 'Read once.', enabled: true } });
  try {
    await signIn(page, await newAuthor(service));
    const notices = page.getByRole('region', { name: 'Announcements from the platform' });
    await expect(notices).toContainText(title);
    await notices.getByRole('button', { name: `Dismiss ${title}` }).click();
    await expect(page.getByText(title)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);
  } finally {
    await removeAnnouncements(service, [title]);
  }
});

test('an author cannot open the platform page: the menu has no Platform group', async ({ page, service }) => {
  await signIn(page, await newAuthor(service));
  await expect(page.getByRole('menuitem', { name: 'Announcements' })).toHaveCount(0);
});

for (const [language, texts] of [
  ['en', en],
  ['zh-CN', zhCN],
] as const) {
  test.describe(`platform announcements screenshots (${language})`, () => {
    test.use({ locale: language });

    test(`the page and the author's notice in ${language}`, async ({ page, browser, service }) => {
      const shown = language === 'en' ? 'Maintenance on Sunday' : '周日维护';
      const hidden = `${language === 'en' ? 'Draft: new plans' : '草稿：新套餐'} ${Date.now().toString(36)}`;
      const api = await operatorApi(service);
      await api.POST('/admin/v1/platform/announcements', {
        body: { title: hidden, content: language === 'en' ? 'Not yet.' : '暂不发布。', enabled: false },
      });
      await api.POST('/admin/v1/platform/announcements', {
        body: {
          title: shown,
          content:
            language === 'en'
              ? 'The service is down for ten minutes on Sunday at 02:00 UTC.'
              : '服务将于周日 02:00（UTC）停机十分钟。',
          enabled: true,
        },
      });
      try {
        await signInThroughApi(page, service, platformAdmin(service));
        await page.goto('/console/platform/announcements');
        await expect(page.getByRole('row').filter({ hasText: hidden })).toHaveCount(1);
        await screenshot(page, 'platform-announcements', language);
        const authorTab = await authorPage(browser, service, await newAuthor(service), language);
        await expect(authorTab.getByRole('region', { name: texts.platform.notices.label })).toContainText(shown);
        await expect(authorTab.getByText(hidden)).toHaveCount(0);
        await screenshot(authorTab, 'platform-notices', language);
        await authorTab.context().close();
      } finally {
        await removeAnnouncements(service, [shown, hidden]);
      }
    });
  });
}
