import { AdminClient } from '../../support/admin-client';
import {
  ANNOUNCEMENT_NOT_FOUND,
  BAD_REQUEST,
  expectAdminError,
  FORBIDDEN,
  INTERFACE_NOT_FOUND,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { PlatformSettingsBody } from '../../support/platform-state';
import { startTestApp, TestApp, unique } from '../../support/test-app';

const INTERFACES = [
  'card_login',
  'card_unbind',
  'card_heartbeat',
  'user_register',
  'user_login',
  'user_heartbeat',
  'announcement',
  'app_config',
  'get_file',
  'app_profile',
  'version_check',
  'state_check',
  'paycheck',
  'licence_verify',
  'card_info',
  'card_topup',
  'card_trial',
];
const SETTINGS = '/admin/v1/platform/settings';
const INTERFACES_PATH = '/admin/v1/platform/interfaces';
const ANNOUNCEMENTS = '/admin/v1/platform/announcements';

describe('platform admin API (e2e)', () => {
  // One app for the file, on a database and a Redis database of its own (stores.ts): it starts as a
  // new installation does. The "fresh database" tests come first, before any test changes a setting.
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  describe('on a fresh database', () => {
    it('starts with Connect opened by the base package, minimum level 1 and legacy metering on', async () => {
      const res = await admin.get(SETTINGS).expect(200);
      expect(res.body).toEqual({
        connect_opening_mode: 'base_package',
        connect_min_level: 1,
        legacy_metering_enabled: true,
        admin_two_factor_required: false,
        webhook_private_targets: false,
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
    });

    it('starts with all 17 canonical interfaces enabled', async () => {
      const res = await admin.get(INTERFACES_PATH).expect(200);
      expect(res.body).toEqual({ items: INTERFACES.map((name) => ({ name, enabled: true })), total: 17 });
    });

    it('starts with no platform announcements', async () => {
      expect((await admin.get(ANNOUNCEMENTS).expect(200)).body).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
    });
  });

  describe('shared deployment', () => {
    const getSettings = async () => (await admin.get(SETTINGS).expect(200)).body as PlatformSettingsBody & { updated_at: string };
    const interfaceStatus = async () =>
      Object.fromEntries(
        ((await admin.get(INTERFACES_PATH).expect(200)).body.items as Array<{ name: string; enabled: boolean }>).map((i) => [
          i.name,
          i.enabled,
        ]),
      );

    describe('settings', () => {
      it('answers the three settings with their types', async () => {
        const body = await getSettings();
        expect(Object.keys(body).sort()).toEqual([
          'admin_two_factor_required',
          'connect_min_level',
          'connect_opening_mode',
          'legacy_metering_enabled',
          'updated_at',
          'webhook_private_targets',
        ]);
        expect(['base_package', 'entitlement', 'self_service']).toContain(body.connect_opening_mode);
        expect(Number.isInteger(body.connect_min_level)).toBe(true);
        expect(typeof body.legacy_metering_enabled).toBe('boolean');
      });

      it('a partial PUT changes only the fields sent, and the next GET shows each change at once', async () => {
        const before = await getSettings(); // also puts the settings in the cache
        try {
          const level = before.connect_min_level + 7;
          const put = await admin.put(SETTINGS, { connect_min_level: level }).expect(200);
          expect(put.body).toMatchObject({ ...before, connect_min_level: level, updated_at: expect.any(String) });
          expect(await getSettings()).toMatchObject({ ...before, connect_min_level: level, updated_at: expect.any(String) });

          const mode = before.connect_opening_mode === 'entitlement' ? 'self_service' : 'entitlement';
          await admin.put(SETTINGS, { connect_opening_mode: mode }).expect(200);
          expect(await getSettings()).toMatchObject({ connect_opening_mode: mode, connect_min_level: level });

          await admin.put(SETTINGS, { legacy_metering_enabled: !before.legacy_metering_enabled }).expect(200);
          const after = await getSettings();
          expect(after).toMatchObject({
            connect_opening_mode: mode,
            connect_min_level: level,
            legacy_metering_enabled: !before.legacy_metering_enabled,
          });
          expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(before.updated_at).getTime());

          const empty = await admin.put(SETTINGS, {}).expect(200);
          expect(empty.body).toMatchObject({ connect_opening_mode: mode, connect_min_level: level });
        } finally {
          const { connect_opening_mode, connect_min_level, legacy_metering_enabled } = before;
          await admin.put(SETTINGS, { connect_opening_mode, connect_min_level, legacy_metering_enabled }).expect(200);
        }
        expect(await getSettings()).toMatchObject({
          connect_opening_mode: before.connect_opening_mode,
          connect_min_level: before.connect_min_level,
          legacy_metering_enabled: before.legacy_metering_enabled,
        });
      });

      it('accepts every opening mode', async () => {
        const before = await getSettings();
        try {
          for (const mode of ['self_service', 'entitlement', 'base_package']) {
            expect((await admin.put(SETTINGS, { connect_opening_mode: mode }).expect(200)).body.connect_opening_mode).toBe(mode);
            expect((await getSettings()).connect_opening_mode).toBe(mode);
          }
        } finally {
          await admin.put(SETTINGS, { connect_opening_mode: before.connect_opening_mode }).expect(200);
        }
      });

      it.each<[string, Record<string, unknown>, string]>([
        ['an unknown opening mode', { connect_opening_mode: 'open' }, 'connect_opening_mode'],
        ['an opening mode in another case', { connect_opening_mode: 'BASE_PACKAGE' }, 'connect_opening_mode'],
        ['a negative minimum level', { connect_min_level: -1 }, 'connect_min_level'],
        ['a fractional minimum level', { connect_min_level: 1.5 }, 'connect_min_level'],
        ['a minimum level as a string', { connect_min_level: '2' }, 'connect_min_level'],
        ['a minimum level beyond the 32-bit range', { connect_min_level: 2 ** 31 }, 'connect_min_level'],
        ['metering as a string', { legacy_metering_enabled: 'false' }, 'legacy_metering_enabled'],
        ['an unknown field', { connect_enabled: true }, 'connect_enabled'],
      ])('answers 400 naming the field for %s, and changes nothing', async (_label, body, field) => {
        const before = await getSettings();
        const other = before.connect_min_level + 1; // a valid change in the same body must not be applied either
        expectAdminError(await admin.put(SETTINGS, { connect_min_level: other, ...body }), 400, BAD_REQUEST, field);
        expect(await getSettings()).toEqual(before);
      });
    });

    describe('interfaces', () => {
      it('lists the 17 canonical interfaces by name, each with an enabled flag', async () => {
        const res = await admin.get(INTERFACES_PATH).expect(200);
        expect(res.body.total).toBe(17);
        expect(res.body.items.map((i: { name: string }) => i.name)).toEqual(INTERFACES);
        for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual(['enabled', 'name']);
      });

      it('PUT switches one interface off platform-wide and back on, and the next GET shows each change', async () => {
        const before = await interfaceStatus(); // also puts the list in the cache
        try {
          const off = await admin.put(`${INTERFACES_PATH}/get_file`, { enabled: false }).expect(200);
          expect(off.body).toEqual({ name: 'get_file', enabled: false });
          expect(await interfaceStatus()).toEqual({ ...before, get_file: false });

          const on = await admin.put(`${INTERFACES_PATH}/get_file`, { enabled: true }).expect(200);
          expect(on.body).toEqual({ name: 'get_file', enabled: true });
          expect(await interfaceStatus()).toEqual({ ...before, get_file: true });
        } finally {
          await admin.put(`${INTERFACES_PATH}/get_file`, { enabled: before.get_file }).expect(200);
        }
      });

      it('answers 404 for an unknown or legacy-alias interface name, listing the allowed ones', async () => {
        for (const name of ['kmlogon', 'card-login', 'CARD_LOGIN', 'nope']) {
          const res = await admin.put(`${INTERFACES_PATH}/${name}`, { enabled: false });
          expectAdminError(res, 404, INTERFACE_NOT_FOUND);
          expect(res.body.error.details).toEqual({ name, allowed: INTERFACES });
        }
        expect(Object.keys(await interfaceStatus())).toEqual(INTERFACES);
      });

      it.each<[string, Record<string, unknown>, string]>([
        ['a missing enabled', {}, 'enabled'],
        ['enabled as a string', { enabled: 'false' }, 'enabled'],
        ['enabled as a number', { enabled: 0 }, 'enabled'],
        ['an unknown field', { enabled: true, daily_quota: 3 }, 'daily_quota'],
      ])('answers 400 naming the field for %s', async (_label, body, field) => {
        const before = await interfaceStatus();
        expectAdminError(await admin.put(`${INTERFACES_PATH}/paycheck`, body), 400, BAD_REQUEST, field);
        expect(await interfaceStatus()).toEqual(before);
      });
    });

    describe('announcements', () => {
      const idsSeenBy = async (client: AdminClient): Promise<number[]> =>
        ((await client.get(`${ANNOUNCEMENTS}?page_size=100`).expect(200)).body.items as Array<{ id: number }>).map((a) => a.id);

      it('a platform admin posts one (201) and authors read it, newest first', async () => {
        const title = unique('Maintenance ');
        const res = await admin.post(ANNOUNCEMENTS, { title, content: 'Down for ten minutes at 02:00 UTC.' }).expect(201);
        expect(res.body).toEqual({
          id: expect.any(Number),
          title,
          content: 'Down for ten minutes at 02:00 UTC.',
          enabled: true,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        });
        const second = await admin.post(ANNOUNCEMENTS, { title: `${title} (2)`, content: 'Second.' }).expect(201);
        expect(second.body.id).toBeGreaterThan(res.body.id);

        const read = await author.get(`${ANNOUNCEMENTS}?page_size=100`).expect(200);
        expect(read.body).toMatchObject({ page: 1, page_size: 100 });
        expect(read.body.total).toBeGreaterThanOrEqual(2);
        const ids = read.body.items.map((a: { id: number }) => a.id);
        expect(ids).toEqual([...ids].sort((a, b) => b - a));
        expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(res.body.id));
        expect(read.body.items.find((a: { id: number }) => a.id === res.body.id)).toEqual(res.body);

        const paged = await author.get(`${ANNOUNCEMENTS}?page_size=1`).expect(200);
        expect(paged.body.items).toHaveLength(1);
        expect(paged.body.total).toBe(read.body.total);
      });

      it('refuses an author that posts one with 403, and nothing is published', async () => {
        const title = unique('Fake ');
        expectAdminError(await author.post(ANNOUNCEMENTS, { title, content: 'I am not the operator.' }), 403, FORBIDDEN);
        const read = await admin.get(`${ANNOUNCEMENTS}?page_size=100`).expect(200);
        expect(read.body.items.map((a: { title: string }) => a.title)).not.toContain(title);
      });

      it.each<[string, Record<string, unknown>, string]>([
        ['an empty title', { title: '', content: 'x' }, 'title'],
        ['a title over 200 characters', { title: 't'.repeat(201), content: 'x' }, 'title'],
        ['a missing content', { title: 'x' }, 'content'],
        ['content that is not a string', { title: 'x', content: 5 }, 'content'],
        ['enabled that is not a boolean', { title: 'x', content: 'x', enabled: 'yes' }, 'enabled'],
        ['an unknown field', { title: 'x', content: 'x', pinned: true }, 'pinned'],
      ])('answers 400 naming the field for %s', async (_label, body, field) => {
        expectAdminError(await admin.post(ANNOUNCEMENTS, body), 400, BAD_REQUEST, field);
      });

      it('one posted hidden is listed for a platform admin but never for an author', async () => {
        const hidden = (
          await admin.post(ANNOUNCEMENTS, { title: unique('Draft '), content: 'Not yet.', enabled: false }).expect(201)
        ).body;
        expect(hidden.enabled).toBe(false);
        expect(await idsSeenBy(admin)).toContain(hidden.id);
        expect(await idsSeenBy(author)).not.toContain(hidden.id);
      });

      it('a platform admin corrects one with PATCH (only the fields sent change) and hides it from authors', async () => {
        const posted = (await admin.post(ANNOUNCEMENTS, { title: unique('Typo '), content: 'Down at 20:00.' }).expect(201)).body;
        const corrected = await admin.patch(`${ANNOUNCEMENTS}/${posted.id}`, { content: 'Down at 02:00.' }).expect(200);
        expect(corrected.body).toEqual({ ...posted, content: 'Down at 02:00.', updated_at: expect.any(String) });
        expect(await author.get(`${ANNOUNCEMENTS}?page_size=100`).expect(200)).toHaveProperty(
          'body.items',
          expect.arrayContaining([expect.objectContaining({ id: posted.id, content: 'Down at 02:00.' })]),
        );

        const hidden = await admin.patch(`${ANNOUNCEMENTS}/${posted.id}`, { enabled: false }).expect(200);
        expect(hidden.body).toMatchObject({ id: posted.id, title: posted.title, content: 'Down at 02:00.', enabled: false });
        expect(await idsSeenBy(author)).not.toContain(posted.id);
        const authorTotal = (await author.get(ANNOUNCEMENTS).expect(200)).body.total;
        expect(authorTotal).toBe((await idsSeenBy(author)).length);

        await admin.patch(`${ANNOUNCEMENTS}/${posted.id}`, { enabled: true, title: `${posted.title}!` }).expect(200);
        expect(await idsSeenBy(author)).toContain(posted.id);
      });

      it('a platform admin deletes one (204): nobody sees it and a second delete is 404 (11106)', async () => {
        const posted = (await admin.post(ANNOUNCEMENTS, { title: unique('Wrong '), content: 'Posted by mistake.' }).expect(201))
          .body;
        await admin.delete(`${ANNOUNCEMENTS}/${posted.id}`).expect(204);
        expect(await idsSeenBy(admin)).not.toContain(posted.id);
        expect(await idsSeenBy(author)).not.toContain(posted.id);
        expectAdminError(await admin.delete(`${ANNOUNCEMENTS}/${posted.id}`), 404, ANNOUNCEMENT_NOT_FOUND);
        expectAdminError(await admin.patch(`${ANNOUNCEMENTS}/${posted.id}`, { enabled: true }), 404, ANNOUNCEMENT_NOT_FOUND);
      });

      it.each(['0', 'abc', '99999999999', '2147483647'])('answers 404 (11106) to PATCH and DELETE of the id %s', async (id) => {
        expectAdminError(await admin.patch(`${ANNOUNCEMENTS}/${id}`, { enabled: false }), 404, ANNOUNCEMENT_NOT_FOUND);
        expectAdminError(await admin.delete(`${ANNOUNCEMENTS}/${id}`), 404, ANNOUNCEMENT_NOT_FOUND);
      });

      it('refuses an author that changes or deletes one with 403 (11002), and it stays as it was', async () => {
        const posted = (await admin.post(ANNOUNCEMENTS, { title: unique('Keep '), content: 'Operator text.' }).expect(201)).body;
        expectAdminError(await author.patch(`${ANNOUNCEMENTS}/${posted.id}`, { enabled: false }), 403, FORBIDDEN);
        expectAdminError(await author.delete(`${ANNOUNCEMENTS}/${posted.id}`), 403, FORBIDDEN);
        const read = await author.get(`${ANNOUNCEMENTS}?page_size=100`).expect(200);
        expect(read.body.items.find((a: { id: number }) => a.id === posted.id)).toEqual(posted);
      });

      it.each<[string, Record<string, unknown>, string]>([
        ['an empty title', { title: '' }, 'title'],
        ['a null content', { content: null }, 'content'],
        ['a null enabled', { enabled: null }, 'enabled'],
        ['an unknown field', { pinned: true }, 'pinned'],
      ])('answers 400 naming the field to a PATCH with %s, and changes nothing', async (_label, body, field) => {
        const posted = (await admin.post(ANNOUNCEMENTS, { title: unique('Stable '), content: 'Same.' }).expect(201)).body;
        expectAdminError(await admin.patch(`${ANNOUNCEMENTS}/${posted.id}`, body), 400, BAD_REQUEST, field);
        const read = await admin.get(`${ANNOUNCEMENTS}?page_size=100`).expect(200);
        expect(read.body.items.find((a: { id: number }) => a.id === posted.id)).toEqual(posted);
      });

      it('answers 400 for a page_size over 100', async () => {
        expectAdminError(await author.get(`${ANNOUNCEMENTS}?page_size=101`), 400, BAD_REQUEST, 'page_size');
      });
    });

    describe('access', () => {
      it('answers 403 (11002) to an author on settings and interfaces, and changes nothing', async () => {
        const settings = await getSettings();
        const interfaces = await interfaceStatus();
        expectAdminError(await author.get(SETTINGS), 403, FORBIDDEN);
        expectAdminError(await author.put(SETTINGS, { connect_opening_mode: 'self_service' }), 403, FORBIDDEN);
        expectAdminError(await author.get(INTERFACES_PATH), 403, FORBIDDEN);
        expectAdminError(await author.put(`${INTERFACES_PATH}/card_login`, { enabled: !interfaces.card_login }), 403, FORBIDDEN);
        expect(await getSettings()).toEqual(settings);
        expect(await interfaceStatus()).toEqual(interfaces);
      });

      it('answers 401 (11001) on every platform route without a valid token', async () => {
        const http = t.http();
        for (const res of [
          await http.get(SETTINGS),
          await t.http().put(SETTINGS).send({ connect_min_level: 3 }),
          await t.http().get(INTERFACES_PATH),
          await t.http().put(`${INTERFACES_PATH}/card_login`).send({ enabled: false }),
          await t.http().get(ANNOUNCEMENTS),
          await t.http().post(ANNOUNCEMENTS).send({ title: 'x', content: 'y' }),
          await t.http().patch(`${ANNOUNCEMENTS}/1`).send({ enabled: false }),
          await t.http().delete(`${ANNOUNCEMENTS}/1`),
          await t.http().get(ANNOUNCEMENTS).set('Authorization', 'Bearer forged-token-value'),
        ]) {
          expectAdminError(res, 401, UNAUTHENTICATED);
        }
      });
    });
  });
});
