/**
 * State that every instance must agree on: nonce claims, daily quotas, revocation markers.
 * Backed by Redis when REDIS_URL is set, by process memory otherwise (one instance only).
 */
export abstract class SharedStore {
  /** Atomically claims `key` for `ttlSeconds`; false when it is already claimed (SET NX EX). */
  abstract claim(key: string, ttlSeconds: number): Promise<boolean>;

  /**
   * Adds one to a counter that expires `ttlSeconds` after its first use. With a `limit`, a count
   * that would pass it is refused and not consumed: the answer is then null.
   */
  abstract increment(key: string, ttlSeconds: number, limit?: number | null): Promise<number | null>;

  /** Gives back one use taken by `increment` (never below zero; the expiry is kept). */
  abstract decrement(key: string): Promise<void>;

  abstract get(key: string): Promise<string | null>;
  /** Several keys in one round trip (MGET), in the order asked. */
  abstract getMany(keys: readonly string[]): Promise<Array<string | null>>;
  abstract set(key: string, value: string, ttlSeconds: number): Promise<void>;
  abstract delete(key: string): Promise<void>;
  /** Throws when the store cannot be reached (readiness probe). */
  abstract ping(): Promise<void>;
}
