import { Injectable } from '@nestjs/common';
import type { RequestMemo } from '../request-memo';
import { HotCache } from './hot-cache';

/** What client routes cache per program. */
export type ProgramCachePart = 'program' | 'connect-customization' | 'announcement' | 'login-blacklist';

/** Per-program data on the client hot paths, in the hot cache. Values must be JSON-safe. */
@Injectable()
export class ProgramCache {
  constructor(private readonly cache: HotCache) {}

  through<T>(programId: string, part: ProgramCachePart, load: () => Promise<T>, memo?: RequestMemo): Promise<T> {
    return this.cache.through(`program:${programId}`, part, load, memo);
  }

  /** Called by every write that changes what a client route of these programs sees. */
  async invalidate(...programIds: string[]): Promise<void> {
    await Promise.all(programIds.map((id) => this.cache.invalidate(`program:${id}`)));
  }
}
