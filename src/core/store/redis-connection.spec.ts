import { parseSentinels, reconnectOnReadOnly, redisConnectionOptions, type RedisSettings } from './redis-connection';

const SENTINEL: RedisSettings = {
  REDIS_SENTINELS: 'sentinel-a:26379, sentinel-b:26380,10.0.0.3:26381',
  REDIS_SENTINEL_MASTER: 'cards',
  REDIS_PASSWORD: 's3cret',
  REDIS_DB: 2,
};

describe('redisConnectionOptions', () => {
  it('parses the sentinel list, spaces allowed', () => {
    expect(parseSentinels(SENTINEL.REDIS_SENTINELS!)).toEqual([
      { host: 'sentinel-a', port: 26379 },
      { host: 'sentinel-b', port: 26380 },
      { host: '10.0.0.3', port: 26381 },
    ]);
  });

  it('asks the sentinels for the named primary, with its password and database', () => {
    const options = redisConnectionOptions(SENTINEL, { maxRetriesPerRequest: 2 });
    expect(options).toMatchObject({
      sentinels: parseSentinels(SENTINEL.REDIS_SENTINELS!),
      name: 'cards',
      password: 's3cret',
      db: 2,
      failoverDetector: false,
      maxRetriesPerRequest: 2,
    });
    // The password is the primary's: the sentinels are asked without one.
    expect(options.sentinelPassword).toBeUndefined();
  });

  it('uses database 0 when REDIS_DB is unset', () => {
    expect(redisConnectionOptions({ ...SENTINEL, REDIS_DB: undefined }).db).toBe(0);
  });

  it('leaves a direct REDIS_URL to the URL, adding only the caller tuning and the READONLY rule', () => {
    const options = redisConnectionOptions({ REDIS_URL: 'redis://cache:6379/1' }, { connectTimeout: 5000 });
    expect(options).toEqual({ connectTimeout: 5000, reconnectOnError: reconnectOnReadOnly });
  });

  it('reconnects and resends on READONLY (a demoted primary), on both kinds of connection', () => {
    for (const settings of [SENTINEL, { REDIS_URL: 'redis://cache:6379' }]) {
      const { reconnectOnError } = redisConnectionOptions(settings);
      expect(reconnectOnError!(new Error("READONLY You can't write against a read only replica."))).toBe(2);
      expect(reconnectOnError!(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
    }
  });
});
