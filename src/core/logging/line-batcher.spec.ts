import { setImmediate as nextTurn } from 'node:timers/promises';
import { LineBatcher } from './line-batcher';

describe(LineBatcher.name, () => {
  it('writes the lines of one event-loop turn with one call, in order, each ending in a newline', async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher((text) => writes.push(text));
    batcher.write('{"n":1}');
    batcher.write('{"n":2}');
    batcher.write('{"n":3}');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n']);
  });

  it('starts a new write for the lines of a later turn', async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher((text) => writes.push(text));
    batcher.write('a');
    await nextTurn();
    batcher.write('b');
    await nextTurn();
    expect(writes).toEqual(['a\n', 'b\n']);
  });

  it('writes a line at once with writeNow, after the lines still pending, and leaves nothing for later', async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher((text) => writes.push(text));
    batcher.write('request 1');
    batcher.write('request 2');
    batcher.writeNow('shutting down');
    expect(writes).toEqual(['request 1\nrequest 2\nshutting down\n']);
    await nextTurn();
    expect(writes).toHaveLength(1);
  });

  it('writes what is pending when flushed at once (as at exit), and nothing twice', async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher((text) => writes.push(text));
    batcher.write('last words');
    batcher.flush();
    expect(writes).toEqual(['last words\n']);
    await nextTurn();
    batcher.flush();
    expect(writes).toEqual(['last words\n']);
  });
});
