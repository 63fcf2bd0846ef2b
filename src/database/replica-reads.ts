import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { SharedStore } from '../core/store/shared-store';

/** How long after an account's own write its reads stay on the primary: longer than replication lag is allowed to be. */
export const READ_YOUR_WRITES_SECONDS = 2;
const WROTE_PREFIX = 'replica:wrote:';

/**
 * The admin API's heavy reads on the read replica (DATABASE_READ_URL), when there is one. An
 * account that wrote within READ_YOUR_WRITES_SECONDS reads from the primary, so that it sees its
 * own change however far the replica lags; the mark lives in the shared store so that every
 * instance honours it. Without a replica everything runs on the primary as before.
 */
@Injectable()
export class ReplicaReads {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: SharedStore,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  get enabled(): boolean {
    return Boolean(this.config.DATABASE_URL && this.config.DATABASE_READ_URL);
  }

  /** Runs `fn` on the replica, or on the primary when there is none or `accountId` wrote just now. */
  async read<T>(accountId: string, fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.enabled || (await this.wroteRecently(accountId))) return fn(this.dataSource.manager);
    const replica = this.dataSource.createQueryRunner('slave');
    try {
      return await fn(replica.manager);
    } finally {
      await replica.release();
    }
  }

  /** `accountId` has just changed something: its reads stay on the primary for a while. */
  async wrote(accountId: string): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.store.set(WROTE_PREFIX + accountId, '1', READ_YOUR_WRITES_SECONDS);
    } catch (error) {
      // The write itself is committed; its author may read a stale list for a moment, nothing worse.
      this.logger.entry('warn', 'read-your-writes mark not kept', { error: String(error) });
    }
  }

  private async wroteRecently(accountId: string): Promise<boolean> {
    try {
      return (await this.store.get(WROTE_PREFIX + accountId)) !== null;
    } catch {
      return true; // the store cannot say: the primary is never stale
    }
  }
}
