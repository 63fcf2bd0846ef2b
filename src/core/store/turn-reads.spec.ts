import { MemoryStore } from './memory-store';
import { TurnReads } from './turn-reads';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnReads', () => {
  let store: MemoryStore;
  let sent: string[][];
  let reads: TurnReads;
  beforeEach(async () => {
    store = new MemoryStore();
    await store.set('a', '1', 60);
    await store.set('b', '2', 60);
    sent = [];
    const getMany = store.getMany.bind(store);
    store.getMany = (keys) => {
      sent.push([...keys]);
      return getMany(keys);
    };
    reads = new TurnReads(store);
  });

  it('reads the keys asked for in one turn in one multi-key read, each key once', async () => {
    const values = await Promise.all([reads.get('a'), reads.get('b'), reads.get('a'), reads.get('missing')]);
    expect(values).toEqual(['1', '2', '1', null]);
    expect(sent).toEqual([['a', 'b', 'missing']]);
  });

  it('sends a read asked for after the turn was sent on its own, so it sees a write made in between', async () => {
    const first = reads.get('a');
    await nextTurn();
    await store.set('a', '5', 60);
    const second = reads.get('a');
    expect([await first, await second]).toEqual(['1', '5']);
    expect(sent).toEqual([['a'], ['a']]);
  });

  it("gives a store fault to that turn's reads only", async () => {
    const getMany = store.getMany;
    store.getMany = () => Promise.reject(new Error('store down'));
    const failed = [reads.get('a'), reads.get('b')];
    await expect(Promise.all(failed)).rejects.toThrow('store down');
    await expect(failed[1]).rejects.toThrow('store down');
    store.getMany = getMany;
    await expect(reads.get('b')).resolves.toBe('2');
  });
});
