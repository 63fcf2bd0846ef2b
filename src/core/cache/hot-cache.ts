import { CACHE_MANAGER, Cache } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { perRequest, type RequestMemo } from '../request-memo';
import { SharedStore } from '../store/shared-store';
import { TurnReads } from '../store/turn-reads';

/** A safety net only: every write that changes cached data moves the generation at once. */
const TTL_MS = 10_000;
/** Entries kept in process at most (programs read in the last TTL); past it the map starts over. */
const LOCAL_LIMIT = 10_000;
/** A generation counter may expire and start over: no entry outlives TTL_MS, so old numbers are never met. */
const GENERATION_TTL_SECONDS = 30 * 86_400;
const GENERATIONS_OF_REQUEST = Symbol('cache generations read by this request');

interface LocalEntry {
  generation: string;
  value: unknown;
  expiresAt: number;
}

/**
 * Configuration read on client hot paths (a program's settings, the platform switches...), cached
 * in two tiers. Values belong to a scope (`platform`, `program:<id>`) whose generation counter
 * every instance shares (the shared store: Redis when configured). A request reads each scope's
 * generation once (one GET) and then finds values in process; only values of an older generation
 * are looked up again, in the shared cache (keyed by generation) and then the database. A write
 * that changes cached data moves its scope's generation (`invalidate`) after its commit: the next
 * request on any instance sees the change, and a read that raced the write can only have cached
 * its stale value under the old generation, which nobody asks for again.
 */
@Injectable()
export class HotCache {
  private readonly local = new Map<string, LocalEntry>();
  /**
   * The shared tier, with Redis only: one instance gains nothing from a second in-process copy,
   * whose entries of old generations would only be dropped when read, that is never.
   */
  private readonly shared: Cache | null;
  private readonly generations: TurnReads;
  /**
   * Lookups under way, by key and generation: the requests that miss the same value together wait
   * for one lookup. When an entry expired, each of the 64 logins in flight loaded its program again
   * (several statements each), 4.8 % of a Fastify bound-device login's CPU (docs/performance.md).
   */
  private readonly lookups = new Map<string, Promise<unknown>>();

  constructor(
    @Inject(CACHE_MANAGER) cache: Cache,
    private readonly store: SharedStore,
    config: AppConfig,
  ) {
    this.shared = config.REDIS_URL || config.REDIS_SENTINELS ? cache : null;
    this.generations = new TurnReads(store);
  }

  /** `memo`: the memo of the request reading it (its generations are read once); none outside a request. */
  async through<T>(scope: string, name: string, load: () => Promise<T>, memo?: RequestMemo): Promise<T> {
    const generation = await this.generation(scope, memo);
    const key = `${scope}:${name}`;
    const hit = this.local.get(key);
    if (hit && hit.generation === generation && hit.expiresAt > Date.now()) return hit.value as T;
    const sharedKey = `${key}@${generation}`;
    let lookup = this.lookups.get(sharedKey) as Promise<T> | undefined;
    if (!lookup) {
      lookup = this.lookUp(key, sharedKey, generation, load).finally(() => this.lookups.delete(sharedKey));
      this.lookups.set(sharedKey, lookup);
    }
    return lookup;
  }

  private async lookUp<T>(key: string, sharedKey: string, generation: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const stored = this.shared ? await this.shared.get<{ value: T }>(sharedKey) : undefined;
    // A plain JSON copy, deep-frozen: the same shape whichever tier answers, and no caller can
    // change what the next request reads.
    const value = deepFreeze(stored ? stored.value : (JSON.parse(JSON.stringify((await load()) ?? null)) as T));
    if (!stored && this.shared) await this.shared.set(sharedKey, { value }, TTL_MS);
    if (this.local.size >= LOCAL_LIMIT) this.local.clear();
    this.local.set(key, { generation, value, expiresAt: now + TTL_MS });
    return value;
  }

  /** Called after every committed write that changes what `through` returns in this scope. */
  async invalidate(scope: string): Promise<void> {
    await this.store.increment(generationKey(scope), GENERATION_TTL_SECONDS);
  }

  /**
   * A scope's generation, read once per request. The platform scope is read along with the first
   * other scope: every client request reads a program's settings and then the platform's (the
   * interface gate), which were two round trips to Redis. The generations asked for by all the
   * requests of one turn of the event loop go in one MGET (TurnReads).
   */
  private generation(scope: string, memo: RequestMemo | undefined): Promise<string> {
    const read = perRequest(memo, GENERATIONS_OF_REQUEST, () => new Map<string, Promise<string>>());
    const known = read.get(scope);
    if (known) return known;
    const scopes = scope !== PLATFORM_SCOPE && !read.has(PLATFORM_SCOPE) ? [scope, PLATFORM_SCOPE] : [scope];
    for (const each of scopes) {
      const generation = this.generations.get(generationKey(each)).then((value) => value ?? '0');
      // A store fault reaches whoever awaits the generation; one read ahead that nobody awaits
      // (the request ended first) must not become an unhandled rejection.
      generation.catch(() => undefined);
      read.set(each, generation);
    }
    return read.get(scope)!;
  }
}

/** The platform's switches and settings (platform.service.ts), which every client request reads. */
export const PLATFORM_SCOPE = 'platform';

function generationKey(scope: string): string {
  return `cache:generation:${scope}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
