import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';

const CLEAR_BATCH = 500;

/**
 * The shared cache's Keyv store over the app's own ioredis client. A second client (node-redis under
 * @keyv/redis) would need the Sentinel rule twice, and one that kept the dead primary's address
 * after a failover held every cached read until a restart. Keyv serialises values and prefixes keys
 * with its namespace; TTLs arrive in milliseconds.
 */
export class RedisKeyvStore extends EventEmitter {
  readonly opts = {};
  /** Set by Keyv: `clear` removes this namespace's keys only. */
  namespace?: string;

  constructor(private readonly redis: Redis) {
    super();
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttl?: number): Promise<void> {
    if (ttl && ttl > 0) await this.redis.set(key, value, 'PX', Math.ceil(ttl));
    else await this.redis.set(key, value);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.del(key)) > 0;
  }

  async clear(): Promise<void> {
    if (!this.namespace) throw new Error('RedisKeyvStore.clear needs a namespace: it never empties the whole database');
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.namespace}:*`, 'COUNT', CLEAR_BATCH);
      if (keys.length) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
