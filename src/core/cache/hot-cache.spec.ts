import type { Cache } from '@nestjs/cache-manager';
import { createCache } from 'cache-manager';
import { AppConfig } from '../../config/app-config';
import type { RequestMemo } from '../request-memo';
import { MemoryStore } from '../store/memory-store';
import { HotCache, PLATFORM_SCOPE } from './hot-cache';

const WITH_REDIS = { REDIS_URL: 'redis://shared' } as AppConfig;

/** Two service instances: each its own process memory, both on one shared store and shared cache. */
function twoInstances(config = WITH_REDIS) {
  const store = new MemoryStore();
  // Round trips to the shared store, and the keys each one read.
  const gets = { count: 0, keys: [] as string[][] };
  const getMany = store.getMany.bind(store);
  store.getMany = (keys: readonly string[]) => {
    gets.count += 1;
    gets.keys.push([...keys]);
    return getMany(keys);
  };
  const get = store.get.bind(store);
  store.get = (key: string) => {
    gets.count += 1;
    gets.keys.push([key]);
    return get(key);
  };
  const shared = createCache() as unknown as Cache;
  return { a: new HotCache(shared, store, config), b: new HotCache(shared, store, config), gets, shared };
}

/** Runs `fn` with the memo of one new request (a fresh one, as each HTTP request gets). */
function inRequest<T>(fn: (request: RequestMemo) => Promise<T>): Promise<T> {
  return fn({});
}

describe('HotCache', () => {
  it('loads once, then answers from process memory', async () => {
    const { a } = twoInstances();
    const load = jest.fn(async () => ({ name: 'p', limit: 2 }));
    expect(await a.through('s', 'k', load)).toEqual({ name: 'p', limit: 2 });
    expect(await a.through('s', 'k', load)).toEqual({ name: 'p', limit: 2 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads once for the requests that miss the same value together, and again after a failed load', async () => {
    const { a } = twoInstances();
    let fail = true;
    const load = jest.fn(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error('database down');
      return { name: 'p' };
    });
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => inRequest((r) => a.through('s', 'k', load, r))));
    expect(failed.map((f) => f.status)).toEqual(Array(5).fill('rejected'));
    expect(load).toHaveBeenCalledTimes(1);
    fail = false;
    const values = await Promise.all(Array.from({ length: 5 }, () => inRequest((r) => a.through('s', 'k', load, r))));
    expect(values).toEqual(Array(5).fill({ name: 'p' }));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows a change saved through one instance on the next read of the other', async () => {
    const { a, b } = twoInstances();
    let stored = 'old';
    const load = async () => ({ value: stored });
    expect(await a.through('s', 'k', load)).toEqual({ value: 'old' });
    expect(await b.through('s', 'k', load)).toEqual({ value: 'old' });
    stored = 'new';
    await a.invalidate('s');
    expect(await b.through('s', 'k', load)).toEqual({ value: 'new' });
    expect(await a.through('s', 'k', load)).toEqual({ value: 'new' });
  });

  it('never serves again a value that a read loaded while a write committed and invalidated', async () => {
    const { a, b } = twoInstances();
    let stored = 'old';
    const racing = a.through('s', 'k', async () => {
      const seen = stored; // the read sees the row before the write...
      stored = 'new'; // ...the write commits...
      await b.invalidate('s'); // ...and invalidates before the read caches what it saw
      return { value: seen };
    });
    expect(await racing).toEqual({ value: 'old' });
    const load = async () => ({ value: stored });
    expect(await a.through('s', 'k', load)).toEqual({ value: 'new' });
    expect(await b.through('s', 'k', load)).toEqual({ value: 'new' });
  });

  it('reads each scope generation once per request, whatever the number of keys', async () => {
    const { a, gets } = twoInstances();
    await inRequest(async (request) => {
      await a.through('s', 'one', async () => 1, request);
      await a.through('s', 'two', async () => 2, request);
      await a.through('t', 'three', async () => 3, request);
      await a.through('s', 'one', async () => 1, request);
    });
    expect(gets.count).toBe(2);
    await inRequest((request) => a.through('s', 'one', async () => 1, request));
    expect(gets.count).toBe(3);
    // Outside a request, every read asks for the generation.
    await a.through('s', 'one', async () => 1);
    await a.through('s', 'one', async () => 1);
    expect(gets.count).toBe(5);
  });

  it("reads the platform's generation with the first other scope of a request: one round trip for a client request", async () => {
    const { a, b, gets } = twoInstances();
    let interfaces = 'on';
    const program = async () => 'program';
    const platform = async () => interfaces;
    await inRequest(async (request) => {
      expect(await a.through('program:1', 'program', program, request)).toBe('program');
      expect(await a.through(PLATFORM_SCOPE, 'interfaces', platform, request)).toBe('on');
    });
    expect(gets.keys).toEqual([['cache:generation:program:1', 'cache:generation:platform']]);

    // A platform change made through the other instance is seen by the next request all the same.
    interfaces = 'off';
    await b.invalidate(PLATFORM_SCOPE);
    await inRequest(async (request) => {
      await a.through('program:1', 'program', program, request);
      expect(await a.through(PLATFORM_SCOPE, 'interfaces', platform, request)).toBe('off');
    });
    expect(gets.count).toBe(2);
  });

  it('invalidates one scope only', async () => {
    const { a, b } = twoInstances();
    const loads = { s: 0, t: 0 };
    const load = (scope: 's' | 't') => async () => (loads[scope] += 1);
    await a.through('s', 'k', load('s'));
    await a.through('t', 'k', load('t'));
    await b.invalidate('s');
    await a.through('s', 'k', load('s'));
    await a.through('t', 'k', load('t'));
    expect(loads).toEqual({ s: 2, t: 1 });
  });

  it('gives frozen plain-JSON values, the same shape from either tier', async () => {
    const { a, b } = twoInstances();
    const at = new Date('2026-01-02T03:04:05Z');
    const first = await a.through('s', 'k', async () => ({ at, nested: { list: [1] } }));
    const second = await b.through('s', 'k', async () => ({ at, nested: { list: [1] } }));
    expect(first).toEqual({ at: '2026-01-02T03:04:05.000Z', nested: { list: [1] } });
    expect(second).toEqual(first);
    expect(() => {
      (first.nested.list as number[]).push(2);
    }).toThrow(TypeError);
    expect(Object.isFrozen(second.nested)).toBe(true);
  });

  it('answers a second instance from the shared cache without loading again', async () => {
    const { a, b } = twoInstances();
    const load = jest.fn(async () => ({ v: 1 }));
    await a.through('s', 'k', load);
    expect(await b.through('s', 'k', load)).toEqual({ v: 1 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps no shared copy without Redis (one instance: process memory is enough)', async () => {
    const { a, shared } = twoInstances({} as AppConfig);
    const set = jest.spyOn(shared, 'set');
    const load = jest.fn(async () => ({ v: 1 }));
    await a.through('s', 'k', load);
    await a.through('s', 'k', load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(set).not.toHaveBeenCalled();
  });

  it('caches a missing value (null) like any other', async () => {
    const { a } = twoInstances();
    const load = jest.fn(async () => null);
    expect(await a.through('s', 'gone', load)).toBeNull();
    expect(await a.through('s', 'gone', load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
