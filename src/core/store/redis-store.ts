import type Redis from 'ioredis';
import { SharedStore } from './shared-store';

// INCR that refuses (and undoes) a step past the limit, and starts the expiry on first use.
const INCREMENT_WITHIN_LIMIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local limit = tonumber(ARGV[2])
if limit >= 0 and n > limit then
  redis.call('DECR', KEYS[1])
  return -1
end
return n`;

// DECR that never goes below zero nor creates a key without an expiry.
const DECREMENT_TO_ZERO = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** SharedStore on Redis: every instance sees the same claims and counters. */
export class RedisStore extends SharedStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ck:',
  ) {
    super();
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, '1', 'EX', ttlSeconds, 'NX')) === 'OK';
  }

  async increment(key: string, ttlSeconds: number, limit?: number | null): Promise<number | null> {
    const n = Number(await this.redis.eval(INCREMENT_WITHIN_LIMIT, 1, this.prefix + key, ttlSeconds, limit ?? -1));
    return n < 0 ? null : n;
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT_TO_ZERO, 1, this.prefix + key);
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async getMany(keys: readonly string[]): Promise<Array<string | null>> {
    return this.redis.mget(keys.map((key) => this.prefix + key));
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
}
