import { CACHE_MANAGER, Cache } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';

/** What client routes cache per program; each part is dropped by `invalidate`. */
export const PROGRAM_CACHE_PARTS = ['program', 'connect-customization', 'announcement'] as const;
export type ProgramCachePart = (typeof PROGRAM_CACHE_PARTS)[number];

/** A safety net: writes invalidate at once; this bounds a value cached by a read that raced a write. */
const TTL_MS = 10_000;

/**
 * Read-through cache of per-program data on the client hot paths, in the shared cache (Redis when
 * configured, so an invalidation reaches every instance). Values must be JSON-safe.
 */
@Injectable()
export class ProgramCache {
  constructor(@Inject(CACHE_MANAGER) private readonly cache: Cache) {}

  async through<T>(programId: string, part: ProgramCachePart, load: () => Promise<T>): Promise<T> {
    const key = cacheKey(programId, part);
    const hit = await this.cache.get<{ value: T }>(key);
    if (hit) return hit.value;
    const value = await load();
    await this.cache.set(key, { value }, TTL_MS);
    return value;
  }

  /** Called by every write that changes what a client route of these programs sees. */
  async invalidate(...programIds: string[]): Promise<void> {
    await Promise.all(programIds.flatMap((id) => PROGRAM_CACHE_PARTS.map((part) => this.cache.del(cacheKey(id, part)))));
  }
}

function cacheKey(programId: string, part: ProgramCachePart): string {
  return `program:${programId}:${part}`;
}
