import { loadConfig } from '../../config/app-config';
import { ErrorCode } from '../errors/error-code';
import { ServiceError } from '../errors/service-error';
import { MemoryStore } from '../store/memory-store';
import { FailureLimiter, FailurePolicy, FailureScopes, failureWindow } from './failure-limiter';

const CONFIG = loadConfig({});
const POLICY: FailurePolicy = { name: 'test-login', limit: 3, failure: ErrorCode.BAD_CREDENTIALS };

const badCredentials = () => Promise.reject(new ServiceError(ErrorCode.BAD_CREDENTIALS));
const banned = () => Promise.reject(new ServiceError(ErrorCode.USER_BANNED));
const success = () => Promise.resolve('ok');

async function codeOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as ServiceError).code;
  }
}

describe(FailureLimiter.name, () => {
  let store: MemoryStore;
  let limiter: { guard: <T>(scopes: FailureScopes, attempt: () => Promise<T>) => Promise<T> };

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:10Z'), doNotFake: ['setInterval', 'clearInterval'] });
    store = new MemoryStore();
    const real = new FailureLimiter(store, CONFIG);
    limiter = { guard: (scopes, attempt) => real.guard(POLICY, scopes, attempt) };
  });
  afterEach(() => {
    store.close();
    jest.useRealTimers();
  });

  it('computes fixed one-minute windows and the seconds left in them', () => {
    expect(failureWindow(Date.parse('2030-01-01T00:00:10Z'))).toEqual({
      index: Math.floor(Date.parse('2030-01-01T00:00:00Z') / 60_000),
      retryAfter: 50,
    });
    expect(failureWindow(Date.parse('2030-01-01T00:00:59.500Z')).retryAfter).toBe(1);
    expect(failureWindow(Date.parse('2030-01-01T00:01:00Z')).retryAfter).toBe(60);
  });

  it('refuses after the limit of wrong passwords with RATE_LIMITED and Retry-After, without running the attempt', async () => {
    for (let i = 0; i < 3; i++)
      expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, badCredentials))).toBe(ErrorCode.BAD_CREDENTIALS);
    const attempt = jest.fn(success);
    const refused = await limiter.guard({ account: 'user:a', address: 'ip:a' }, attempt).catch((e: ServiceError) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe(ErrorCode.RATE_LIMITED);
    expect((refused as ServiceError).headers).toEqual({ 'Retry-After': '50' });
    expect(attempt).not.toHaveBeenCalled();
  });

  it('does not count successes or refusals other than a wrong password', async () => {
    for (let i = 0; i < 10; i++) expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, success))).toBe('ok');
    for (let i = 0; i < 10; i++)
      expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, banned))).toBe(ErrorCode.USER_BANNED);
    for (let i = 0; i < 3; i++)
      expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, badCredentials))).toBe(ErrorCode.BAD_CREDENTIALS);
    expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, success))).toBe(ErrorCode.RATE_LIMITED);
  });

  it('counts each scope on its own and refuses when any is over the limit', async () => {
    for (let i = 0; i < 3; i++) await codeOf(limiter.guard({ account: `user:${i}`, address: 'ip:x' }, badCredentials));
    expect(await codeOf(limiter.guard({ account: 'user:new', address: 'ip:x' }, success))).toBe(ErrorCode.RATE_LIMITED);
    expect(await codeOf(limiter.guard({ account: 'user:new', address: 'ip:y' }, success))).toBe('ok');
    // The refusal on ip:x gave user:new's reserved slot back.
    for (let i = 0; i < 3; i++)
      expect(await codeOf(limiter.guard({ account: 'user:new', address: 'ip:z' }, badCredentials))).toBe(
        ErrorCode.BAD_CREDENTIALS,
      );
  });

  it('lets no more than the limit of concurrent guesses reach the password check', async () => {
    let checked = 0;
    const slowWrong = async () => {
      checked += 1;
      await Promise.resolve();
      throw new ServiceError(ErrorCode.BAD_CREDENTIALS);
    };
    const codes = await Promise.all(
      Array.from({ length: 10 }, () => codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, slowWrong))),
    );
    expect(checked).toBe(3);
    expect(codes.filter((c) => c === ErrorCode.RATE_LIMITED)).toHaveLength(7);
  });

  it('answers no more than the limit of failures from one address in a burst, the rest RATE_LIMITED, while successes all pass', async () => {
    let checked = 0;
    const slow = (wrong: boolean) => async () => {
      checked += 1;
      for (let i = 0; i < 5; i++) await Promise.resolve();
      if (wrong) throw new ServiceError(ErrorCode.BAD_CREDENTIALS);
      return 'ok';
    };
    const burst = Array.from({ length: 10 }, (_, i) => codeOf(limiter.guard({ address: 'ip:burst' }, slow(i % 2 === 0))));
    const codes = await Promise.all(burst);
    // Every attempt ran (they all read an empty count), yet only three wrong ones got their verdict.
    expect(checked).toBe(10);
    expect(codes.filter((c) => c === 'ok')).toHaveLength(5);
    expect(codes.filter((c) => c === ErrorCode.BAD_CREDENTIALS)).toHaveLength(3);
    expect(codes.filter((c) => c === ErrorCode.RATE_LIMITED)).toHaveLength(2);
    // And the address is full now: the next attempt does not run.
    const attempt = jest.fn(success);
    expect(await codeOf(limiter.guard({ address: 'ip:burst' }, attempt))).toBe(ErrorCode.RATE_LIMITED);
    expect(attempt).not.toHaveBeenCalled();
  });

  it('counts what a predicate policy calls a failure, whatever its code', async () => {
    const isMiss = (error: unknown) =>
      error instanceof ServiceError && (error.code === ErrorCode.CARD_INVALID || error.details === 'miss');
    const guard = (attempt: () => Promise<unknown>) =>
      new FailureLimiter(store, CONFIG).guard({ name: 'guess', limit: 2, failure: isMiss }, { address: 'ip:p' }, attempt);
    expect(await codeOf(guard(banned))).toBe(ErrorCode.USER_BANNED);
    expect(
      await codeOf(guard(() => Promise.reject(new ServiceError(ErrorCode.TOPUP_REFUSED, undefined, { details: 'miss' })))),
    ).toBe(ErrorCode.TOPUP_REFUSED);
    expect(await codeOf(guard(() => Promise.reject(new ServiceError(ErrorCode.CARD_INVALID))))).toBe(ErrorCode.CARD_INVALID);
    expect(await codeOf(guard(success))).toBe(ErrorCode.RATE_LIMITED);
  });

  it('limits by address alone when there is no account', async () => {
    for (let i = 0; i < 3; i++)
      expect(await codeOf(limiter.guard({ address: 'ip:a' }, badCredentials))).toBe(ErrorCode.BAD_CREDENTIALS);
    expect(await codeOf(limiter.guard({ address: 'ip:a' }, success))).toBe(ErrorCode.RATE_LIMITED);
    expect(await codeOf(limiter.guard({ address: 'ip:b' }, success))).toBe('ok');
  });

  it('counts an IPv6 client by its /64, an IPv4 one by its address, and a program scope apart', async () => {
    for (let i = 0; i < 3; i++)
      expect(await codeOf(limiter.guard({ address: `2001:db8:0:7::${i + 1}` }, badCredentials))).toBe(ErrorCode.BAD_CREDENTIALS);
    expect(await codeOf(limiter.guard({ address: '2001:db8:0:7:ffff::9' }, success))).toBe(ErrorCode.RATE_LIMITED);
    expect(await codeOf(limiter.guard({ address: '2001:db8:0:8::1' }, success))).toBe('ok');
    expect(await codeOf(limiter.guard({ address: '2001:db8:0:7::1', within: 'program-b' }, success))).toBe('ok');
    for (let i = 0; i < 3; i++) await codeOf(limiter.guard({ address: '198.51.100.1' }, badCredentials));
    expect(await codeOf(limiter.guard({ address: '::ffff:198.51.100.1' }, success))).toBe(ErrorCode.RATE_LIMITED);
    expect(await codeOf(limiter.guard({ address: '198.51.100.2' }, success))).toBe('ok');
  });

  it('never mistakes an account for an address of the same spelling', async () => {
    for (let i = 0; i < 3; i++) await codeOf(limiter.guard({ account: '198.51.100.3', address: 'ip:a' }, badCredentials));
    expect(await codeOf(limiter.guard({ address: '198.51.100.3' }, success))).toBe('ok');
  });

  it('starts counting afresh in the next window', async () => {
    for (let i = 0; i < 3; i++) await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, badCredentials));
    expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, success))).toBe(ErrorCode.RATE_LIMITED);
    jest.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect(await codeOf(limiter.guard({ account: 'user:a', address: 'ip:a' }, success))).toBe('ok');
  });
});
