import type { ThrottlerStorage } from '@nestjs/throttler';
import { SharedStore } from '../store/shared-store';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * `@nestjs/throttler`'s storage over the app's SharedStore: Redis when REDIS_URL is set (every
 * instance counts together, on the app's one ioredis client), process memory in embedded mode.
 * (`@nest-lab/throttler-storage-redis` would need an `overrides` entry for Nest 12 and a second
 * code path for the in-process store.)
 *
 * Counts per fixed clock window, like the failure limiter: one atomic bounded increment per
 * request (a Lua script on Redis), so a burst across instances admits exactly `limit`, and a
 * refused request is not counted. A refused key stays refused until its window ends (the
 * throttler's `blockDuration` is not used): Retry-After is the seconds left in the window.
 */
export class SharedThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly store: SharedStore) {}

  async increment(
    key: string,
    ttlMs: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    const window = Math.floor(now / ttlMs);
    const secondsLeft = Math.max(1, Math.ceil(((window + 1) * ttlMs - now) / 1000));
    const hits = await this.store.increment(`rate:${throttlerName}:${key}:${window}`, Math.ceil(ttlMs / 1000), limit);
    const isBlocked = hits === null;
    return { totalHits: hits ?? limit + 1, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }
}
