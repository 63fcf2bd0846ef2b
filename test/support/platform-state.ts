import { AdminClient } from './admin-client';

export interface PlatformSettingsBody {
  connect_opening_mode: 'base_package' | 'entitlement' | 'self_service';
  connect_min_level: number;
  legacy_metering_enabled: boolean;
  webhook_private_targets: boolean;
}

/*
 * Platform settings and interface switches are global to a deployment, and every test app has a
 * database and a Redis database of its own (stores.ts): a test that changes them affects its own
 * file only. These helpers still put back what they changed, so that the next tests of the file
 * start from the same settings.
 */

/** Runs `fn` with some platform settings changed, and puts the old values back. */
export async function withPlatformSettings<T>(
  admin: AdminClient,
  change: Partial<PlatformSettingsBody>,
  fn: (before: PlatformSettingsBody) => Promise<T>,
): Promise<T> {
  const before = (await admin.get('/admin/v1/platform/settings').expect(200)).body as PlatformSettingsBody;
  await admin.put('/admin/v1/platform/settings', change).expect(200);
  try {
    return await fn(before);
  } finally {
    const restore = Object.fromEntries(Object.keys(change).map((k) => [k, before[k as keyof PlatformSettingsBody]]));
    await admin.put('/admin/v1/platform/settings', restore).expect(200);
  }
}

/** Runs `fn` with one platform interface switched on or off, and puts it back. */
export async function withPlatformInterface<T>(
  admin: AdminClient,
  name: string,
  enabled: boolean,
  fn: () => Promise<T>,
): Promise<T> {
  const list = (await admin.get('/admin/v1/platform/interfaces').expect(200)).body as {
    items: Array<{ name: string; enabled: boolean }>;
  };
  const before = list.items.find((i) => i.name === name)?.enabled ?? true;
  await admin.put(`/admin/v1/platform/interfaces/${name}`, { enabled }).expect(200);
  try {
    return await fn();
  } finally {
    await admin.put(`/admin/v1/platform/interfaces/${name}`, { enabled: before }).expect(200);
  }
}
