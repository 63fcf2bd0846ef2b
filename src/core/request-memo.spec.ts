import { perRequest, type RequestMemo } from './request-memo';

describe('perRequest', () => {
  it('makes a value once per request, and anew outside one', () => {
    const key = Symbol('test value');
    const a: RequestMemo = {};
    const b: RequestMemo = {};
    let made = 0;
    const make = () => ++made;
    expect([perRequest(a, key, make), perRequest(a, key, make), perRequest(b, key, make)]).toEqual([1, 1, 2]);
    expect([perRequest(undefined, key, make), perRequest(undefined, key, make)]).toEqual([3, 4]);
  });
});
