import { createHash } from 'node:crypto';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { md5Sign, md5SigningInput, verifyMd5Signature } from './md5-signature';
import vectors from '../../../sdk/vectors/signing-vectors.json';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const codeOf = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as ServiceError).code;
  }
};

describe('md5Sign', () => {
  it('sorts the fields by name, skips empty ones and sign, and appends &key=', () => {
    const fields = { kami: 'K1', app: '12345678', t: '1700000000', imei: '', sign: 'whatever' };
    expect(md5SigningInput(fields, 's3cret')).toBe('app=12345678&kami=K1&t=1700000000&key=s3cret');
    expect(md5Sign(fields, 's3cret')).toBe(md5('app=12345678&kami=K1&t=1700000000&key=s3cret'));
  });

  it('signs values as they are, without URL encoding', () => {
    expect(md5SigningInput({ a: 'x y&z' }, 'k')).toBe('a=x y&z&key=k');
  });
});

describe('verifyMd5Signature', () => {
  const now = 1_700_000_000;
  const signed = (fields: Record<string, string>, secret = 'k') => ({ ...fields, sign: md5Sign(fields, secret) });

  it('accepts a valid signature inside the window, in upper or lower case', () => {
    const fields = signed({ app: '12345678', t: String(now - 300) });
    expect(codeOf(() => verifyMd5Signature(fields, 'k', now))).toBeNull();
    expect(codeOf(() => verifyMd5Signature({ ...fields, sign: fields.sign.toUpperCase() }, 'k', now))).toBeNull();
  });

  it('refuses a missing or wrong sign, a tampered field and another key', () => {
    const fields = signed({ app: '12345678', t: String(now) });
    expect(codeOf(() => verifyMd5Signature({ ...fields, sign: '' }, 'k', now))).toBe(ErrorCode.SIGNATURE_INVALID);
    expect(codeOf(() => verifyMd5Signature({ ...fields, app: '12345679' }, 'k', now))).toBe(ErrorCode.SIGNATURE_INVALID);
    expect(codeOf(() => verifyMd5Signature(fields, 'other', now))).toBe(ErrorCode.SIGNATURE_INVALID);
  });

  it('refuses a stale, future or missing t', () => {
    expect(codeOf(() => verifyMd5Signature(signed({ t: String(now - 301) }), 'k', now))).toBe(ErrorCode.TIMESTAMP_OUT_OF_WINDOW);
    expect(codeOf(() => verifyMd5Signature(signed({ t: String(now + 301) }), 'k', now))).toBe(ErrorCode.TIMESTAMP_OUT_OF_WINDOW);
    expect(codeOf(() => verifyMd5Signature(signed({ app: '1' }), 'k', now))).toBe(ErrorCode.TIMESTAMP_OUT_OF_WINDOW);
  });
});

describe('the vectors the official client is tested against (sdk/vectors)', () => {
  it.each(vectors.md5.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const fields = v.fields as unknown as Record<string, string>;
    expect(md5SigningInput(fields, v.secret)).toBe(v.input);
    expect(md5Sign(fields, v.secret)).toBe(v.sign);
  });
});
