import {
  HMAC_NONCE_PATTERN,
  SIGNATURE_HEADERS,
  SIGNATURE_WINDOW_SECONDS,
  sign,
  signatureMatches,
  signingInput,
  SignedParts,
} from './hmac-signature';
import vectors from '../../sdk/vectors/signing-vectors.json';

/**
 * A fixed vector (decisions §3), computed once outside this code base:
 *   printf 'POST\n/api/legacy/v3/cards/login\n1700000000\nnonce-0001\napp=12345678&kami=K&imei=D' \
 *     | openssl dgst -sha256 -hmac 'test-secret' -hex
 */
const SECRET = 'test-secret';
const VECTOR: SignedParts = {
  method: 'POST',
  path: '/api/legacy/v3/cards/login',
  timestamp: '1700000000',
  nonce: 'nonce-0001',
  rawBody: 'app=12345678&kami=K&imei=D',
};
const EXPECTED = '3f9a1e29a00a33b02ad63bf7489596dd2b8b49fa826169b27ef7b1266de47ff4';

/** The same hex string with one character replaced by another hex digit. */
function flipOne(hex: string, index: number): string {
  const replacement = hex[index] === '0' ? '1' : '0';
  return hex.slice(0, index) + replacement + hex.slice(index + 1);
}

describe('HMAC signature of V3 and SDK requests', () => {
  it('matches the fixed vector: lowercase hex HMAC-SHA256 of METHOD\\nPATH\\nts\\nnonce\\nRAW_BODY', () => {
    expect(sign(SECRET, VECTOR)).toBe(EXPECTED);
  });

  it('builds the signing input exactly as METHOD\\nPATH\\ntimestamp\\nnonce\\nRAW_BODY', () => {
    expect(signingInput(VECTOR).toString('utf8')).toBe(
      'POST\n/api/legacy/v3/cards/login\n1700000000\nnonce-0001\napp=12345678&kami=K&imei=D',
    );
  });

  it('upper-cases the method before signing', () => {
    expect(sign(SECRET, { ...VECTOR, method: 'post' })).toBe(EXPECTED);
  });

  it('accepts the expected signature', () => {
    expect(signatureMatches(SECRET, VECTOR, EXPECTED)).toBe(true);
  });

  it('compares hex case-insensitively (an upper-case signature matches)', () => {
    expect(signatureMatches(SECRET, VECTOR, EXPECTED.toUpperCase())).toBe(true);
    expect(signatureMatches(SECRET, VECTOR, EXPECTED.slice(0, 32).toUpperCase() + EXPECTED.slice(32))).toBe(true);
  });

  it('rejects a signature with one character changed, at the start, middle or end', () => {
    for (const index of [0, 31, 63]) expect(signatureMatches(SECRET, VECTOR, flipOne(EXPECTED, index))).toBe(false);
  });

  it('rejects a truncated, an extended, an empty and a non-hex signature', () => {
    expect(signatureMatches(SECRET, VECTOR, EXPECTED.slice(0, 63))).toBe(false);
    expect(signatureMatches(SECRET, VECTOR, EXPECTED + '0')).toBe(false);
    expect(signatureMatches(SECRET, VECTOR, '')).toBe(false);
    expect(signatureMatches(SECRET, VECTOR, 'z'.repeat(64))).toBe(false);
    expect(signatureMatches(SECRET, VECTOR, 'é'.repeat(32))).toBe(false);
  });

  it('rejects the signature under another secret', () => {
    expect(signatureMatches('other-secret', VECTOR, EXPECTED)).toBe(false);
  });

  it.each([
    ['method', { method: 'PUT' }],
    ['path', { path: '/api/v1/cards/login' }],
    ['timestamp', { timestamp: '1700000001' }],
    ['nonce', { nonce: 'nonce-0002' }],
    ['body', { rawBody: 'app=12345678&kami=K&imei=E' }],
  ])('rejects the signature when the %s changes', (_label, change) => {
    expect(signatureMatches(SECRET, { ...VECTOR, ...change }, EXPECTED)).toBe(false);
  });

  it('handles a Buffer body and a string body identically', () => {
    const asBuffer = { ...VECTOR, rawBody: Buffer.from(VECTOR.rawBody as string, 'utf8') };
    expect(signingInput(asBuffer).equals(signingInput(VECTOR))).toBe(true);
    expect(sign(SECRET, asBuffer)).toBe(EXPECTED);
    expect(signatureMatches(SECRET, asBuffer, EXPECTED)).toBe(true);
  });

  it('handles a non-ASCII body identically as Buffer (UTF-8 bytes) and as string', () => {
    const text = '{"app":"12345678","card_key":"卡密-ü","machine_id":"設備"}';
    const asString = { ...VECTOR, path: '/api/v1/cards/login', rawBody: text };
    const asBuffer = { ...asString, rawBody: Buffer.from(text, 'utf8') };
    expect(signingInput(asBuffer).equals(signingInput(asString))).toBe(true);
    expect(sign(SECRET, asBuffer)).toBe(sign(SECRET, asString));
  });

  it('signs an empty body as the head alone', () => {
    expect(signingInput({ ...VECTOR, rawBody: '' }).toString('utf8')).toBe(
      'POST\n/api/legacy/v3/cards/login\n1700000000\nnonce-0001\n',
    );
    expect(sign(SECRET, { ...VECTOR, rawBody: Buffer.alloc(0) })).toBe(sign(SECRET, { ...VECTOR, rawBody: '' }));
  });

  it('uses the X-Svc-* header names, a 300 s window and 8-96 nonce characters of [A-Za-z0-9_.:-]', () => {
    expect(SIGNATURE_HEADERS).toEqual({ timestamp: 'x-svc-timestamp', nonce: 'x-svc-nonce', signature: 'x-svc-signature' });
    expect(SIGNATURE_WINDOW_SECONDS).toBe(300);
    expect(HMAC_NONCE_PATTERN.test('a'.repeat(7))).toBe(false);
    expect(HMAC_NONCE_PATTERN.test('a'.repeat(8))).toBe(true);
    expect(HMAC_NONCE_PATTERN.test('a'.repeat(96))).toBe(true);
    expect(HMAC_NONCE_PATTERN.test('a'.repeat(97))).toBe(false);
    expect(HMAC_NONCE_PATTERN.test('Az09_.:-')).toBe(true);
    expect(HMAC_NONCE_PATTERN.test('nonce 01')).toBe(false);
    expect(HMAC_NONCE_PATTERN.test('nonce/01')).toBe(false);
  });
});

describe('the vectors the official client is tested against (sdk/vectors)', () => {
  it.each(vectors.hmac.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const parts: SignedParts = { method: v.method, path: v.path, timestamp: v.timestamp, nonce: v.nonce, rawBody: v.body };
    expect(signingInput(parts).toString('utf8')).toBe(v.input);
    expect(sign(v.secret, parts)).toBe(v.signature);
    expect(signatureMatches(v.secret, parts, v.signature)).toBe(true);
  });
});
