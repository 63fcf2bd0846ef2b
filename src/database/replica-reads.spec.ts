import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { MemoryStore } from '../core/store/memory-store';
import { SharedStore } from '../core/store/shared-store';
import { ReplicaReads } from './replica-reads';

/** Which connection ReplicaReads hands a read: a fake data source names them. */
function setUp(readUrl: string | undefined, store: SharedStore = new MemoryStore()) {
  const primary = { name: 'primary' } as unknown as EntityManager;
  const replica = { name: 'replica' } as unknown as EntityManager;
  const released: string[] = [];
  const dataSource = {
    manager: primary,
    createQueryRunner: (mode: string) => {
      if (mode !== 'slave') throw new Error(`asked for ${mode}`);
      return { manager: replica, release: async () => void released.push('replica') };
    },
  } as unknown as DataSource;
  const config = Object.assign(new AppConfig(), { DATABASE_URL: 'postgres://p/db', DATABASE_READ_URL: readUrl });
  const reads = new ReplicaReads(dataSource, store, config, new JsonLogger('error', () => undefined));
  const where = (accountId: string) => reads.read(accountId, async (db) => (db as unknown as { name: string }).name);
  return { reads, where, released };
}

describe('ReplicaReads', () => {
  it('reads the replica, and releases its connection', async () => {
    const { where, released } = setUp('postgres://r/db');
    expect(await where('a')).toBe('replica');
    expect(released).toEqual(['replica']);
  });

  it('reads the primary without DATABASE_READ_URL, and marks nothing', async () => {
    const store = new MemoryStore();
    const { reads, where } = setUp(undefined, store);
    await reads.wrote('a');
    expect(await where('a')).toBe('primary');
    expect(await store.get('replica:wrote:a')).toBeNull();
  });

  it("sends an account's reads to the primary after its own write, and only that account's", async () => {
    const { reads, where } = setUp('postgres://r/db');
    await reads.wrote('a');
    expect(await where('a')).toBe('primary');
    expect(await where('b')).toBe('replica');
  });

  it('reads the primary when the store cannot say whether the account wrote', async () => {
    const store = new MemoryStore();
    jest.spyOn(store, 'get').mockRejectedValue(new Error('store down'));
    const { where } = setUp('postgres://r/db', store);
    expect(await where('a')).toBe('primary');
  });

  it('does not fail a write whose mark cannot be kept', async () => {
    const store = new MemoryStore();
    jest.spyOn(store, 'set').mockRejectedValue(new Error('store down'));
    const { reads } = setUp('postgres://r/db', store);
    await expect(reads.wrote('a')).resolves.toBeUndefined();
  });
});
