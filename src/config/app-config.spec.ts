import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from './app-config';
import { autoWorkers, databaseOnThisHost } from './worker-count';

const KEY_HEX = 'a'.repeat(64);

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HTTP_ADAPTER: 'fastify',
      DATA_DIR: './data',
      APP_TIMEZONE: 'UTC',
      ADMIN_USERNAME: 'admin',
      LOG_LEVEL: 'info',
      ACCESS_LOG: 'on',
      TRUST_PROXY: '',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.usesEmbeddedDatabase).toBe(true);
  });

  it('treats empty variables as unset, keeping the defaults', () => {
    const config = loadConfig({ PORT: '', HTTP_ADAPTER: '', DATA_DIR: '', APP_TIMEZONE: '', ADMIN_PASSWORD: '' });
    expect(config).toMatchObject({ PORT: 3000, HTTP_ADAPTER: 'fastify', DATA_DIR: './data', APP_TIMEZONE: 'UTC' });
    expect(config.ADMIN_PASSWORD).toBeUndefined();
  });

  it('keeps amounts in CNY unless CURRENCY names another ISO 4217 currency', () => {
    expect(loadConfig({}).CURRENCY).toBe('CNY');
    expect(loadConfig({ CURRENCY: 'USD' }).CURRENCY).toBe('USD');
    expect(configError({ CURRENCY: 'usd' }).message).toMatch(/CURRENCY must be an ISO 4217 code/);
    expect(configError({ CURRENCY: 'XYZ' }).message).toMatch(/CURRENCY: unknown currency "XYZ"/);
  });

  it('reads valid values and converts numbers', () => {
    const config = loadConfig({
      PORT: '8080',
      HTTP_ADAPTER: 'express',
      APP_TIMEZONE: 'Asia/Shanghai',
      DATABASE_URL: 'postgresql://u:p@db:5432/cards',
      APP_ENCRYPTION_KEY: KEY_HEX,
      REDIS_URL: 'rediss://cache:6380',
      ADMIN_PASSWORD: 'long-enough',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      HTTP_ADAPTER: 'express',
      APP_TIMEZONE: 'Asia/Shanghai',
      REDIS_URL: 'rediss://cache:6380',
    });
    expect(config.usesEmbeddedDatabase).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['HTTP_ADAPTER', 'koa'],
    ['APP_TIMEZONE', 'Mars/Base'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['ADMIN_PASSWORD', 'short'],
    ['APP_ENCRYPTION_KEY', 'not-a-key'],
    ['ADMIN_USERNAME', 'a b'],
    ['LOG_LEVEL', 'verbose'],
    ['ACCESS_LOG', 'false'],
    ['LOGIN_LOG_RETENTION_MONTHS', '-1'],
    ['LOGIN_LOG_RETENTION_MONTHS', '1.5'],
    ['LOGIN_LOG_RETENTION_MONTHS', 'a year'],
  ])('rejects %s=%s, naming the variable', (name, value) => {
    const env: NodeJS.ProcessEnv = { [name]: value };
    if (name === 'DATABASE_URL') env.APP_ENCRYPTION_KEY = KEY_HEX;
    const error = configError(env);
    expect(error.message).toContain(name);
  });

  it('keeps every login-log row unless LOGIN_LOG_RETENTION_MONTHS says how many months', () => {
    expect(loadConfig({}).LOGIN_LOG_RETENTION_MONTHS).toBe(0);
    expect(loadConfig({ LOGIN_LOG_RETENTION_MONTHS: '12' }).LOGIN_LOG_RETENTION_MONTHS).toBe(12);
  });

  it('turns the access log off with ACCESS_LOG=off', () => {
    expect(loadConfig({ ACCESS_LOG: 'off' }).ACCESS_LOG).toBe('off');
  });

  it('requires APP_ENCRYPTION_KEY when DATABASE_URL is set', () => {
    const error = configError({ DATABASE_URL: 'postgres://u:p@db/cards' });
    expect(error.message).toContain('APP_ENCRYPTION_KEY');
    expect(error.message).not.toContain('DATABASE_URL:');
  });

  it('takes a replica and a migration connection only beside DATABASE_URL, and only postgres:// URLs', () => {
    const server = { DATABASE_URL: 'postgres://u:p@pooler:6432/cards', APP_ENCRYPTION_KEY: 'a'.repeat(64) };
    const config = loadConfig({
      ...server,
      DATABASE_READ_URL: 'postgres://u:p@replica/cards',
      MIGRATION_DATABASE_URL: 'postgres://o:p@db/cards',
    });
    expect([config.DATABASE_READ_URL, config.MIGRATION_DATABASE_URL]).toEqual([
      'postgres://u:p@replica/cards',
      'postgres://o:p@db/cards',
    ]);
    expect(configError({ MIGRATION_DATABASE_URL: 'postgres://o:p@db/cards' }).message).toContain(
      'MIGRATION_DATABASE_URL: needs DATABASE_URL',
    );
    expect(configError({ DATABASE_READ_URL: 'postgres://u:p@replica/cards' }).message).toContain(
      'DATABASE_READ_URL: needs DATABASE_URL',
    );
    expect(configError({ ...server, MIGRATION_DATABASE_URL: 'mysql://db/cards' }).message).toContain(
      'MIGRATION_DATABASE_URL must be a postgres:// URL',
    );
  });

  it('accepts a base64 encryption key', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/cards', APP_ENCRYPTION_KEY: key }).APP_ENCRYPTION_KEY).toBe(key);
  });

  it('names every bad variable in one error', () => {
    const error = configError({ PORT: 'abc', HTTP_ADAPTER: 'koa', APP_TIMEZONE: 'Mars/Base', REDIS_URL: 'http://x' });
    for (const name of ['PORT', 'HTTP_ADAPTER', 'APP_TIMEZONE', 'REDIS_URL']) expect(error.message).toContain(name);
  });

  it('does not name variables that are fine', () => {
    const error = configError({ PORT: 'abc', HTTP_ADAPTER: 'fastify' });
    expect(error.message).not.toContain('HTTP_ADAPTER');
  });

  it('never echoes a secret value in the error', () => {
    const error = configError({ ADMIN_PASSWORD: 'pw1' });
    expect(error.message).not.toContain('pw1');
  });

  describe('WORKERS', () => {
    const shared = { DATABASE_URL: 'postgres://db/cards', APP_ENCRYPTION_KEY: KEY_HEX, REDIS_URL: 'redis://cache:6379' };

    it('runs one process on the embedded default and with only one of DATABASE_URL / REDIS_URL', () => {
      expect(loadConfig({}).workerCount).toBe(1);
      expect(loadConfig({ WORKERS: 'auto', DATABASE_URL: shared.DATABASE_URL, APP_ENCRYPTION_KEY: KEY_HEX }).workerCount).toBe(1);
      expect(loadConfig({ REDIS_URL: shared.REDIS_URL }).workerCount).toBe(1);
    });

    it('runs autoWorkers when PostgreSQL and Redis hold the state, or the number given', () => {
      expect(loadConfig(shared).workerCount).toBe(autoWorkers(availableParallelism(), false));
      const local = { ...shared, DATABASE_URL: 'postgres://app@127.0.0.1:5432/cards' };
      expect(loadConfig(local).workerCount).toBe(autoWorkers(availableParallelism(), true));
      expect(loadConfig({ ...shared, WORKERS: '3' }).workerCount).toBe(3);
      expect(loadConfig({ ...shared, WORKERS: '1' }).workerCount).toBe(1);
      expect(loadConfig({ WORKERS: '1' }).workerCount).toBe(1);
    });

    it.each([
      [1, false, 1],
      [2, false, 1],
      [2, true, 1],
      [4, false, 4],
      [3, true, 1],
      [4, true, 2],
      [8, false, 8],
      [8, true, 4],
      [16, false, 16],
      [16, true, 8],
      [64, true, 32],
    ])('auto on %i cores, database on this host %s: %i workers', (cores, local, workers) => {
      expect(autoWorkers(cores, local)).toBe(workers);
    });

    it.each([
      ['postgres://app@localhost/cards', true],
      ['postgres://app@127.0.0.1:5432/cards', true],
      ['postgres://app@[::1]:5432/cards', true],
      ['postgres://app@/cards?host=/var/run/postgresql', true],
      ['postgres://app@db.internal:5432/cards', false],
      ['postgres://app@10.0.0.5/cards', false],
    ])('DATABASE_URL %s is on this host: %s', (url, local) => {
      expect(databaseOnThisHost(url)).toBe(local);
    });

    it.each(['2', '8'])('refuses WORKERS=%s without DATABASE_URL and REDIS_URL, naming the variable', (count) => {
      expect(configError({ WORKERS: count }).message).toMatch(/WORKERS: .*DATABASE_URL and REDIS_URL/);
      expect(configError({ WORKERS: count, REDIS_URL: shared.REDIS_URL }).message).toContain('WORKERS');
    });

    it.each(['0', '-1', 'two', '1.5', '1000'])('refuses WORKERS=%s', (value) => {
      expect(configError({ ...shared, WORKERS: value }).message).toContain('WORKERS');
    });
  });

  it('ignores unknown variables', () => {
    const config = loadConfig({ PATH: '/bin', HOME: '/root', SOMETHING_ELSE: '!!!' });
    expect(config.PORT).toBe(3000);
    expect(config).not.toHaveProperty('SOMETHING_ELSE');
  });
  describe('Redis Sentinel', () => {
    const SENTINEL = { REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_MASTER: 'cards' };

    it('reads the sentinels, master name, password and database', () => {
      const config = loadConfig({ ...SENTINEL, REDIS_PASSWORD: 'pw', REDIS_DB: '3' });
      expect(config).toMatchObject({ ...SENTINEL, REDIS_PASSWORD: 'pw', REDIS_DB: 3 });
      expect(config.usesRedis).toBe(true);
    });

    it('shares state out of process with DATABASE_URL, as REDIS_URL does', () => {
      const config = loadConfig({ ...SENTINEL, DATABASE_URL: 'postgres://db/cards', APP_ENCRYPTION_KEY: KEY_HEX, WORKERS: '2' });
      expect(config.sharesStateOutOfProcess).toBe(true);
      expect(config.workerCount).toBe(2);
    });

    it.each(['s1', 's1:port', 's1:26379,', 'redis://s1:26379', 's1:26379;s2:26379'])('refuses REDIS_SENTINELS=%s', (list) => {
      expect(configError({ ...SENTINEL, REDIS_SENTINELS: list }).message).toContain('REDIS_SENTINELS must be host:port');
    });

    it('requires the master name with sentinels', () => {
      expect(configError({ REDIS_SENTINELS: 's1:26379' }).message).toContain('REDIS_SENTINEL_MASTER: required');
    });

    it('refuses REDIS_URL and REDIS_SENTINELS together', () => {
      expect(configError({ ...SENTINEL, REDIS_URL: 'redis://cache:6379' }).message).toContain(
        'REDIS_URL and REDIS_SENTINELS: set one',
      );
    });

    it.each(['-1', '16', 'two'])('refuses REDIS_DB=%s', (db) => {
      expect(configError({ ...SENTINEL, REDIS_DB: db }).message).toContain('REDIS_DB');
    });
  });
});
