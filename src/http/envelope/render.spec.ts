import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { Family } from './family';
import { renderFailure, renderSuccess } from './render';

type Body = Record<string, unknown>;

const REQUEST_ID = 'req-12345678';
const ALL_CODES = Object.values(ErrorCode).filter((v): v is ErrorCode => typeof v === 'number');

/** The success rules a client of each family applies (decisions §2). */
const SUCCESS_RULE: Record<Exclude<Family, 'admin'>, (body: Body) => boolean> = {
  connect: (b) => b.status === true,
  standard: (b) => b.code === 0 || b.code === 1 || b.success === true,
  legacy: (b) => b.code === 1,
};

const fail = (family: Family, error: ServiceError) => renderFailure(family, error, REQUEST_ID) as Body;
const succeed = (family: Family, reply: unknown) => renderSuccess(family, reply, REQUEST_ID) as Body;

describe('renderFailure', () => {
  describe.each(ALL_CODES.map((code) => [ErrorCode[code], code] as const))('%s', (_name, code) => {
    const plain = new ServiceError(code);
    const fault = new ServiceError(code, 'custom message', { errorId: 'err-1', details: ['field x'] });

    it.each(['connect', 'standard', 'legacy'] as const)('never satisfies the %s success rule', (family) => {
      expect(SUCCESS_RULE[family](fail(family, plain))).toBe(false);
      expect(SUCCESS_RULE[family](fail(family, fault))).toBe(false);
    });

    it('connect: exactly {status:false, code:-N, reason, request_id}', () => {
      expect(fail('connect', plain)).toStrictEqual({ status: false, code: -code, reason: plain.message, request_id: REQUEST_ID });
      expect(fail('connect', fault)).toStrictEqual({
        status: false,
        code: -code,
        reason: 'custom message',
        request_id: REQUEST_ID,
        error_id: 'err-1',
      });
    });

    it('standard: exactly {code:N, success:false, msg, request_id}', () => {
      expect(fail('standard', plain)).toStrictEqual({ code, success: false, msg: plain.message, request_id: REQUEST_ID });
      expect(fail('standard', fault)).toStrictEqual({
        code,
        success: false,
        msg: 'custom message',
        request_id: REQUEST_ID,
        error_id: 'err-1',
        details: ['field x'],
      });
    });

    it('legacy: exactly {code:N, msg, request_id}', () => {
      expect(fail('legacy', plain)).toStrictEqual({ code, msg: plain.message, request_id: REQUEST_ID });
      expect(fail('legacy', fault)).toStrictEqual({
        code,
        msg: 'custom message',
        request_id: REQUEST_ID,
        error_id: 'err-1',
        details: ['field x'],
      });
    });

    it('admin: {error:{code, message, details?}, request_id}', () => {
      expect(fail('admin', plain)).toStrictEqual({ error: { code, message: plain.message }, request_id: REQUEST_ID });
      expect(fail('admin', fault)).toStrictEqual({
        error: { code, message: 'custom message', details: ['field x'] },
        request_id: REQUEST_ID,
        error_id: 'err-1',
      });
    });
  });

  it('uses the catalog message when none is given', () => {
    expect(fail('connect', new ServiceError(ErrorCode.CARD_EXPIRED)).reason).toBe('The card key has expired');
  });

  it('omits error_id when it is an empty string', () => {
    const body = fail('standard', new ServiceError(ErrorCode.SYSTEM_ERROR, undefined, { errorId: '' }));
    expect(body).not.toHaveProperty('error_id');
  });
});

describe('renderSuccess', () => {
  it('connect: status true, code 1, reason and data', () => {
    expect(succeed('connect', { message: 'welcome', data: { token: 't' } })).toStrictEqual({
      status: true,
      code: 1,
      reason: 'welcome',
      data: { token: 't' },
      request_id: REQUEST_ID,
    });
  });

  it('standard: code 0, success true, extras at top level', () => {
    expect(succeed('standard', { data: { id: 7 }, extras: { token: 'abc', statecode: 'x' } })).toStrictEqual({
      token: 'abc',
      statecode: 'x',
      code: 0,
      success: true,
      msg: 'ok',
      data: { id: 7 },
      request_id: REQUEST_ID,
    });
  });

  it('standard: extras cannot override the success markers, data or request_id', () => {
    const body = succeed('standard', {
      data: { real: true },
      extras: { code: 5, success: false, msg: 'nope', data: 'fake', request_id: 'forged' },
    });
    expect(body).toMatchObject({ code: 0, success: true, msg: 'ok', data: { real: true }, request_id: REQUEST_ID });
  });

  it('standard: honours a successCode of 1 (unbind)', () => {
    expect(succeed('standard', { successCode: 1 })).toMatchObject({ code: 1, success: true });
  });

  it('legacy: code 1, msg and data', () => {
    expect(succeed('legacy', { message: 'done', data: [1, 2] })).toStrictEqual({
      code: 1,
      msg: 'done',
      data: [1, 2],
      request_id: REQUEST_ID,
    });
  });

  it('connect and legacy ignore extras and successCode', () => {
    const reply = { extras: { status: false, code: 20001 }, successCode: 20001 };
    expect(succeed('connect', reply)).toMatchObject({ status: true, code: 1 });
    expect(succeed('legacy', reply)).toMatchObject({ code: 1 });
  });

  it.each(['connect', 'standard', 'legacy'] as const)(
    '%s: an empty reply still satisfies the success rule with data {}',
    (family) => {
      for (const reply of [undefined, null, {}]) {
        const body = succeed(family, reply);
        expect(SUCCESS_RULE[family](body)).toBe(true);
        expect(body.data).toStrictEqual({});
        expect(body.request_id).toBe(REQUEST_ID);
      }
    },
  );

  it('admin: returns the resource untouched', () => {
    const resource = { id: 'x', code: 20001 };
    expect(renderSuccess('admin', resource, REQUEST_ID)).toBe(resource);
  });
});
