import { loadConfig } from '../config/app-config';
import { localUrl, startBanner } from './start-banner';

const KEY_HEX = 'a'.repeat(64);

describe(startBanner.name, () => {
  it('shows where it listens, the embedded database, the in-process store, the default adapter (and how to keep the old one), the admin login and the docs', () => {
    const config = loadConfig({ DATA_DIR: '/srv/cards', PORT: '8080' });
    expect(startBanner(config, localUrl(config))).toEqual([
      'listening on http://localhost:8080',
      'database: embedded PostgreSQL (PGlite) in /srv/cards/pgdata',
      'shared state: in process (one instance only)',
      'HTTP adapter: Fastify (the default since 2026-11-27, Express before it; HTTP_ADAPTER=express runs Express)',
      'admin login: POST http://localhost:8080/admin/v1/auth/login as "admin" with the password in /srv/cards/admin-password.txt (generated at first start)',
      'API docs: http://localhost:8080/docs',
    ]);
  });

  it('names PostgreSQL and Redis by host and database, never by user or password, and the adapter chosen', () => {
    const config = loadConfig({
      HOST: '10.0.0.5',
      DATABASE_URL: 'postgres://cards:db-Secret-1@db.internal:5432/cards',
      APP_ENCRYPTION_KEY: KEY_HEX,
      REDIS_URL: 'rediss://default:redis-Secret-2@cache.internal:6380/2',
      ADMIN_USERNAME: 'root_admin',
      ADMIN_PASSWORD: 'admin-Secret-3',
      HTTP_ADAPTER: 'express',
    });
    const banner = startBanner(config, localUrl(config));
    expect(banner).toEqual([
      'listening on http://10.0.0.5:3000',
      'database: PostgreSQL db.internal:5432/cards',
      'shared state: Redis cache.internal:6380 database 2 (TLS)',
      'HTTP adapter: Express (HTTP_ADAPTER=express)',
      'admin login: POST http://10.0.0.5:3000/admin/v1/auth/login as "root_admin" with the password in ADMIN_PASSWORD',
      'API docs: http://10.0.0.5:3000/docs',
    ]);
    for (const secret of ['db-Secret-1', 'redis-Secret-2', 'admin-Secret-3', 'cards:', 'default:'])
      expect(banner.join('\n')).not.toContain(secret);
  });

  it('says how many workers a clustered service runs, and nothing of workers for one process', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://db/cards',
      APP_ENCRYPTION_KEY: KEY_HEX,
      REDIS_URL: 'redis://cache:6379',
      WORKERS: '2',
    });
    const banner = startBanner(config, localUrl(config), { workers: 2 });
    expect(banner[3]).toBe('workers: 2 processes sharing the port (WORKERS=2; SIGHUP restarts them one at a time)');
    expect(banner.filter((line) => line.startsWith('listening on'))).toHaveLength(1);
    expect(startBanner(config, localUrl(config), { workers: 1 }).some((line) => line.startsWith('workers'))).toBe(false);
  });

  it('shows the console only when one is served', () => {
    const config = loadConfig({});
    expect(startBanner(config, 'http://localhost:3000').some((line) => line.startsWith('console'))).toBe(false);
    expect(startBanner(config, 'http://localhost:3000', { consolePath: '/console' }).at(-1)).toBe(
      'console: http://localhost:3000/console',
    );
  });
});
