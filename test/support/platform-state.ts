import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdminClient } from './admin-client';

export interface PlatformSettingsBody {
  connect_opening_mode: 'base_package' | 'entitlement' | 'self_service';
  connect_min_level: number;
  legacy_metering_enabled: boolean;
}

const WAIT_MS = 45_000;
const STALE_MS = 120_000;

/**
 * Platform settings and interface switches are global to the database. With DATABASE_URL every test
 * file (one Jest worker each) shares one database, so a test that changes them takes this lock, a
 * directory on the local disk keyed by the database, and restores what it changed before letting go.
 * Without DATABASE_URL each file has its own embedded database and the lock is not needed.
 */
export async function withPlatformLock<T>(fn: () => Promise<T>): Promise<T> {
  const scope = process.env.DATABASE_URL;
  if (!scope) return fn();
  const path = join(tmpdir(), `ck-platform-lock-${createHash('sha256').update(scope).digest('hex').slice(0, 16)}`);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (isStale(path)) rmSync(path, { recursive: true, force: true }); // left by a killed run
      if (Date.now() > deadline) throw new Error(`platform state lock ${path} held for more than ${WAIT_MS} ms`);
      await sleep(20);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}

function isStale(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_MS;
  } catch {
    return false;
  }
}

/** Runs `fn` with some platform settings changed, under the lock, and puts the old values back. */
export async function withPlatformSettings<T>(
  admin: AdminClient,
  change: Partial<PlatformSettingsBody>,
  fn: (before: PlatformSettingsBody) => Promise<T>,
): Promise<T> {
  return withPlatformLock(async () => {
    const before = (await admin.get('/admin/v1/platform/settings').expect(200)).body as PlatformSettingsBody;
    await admin.put('/admin/v1/platform/settings', change).expect(200);
    try {
      return await fn(before);
    } finally {
      const restore = Object.fromEntries(Object.keys(change).map((k) => [k, before[k as keyof PlatformSettingsBody]]));
      await admin.put('/admin/v1/platform/settings', restore).expect(200);
    }
  });
}

/** Runs `fn` with one platform interface switched on or off, under the lock, and puts it back. */
export async function withPlatformInterface<T>(
  admin: AdminClient,
  name: string,
  enabled: boolean,
  fn: () => Promise<T>,
): Promise<T> {
  return withPlatformLock(async () => {
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
  });
}
